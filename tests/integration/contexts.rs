//! Context rules end to end: semantics is a property of each context (CTX-4), so the
//! fast-context mistakes fail whatever barriers the runtime plans; explicit rebinding (FS-8)
//! follows views as the stream re-points them and covers buffers bound directly; Map takes
//! buffers only (CTX-5); and the driver's mode without legacy barrier translation refuses a
//! title mixing legacy and enhanced barriers (EB-10).

use std::path::Path;
use std::process::Command;

fn check(scene: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .arg("check")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(scene))
        .args(args)
        .output()
        .expect("fastframe runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn fast_context_mistakes_fail_under_legacy_barriers_too() {
    // CTX-4: `barriers = legacy` plans legacy barriers; the immediate context stays fast.
    for (scene, code) in [
        (
            "scenes/mistakes/fs7_get_state_on_fast_context.ron",
            "error[V0203] FS-7",
        ),
        (
            "scenes/mistakes/fs14_update_subresource_on_fast_context.ron",
            "error[V0204] FS-14",
        ),
    ] {
        for barriers in ["enhanced", "legacy", "conservative"] {
            let (exit, out) = check(scene, &["--barriers", barriers]);
            assert_eq!(exit, 1, "{scene} --barriers {barriers}:\n{out}");
            assert!(out.contains(code), "{scene} --barriers {barriers}:\n{out}");
        }
    }
}

/// The codes validation finds on `scene` in 8 frames, one per finding (repeats included).
fn codes(scene: &str) -> Vec<String> {
    let mut rt = fastframe::Runtime::from_scene(Path::new(env!("CARGO_MANIFEST_DIR")).join(scene))
        .unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let _ = rt.run(8);
    rt.diagnostics()
        .iter()
        .map(|d| d.code.to_string())
        .collect()
}

#[test]
fn a_missing_rebind_after_decompression_is_found_in_every_frame_of_the_place_view_loop() {
    // FS-8 with RL-7: the view is re-pointed every frame; the decompression must make the
    // view it points at now stale, not the buffer it pointed at when the device last ran.
    let found = codes("scenes/mistakes/fs8_missing_rebind_after_decompress.ron");
    let rebinds = found.iter().filter(|c| *c == "V0202").count();
    assert_eq!(rebinds, 8, "{found:?}");
}

#[test]
fn a_buffer_bound_directly_is_set_again_after_map() {
    // FS-8: vertex, index and constant buffers bound without a view count as bound.
    let found = codes("scenes/mistakes/fs8_constant_buffer_not_set_again_after_map.ron");
    assert_eq!(found, vec!["V0202".to_string(); 8]);
    assert!(codes("tests/data/scripts/fs8_constant_buffer_not_set_again_after_map.ron").is_empty());
}

#[test]
fn map_takes_buffers_only() {
    // CTX-5: no-overwrite only where the resource type allows it; the loader takes Map of
    // buffers alone, so a texture cannot be mapped no-overwrite (or at all) by a script.
    let text = r#"Scene(
        entities: [
            (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
            (name: "lut", texture: (format: Rgba8Unorm, extent: (256, 16))),
        ],
        script: (frames: [[(commands: [
            Map(resource: "lut", mode: NoOverwrite),
            WaitOnPresent("swapchain"),
            Present("swapchain"),
        ])]]),
    )"#;
    let err = fastframe::Runtime::from_str(text, "map.ron")
        .err()
        .expect("a texture map is refused at load");
    let err = err.to_string();
    assert!(
        err.contains("map.ron:7:27") && err.contains("expected a buffer"),
        "{err}"
    );
}

#[test]
fn without_legacy_barrier_translation_legacy_and_enhanced_barriers_do_not_mix() {
    // Seed 004: with the loose file D3D__DisableLegacyResourceBarrierTranslation deployed,
    // the driver does not support mixing legacy and enhanced barriers (EB-10).
    let scene = |translation: bool, enhanced: bool| {
        let second = if enhanced {
            r#"Barrier(global: [(sync_before: "COMPUTE_SHADING", sync_after: "COMPUTE_SHADING",
                access_before: "UNORDERED_ACCESS", access_after: "UNORDERED_ACCESS")]),"#
        } else {
            r#"ResourceBarrier([Uav("buf")]),"#
        };
        format!(
            r#"Scene(
                settings: (legacy_barrier_translation: {translation}),
                entities: [(name: "buf", buffer: (size: 4096, unordered_access: true))],
                script: (frames: [[(commands: [
                    ResourceBarrier([Uav("buf")]),
                    {second}
                ])]]),
            )"#
        )
    };
    let load = |text: String| fastframe::Runtime::from_str(&text, "mix.ron").map(|_| ());
    let err = load(scene(false, true)).expect_err("mixed barriers are refused");
    let err = err.to_string();
    assert!(err.contains("mix.ron:") && err.contains("EB-10"), "{err}");
    // One kind alone, or translation on, loads.
    load(scene(false, false)).unwrap_or_else(|e| panic!("{e}"));
    load(scene(true, true)).unwrap_or_else(|e| panic!("{e}"));
}

