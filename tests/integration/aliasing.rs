//! The runtime places the frame graph's transients in one heap at the offsets the aliasing
//! plan gives (EB-5, EB-9d): `memory.peak_bytes` shrinks by what the plan saves, a recompile
//! that moves them makes a new heap and retires the old one only after its fences (FS-6),
//! and the legacy strategy, whose aliasing barrier names no resources in its translation
//! (EB-10), keeps each transient in its own memory.

use fastframe::Runtime;
use fastframe::device::Device;
use fastframe::frame::TransientHeap;
use fastframe::generator::{GenSpec, Shape, generate};
use fastframe::model::{BarrierMode, GpuObject};
use fastframe::plan::AliasPlan;

fn mixed() -> String {
    let spec = GenSpec {
        shape: Shape::Mixed,
        passes: 200,
        seed: 3,
        compute: Shape::Mixed.default_compute(),
        transient: 0.5,
        mixed_sizes: true,
    };
    fastframe::scene::to_ron(&generate(&spec))
}

/// A validated run of `text` for `frames`: the runtime, after checking it is clean.
fn run(text: &str, frames: u64, tweak: impl FnOnce(&mut fastframe::model::Settings)) -> Runtime {
    let mut rt = Runtime::from_str(text, "aliasing.ron").expect("loads");
    rt.set_validation(true);
    tweak(&mut rt.settings_mut());
    rt.run(frames).expect("runs");
    let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    assert!(found.is_empty(), "{found:#?}");
    rt
}

fn peak(rt: &Runtime) -> u64 {
    rt.world.resource::<Device>().memory.bytes().1
}

#[test]
fn placed_transients_sit_at_their_planned_offsets_and_peak_memory_shrinks() {
    let text = mixed();
    let mut on = run(&text, 4, |_| {});
    let off = run(&text, 4, |s| s.aliasing = false);
    let plan = on.world.resource::<AliasPlan>().clone();
    let heap = on.world.resource::<TransientHeap>().heap.expect("a heap");
    assert!(plan.peak_bytes * 4 < plan.unaliased_bytes, "{plan:?}");
    let device = on.world.resource::<Device>();
    assert_eq!(
        device.memory.heap(heap).map(|h| h.size),
        Some(plan.peak_bytes)
    );
    let mut placed_bytes = 0;
    for p in &plan.placements {
        let key = on.world.get::<GpuObject>(p.resource).expect("an object").0;
        let device = on.world.resource::<Device>();
        let at = device.memory.placement(key).expect("placed");
        assert_eq!((at.heap, at.offset), (heap, p.offset));
        placed_bytes += at.bytes;
    }
    // Everything else is the same: the heap replaces the transients' own memory.
    assert_eq!(peak(&off) - peak(&on), placed_bytes - plan.peak_bytes);
    assert!(off.world.resource::<TransientHeap>().heap.is_none());
    let _ = on.world.resource_mut::<TransientHeap>();
}

#[test]
fn legacy_keeps_every_transient_in_its_own_memory() {
    let text = mixed();
    let legacy = |s: &mut fastframe::model::Settings| {
        s.barriers = BarrierMode::Legacy;
        s.async_compute = false;
    };
    let rt = run(&text, 3, legacy);
    assert!(rt.world.resource::<TransientHeap>().heap.is_none());
    let off = run(&text, 3, |s| {
        legacy(s);
        s.aliasing = false;
    });
    assert_eq!(peak(&rt), peak(&off));
}

