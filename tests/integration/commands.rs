//! The commands ports need, end to end: each scene in `tests/data/commands/` checks clean,
//! and a twin with the one call that makes it correct removed or replaced fails with the rule
//! the call is there for. So a command the device or the validator ignored would fail here.

use std::path::Path;

use fastframe::Runtime;

const FRAMES: u64 = 8;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn scene(name: &str) -> String {
    let path = root().join("tests/data/commands").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The distinct codes `check` finds in scene text `text` (written to a file of its own),
/// and the run's error.
pub(crate) fn codes_of(name: &str, text: &str) -> (Vec<String>, Option<String>) {
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

pub(crate) fn clean(name: &str) {
    let (found, err) = codes_of(name, &scene(name));
    assert_eq!((found, err), (Vec::new(), None), "{name}");
}

/// `name` with `from` replaced by `to` finds `code`.
pub(crate) fn twin_finds(name: &str, from: &str, to: &str, code: &str) {
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
fn without_translation_a_legacy_uav_barrier_drains_no_vertex_work() {
    // Seed 004: the loose file D3D__DisableLegacyResourceBarrierTranslation sends legacy
    // barriers down the driver's previous path, whose UAV barrier issues PS and CS partial
    // flushes and no VS one (EB-10); translated, the same call drains every shader stage.
    let text = scene("legacy_uav_barrier.ron");
    let flushes = |translation: bool| {
        let text = text.replacen(
            "Scene(",
            &format!("Scene(settings: (legacy_barrier_translation: {translation}),"),
            1,
        );
        let mut rt = Runtime::from_str(&text, "legacy_uav_barrier.ron").expect("loads");
        rt.set_validation(true);
        rt.run(FRAMES).expect("runs");
        let found: Vec<String> = (rt.diagnostics().iter())
            .map(|d| d.code.to_string())
            .collect();
        // Both orders the compute writes the barrier is there for.
        assert!(found.is_empty(), "translation {translation}: {found:?}");
        let h = rt.summary().stats.hardware;
        (
            h.vs_partial_flushes + h.idles,
            h.ps_partial_flushes,
            h.cs_partial_flushes,
        )
    };
    let (translated, untranslated) = (flushes(true), flushes(false));
    // One UAV barrier a frame loses its VS partial flush; the transitions around it (full
    // idles) and the PS and CS partial flushes are the same on both paths.
    assert_eq!(
        translated.0 - untranslated.0,
        FRAMES,
        "{translated:?} {untranslated:?}"
    );
    assert_eq!(
        (translated.1, translated.2),
        (untranslated.1, untranslated.2)
    );
    assert!(untranslated.1 > 0 && untranslated.2 > 0, "{untranslated:?}");
}

/// The summary of `frames` frames of `name` as JSON, without the measured CPU times.
fn simulated(name: &str, frames: u64) -> serde_json::Value {
    let mut rt = Runtime::from_scene(root().join("tests/data/commands").join(name))
        .unwrap_or_else(|e| panic!("{e}"));
    rt.run(frames).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut json = rt.summary().to_json();
    // The CPU's time and the process's memory are not simulated.
    if let Some(o) = json.as_object_mut() {
        o.remove("cpu");
        o.remove("host");
    }
    json
}

#[test]
fn a_compute_queue_presents_a_back_buffer_it_wrote_through_a_uav() {
    clean("compute_present.ron");
    let mut rt = Runtime::from_scene(root().join("tests/data/commands/compute_present.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.device().flips() >= FRAMES - 2, "{}", rt.device().flips());
    // The UAV write needs the wait on present like any other write (FS-5).
    twin_finds(
        "compute_present.ron",
        r#"WaitOnPresent("swapchain"),"#,
        "",
        "V0101",
    );
    // A DMA engine presents nothing.
    let (_, err) = codes_of(
        "dma-present.ron",
        &scene("compute_present.ron").replace("(queue: Compute,", "(queue: Copy,"),
    );
    assert!(err.is_some_and(|e| e.contains("cannot run on queue dma")));
}

#[test]
fn indirect_arguments_are_read_in_the_indirect_argument_stage() {
    clean("indirect.ron");
    let barrier = r#"Barrier(buffers: [(resource: "args", sync_before: "COMPUTE_SHADING", sync_after: "EXECUTE_INDIRECT",
                access_before: "UNORDERED_ACCESS", access_after: "INDIRECT_ARGUMENT")]),"#;
    twin_finds("indirect.ron", barrier, "", "V0501");
    // The resolve reads its source in RESOLVE_SOURCE and writes its destination in
    // RESOLVE_DEST: either left in a shader or copy layout, the layout refuses the access.
    // (Swapping source and destination is a load error: `script_errors`.)
    let source = r#"access_after: "RESOLVE_SOURCE",
                        layout_before: RenderTarget, layout_after: ResolveSource),"#;
    let sampled = r#"access_after: "SHADER_RESOURCE",
                        layout_before: RenderTarget, layout_after: ShaderResource),"#;
    twin_finds("indirect.ron", source, sampled, "V0403");
    let dest = r#"access_after: "RESOLVE_DEST",
                        layout_before: Common, layout_after: ResolveDest),"#;
    let copied = r#"access_after: "COPY_DEST",
                        layout_before: Common, layout_after: CopyDest),"#;
    twin_finds("indirect.ron", dest, copied, "V0403");
    // Indirect work costs the work its arguments ask for.
    let light =
        scene("indirect.ron").replace("draws: 500, vertices: 300000", "draws: 5, vertices: 3000");
    let path = std::env::temp_dir().join(format!("fastframe-light-{}.ron", std::process::id()));
    std::fs::write(&path, light).unwrap_or_else(|e| panic!("{e}"));
    let work = |json: &serde_json::Value| json["gpu"]["frame_work_us"]["mean"].as_f64();
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    let (heavy, light) = (
        work(&simulated("indirect.ron", FRAMES)),
        work(&rt.summary().to_json()),
    );
    assert!(heavy > light, "{heavy:?} {light:?}");
}

