//! Scripts that cannot mean anything are load errors, like every other scene error: each
//! with its line and column (at the quoted name), what was expected, and for an unknown name
//! the closest names its slot takes; next to each, the corrected script, which loads.

use bevy_ecs::prelude::*;
use fastframe::scene::{self, SceneError};

// Each case splices one script line into this scene: the line is line 12 and
// starts at column 9.

fn scene(line: &str) -> String {
    let resolvable = RESOLVABLE;
    format!(
        r#"// Script error tests.
Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "rtv", view: (of: "swapchain", kind: Rtv)),
        (name: "depth", texture: (format: D32Float, extent: (64, 64), flags: (depth_stencil: true))),
        (name: "dsv", view: (of: "depth", kind: Dsv)),
        (name: "vb", buffer: (size: 256)), {resolvable}
        (name: "main", pass: (uses: [(target: "swapchain", access: RenderTarget)])),
    ],
    script: (frames: [[(commands: [
        {line}
    ])]]),
)
"#
    )
}

/// Textures for resolves, on the buffer's line so that the script stays on line 12: a 4x
/// colour target, a 4x depth buffer and a single-sampled texture half the size.
const RESOLVABLE: &str = r#"(name: "msaa", texture: (format: Bgra8UnormSrgb, extent: (64, 64), samples: 4, flags: (render_target: true))), (name: "msaa_depth", texture: (format: D32Float, extent: (64, 64), samples: 4, flags: (depth_stencil: true))), (name: "half", texture: (format: Bgra8Unorm, extent: (32, 32))),"#;

fn load(text: &str) -> Result<World, SceneError> {
    let mut world = World::new();
    scene::load_str(text, "s.ron", &mut world).map(|()| world)
}

/// `bad` fails at the first occurrence of `at` in it, saying `says`; `good` loads.
fn fails(bad: &str, at: &str, says: &str, good: &str) {
    let err = match load(&scene(bad)) {
        Ok(_) => panic!("loaded, but should fail: {bad}"),
        Err(e) => e,
    };
    let column = 9 + bad.find(at).unwrap_or_else(|| panic!("{at} not in {bad}"));
    let shown = err.to_string();
    assert_eq!(
        (err.location().line, err.location().column),
        (12, column),
        "{shown}"
    );
    assert!(shown.contains(says), "{shown:?} does not say {says:?}");
    if let Err(e) = load(&scene(good)) {
        panic!("the corrected script fails: {e}");
    }
}

#[test]
fn unknown_names_are_located_and_suggested() {
    fails(
        r#"ClearRenderTarget("rvt"),"#,
        r#""rvt""#,
        r#"unknown name "rvt" (did you mean "rtv"?)"#,
        r#"ClearRenderTarget("rtv"),"#,
    );
    fails(
        r#"CreateView(name: "ring0", of: "swapchain", kind: Rtv), ClearRenderTarget("ring1"),"#,
        r#""ring1""#,
        r#"(did you mean "ring0"?)"#,
        r#"CreateView(name: "ring0", of: "swapchain", kind: Rtv), ClearRenderTarget("ring0"),"#,
    );
    fails(
        r#"InsertFence(name: "done"), WaitFence("dnoe"),"#,
        r#""dnoe""#,
        r#"unknown name "dnoe" (did you mean "done"?)"#,
        r#"InsertFence(name: "done"), WaitFence("done"),"#,
    );
}

