//! Transients across the frame boundary (issue 22 item 8). A frame-graph transient whose
//! bytes no other transient shares owns its memory (these scenes have one, or none that can
//! share; `aliasing.rs` has those that do), so between frames nothing else writes it: the enhanced
//! planner activates it again (from UNDEFINED with DISCARD, EB-5) only where the layout must
//! change or another queue takes it, and uses it on as it is otherwise. Every barrier it
//! still emits in a steady frame is needed: dropped, `check` catches it.

use fastframe::Runtime;
use fastframe::barrier::Layout;
use fastframe::device::{Command, Device, ObjectKey, Submitted};
use fastframe::model::Fault;

/// One queue, a transient rendered and then sampled: its layout changes within the frame,
/// so each frame starts it from UNDEFINED again.
const SAMPLED: &str = r#"Scene(entities: [
    (name: "sc", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
    (name: "t", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true)), lifetime: Transient),
    (name: "draw", pass: (uses: [(target: "t", access: RenderTarget, clear: true)], work: Draw(draws: 1, vertices: 3, pixels: 4096))),
    (name: "compose", pass: (uses: [(target: "sc", access: RenderTarget), (target: "t", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 4096))),
])"#;

const FRAMES: u64 = 6;
const DROP_FRAME: u64 = 3;

fn load(scene: &str) -> Runtime {
    if scene.starts_with("Scene(") {
        Runtime::from_str(scene, "sampled.ron").expect("scene loads")
    } else {
        Runtime::from_scene(scene).expect("scene loads")
    }
}

/// The submissions of a clean, validated run and the transient's key.
fn trace(scene: &str, transient: &str) -> (Vec<Submitted>, ObjectKey, u32) {
    let mut rt = load(scene);
    rt.set_validation(true);
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(FRAMES).expect("runs");
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    let mut device = rt.world.resource_mut::<Device>();
    let trace = device.trace.take().expect("traced");
    let present = device.label("present");
    let key = (trace.iter())
        .flat_map(|s| match &s.command {
            Command::Barrier(g) => g.textures.iter().map(|t| t.resource).collect(),
            _ => Vec::new(),
        })
        .find(|k| device.memory.name(*k) == transient)
        .expect("the transient has a barrier");
    (trace, key, present)
}

/// Frames in which the transient is activated (a texture barrier from UNDEFINED with DISCARD).
fn activations(trace: &[Submitted], key: ObjectKey) -> Vec<u64> {
    let mut frames: Vec<u64> = (trace.iter())
        .filter(|s| match &s.command {
            Command::Barrier(g) => (g.textures.iter()).any(|t| {
                t.resource == key && t.layout_before == Layout::Undefined && t.flags.discard
            }),
            _ => false,
        })
        .map(|s| s.frame)
        .collect();
    frames.dedup();
    frames
}

/// Drop each individual barrier the passes submit in `DROP_FRAME`, one run each: every one
/// must be reported.
fn every_barrier_is_needed(scene: &str, trace: &[Submitted], present: u32) {
    let barriers: usize = (trace.iter())
        .filter(|s| s.frame == DROP_FRAME && s.label != present)
        .map(|s| match &s.command {
            Command::Barrier(g) => g.len(),
            _ => 0,
        })
        .sum();
    assert!(barriers > 0);
    for index in 0..barriers {
        let mut rt = load(scene);
        rt.set_validation(true);
        rt.settings_mut().fault = Some(Fault::DropNthBarrier {
            frame: DROP_FRAME,
            index,
        });
        let failed = rt.run(FRAMES).is_err();
        assert!(
            failed || rt.summary().validation_errors > 0,
            "{scene}: barrier {index} of frame {DROP_FRAME} dropped and nothing caught it"
        );
    }
}

#[test]
fn render_loops_depth_is_activated_once_and_every_steady_barrier_is_needed() {
    let scene = "scenes/render_loop.ron";
    let (trace, depth, present) = trace(scene, "depth");
    // Only the first frame activates it: one queue, and every frame ends with it in
    // DEPTH_STENCIL_WRITE, where its next use (a clear) needs it.
    assert_eq!(activations(&trace, depth), [0]);
    let later = (trace.iter())
        .filter(|s| s.frame > 0)
        .any(|s| match &s.command {
            Command::Barrier(g) => g.textures.iter().any(|t| t.resource == depth),
            _ => false,
        });
    assert!(
        !later,
        "no barrier names the depth buffer after the first frame"
    );
    every_barrier_is_needed(scene, &trace, present);
}

#[test]
fn a_transient_that_changes_layout_is_activated_every_frame_and_needs_it() {
    let (trace, t, present) = trace(SAMPLED, "t");
    assert_eq!(activations(&trace, t), (0..FRAMES).collect::<Vec<_>>());
    every_barrier_is_needed(SAMPLED, &trace, present);
}
