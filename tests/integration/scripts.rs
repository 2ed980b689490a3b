//! Command scripts end to end: the seed's render loops in `scenes/` validate clean, every
//! script in `scenes/mistakes/` (errors) and `scenes/warnings/` reports the rule its first
//! line declares (`// expect: RULE CODE`) and has a near-identical correct twin of the same
//! name in `tests/data/scripts/` that validates clean; and what scripts do at run time (the
//! graph stands down, made views do not leak, releases wait for fences). Load errors are in
//! `script_errors.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

use fastframe::Runtime;
use fastframe::validate::Code;

/// Frames `fastframe check` runs by default: a mistake must show within them.
const CHECK_FRAMES: u64 = 8;
/// Frames a correct script must stay clean for.
const CLEAN_FRAMES: u64 = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `.ron` files directly in `dir`, sorted.
fn ron_files(dir: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
        panic!("{dir} is missing");
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths
}

/// Run `path` with validation for `frames`; the diagnostics as `CODE RULE` strings and the
/// error the run ended with, if any.
fn check(path: &Path, frames: u64) -> (Vec<String>, Option<String>) {
    let mut rt = Runtime::from_scene(path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let result = rt.run(frames);
    let found = (rt.diagnostics().iter())
        .map(|d| format!("{} {}", d.code, d.rule))
        .collect();
    (found, result.err().map(|e| e.to_string()))
}

fn assert_clean(path: &Path, frames: u64) {
    let mut rt = Runtime::from_scene(path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let result = rt.run(frames);
    let shown: Vec<String> = rt
        .diagnostics()
        .iter()
        .take(5)
        .map(|d| d.to_string())
        .collect();
    assert!(
        shown.is_empty(),
        "{}: not clean:\n{}",
        path.display(),
        shown.join("\n")
    );
    if let Err(e) = result {
        panic!("{}: {e}", path.display());
    }
}

/// The rule and, optionally, the code a mistake declares on its first line.
fn expectation(path: &Path) -> (String, Option<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let first = text.lines().next().unwrap_or_default();
    let Some(rest) = first.strip_prefix("// expect: ") else {
        panic!(
            "{}: the first line must be `// expect: RULE [CODE]`",
            path.display()
        );
    };
    let mut words = rest.split_whitespace();
    let rule = words.next().unwrap_or_default().to_string();
    (rule, words.next().map(str::to_string))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn every_scene_in_scenes_validates_clean() {
    let scenes = ron_files("scenes");
    for name in [
        "script_rl1_basic.ron",
        "script_rl5_saved_views.ron",
        "script_rl6_fenced_ring.ron",
        "script_rl7_place_view.ron",
    ] {
        assert!(
            scenes.iter().any(|p| file_name(p) == name),
            "scenes/{name} is missing"
        );
    }
    for path in scenes {
        assert_clean(&path, CLEAN_FRAMES);
    }
}

/// The scripts of documented mistakes: the errors, then the warnings.
fn mistakes() -> Vec<PathBuf> {
    let mut all = ron_files("scenes/mistakes");
    all.extend(ron_files("scenes/warnings"));
    all
}

#[test]
fn every_mistake_fails_with_its_rule() {
    let mistakes = mistakes();
    assert!(mistakes.len() >= 3, "the seed's three mistakes at least");
    for path in &mistakes {
        let (rule, code) = expectation(path);
        // The name starts with the rule: `rl2_...` for RL-2.
        let prefix = rule.to_lowercase().replace('-', "");
        assert!(
            file_name(path).starts_with(&format!("{prefix}_")),
            "{}: the name should start with {prefix}_",
            path.display()
        );
        let (found, _) = check(path, CHECK_FRAMES);
        let wanted = match &code {
            Some(code) => format!("{code} {rule}"),
            None => rule.clone(),
        };
        assert!(
            found
                .iter()
                .any(|f| f.ends_with(&rule) && f.contains(&wanted)),
            "{}: expected {wanted}, found {found:?}",
            path.display()
        );
    }
}

/// The codes of the README's validation table (`| V0501..V0503 | ...` is three codes).
fn documented_codes() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README reads");
    let mut codes = Vec::new();
    for line in readme.lines() {
        let Some(cell) = line.strip_prefix("| V").and_then(|l| l.split(' ').next()) else {
            continue;
        };
        let number = |s: &str| s.trim_start_matches('V').parse::<u32>().ok();
        match cell.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (number(a), number(b));
                codes.extend((a.unwrap_or(1)..=b.unwrap_or(0)).map(|n| format!("V{n:04}")));
            }
            None => codes.extend(number(cell).map(|n| format!("V{n:04}"))),
        }
    }
    codes
}

