//! The `async_min_us` setting (issue 19): with async compute on, compute passes whose
//! estimated GPU time is under the threshold stay on the graphics queue, so the fences and
//! hand-over barriers around them go; every frame still validates clean, and bad values are
//! refused by the scene and by the command line.

use fastframe::Runtime;
use fastframe::device::QueueId;
use fastframe::model::BarrierMode;
use fastframe::plan::{CompiledGraph, estimated_ns};
use std::process::Command;

const SCENE: &str = "scenes/real/rottr_foundation.ron";

/// Run `frames` frames of the Tomb Raider frame with `threshold`, validated; the compiled
/// graph, the fence waits and barriers submitted.
fn run(threshold: f64, barriers: BarrierMode) -> (CompiledGraph, u64, u64, Vec<String>) {
    let mut rt = Runtime::from_scene(SCENE).expect("scene loads");
    rt.set_validation(true);
    rt.settings_mut().async_min_us = threshold;
    rt.settings_mut().barriers = barriers;
    rt.run(6).expect("runs");
    let diags = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    let stats = rt.world.resource::<fastframe::report::RunStats>();
    let (waits, barriers) = (stats.fence_waits, stats.barriers);
    let graph = rt.world.resource::<CompiledGraph>().clone();
    (graph, waits, barriers, diags)
}

#[test]
fn compute_passes_under_the_threshold_run_on_graphics() {
    let profile = fastframe::device::Profile::console_2020();
    let (all_async, waits0, barriers0, diags) = run(0.0, BarrierMode::Enhanced);
    assert!(diags.is_empty(), "{diags:?}");
    let on_compute = |g: &CompiledGraph| {
        (g.passes.iter())
            .filter(|p| matches!(p.queue, QueueId::Compute { .. }))
            .count()
    };
    assert!(on_compute(&all_async) >= 3, "the frame has async passes");
    let (moved, waits30, barriers30, diags) = run(30.0, BarrierMode::Enhanced);
    assert!(diags.is_empty(), "{diags:?}");
    // Exactly the passes estimated under 30 us left the compute queue.
    let mut world = Runtime::from_scene(SCENE).expect("scene loads").world;
    let mut passes = world.query::<(&bevy_ecs::name::Name, &fastframe::model::Pass)>();
    for (name, pass) in passes.iter(&world) {
        let Some(before) = all_async.passes.iter().find(|p| p.name == name.as_str()) else {
            continue;
        };
        let after = moved.passes.iter().find(|p| p.name == name.as_str());
        let after = after.expect("the same passes survive").queue;
        let tiny = estimated_ns(pass, &profile) < 30_000;
        match before.queue {
            QueueId::Compute { .. } if tiny => assert_eq!(after, QueueId::Graphics, "{name}"),
            q => assert_eq!(after, q, "{name}"),
        }
    }
    assert!(on_compute(&moved) < on_compute(&all_async));
    assert!(waits30 < waits0, "waits {waits30} against {waits0}");
    assert!(
        barriers30 < barriers0,
        "barriers {barriers30} against {barriers0}"
    );
    // A threshold above every pass leaves nothing on compute, and no fence wait.
    let (none, waits, _, diags) = run(100_000.0, BarrierMode::Enhanced);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(on_compute(&none), 0);
    assert_eq!(waits, 0);
}

#[test]
fn every_strategy_validates_clean_with_the_threshold() {
    for barriers in [BarrierMode::Conservative, BarrierMode::Legacy] {
        let (_, _, _, diags) = run(30.0, barriers);
        assert!(diags.is_empty(), "{barriers:?}: {diags:?}");
    }
}

#[test]
fn bad_thresholds_are_refused() {
    let text = std::fs::read_to_string("scenes/deferred.ron").expect("bundled scene");
    let bad = text.replacen("settings: (", "settings: (async_min_us: -5.0, ", 1);
    assert_ne!(bad, text, "the scene has a settings block");
    let e = Runtime::from_str(&bad, "bad.ron").err().expect("refused");
    let e = e.to_string();
    assert!(e.contains("async_min_us") && e.contains("bad.ron:"), "{e}");
    for arg in ["-1", "NaN", "1e9", "soon"] {
        let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args([
                "run",
                "scenes/deferred.ron",
                "--frames",
                "1",
                "--async-min-us",
                arg,
            ])
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(2), "{arg}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("microseconds"), "{arg}: {err}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args([
            "run",
            SCENE,
            "--frames",
            "2",
            "--async-min-us",
            "30",
            "--json",
        ])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["settings"]["async_min_us"], 30.0);
}
