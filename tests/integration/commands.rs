//! The commands ports need, end to end: each scene in `tests/data/commands/` checks clean,
//! and a twin with the one call that makes it correct removed or replaced fails with the rule
//! the call is there for. So a command the device or the validator ignored would fail here.

use std::path::Path;

use fastframe::Runtime;

const FRAMES: u64 = 8;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scene(name: &str) -> String {
    let path = root().join("tests/data/commands").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The distinct codes `check` finds in scene text `text` (written to a file of its own),
/// and the run's error.
fn codes_of(name: &str, text: &str) -> (Vec<String>, Option<String>) {
    let path =
        std::env::temp_dir().join(format!("fastframe-commands-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    rt.set_validation(true);
    let result = rt.run(FRAMES);
    let _ = std::fs::remove_file(&path);
    let mut found: Vec<String> = rt
        .diagnostics()
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    found.sort();
    found.dedup();
    (found, result.err().map(|e| e.to_string()))
}

fn clean(name: &str) {
    let (found, err) = codes_of(name, &scene(name));
    assert_eq!((found, err), (Vec::new(), None), "{name}");
}

/// `name` with `from` replaced by `to` finds `code`.
fn twin_finds(name: &str, from: &str, to: &str, code: &str) {
    let text = scene(name);
    assert!(text.contains(from), "{name} has no {from:?}");
    let (found, _) = codes_of(&format!("twin-{name}"), &text.replace(from, to));
    assert!(
        found.contains(&code.to_owned()),
        "{name} without {from:?}: {found:?}"
    );
}

#[test]
fn a_cpu_wait_on_a_fence_orders_what_the_cpu_submits_after() {
    clean("cpu_wait.ron");
    let wait = r#"WaitForFenceCpu(fence: "produced"),"#;
    twin_finds("cpu_wait.ron", wait, "", "V0511");
    // Polled at once, the fence is still pending: the poll orders nothing.
    twin_finds(
        "cpu_wait.ron",
        wait,
        r#"IsFencePending(fence: "produced"),"#,
        "V0511",
    );
}

#[test]
fn a_legacy_uav_barrier_claims_only_the_subresources_in_unordered_access() {
    clean("legacy_uav_barrier.ron");
    // What a translation claiming every subresource would say (EB-11).
    let every = r#"Barrier(textures: [(resource: "tex", sync_before: "ALL_SHADING", sync_after: "ALL_SHADING", access_before: "UNORDERED_ACCESS", access_after: "UNORDERED_ACCESS", layout_before: UnorderedAccess, layout_after: UnorderedAccess)]),"#;
    twin_finds(
        "legacy_uav_barrier.ron",
        r#"ResourceBarrier([Uav("tex")]),"#,
        every,
        "V0801",
    );
    // And without the UAV barrier the second dispatch's write is unordered (FS-3).
    twin_finds(
        "legacy_uav_barrier.ron",
        r#"ResourceBarrier([Uav("tex")]),"#,
        "",
        "V0503",
    );
}

#[test]
fn fences_with_values_wait_on_the_value_asked_for() {
    let cpu = r#"WaitForFenceCpu(fence: "produced"),"#;
    // A queue wait on the latest value orders the copy as the CPU wait did.
    let (found, err) = codes_of(
        "gpu-wait.ron",
        &scene("cpu_wait.ron").replace(cpu, r#"Wait(fence: "produced"),"#),
    );
    assert_eq!((found, err), (Vec::new(), None));
    // The value one Signal back is the previous frame's: this frame's copy races.
    let back = r#"Wait(fence: "produced", back: 1),"#;
    twin_finds("cpu_wait.ron", cpu, back, "V0511");
    // Absolute values: frame f signals f + 1, so value 1 is frame 0's only.
    let (found, _) = codes_of(
        "value-1.ron",
        &scene("cpu_wait.ron").replace(cpu, r#"Wait(fence: "produced", value: 1),"#),
    );
    assert_eq!(found, ["V0511"]);
}

#[test]
fn a_fence_signalled_to_a_value_not_above_its_last_is_an_error() {
    let text = scene("cpu_wait.ron").replace(
        r#"Signal(fence: "produced"),"#,
        r#"Signal(fence: "produced", value: 5),"#,
    );
    let (_, err) = codes_of("signal-again.ron", &text);
    let err = err.unwrap_or_default();
    assert!(err.contains("values increase"), "{err}");
}