#[test]
fn every_documented_diagnostic_has_a_mistake_that_triggers_it() {
    let codes = documented_codes();
    assert!(codes.len() >= 35, "{codes:?}");
    let declared: Vec<String> = mistakes().iter().filter_map(|p| expectation(p).1).collect();
    let missing: Vec<&String> = codes.iter().filter(|c| !declared.contains(c)).collect();
    assert!(missing.is_empty(), "no mistake script declares {missing:?}");
}

#[test]
fn every_mistake_has_a_clean_twin() {
    for path in mistakes() {
        let twin = root().join("tests/data/scripts").join(file_name(&path));
        assert!(twin.exists(), "{} has no twin", path.display());
        assert_clean(&twin, CLEAN_FRAMES);
    }
}

#[test]
fn the_seeds_three_mistakes_fail_as_documented() {
    let dir = root().join("scenes/mistakes");
    let (found, err) = check(&dir.join("rl2_wait_after_present.ron"), CHECK_FRAMES);
    assert!(found.contains(&"V0102 RL-2".to_string()), "{found:?}");
    // The device agrees: the GPU hangs.
    let err = err.expect("a hang ends the run");
    assert!(err.contains("RL-2") && err.contains("hang"), "{err}");
    let (found, err) = check(
        &dir.join("rl3_release_bound_vertex_buffer.ron"),
        CHECK_FRAMES,
    );
    assert!(found.contains(&"V0701 RL-3".to_string()), "{found:?}");
    assert!(err.is_some_and(|e| e.contains("FS-6")));
    let (found, _) = check(
        &dir.join("fs8_missing_rebind_after_clear.ron"),
        CHECK_FRAMES,
    );
    assert!(found.contains(&"V0202 FS-8".to_string()), "{found:?}");
}

#[test]
fn each_playback_scope_mistake_is_one_finding_per_frame() {
    // CTX-3 and CTX-4 on Begin/EndCommandListExecution: one mistake, its code alone, once a
    // frame (no follow-on V0901 from a scope left open, nor V0906 from the End after it).
    let dir = root().join("scenes/mistakes");
    for (name, code) in [
        ("ctx3_two_lists_played_back_at_once.ron", "V0901 CTX-3"),
        ("ctx4_fast_and_legacy_lists_in_one_scope.ron", "V0902 CTX-4"),
        ("ctx3_end_without_begin.ron", "V0906 CTX-3"),
        ("ctx3_scope_open_at_present.ron", "V0907 CTX-3"),
    ] {
        let (found, err) = check(&dir.join(name), CHECK_FRAMES);
        assert_eq!(
            found,
            vec![code.to_string(); CHECK_FRAMES as usize],
            "{name}"
        );
        assert!(err.is_none(), "{name}: {err:?}");
    }
}

#[test]
fn a_frame_script_stands_the_graph_down() {
    // The pass would present too; with a frame script only the script runs.
    let text = r#"Scene(
        entities: [
            (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
            (name: "main", pass: (uses: [(target: "swapchain", access: RenderTarget, clear: true)])),
        ],
        script: (frames: [[(commands: [WaitOnPresent("swapchain"), Present("swapchain")])]]),
    )"#;
    let mut rt = Runtime::from_str(text, "graph.ron").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(10).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rt.graph().generation, 0, "the graph was compiled");
    let summary = rt.summary();
    assert_eq!(summary.stats.presents, 10);
    assert_eq!(summary.stats.waits_on_present, 10);
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
}