#[test]
fn both_dma_engines_fill_and_run_the_lz_codec() {
    clean("dma.ron");
    twin_finds("dma.ron", r#"Wait(fence: "kept"),"#, "", "V0511");
    // The fill and the codec are the DMA engines' own.
    let (_, err) = codes_of(
        "fill-on-graphics.ron",
        &scene("dma.ron").replace(
            "CopyResource(src: \"scratch\", dst: \"capture\", bytes: 65536),",
            "DmaFill(dst: \"capture\", bytes: 65536),",
        ),
    );
    assert!(err.is_some_and(|e| e.contains("DmaFill cannot run on queue graphics")));
    // Engine 1 is a queue of its own: it was busy, and the runs are the same run to run.
    let first = simulated("dma.ron", 30);
    assert_eq!(first, simulated("dma.ron", 30));
    let busy = first["gpu"]["queues"]["dma"]["busy_us"]
        .as_f64()
        .unwrap_or_default();
    assert!(busy > 0.0, "{first}");
}

#[test]
fn a_dma_engine_that_does_not_exist_is_a_load_error() {
    let text = scene("dma.ron").replace("engine: 1,", "engine: 2,");
    let path = std::env::temp_dir().join(format!("fastframe-engine2-{}.ron", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let err = Runtime::from_scene(&path)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert!(err.contains("engine 2"), "{err}");
}

#[test]
fn a_legacy_aliasing_barrier_hands_placed_memory_over() {
    clean("legacy_aliasing.ron");
    let handover = r#"ResourceBarrier([Aliasing(before: "a", after: "b")]),"#;
    twin_finds("legacy_aliasing.ron", handover, "", "V0811");
    // A transition is not a hand-over.
    let transition =
        r#"ResourceBarrier([Transition(resource: "b", before: "", after: "COPY_DEST")]),"#;
    twin_finds("legacy_aliasing.ron", handover, transition, "V0811");
}

#[test]
fn a_fence_signalled_before_the_write_on_aliased_memory_orders_nothing() {
    clean("aliased_early_signal.ron");
    // The compute queue signals before it writes the memory graphics then takes over.
    let text = scene("aliased_early_signal.ron");
    let signal = "            Signal(fence: \"filled\"),\n";
    let late = text.rfind(signal).unwrap_or_default();
    let mut early = text.clone();
    early.replace_range(late..late + signal.len(), "");
    let first_barrier = early
        .find("            Barrier(buffers: [(resource: \"a\"")
        .unwrap_or_default();
    early.insert_str(first_barrier, signal);
    let (found, _) = codes_of("early.ron", &early);
    assert!(found.contains(&"V0814".to_owned()), "{found:?}");
}

#[test]
fn a_resource_handed_back_across_a_fence_keeps_the_declaration_it_was_handed_with() {
    // Issue 17 item 4: compute's write after graphics handed the buffer back was a false
    // V0804 while declarations were kept per queue only.
    clean("hand_back.ron");
    let handing = r#"(resource: "buf", sync_before: "COPY", sync_after: "COMPUTE_SHADING",
                        access_before: "COPY_SOURCE", access_after: "UNORDERED_ACCESS"),"#;
    let ending = r#"(resource: "buf", sync_before: "COPY", sync_after: "",
                        access_before: "COPY_SOURCE", access_after: "NO_ACCESS"),"#;
    twin_finds("hand_back.ron", handing, ending, "V0804");
}

#[test]
fn legacy_and_enhanced_barriers_meet_only_in_common() {
    // EB-7 both ways, with the rule named: scripts' ResourceBarrier calls reach the
    // validation layer as legacy calls, not only as their enhanced translation.
    let name = "legacy_interop.ron";
    clean(name);
    let rules = |text: &str| {
        let path = std::env::temp_dir().join(format!("fastframe-eb7-{}.ron", std::process::id()));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
        rt.set_validation(true);
        let _ = rt.run(FRAMES);
        let _ = std::fs::remove_file(&path);
        let mut found: Vec<String> = (rt.diagnostics().iter())
            .map(|d| format!("{} {}", d.code, d.rule))
            .collect();
        found.dedup();
        found
    };
    let legacy_in =
        r#"ResourceBarrier([Transition(resource: "shadow", before: "", after: "RENDER_TARGET")]),"#;
    let legacy_out =
        r#"ResourceBarrier([Transition(resource: "shadow", before: "RENDER_TARGET", after: "")]),"#;
    let enhanced_in = r#"Barrier(textures: [(resource: "shadow", sync_before: "RENDER_TARGET", sync_after: "RENDER_TARGET", access_before: "NO_ACCESS", access_after: "RENDER_TARGET", layout_before: Common, layout_after: RenderTarget)]),"#;
    let enhanced_out = r#"Barrier(textures: [(resource: "shadow", sync_before: "RENDER_TARGET", sync_after: "", access_before: "RENDER_TARGET", access_after: "NO_ACCESS", layout_before: RenderTarget, layout_after: Common)]),"#;
    let text = scene(name);
    // Into legacy RENDER_TARGET, out with an enhanced barrier: EB-7 (LegacyStateNotCommon).
    let found = rules(&text.replace(legacy_out, enhanced_out));
    assert_eq!(found, ["V0801 EB-7"]);
    // Into RENDER_TARGET with an enhanced barrier, out with a legacy one: EB-7 (A8).
    let found = rules(&text.replace(legacy_in, enhanced_in));
    assert!(found.contains(&"V0801 EB-7".to_owned()), "{found:?}");
    // Enhanced throughout is clean too.
    let both = text
        .replace(legacy_in, enhanced_in)
        .replace(legacy_out, enhanced_out);
    assert_eq!(rules(&both), Vec::<String>::new());
}

#[test]
fn the_2013_console_has_no_enhanced_barriers() {
    // Seed 004, EB-11: enhanced barriers exist on the Xbox Series only. On console-2013 a
    // script's legacy ResourceBarrier runs; its enhanced Barrier is refused where it stands.
    let on_2013 = |text: String| {
        text.replace(
            "settings: (frames_in_flight: 2, api: D3d12x),",
            "settings: (frames_in_flight: 2, api: D3d12x, profile: \"console-2013\"),",
        )
    };
    let name = "legacy_interop.ron";
    let legacy = on_2013(scene(name));
    assert!(legacy.contains("console-2013"));
    assert_eq!(codes_of("legacy-2013.ron", &legacy), (Vec::new(), None));
    let enhanced = legacy.replace(
        r#"ResourceBarrier([Transition(resource: "shadow", before: "RENDER_TARGET", after: "")]),"#,
        r#"Barrier(textures: [(resource: "shadow", sync_before: "RENDER_TARGET", sync_after: "", access_before: "RENDER_TARGET", access_after: "NO_ACCESS", layout_before: RenderTarget, layout_after: Common)]),"#,
    );
    let (_, err) = codes_of("enhanced-2013.ron", &enhanced);
    let err = err.unwrap_or_default();
    assert!(
        err.contains("console-2013 profile has no enhanced barriers"),
        "{err}"
    );
    // Named by its place in the file (line 17 of the scene, the command's column).
    assert!(err.contains("enhanced-2013.ron:17:21"), "{err}");
    // The same script on the 2020 console runs (and is EB-7, another matter).
    let (_, err) = codes_of(
        "enhanced-2020.ron",
        &enhanced.replace("console-2013", "console-2020"),
    );
    assert_eq!(err, None);
}

#[test]
fn a_split_barrier_orders_at_its_end_what_its_beginning_reached() {
    // Barrier-spec A4: the twin of the EB-11 split mistake orders the copy before the
    // dispatch with a split barrier in one list. Without the end half nothing orders them.
    let path = root().join("tests/data/scripts/eb11_split_crosses_submission.ron");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(codes_of("split.ron", &text), (Vec::new(), None));
    let end = r#"Barrier(buffers: [(resource: "particles", sync_before: "SPLIT", sync_after: "COMPUTE_SHADING", access_before: "COPY_DEST", access_after: "SHADER_RESOURCE")]),"#;
    assert!(text.contains(end));
    let (found, _) = codes_of("split-unended.ron", &text.replace(end, ""));
    assert!(found.contains(&"V0501".to_owned()), "{found:?}");
}
