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