/// `a` is read by `late` at the end of the frame until `late` is disabled at frame 4; then
/// `a` can share bytes it could not before, the plan moves, and the runtime places again.
/// The GPU runs two frames behind the CPU (heavy passes, a CPU frame of 10 us), so the old
/// objects and heap must wait for those frames' fences (FS-6); the device would refuse a
/// premature destruction and the validation layer checks each release against the fences
/// covering its last use (V0702).
const REPLACED: &str = r#"Scene(settings: (frames_in_flight: 3, cpu_frame_us: 10.0), entities: [
    (name: "sc", swap_chain: (buffers: 3, format: Bgra8Unorm, extent: (64, 64), vsync_interval: 0)),
    (name: "a", texture: (format: Rgba8Unorm, extent: (256, 256), flags: (render_target: true)), lifetime: Transient),
    (name: "b", texture: (format: Rgba8Unorm, extent: (256, 256), flags: (render_target: true)), lifetime: Transient),
    (name: "c", texture: (format: Rgba8Unorm, extent: (256, 256), flags: (render_target: true)), lifetime: Transient),
    (name: "d", texture: (format: Rgba8Unorm, extent: (256, 256), flags: (render_target: true)), lifetime: Transient),
    (name: "p0", pass: (uses: [(target: "a", access: RenderTarget, clear: true)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
    (name: "p1", pass: (uses: [(target: "b", access: RenderTarget, clear: true), (target: "a", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
    (name: "p2", pass: (uses: [(target: "c", access: RenderTarget, clear: true), (target: "b", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
    (name: "p3", pass: (uses: [(target: "d", access: RenderTarget, clear: true), (target: "c", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
    (name: "compose", pass: (uses: [(target: "sc", access: RenderTarget, clear: true), (target: "d", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
    (name: "late", pass: (uses: [(target: "sc", access: RenderTarget), (target: "a", access: ShaderRead)], work: Draw(draws: 1, vertices: 3, pixels: 100000000))),
], timeline: [(frame: 4, event: Disable("late"))])"#;

#[test]
fn a_recompile_places_again_and_retires_the_old_heap_after_its_fences() {
    let mut rt = Runtime::from_str(REPLACED, "replaced.ron").expect("loads");
    rt.set_validation(true);
    // Ticks, not `run`, which waits for the GPU at its end.
    let tick = |rt: &mut Runtime, n| (0..n).for_each(|_| rt.tick().expect("ticks"));
    tick(&mut rt, 4);
    let first = rt.world.resource::<TransientHeap>().heap.expect("a heap");
    let before = rt.world.resource::<AliasPlan>().peak_bytes;
    tick(&mut rt, 1);
    let heaps = rt.world.resource::<TransientHeap>();
    let second = heaps.heap.expect("a heap");
    assert_ne!(
        first, second,
        "the plan moved, so the transients were placed again"
    );
    assert_eq!(heaps.retiring.len(), 1, "the old heap waits for its fences");
    assert!(rt.world.resource::<Device>().memory.heap(first).is_some());
    let after = rt.world.resource::<AliasPlan>().peak_bytes;
    assert!(after < before, "a shares now: {after} < {before}");
    tick(&mut rt, 6);
    rt.finish().expect("finishes");
    assert!(rt.diagnostics().is_empty(), "{:#?}", rt.diagnostics());
    assert!(rt.world.resource::<TransientHeap>().retiring.is_empty());
    let device = rt.world.resource::<Device>();
    assert!(
        device.memory.heap(first).is_none(),
        "retired once its fences passed"
    );
    assert_eq!(device.memory.heap(second).map(|h| h.size), Some(after));
}

/// Every generated shape with half its textures transient, of mixed sizes, validates clean
/// with its transients placed: under the enhanced and conservative strategies, with async
/// compute on and off, in every order (issue 19).
#[test]
fn every_generated_shape_validates_clean_with_placed_transients_in_every_order() {
    use fastframe::model::Order;
    for (shape, name) in Shape::ALL {
        let spec = GenSpec {
            shape,
            passes: 120,
            seed: 5,
            compute: shape.default_compute().max(0.2),
            transient: 0.5,
            mixed_sizes: true,
        };
        let text = fastframe::scene::to_ron(&generate(&spec));
        for barriers in [BarrierMode::Enhanced, BarrierMode::Conservative] {
            for async_compute in [true, false] {
                for order in [Order::Declaration, Order::FewerBarriers, Order::Overlap] {
                    let mut rt = Runtime::from_str(&text, "generated.ron").expect("loads");
                    rt.set_validation(true);
                    let s = &mut rt.settings_mut();
                    (s.barriers, s.async_compute, s.order) = (barriers, async_compute, order);
                    rt.run(5).expect("runs");
                    let at = format!("{name}, {barriers:?}, async {async_compute}, {order:?}");
                    let found: Vec<String> =
                        rt.diagnostics().iter().map(|d| d.to_string()).collect();
                    assert!(found.is_empty(), "{at}: {found:#?}");
                    let placed = rt.world.resource::<fastframe::report::RunStats>();
                    assert!(placed.transients_placed, "{at}: nothing placed");
                }
            }
        }
    }
}
