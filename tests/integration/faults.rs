//! Fault injection: each omitted step, on `scenes/deferred.ron`, is caught by the validation
//! layer with its rule (RL-4), and the same run without the fault is clean.

use fastframe::Runtime;
use std::collections::BTreeSet;

fn rules_with(fault: Option<&str>, frames: u64) -> (BTreeSet<&'static str>, Option<String>) {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("scene loads");
    rt.set_validation(true);
    rt.settings_mut().fault = fault.map(|f| f.parse().expect("a known fault"));
    let result = rt.run(frames);
    let rules = rt.diagnostics().iter().map(|d| d.rule).collect();
    (rules, result.err().map(|e| e.to_string()))
}

#[test]
fn without_a_fault_the_scene_is_clean() {
    let (rules, err) = rules_with(None, 12);
    assert!(rules.is_empty(), "{rules:?}");
    assert!(err.is_none());
}

#[test]
fn every_fault_is_caught_with_its_rule() {
    let cases: [(&str, &[&str]); 10] = [
        ("skip-wait-on-present", &["FS-5"]),
        ("skip-rotation", &["FS-9"]),
        ("drop-barrier=gbuffer", &["FS-2", "FS-3", "EB-1"]),
        ("drop-barrier=depth_prepass", &["FS-2", "FS-3", "EB-1"]),
        ("drop-fence-wait", &["FS-1"]),
        ("drop-fence-wait=lighting", &["FS-1"]),
        ("early-release", &["FS-6"]),
        ("skip-decompress", &["FS-4"]),
        ("skip-rebind", &["FS-8"]),
        ("skip-cache-flush", &["FS-2"]),
    ];
    for (fault, expected) in cases {
        let (rules, _) = rules_with(Some(fault), 12);
        assert!(
            expected.iter().any(|r| rules.contains(r)),
            "{fault}: expected one of {expected:?}, got {rules:?}"
        );
    }
}

#[test]
fn early_release_is_refused_by_the_device_too() {
    let (_, err) = rules_with(Some("early-release"), 12);
    let err = err.expect("the device refuses to destroy what the GPU uses");
    assert!(err.contains("FS-6"), "{err}");
}

/// A texture written by unordered access in one pass every frame, whole or mip by mip,
/// beside the swap chain: the barrier that orders one frame's writes after the frame
/// before's must be planned and is needed, because Present orders no work on its queue (the
/// next frame may start while this one runs); only a wait on present orders what came before
/// that buffer's Present. Dropping it is a WRITE_AFTER_WRITE (FS-3).
#[test]
fn the_barrier_across_the_frame_boundary_is_needed() {
    for range in ["", ", range: (first_mip: 1, mip_count: 2)"] {
        let scene = format!(
            r#"Scene(
    settings: (frames_in_flight: 2),
    entities: [
        (name: "sc", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (256, 256))),
        (name: "acc", texture: (format: Rgba16Float, extent: (256, 256), mips: 4, flags: (unordered_access: true)), lifetime: Imported),
        (name: "accumulate", pass: (queue: Graphics, uses: [(target: "acc", access: UnorderedAccess{range})], work: Draw(draws: 1, vertices: 3, pixels: 65536))),
        (name: "final", pass: (uses: [(target: "sc", access: RenderTarget, clear: true)], work: Draw(draws: 1, vertices: 3, pixels: 65536))),
    ],
)"#
        );
        let run = |fault: Option<&str>| {
            let mut rt = Runtime::from_str(&scene, "uav_every_frame.ron").expect("loads");
            rt.set_validation(true);
            rt.settings_mut().fault = fault.map(|f| f.parse().expect("a known fault"));
            rt.run(5).expect("runs");
            (rt.diagnostics().iter())
                .map(|d| (d.rule, d.to_string()))
                .collect::<Vec<_>>()
        };
        assert!(run(None).is_empty(), "{range}: {:?}", run(None));
        // The accumulate pass's barrier is the frame's first (the swap chain's come after).
        let dropped = run(Some("drop-nth-barrier=3:0"));
        assert!(
            dropped
                .iter()
                .any(|(rule, d)| *rule == "FS-3" && d.contains("WRITE_AFTER_WRITE")),
            "{range}: {dropped:?}"
        );
    }
}
