//! `check` on a script names each finding's command by `file:line:col`, as load errors are
//! named, and prints a finding that recurs frame after frame once, with its frame count (in
//! text and JSON); the runtime's own streams have no file position and keep theirs.

use std::path::Path;
use std::process::{Command, Output};

fn check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("check")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Line and column of the first occurrence of `needle` in `path`, 1-based.
fn position(path: &str, needle: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{e}"));
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let line = 1 + text[..at].matches('\n').count();
    let column = 1 + text[..at].rsplit('\n').next().unwrap_or("").chars().count();
    (line, column)
}

#[test]
fn a_script_finding_names_its_command_and_is_printed_once_per_repeat() {
    let scene = "scenes/mistakes/rl1_present_in_render_target_layout.ron";
    let (line, column) = position(scene, " Present(\"swapchain\")");
    let column = column + 1;
    let out = check(&[scene]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Compiler-style: the arrow to the command, its line, and a caret under it labelled with
    // the frames that found it.
    let at = format!("--> {scene}:{line}:{column}\n");
    assert!(text.contains(&at), "{text}");
    let caret = format!("{}^ frame 0 and 3 more (4 frames)", " ".repeat(column - 1));
    assert!(text.contains(&caret), "{text}");
    // One line per back buffer, each repeated in four of the eight frames; the count of
    // errors stays the count of findings (8 presents, and 6 barriers that then find the buffer
    // still in RENDER_TARGET).
    assert_eq!(text.matches("error[V0402]").count(), 2, "{text}");
    assert!(text.contains("14 error(s)"), "{text}");

    let out = check(&[scene, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let first = &v["diagnostics"][0];
    assert_eq!(first["location"], format!("{scene}:{line}:{column}"));
    assert_eq!(
        (first["frame"].as_u64(), first["frames"].as_u64()),
        (Some(0), Some(4))
    );
    assert_eq!(v["errors"].as_u64(), Some(14));
}

#[test]
fn a_release_finding_names_the_release() {
    let scene = "scenes/mistakes/rl3_release_bound_vertex_buffer.ron";
    let (line, column) = position(scene, "Release(");
    let text = String::from_utf8_lossy(&check(&[scene]).stdout).to_string();
    assert!(
        text.contains(&format!("--> {scene}:{line}:{column}\n")),
        "{text}"
    );
    assert!(text.contains("^ frame 0, queue"), "{text}");
}

#[test]
fn a_pass_script_finding_names_its_command() {
    // The script of a frame-graph pass runs between the planner's barriers: its commands are
    // located, the barriers around them are not.
    let scene = "scenes/mistakes/fs8_pass_script_clear_after_set.ron";
    let indent = " ".repeat(16);
    let (line, column) = position(scene, &format!("{indent}Draw(draws: 200"));
    let column = column + indent.len();
    let text = String::from_utf8_lossy(&check(&[scene]).stdout).to_string();
    assert!(
        text.contains(&format!("--> {scene}:{line}:{column}\n")),
        "{text}"
    );
    assert!(text.contains("Draw(draws: 200, vertices: 600000"), "{text}");
    let out = check(&[scene, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let first = &v["diagnostics"][0];
    assert_eq!(first["code"], "V0202", "{v}");
    assert_eq!(first["location"], format!("{scene}:{line}:{column}"));
}

#[test]
fn the_runtimes_own_findings_have_no_file_position() {
    let out = check(&[
        "scenes/deferred.ron",
        "--fault",
        "drop-fence-wait",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let all = v["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(!all.is_empty());
    assert!(all.iter().all(|d| d.get("location").is_none()));
    // Repeated every frame, each is printed once.
    assert!(all.iter().any(|d| d["frames"].as_u64() > Some(1)), "{v}");
}