#[test]
fn names_must_fit_their_slots() {
    fails(
        r#"SetVertexBuffers(["depth"]),"#,
        r#""depth""#,
        r#""depth" is a texture, expected a buffer"#,
        r#"SetVertexBuffers(["vb"]),"#,
    );
    // A frame script makes or declares its views; the chain itself is not one.
    fails(
        r#"SetRenderTargets(rtvs: ["swapchain"]),"#,
        r#""swapchain""#,
        r#"expected a view"#,
        r#"SetRenderTargets(rtvs: ["rtv"]),"#,
    );
    fails(
        r#"SetRenderTargets(rtvs: ["dsv"]),"#,
        r#""dsv""#,
        r#"SetRenderTargets binds Rtv views, but "dsv" is a Dsv view"#,
        r#"SetRenderTargets(rtvs: ["rtv"], dsv: Some("dsv")),"#,
    );
    fails(
        r#"Present("swapchain[0]"),"#,
        r#""swapchain[0]""#,
        r#"expected a swap chain"#,
        r#"Present("swapchain"),"#,
    );
    fails(
        r#"WaitOnPresent("swapchain[2]"),"#,
        r#""swapchain[2]""#,
        r#"swap chain "swapchain" has 2 buffers, swapchain[0] to swapchain[1]"#,
        r#"WaitOnPresent("swapchain[1]"),"#,
    );
    fails(
        r#"CreateView(name: "vb", of: "swapchain", kind: Rtv),"#,
        r#""vb""#,
        r#"duplicate name "vb""#,
        r#"CreateView(name: "vb2", of: "swapchain", kind: Rtv),"#,
    );
    fails(
        r#"CreateView(name: "v", of: "depth", kind: Rtv),"#,
        r#""depth""#,
        r#"needs a colour format"#,
        r#"CreateView(name: "v", of: "depth", kind: Dsv),"#,
    );
}

#[test]
fn misspelt_commands_are_syntax_errors_with_suggestions() {
    let err = load(&scene(r#"ClearRenderTraget("rtv"),"#)).expect_err("no such command");
    assert!(err.to_string().contains("`ClearRenderTarget`"), "{err}");
    assert_eq!(err.location().line, 12);
}

#[test]
fn frame_lists_and_pass_scripts_have_their_own_rules() {
    let text = scene("Kickoff,").replace("]]),\n)", "]], repeat_from: 1),\n)");
    let err = load(&text).expect_err("one frame list");
    assert!(err.to_string().contains("repeat_from 1 is past"), "{err}");
    let pass = r#"(name: "p", pass: (uses: [(target: "swapchain", access: RenderTarget)], script: [Present("swapchain")])),"#;
    let text = scene("Kickoff,").replace(
        "        (name: \"main\"",
        &format!("        {pass}\n        (name: \"main\""),
    );
    let err = load(&text).expect_err("a pass does not present");
    assert!(
        err.to_string()
            .contains("Present is not allowed in a pass script"),
        "{err}"
    );
    assert_eq!(err.entity(), Some("p"));
    // A view of one swap-chain buffer is for scripts; passes write the chain.
    let text = scene("Kickoff,").replace(
        "(target: \"swapchain\", access: RenderTarget)])),",
        "(target: \"rtv1\", access: RenderTarget)])),\n        (name: \"rtv1\", view: (of: \"swapchain[1]\", kind: Rtv)),",
    );
    let err = load(&text).expect_err("only scripts use rtv1");
    assert!(err.to_string().contains("only scripts may use it"), "{err}");
}

/// A frame list of `frame` and the command lists `lists` (the inside of `lists: [...]`).
fn with_lists(frame: &str, lists: &str) -> String {
    format!(
        r#"Scene(
    entities: [(name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64)))],
    script: (
        frames: [[(commands: [{frame}])]],
        lists: [{lists}],
    ),
)
"#
    )
}