/// Submission CPU time and validation codes of `scene` over 4 frames, with the immediate
/// context's `semantics` and the device flags a scene would ask for.
fn submission(
    scene: &str,
    semantics: fastframe::model::Semantics,
    flags: fastframe::model::DeviceFlags,
) -> (u64, Vec<String>) {
    let mut rt = fastframe::Runtime::from_scene(std::path::Path::new(scene)).expect("loads");
    rt.set_validation(true);
    rt.settings_mut().semantics = semantics;
    rt.settings_mut().device_flags = flags;
    rt.run(4).expect("runs");
    let codes = rt
        .diagnostics()
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    let stats = rt.world.resource::<fastframe::report::RunStats>();
    (stats.cpu_submit_ns, codes)
}

#[test]
fn a_fast_immediate_context_has_write_combined_dynamic_buffers_and_fast_kickoffs() {
    use fastframe::model::{DeviceFlags, Semantics};
    // FS-15: reading a mapped dynamic buffer back is uncached on a fast immediate context,
    // whatever flags the scene asks for, and the validator warns (V0310).
    let scene = "scenes/warnings/fs15_cpu_reads_write_combined_buffer.ron";
    let none = DeviceFlags::default();
    let (fast, codes) = submission(scene, Semantics::Fast, none);
    assert!(
        codes.iter().all(|c| c == "V0310") && codes.len() == 4,
        "{codes:?}"
    );
    // A legacy immediate context reads it cached, unless the scene asks for the flag.
    let (cached, codes) = submission(scene, Semantics::Legacy, none);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(cached * 20 < fast, "{cached} {fast}");
    let wc = DeviceFlags {
        write_combined_dynamic_buffers: true,
        ..none
    };
    let (asked, codes) = submission(scene, Semantics::Legacy, wc);
    assert_eq!(codes.len(), 4, "{codes:?}");
    assert!(asked > cached * 20, "{asked} {cached}");
    // Without fast kickoffs and write-combined command buffers every kickoff makes the kernel
    // round trip and every command pollutes the caches: the same frames cost more to submit.
    let deferred = "scenes/deferred.ron";
    let (legacy, _) = submission(deferred, Semantics::Legacy, none);
    let (flagged, _) = submission(deferred, Semantics::Legacy, DeviceFlags::ALL);
    let (fast, _) = submission(deferred, Semantics::Fast, none);
    assert_eq!(flagged, fast);
    assert!(legacy > fast + 4 * 6_000, "{legacy} {fast}");
}

#[test]
fn a_scene_view_s_min_lod_clamps_what_its_draws_sample() {
    // FS-13: a view's MinLOD (here the scene's `min_lod`, in effect when the view is bound)
    // keeps the finer mips out of what a draw samples. 256 x 256 RGBA8, four mips.
    let scene = |min_lod: &str| {
        format!(
            r#"Scene(
                entities: [
                    (name: "tex", texture: (format: Rgba8Unorm, extent: (256, 256), mips: 4)),
                    (name: "srv", view: (of: "tex", kind: Srv{min_lod})),
                ],
                script: (frames: [[(queue: Graphics, label: "draw", commands: [
                    SetResources(stage: Pixel, views: ["srv"]),
                    Draw(vertices: 3, pixels: 64),
                ])]]),
            )"#
        )
    };
    let sampled = |text: String| {
        let mut rt =
            fastframe::Runtime::from_str(&text, "lod.ron").unwrap_or_else(|e| panic!("{e}"));
        rt.run(1).unwrap_or_else(|e| panic!("{e}"));
        rt.summary().stats.sampled_bytes
    };
    assert_eq!(sampled(scene("")), 262_144 + 65_536 + 16_384 + 4_096);
    // A clamp between mips 2 and 3 still reads mip 2.
    assert_eq!(sampled(scene(", min_lod: 2.5")), 16_384 + 4_096);
}
