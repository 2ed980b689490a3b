//! Diagnostics people read: a located message is shown compiler-style, with the scene line it
//! points at and a caret under its column (load errors and findings on script commands
//! alike), falls back to its plain one-line form where there is no line to show (`--json`, a
//! file that cannot be read, a problem with no position), and `run --validate` says how many
//! findings it did not print.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fastframe::Runtime;
use fastframe::cli::Sources;

fn fastframe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scene file of `text` under the temporary directory, named after the test.
fn scene_file(test: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "fastframe-snippets-{}-{test}.ron",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("temporary scene written");
    path
}

/// Checks every compiler-style block in `out` (an arrow line that is `file:line:col` alone) against the files it points into: after
/// ` --> file:line:col` come an empty gutter, `line | ` and that line of the file, and a caret
/// under the column's character. Returns each block's (file, line, column, caret label).
fn rendered_blocks(out: &str) -> Vec<(String, usize, usize, String)> {
    let lines: Vec<&str> = out.lines().collect();
    let mut blocks = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = l.trim_start().strip_prefix("--> ") else {
            continue;
        };
        // The plain form goes on after the position (`--> file:1:2: frame 0, ...`).
        let mut parts = at.rsplitn(3, ':');
        let (Some(column), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(line), Ok(column)) = (line.parse::<usize>(), column.parse::<usize>()) else {
            continue;
        };
        let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let source_line = source.lines().nth(line - 1).unwrap_or_default();
        assert!(
            !source_line.contains('\t') && source_line.chars().count() <= 100,
            "the check below assumes a plain line"
        );
        let gutter = " ".repeat(line.to_string().len());
        assert_eq!(
            lines.get(i + 1),
            Some(&format!("{gutter} |").as_str()),
            "{out}"
        );
        let shown = format!("{line} | {source_line}");
        assert_eq!(lines.get(i + 2), Some(&shown.trim_end()), "{out}");
        let caret_line = lines.get(i + 3).copied().unwrap_or_default();
        let prefix = format!("{gutter} | ");
        let caret = caret_line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("no caret line: {caret_line}\n{out}"));
        let pad = caret.len() - caret.trim_start().len();
        assert_eq!(
            pad,
            column - 1,
            "caret under column {column}: {caret_line}\n{out}"
        );
        assert!(caret.trim_start().starts_with('^'), "{out}");
        let label = caret.trim_start()[1..].trim().to_string();
        blocks.push((file.to_string(), line, column, label));
    }
    blocks
}

