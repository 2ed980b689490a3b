//! `check` says the same thing every time: two runs of the binary on every bundled scene
//! (the clean ones, the real frames, every mistake, warning and port, and every correct
//! twin) print byte-identical output, in the same order, with the same exit code.
//!
//! Each run is its own process, so anything that depends on a per-process hash seed or on
//! which thread finished first shows here. `tests/data/determinism/slots.ron` makes that
//! likely: one draw finds a READ_AFTER_WRITE on each of six buffers bound in twelve slots,
//! and their order is the order of the draw's accesses.

use std::path::PathBuf;
use std::process::Command;

fn scenes() -> Vec<PathBuf> {
    let mut all = Vec::new();
    for dir in [
        "scenes",
        "scenes/real",
        "scenes/mistakes",
        "scenes/warnings",
        "scenes/ports",
        "tests/data/scripts",
        "tests/data/determinism",
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        found.sort();
        all.extend(found);
    }
    all
}

fn check(scene: &PathBuf, json: bool) -> (Option<i32>, Vec<u8>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fastframe"));
    cmd.arg("check").arg(scene);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.output().expect("the binary runs");
    let mut text = out.stdout;
    text.extend(out.stderr);
    (out.status.code(), text)
}

#[test]
fn check_prints_the_same_diagnostics_in_the_same_order_every_run() {
    let scenes = scenes();
    assert!(scenes.len() > 90, "{}", scenes.len());
    for scene in &scenes {
        let first = check(scene, false);
        let second = check(scene, false);
        assert!(
            first == second,
            "{}: two runs differ:\n{}\n---\n{}",
            scene.display(),
            String::from_utf8_lossy(&first.1),
            String::from_utf8_lossy(&second.1)
        );
    }
}

#[test]
fn the_order_of_a_draws_findings_is_its_slot_order() {
    let scene = PathBuf::from("tests/data/determinism/slots.ron");
    let (code, text) = check(&scene, true);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_slice(&text).expect("JSON");
    let first_draw: Vec<&str> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["frame"] == 0 && d["code"] == "V0501")
        .filter_map(|d| d["resource"].as_str())
        .collect();
    // Vertex slots 0-5 hold b0-b5, pixel slots 2-7 b0-b5 again: every buffer is read twice,
    // in stage order, then slot order (FS-3).
    let buffers = ["b0", "b1", "b2", "b3", "b4", "b5"];
    let expected: Vec<&str> = buffers.iter().chain(buffers.iter()).copied().collect();
    assert_eq!(first_draw, expected);
    for _ in 0..3 {
        assert_eq!(check(&scene, true), (code, text.clone()));
    }
}
