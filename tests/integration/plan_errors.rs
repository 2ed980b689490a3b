//! Frames that fail to plan at run time: the error names what it must (the resources and
//! ordering rules of a cycle's edges, the resource a legacy plan cannot move), and the frame
//! that failed submits nothing.

use fastframe::Runtime;
use fastframe::model::BarrierMode;

/// A scene whose timeline enables, at frame 2, a pass that makes a dependency cycle.
const CYCLE_AT_FRAME_2: &str = r#"Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "scene_colour", texture: (format: Rgba16Float, extent: (64, 64), flags: (render_target: true))),
        (name: "blur", pass: (uses: [(target: "scene_colour", access: RenderTarget)], after: ["glass"]), disabled: true),
        (name: "glass", pass: (uses: [(target: "scene_colour", access: ShaderRead), (target: "swapchain", access: RenderTarget)])),
    ],
    timeline: [(frame: 2, event: Enable("blur"))],
)"#;

/// A cycle that appears at run time (a timeline enables a pass) names each edge's resource
/// and ordering rule, as a cycle found at load does.
#[test]
fn a_run_time_cycle_names_the_resource_and_rule_of_each_edge() {
    let mut rt = Runtime::from_str(CYCLE_AT_FRAME_2, "cycle.ron").expect("loads: blur is disabled");
    let err = rt
        .run(4)
        .expect_err("enabling blur makes a cycle")
        .to_string();
    assert!(
        err.ends_with(r#"dependency cycle: blur -> glass -> blur ("blur" writes "scene_colour", which "glass" reads (a read sees the latest earlier write); "blur" is declared `after` "glass")"#),
        "{err}"
    );
}

/// A tick whose graph cannot be planned stops there: nothing of that frame is recorded,
/// submitted or presented (the stages after the failing one do not run).
#[test]
fn a_frame_that_fails_to_plan_submits_nothing() {
    let mut rt = Runtime::from_str(CYCLE_AT_FRAME_2, "cycle.ron").expect("loads: blur is disabled");
    let out = crate::common::Shared::default();
    rt.record_gpu_trace_to(out.clone());
    rt.run(4)
        .expect_err("enabling blur makes a cycle at frame 2");
    rt.finish().expect("the frames before it finish");
    rt.finish_gpu_trace().expect("the trace is written");
    let trace = out.json();
    let frames: Vec<u64> = trace["traceEvents"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["ph"] == "X")
        .filter_map(|e| e["args"]["frame"].as_u64())
        .collect();
    assert!(frames.contains(&1), "frames 0 and 1 ran: {frames:?}");
    assert!(
        frames.iter().all(|f| *f < 2),
        "frame 2 failed to plan but reached the GPU: {frames:?}"
    );
    assert_eq!(
        rt.summary().stats.presents,
        2,
        "only frames 0 and 1 present"
    );
}

/// A scene whose timeline hands a texture a graphics pass left in RENDER_TARGET to a compute
/// pass at frame 2: the new plan starts from the old plan's states, and a compute queue
/// cannot leave RENDER_TARGET (barrier-spec A5).
const COMPUTE_TAKES_A_RENDER_TARGET: &str = r#"Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "canvas", texture: (format: Rgba16Float, extent: (64, 64), flags: (render_target: true, unordered_access: true))),
        (name: "paint", pass: (uses: [(target: "canvas", access: RenderTarget)])),
        (name: "splat", pass: (queue: Compute, uses: [(target: "canvas", access: UnorderedAccess)], work: Dispatch(threads: 4096)), disabled: true),
        (name: "show", pass: (uses: [(target: "swapchain", access: RenderTarget)])),
    ],
    timeline: [(frame: 2, event: Disable("paint")), (frame: 2, event: Enable("splat"))],
)"#;

/// A legacy planning error names the resource it could not move, not only the pass (EB-10).
#[test]
fn a_legacy_planning_error_names_the_resource() {
    let mut rt = Runtime::from_str(COMPUTE_TAKES_A_RENDER_TARGET, "take.ron").expect("loads");
    rt.settings_mut().barriers = BarrierMode::Legacy;
    let err = rt
        .run(4)
        .expect_err("compute cannot leave RENDER_TARGET")
        .to_string();
    assert!(
        err.contains(r#"pass splat on compute0.0 cannot move "canvas" from"#),
        "{err}"
    );
}