#[test]
fn command_lists_and_queries_are_checked_when_loading() {
    let list = r#"(name: "opaque", commands: [BeginQuery("occ"), EndQuery("occ")])"#;
    assert!(
        load(&with_lists(
            r#"ExecuteCommandList("opaque"), GetQueryData("occ")"#,
            list
        ))
        .is_ok()
    );
    let err = |frame: &str, lists: &str| match load(&with_lists(frame, lists)) {
        Ok(_) => panic!("loaded, but should fail: {frame} / {lists}"),
        Err(e) => e.to_string(),
    };
    let unknown = err(r#"ExecuteCommandList("opaqe")"#, list);
    assert!(
        unknown.starts_with("s.ron:4:50: ") && unknown.contains(r#"(did you mean "opaque"?)"#),
        "{unknown}"
    );
    let query = err(r#"GetQueryData("oc")"#, list);
    assert!(query.contains(r#"unknown name "oc""#), "{query}");
    let twice = err("", &format!("{list}, {list}"));
    assert!(twice.contains("list names are unique"), "{twice}");
    let nested = err("", r#"(name: "a", commands: [ExecuteCommandList("a")])"#);
    assert!(nested.contains("not allowed in a command list"), "{nested}");
    let present = err("", r#"(name: "a", commands: [Present("swapchain")])"#);
    assert!(
        present.contains("not allowed in a command list"),
        "{present}"
    );
}

#[test]
fn pass_scripts_make_no_cpu_side_calls() {
    let text = r#"Scene(
    entities: [(name: "p", pass: (script: [GetQueryData("q"), EndQuery("q")]))],
)
"#;
    match load(text) {
        Ok(_) => panic!("GetQueryData in a pass script loaded"),
        Err(e) => assert!(
            e.to_string().contains("not allowed in a pass script"),
            "{e}"
        ),
    }
}

#[test]
fn batches_are_named_and_built_outside_lists() {
    let build =
        r#"SetFastResourcesIntoBatch(name: "mesh", sets: [Samplers(stage: Pixel, samplers: [0])])"#;
    assert!(
        load(&with_lists(
            &format!(r#"{build}, SetFastResourcesFromBatch("mesh")"#),
            ""
        ))
        .is_ok()
    );
    let unknown = match load(&with_lists(
        &format!(r#"{build}, SetFastResourcesFromBatch("mseh")"#),
        "",
    )) {
        Ok(_) => panic!("an unknown batch loaded"),
        Err(e) => e.to_string(),
    };
    assert!(
        unknown.contains(r#"unknown name "mseh" (did you mean "mesh"?)"#),
        "{unknown}"
    );
    // Building a batch is CPU-side: not in a command list (RB-2).
    let inside = format!(r#"(name: "a", commands: [{build}])"#);
    match load(&with_lists("", &inside)) {
        Ok(_) => panic!("a batch built in a command list loaded"),
        Err(e) => assert!(
            e.to_string().contains("not allowed in a command list"),
            "{e}"
        ),
    }
}

#[test]
fn a_resolve_reads_a_multisampled_texture_into_a_single_sampled_one_of_its_size() {
    let good = r#"ResolveSubresource(src: "msaa", dst: "swapchain"),"#;
    fails(
        r#"ResolveSubresource(src: "vb", dst: "swapchain"),"#,
        r#""vb""#,
        r#""vb" is a buffer, expected a texture or a swap chain"#,
        good,
    );
    fails(
        r#"ResolveSubresource(src: "swapchain", dst: "msaa"),"#,
        r#""swapchain""#,
        "the source of a resolve must be multisampled",
        good,
    );
    // At the resolve's own argument, not at an earlier use of the name.
    fails(
        r#"CopyResource(src: "half", dst: "vb", bytes: 4), ResolveSubresource(src: "msaa", dst: "half"),"#,
        r#""half")"#,
        "32x32, the source 64x64",
        good,
    );
    fails(
        r#"ResolveSubresource(src: "msaa", dst: "depth"),"#,
        r#""depth""#,
        "D32Float is not of the source's family (Bgra8UnormSrgb)",
        good,
    );
    fails(
        r#"ResolveSubresource(src: "msaa_depth", dst: "depth"),"#,
        r#""msaa_depth""#,
        "a depth format is not resolved",
        good,
    );
}

/// A predicate is 8 bytes inside its buffer at an 8-byte aligned offset (SetPredication's
/// AlignedBufferOffset); a resolve names a query some script ends and writes its 8 bytes
/// inside its buffer, one query per call. Each at the call's own argument.
#[test]
fn a_predicate_and_a_query_resolve_fit_their_buffer_and_name_an_ended_query() {
    let good = r#"SetPredication(buffer: "vb", offset: 248, op: NotEqualZero), SetPredication(buffer: None),"#;
    fails(
        r#"CopyResource(src: "vb", dst: "half", bytes: 4), SetPredication(buffer: "vb", offset: 12),"#,
        r#""vb", offset: 12"#,
        "offset 12 is not a multiple of 8 bytes",
        good,
    );
    fails(
        r#"SetPredication(buffer: "vb", offset: 256),"#,
        r#""vb""#,
        r#"8 bytes at offset 256 run past the end of "vb" (256 bytes)"#,
        good,
    );
    fails(
        r#"SetPredication(buffer: "depth"),"#,
        r#""depth""#,
        r#""depth" is a texture, expected a buffer"#,
        good,
    );
    let good = r#"BeginQuery("occlusion"), Draw(vertices: 4), EndQuery("occlusion"), ResolveQueryData(dst: "vb", first: "occlusion", offset: 248),"#;
    fails(
        r#"BeginQuery("occlusion"), Draw(vertices: 4), EndQuery("occlusion"), ResolveQueryData(dst: "vb", first: "oclusion"),"#,
        r#""oclusion""#,
        r#"unknown name "oclusion""#,
        good,
    );
    fails(
        r#"BeginQuery("occlusion"), EndQuery("occlusion"), ResolveQueryData(dst: "vb", first: "occlusion", count: 2),"#,
        r#""vb", first"#,
        "a script resolves the one query it names (count 1), not 2",
        good,
    );
    fails(
        r#"BeginQuery("occlusion"), EndQuery("occlusion"), ResolveQueryData(dst: "vb", first: "occlusion", offset: 4),"#,
        r#""vb", first"#,
        "offset 4 is not a multiple of 8 bytes (D3D12's AlignedDestinationBufferOffset)",
        good,
    );
    fails(
        r#"BeginQuery("occlusion"), EndQuery("occlusion"), ResolveQueryData(dst: "vb", first: "occlusion", offset: 256),"#,
        r#""vb", first"#,
        r#"8 bytes at offset 256 run past the end of "vb" (256 bytes)"#,
        good,
    );
    fails(
        r#"BeginQuery("occlusion"), EndQuery("occlusion"), ResolveQueryData(dst: "half", first: "occlusion"),"#,
        r#""half""#,
        r#""half" is a texture"#,
        good,
    );
}

/// ResizeBuffers is checked at the call, not where its chain's name first appears: a port
/// resizes long after its first use of the chain (FS-6).
#[test]
fn resize_buffers_names_a_swap_chain_and_a_sane_extent_at_the_call() {
    fails(
        r#"SetVertexBuffers(["vb"]), ResizeBuffers(chain: "vb", extent: (32, 32)),"#,
        r#""vb", extent"#,
        r#""vb" is a buffer, expected a swap chain"#,
        r#"SetVertexBuffers(["vb"]), ResizeBuffers(chain: "swapchain", extent: (32, 32)),"#,
    );
    fails(
        r#"Present("swapchain"), ResizeBuffers(chain: "swapchain", extent: (0, 32)),"#,
        r#""swapchain", extent"#,
        "extent 0x32 is out of range",
        r#"Present("swapchain"), ResizeBuffers(chain: "swapchain", extent: (32, 32)),"#,
    );
}

/// ResizeBuffers may give the new buffers a format (an HDR title switching to 10-bit or
/// FP16), one the display can show like a chain's own.
#[test]
fn resize_buffers_takes_a_display_format_at_the_call() {
    fails(
        r#"Present("swapchain"), ResizeBuffers(chain: "swapchain", extent: (32, 32), format: R32Float),"#,
        r#""swapchain", extent"#,
        "need a display format",
        r#"Present("swapchain"), ResizeBuffers(chain: "swapchain", extent: (32, 32), format: Rgb10A2Unorm),"#,
    );
}

/// A pipeline's shaders are described once: two descriptions of one id are an error at the
/// script (which one would the draws follow?), one each loads.
#[test]
fn a_pipeline_is_described_once() {
    let text = |pipelines: &str| {
        scene(r#"SetPipelineState(1),"#).replace(
            "    script: (frames:",
            &format!("    script: (pipelines: [{pipelines}], frames:"),
        )
    };
    let Err(err) = load(&text("(id: 1, views: []), (id: 1, views: [(Pixel, 0)])")) else {
        panic!("two descriptions of pipeline 1 load");
    };
    assert!(
        err.to_string().contains("pipeline 1 is described twice"),
        "{err}"
    );
    assert_eq!(err.location().line, 11, "{err}");
    if let Err(e) = load(&text("(id: 1, views: []), (id: 2, views: [(Pixel, 0)])")) {
        panic!("{e}");
    }
}