#[test]
fn views_made_by_a_script_do_not_leak() {
    let mut rt = Runtime::from_scene(root().join("scenes/script_rl6_fenced_ring.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    rt.run(6).unwrap_or_else(|e| panic!("{e}"));
    let live = rt.device().memory.live_objects();
    rt.run(30).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rt.device().memory.live_objects(), live);
}

#[test]
fn a_wait_before_any_insert_deadlocks() {
    let text = r#"Scene(
        entities: [],
        script: (frames: [[
            (queue: Graphics, commands: [WaitFence("later")]),
            (queue: Compute, commands: [InsertFence(name: "later")]),
        ]]),
    )"#;
    let mut rt = Runtime::from_str(text, "wait.ron").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let err = rt.run(4).expect_err("the wait can never be satisfied");
    assert!(err.to_string().contains("FN-3"), "{err}");
    assert_eq!(
        rt.diagnostics().first().map(|d| d.code),
        Some(Code::WaitOnUninsertedFence)
    );
}

#[test]
fn a_view_used_before_it_is_made_is_a_run_error() {
    let text = r#"Scene(
        entities: [(name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64)))],
        script: (frames: [[(commands: [
            ClearRenderTarget("v"),
            CreateView(name: "v", of: "swapchain", kind: Rtv),
        ])]]),
    )"#;
    let mut rt = Runtime::from_str(text, "early.ron").unwrap_or_else(|e| panic!("{e}"));
    let err = rt.run(1).expect_err("v does not exist yet");
    assert!(err.to_string().contains("before CreateView"), "{err}");
}

#[test]
fn timeline_releases_wait_for_the_fences_of_scripted_frames() {
    // Frame 0 copies from `splash`; the timeline releases it at frame 1; the runtime destroys
    // it once the end-of-frame fences covering frame 0 have passed (FS-6).
    let text = r#"Scene(
        entities: [
            (name: "splash", texture: (format: Rgba8Unorm, extent: (64, 64))),
            (name: "target", texture: (format: Rgba8Unorm, extent: (64, 64))),
        ],
        script: (frames: [
            [(queue: Copy, commands: [CopyResource(src: "splash", dst: "target", bytes: 16384)])],
            [],
        ], repeat_from: 1),
        timeline: [(frame: 1, event: Release("splash"))],
    )"#;
    let mut rt = Runtime::from_str(text, "release.ron").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(8).unwrap_or_else(|e| panic!("{e}"));
    let stats = rt.summary().stats;
    assert_eq!((stats.releases_requested, stats.releases_completed), (1, 1));
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
}

#[test]
fn check_on_the_command_line() {
    let run = |path: &str| {
        Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args(["check", path])
            .current_dir(root())
            .output()
            .expect("the binary runs")
    };
    let out = run("scenes/mistakes/rl2_wait_after_present.ron");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("error[V0102] RL-2"), "{text}");
    let out = run("scenes/script_rl7_place_view.ron");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_readme_script_example_is_clean() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let start = readme
        .find("// RL-7 as a script")
        .expect("README shows a script");
    let end = start + readme[start..].find("```").unwrap_or(readme.len() - start);
    let mut rt =
        Runtime::from_str(&readme[start..end], "README.md").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(CLEAN_FRAMES).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    assert_eq!(rt.summary().stats.presents, CLEAN_FRAMES);
}

#[test]
fn a_device_refusal_of_a_script_command_names_its_line() {
    // The buffer is released while the copy that writes it may still run (FS-6): the device
    // refuses the release, and the error says where the Release is in the scene file.
    let text = r#"Scene(
    settings: (api: D3d12Pc),
    entities: [
        (name: "a", buffer: (size: 1048576)),
        (name: "b", buffer: (size: 1048576)),
    ],
    script: (frames: [[(queue: Graphics, label: "copy", commands: [
        CopyResource(src: "a", dst: "b", bytes: 1048576),
        Kickoff,
        Release("b"),
    ])]]),
)"#;
    let mut rt = Runtime::from_str(text, "refused.ron").unwrap_or_else(|e| panic!("{e}"));
    let err = rt
        .run(1)
        .expect_err("the device refuses the release")
        .to_string();
    assert!(err.contains("FS-6"), "{err}");
    assert!(err.contains("refused.ron:10:9"), "{err}");
}
