//! Legacy `ResourceBarrier` calls in pass scripts and in the lists frame scripts record (EB-7,
//! EB-10): the validation layer sees the call itself in the list, as it does at the top of a
//! frame script, and not only the driver's enhanced translation. A texture a legacy
//! transition left outside COMMON must go back to COMMON before an enhanced barrier names it
//! (the script's own or the planner's), and a texture an enhanced barrier left outside
//! LAYOUT_COMMON before a legacy one does; each finding names the script command by
//! `file:line:col`.

use std::path::Path;
use std::process::Command;

const MISTAKE: &str = "scenes/mistakes/eb7_pass_script_enhanced_barrier_on_legacy_state.ron";
const TWIN: &str = "tests/data/scripts/eb7_pass_script_enhanced_barrier_on_legacy_state.ron";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `fastframe check --json` on `path`: exit code and its diagnostics as (code, rule,
/// location, message).
fn check(path: &Path) -> (i32, Vec<(String, String, String, String)>) {
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .current_dir(root())
        .arg("check")
        .arg(path)
        .arg("--json")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let field = |d: &serde_json::Value, k: &str| d[k].as_str().unwrap_or_default().to_owned();
    let found = (v["diagnostics"].as_array().into_iter().flatten())
        .map(|d| {
            let (code, rule) = (field(d, "code"), field(d, "rule"));
            (code, rule, field(d, "location"), field(d, "message"))
        })
        .collect();
    (out.status.code().unwrap_or(-1), found)
}

/// Line and column of the first occurrence of `needle` in `text`, 1-based.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle}"));
    let line = 1 + text[..at].matches('\n').count();
    let column = 1 + text[..at].rsplit('\n').next().unwrap_or("").chars().count();
    (line, column)
}

#[test]
fn an_enhanced_barrier_on_a_legacy_state_in_a_pass_script_is_eb7_at_its_line() {
    let text = std::fs::read_to_string(root().join(MISTAKE)).unwrap_or_else(|e| panic!("{e}"));
    let (line, column) = position(&text, "Barrier(textures: [(resource: \"glow\"");
    let (exit, found) = check(Path::new(MISTAKE));
    assert_eq!(exit, 1, "{found:?}");
    assert!(!found.is_empty());
    for (code, rule, location, message) in &found {
        assert_eq!(
            (code.as_str(), rule.as_str()),
            ("V0801", "EB-7"),
            "{message}"
        );
        assert_eq!(location, &format!("{MISTAKE}:{line}:{column}"), "{message}");
        assert!(message.contains("LegacyStateNotCommon"), "{message}");
    }
    // Taken back to COMMON by the legacy barrier, it is clean.
    assert_eq!(check(Path::new(TWIN)), (0, Vec::new()));
}

#[test]
fn a_legacy_transition_of_a_texture_the_planner_moved_is_eb7_at_its_line() {
    // The porting mistake: the PC sample's ResourceBarrier into RENDER_TARGET kept in the
    // script of a pass whose use of "hdr" already has the planner's enhanced barrier into
    // LAYOUT_RENDER_TARGET (barrier-spec A8).
    let twin = std::fs::read_to_string(root().join(TWIN)).unwrap_or_else(|e| panic!("{e}"));
    let legacy =
        r#"ResourceBarrier([Transition(resource: "glow", before: "", after: "RENDER_TARGET")]),"#;
    let text = twin.replace(
        legacy,
        r#"ResourceBarrier([Transition(resource: "glow", before: "", after: "RENDER_TARGET"), Transition(resource: "hdr", before: "", after: "RENDER_TARGET")]),"#,
    );
    assert_ne!(text, twin);
    let path = std::env::temp_dir().join(format!("fastframe-pass-eb7-{}.ron", std::process::id()));
    std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
    let (exit, found) = check(&path);
    let _ = std::fs::remove_file(&path);
    let (line, column) = position(&text, "ResourceBarrier([Transition(resource: \"glow\"");
    assert_eq!(exit, 1, "{found:?}");
    assert!(!found.is_empty());
    for (code, rule, location, message) in &found {
        assert_eq!(
            (code.as_str(), rule.as_str()),
            ("V0801", "EB-7"),
            "{message}"
        );
        assert!(
            location.ends_with(&format!(".ron:{line}:{column}")),
            "{location}"
        );
        assert!(
            message.contains("LegacyBarrierOnEnhancedLayout"),
            "{message}"
        );
    }
}

#[test]
fn a_legacy_aliasing_hand_over_runs_in_a_pass_script() {
    // Two Barrier calls for one legacy call (EB-10, EB-5), between the planner's barriers.
    let path = root().join("tests/data/commands/legacy_aliasing_in_pass.ron");
    assert_eq!(check(&path), (0, Vec::new()));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let handover = r#"ResourceBarrier([Aliasing(before: "a", after: "b")]),"#;
    assert!(text.contains(handover));
    let bad = std::env::temp_dir().join(format!("fastframe-pass-alias-{}.ron", std::process::id()));
    std::fs::write(&bad, text.replace(handover, "")).unwrap_or_else(|e| panic!("{e}"));
    let (exit, found) = check(&bad);
    let _ = std::fs::remove_file(&bad);
    assert_eq!(exit, 1);
    assert!(found.iter().any(|(code, ..)| code == "V0811"), "{found:?}");
}

#[test]
fn a_legacy_call_recorded_into_a_list_sets_the_legacy_state_it_leaves() {
    // The list moves "shadow" into legacy RENDER_TARGET; after the list, an enhanced Barrier
    // takes it back while it is still there: EB-7 (LegacyStateNotCommon), at the enhanced
    // Barrier that met it.
    let path = root().join("tests/data/commands/legacy_interop_list.ron");
    assert_eq!(check(&path), (0, Vec::new()));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let legacy_out =
        r#"ResourceBarrier([Transition(resource: "shadow", before: "RENDER_TARGET", after: "")]),"#;
    let enhanced_out = r#"Barrier(textures: [(resource: "shadow", sync_before: "RENDER_TARGET", sync_after: "", access_before: "RENDER_TARGET", access_after: "NO_ACCESS", layout_before: RenderTarget, layout_after: Common)]),"#;
    assert!(text.contains(legacy_out));
    let bad = text.replace(legacy_out, enhanced_out);
    let (line, column) = position(&bad, enhanced_out);
    let file = std::env::temp_dir().join(format!("fastframe-list-eb7-{}.ron", std::process::id()));
    std::fs::write(&file, bad).unwrap_or_else(|e| panic!("{e}"));
    let (exit, found) = check(&file);
    let _ = std::fs::remove_file(&file);
    assert_eq!(exit, 1, "{found:?}");
    assert!(!found.is_empty());
    for (code, rule, location, message) in &found {
        assert_eq!(
            (code.as_str(), rule.as_str()),
            ("V0801", "EB-7"),
            "{message}"
        );
        assert!(message.contains("LegacyStateNotCommon"), "{message}");
        assert!(
            location.ends_with(&format!(".ron:{line}:{column}")),
            "{location}"
        );
    }
}