#[test]
fn a_load_error_shows_its_line_with_a_caret_under_the_column() {
    let deferred =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/deferred.ron"))
            .expect("deferred.ron");
    let wrong = r#"(target: "light", access: CopyDest)"#;
    let typo = deferred.replacen(r#"(target: "lights", access: CopyDest)"#, wrong, 1);
    assert_ne!(typo, deferred);
    let path = scene_file("load", &typo);
    let file = path.display().to_string();
    for command in ["run", "check"] {
        let out = fastframe(&[command, &file]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.starts_with(
                "error[unknown-name]: entity \"upload_lights\": unknown name \"light\" \
                 (did you mean \"lights\"?)\n"
            ),
            "{err}"
        );
        let blocks = rendered_blocks(&err);
        // The caret is under the quoted name, in the line that holds it.
        let line = 1 + typo[..typo.find(wrong).unwrap_or_default()]
            .matches('\n')
            .count();
        let column = typo
            .lines()
            .nth(line - 1)
            .unwrap_or_default()
            .find("\"light\"");
        assert_eq!(
            blocks,
            [(
                file.clone(),
                line,
                column.unwrap_or_default() + 1,
                String::new()
            )],
            "{err}"
        );
    }
    // `--json` carries the plain form, on one line, unchanged.
    let out = fastframe(&["check", &file, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let fatal = v["fatal"].as_str().unwrap_or_default();
    assert!(
        fatal.starts_with(&format!("{file}:")) && fatal.contains("unknown name \"light\""),
        "{v}"
    );
    assert!(!text(&out.stdout).contains("-->"));
}

#[test]
fn a_finding_on_a_script_command_shows_the_command() {
    let scene = "scenes/mistakes/fs5_no_wait_on_present.ron";
    let out = fastframe(&["check", scene]);
    let stdout = text(&out.stdout);
    let blocks = rendered_blocks(&stdout);
    assert_eq!(blocks.len(), 2, "{stdout}");
    // One per back buffer, each found in four of the eight frames.
    for (n, (file, _, _, label)) in blocks.iter().enumerate() {
        assert_eq!(file, scene);
        let frames = format!("frame {n} and 3 more (4 frames), queue graphics");
        assert!(label.starts_with(&frames), "{label}");
        assert!(
            label.ends_with(&format!("resource swapchain[{n}]")),
            "{label}"
        );
    }
    assert!(stdout.contains(" | ") && stdout.contains("ClearRenderTarget(\"rtv\")"));
    // The runtime's own findings have no line to show: their plain form is kept.
    let out = fastframe(&["check", "scenes/deferred.ron", "--fault", "drop-fence-wait"]);
    let stdout = text(&out.stdout);
    assert!(rendered_blocks(&stdout).is_empty(), "{stdout}");
    assert!(stdout.contains("  --> frame 0"), "{stdout}");
}

#[test]
fn without_a_readable_file_or_a_position_the_plain_form_is_printed() {
    // A scene loaded from text under a name no file has.
    let bad = "Scene(\n  entities: [\n    (name: \"b\", buffer: (size: 0)),\n  ],\n)\n";
    let err = Runtime::from_str(bad, "no/such/dir/scene.ron")
        .err()
        .expect("a zero-sized buffer does not load");
    let shown = Sources::default().runtime_error(&err);
    assert_eq!(shown, format!("error: {err}\n"));
    assert!(
        shown.starts_with("error: no/such/dir/scene.ron:3:"),
        "{shown}"
    );

    // The same text in a file: rendered.
    let path = scene_file("plain", bad);
    let err = Runtime::from_scene(&path)
        .err()
        .expect("a zero-sized buffer does not load");
    let shown = Sources::default().runtime_error(&err);
    assert!(shown.starts_with("error[out-of-range]: "), "{shown}");
    assert!(
        shown.contains("3 |     (name: \"b\", buffer: (size: 0)),\n"),
        "{shown}"
    );

    // A `--fault` aimed at no pass is about the command line, not a line of the file.
    let out = fastframe(&[
        "run",
        "scenes/deferred.ron",
        "--fault",
        "drop-barrier=gbufer",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: scenes/deferred.ron: --fault:") && !err.contains("-->"),
        "{err}"
    );
    assert!(err.contains("(did you mean \"gbuffer\"?)"), "{err}");
}

/// Findings counted in `run --validate`'s standard error: each printed one as often as its
/// label says it was found, and the count on the "not shown" line.
fn counted(stderr: &str) -> (u64, u64) {
    let mut shown = 0;
    for l in stderr.lines().filter(|l| l.contains("frame ")) {
        let frames = l
            .split_once(" more (")
            .and_then(|(_, rest)| rest.split_once(" frames)"))
            .and_then(|(n, _)| n.parse().ok());
        if l.contains("--> frame ") || l.contains("^ frame ") {
            shown += frames.unwrap_or(1);
        }
    }
    let not_shown = (stderr.lines())
        .find_map(|l| l.split_once(" more finding(s) not shown ("))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(0);
    (shown, not_shown)
}

fn total(json: &[u8]) -> u64 {
    let v: serde_json::Value = serde_json::from_slice(json).unwrap_or_default();
    let errors = v["validation"]["errors"].as_u64().unwrap_or_default();
    errors + v["validation"]["warnings"].as_u64().unwrap_or_default()
}

#[test]
fn run_validate_says_how_many_findings_it_did_not_print() {
    // More than twenty folded findings: the first twenty are printed.
    let args = [
        "run",
        "scenes/eb9b_mip_chain.ron",
        "--validate",
        "--fault",
        "drop-barrier",
        "--frames",
        "8",
        "--json",
    ];
    let out = fastframe(&args);
    let stderr = text(&out.stderr);
    let printed = stderr.lines().filter(|l| l.starts_with("error[")).count();
    assert_eq!(printed, 20, "{stderr}");
    let (shown, not_shown) = counted(&stderr);
    assert!(not_shown > 0, "{stderr}");
    assert_eq!(shown + not_shown, total(&out.stdout), "{stderr}");
    assert!(stderr.contains("finding(s) after the first 20"), "{stderr}");

    // More findings than the validator keeps: the rest are counted, not printed.
    let frames = fastframe::validate::DIAGNOSTICS_KEPT as u64 + 10;
    let frames = frames.to_string();
    let scene = "scenes/mistakes/fs5_no_wait_on_present.ron";
    let out = fastframe(&["run", scene, "--validate", "--frames", &frames, "--json"]);
    let stderr = text(&out.stderr);
    assert_eq!(total(&out.stdout), 10_010);
    assert_eq!(counted(&stderr), (10_000, 10), "{stderr}");
    assert!(
        stderr.contains("(10 past the 10000 the validator keeps;"),
        "{stderr}"
    );

    // Nothing left out, nothing said.
    let out = fastframe(&["run", scene, "--validate", "--frames", "4"]);
    assert!(!text(&out.stderr).contains("not shown"));
}
