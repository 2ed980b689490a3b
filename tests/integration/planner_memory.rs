//! A warm compiler recompiles, a warm enhanced planner re-plans, and a warm aliasing planner
//! places transients again, without allocating: the runtime does all three on every graph
//! change, and each keeps its working memory (and writes into the graph or plan it replaces)
//! so that a compile or a plan costs its walk, not trips to the allocator.
//!
//! Allocations are counted by the global allocator this module installs. It is the whole
//! integration-test binary's, and serves every test on the harness's parallel threads, but it
//! counts on one thread only, the planning one, and only while a plan is made: no other
//! test's allocation is counted, and none of the planner's is missed. The planner is made with
//! `EnhancedPlanner::on_one_thread`, so it walks on that thread alone whatever the graph's
//! size: a default planner hands half the walk to the compute task pool from `PARALLEL_USES`
//! uses (`src/plan/barriers/enhanced/planner.rs`), and the pool's scope allocates its task.

use std::alloc::{GlobalAlloc, Layout as MemoryLayout, System};
use std::cell::Cell;

use bevy_ecs::entity::Entity;
use fastframe::barrier::Layout;
use fastframe::model::TextureState;
use fastframe::model::{Lifetime, Order, Pass, QueueKind, Settings, Use, UseAccess};
use fastframe::plan::barriers::EnhancedPlanner;
use fastframe::plan::{BarrierPlan, CompiledGraph, Compiler};
use fastframe::plan::{TargetInfo, TextureStart, compile_dispatches};

thread_local! {
    /// Counting on this thread, and the allocations counted so far.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting what the planning thread asks of it while it plans.
struct Counting;

fn count() {
    // `try_with`: the allocator also serves threads whose locals are gone.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is passed on unchanged to the system allocator; counting touches only
// const-initialised thread locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: MemoryLayout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `layout` are the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: MemoryLayout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: MemoryLayout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` came from this allocator, which is the system's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: MemoryLayout) {
        // SAFETY: `ptr` came from this allocator, which is the system's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// The allocator of every test in the binary, counting only where `allocations` asks.
#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    ALLOCATIONS.with(|n| n.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    ALLOCATIONS.with(|n| n.get())
}

/// `passes` passes on graphics and compute, each writing a texture of its own and reading
/// the `reads` written just before it, compiled.
fn graph(passes: usize, reads: usize) -> CompiledGraph {
    let res = |i: usize| Entity::from_raw_u32(10_000 + i as u32).expect("valid index");
    let generated = (0..passes).map(|p| {
        let read = |k: usize| Use {
            target: res(p - k),
            access: UseAccess::ShaderRead,
            stages: None,
            clear: false,
            range: None,
        };
        let mut uses = vec![Use {
            target: res(p),
            access: UseAccess::UnorderedAccess,
            stages: None,
            clear: false,
            range: None,
        }];
        uses.extend((1..=reads.min(p)).map(read));
        ([QueueKind::Graphics, QueueKind::Compute][p % 3 / 2], uses)
    });
    let target = |_: Entity| TargetInfo::texture(Lifetime::Imported);
    compile_dispatches(generated, target, &Settings::default()).expect("compiles")
}

fn start(_: Entity) -> TextureStart {
    TextureStart {
        state: TextureState::new(Layout::Common),
        transient: false,
        chain: false,
        compressible: false,
    }
}

#[test]
fn a_warm_planner_replans_without_allocating() {
    let (large, small) = (graph(120, 2), graph(40, 3));
    let mut planner = EnhancedPlanner::on_one_thread();
    let mut plan = BarrierPlan::default();
    // Warm: plans of every shape size the working memory and the plan's lists. (The planner
    // hands a plan its lists of texture bounds and takes the replaced plan's back, and the
    // small graph's plan has three frames where the large one's has two: the lists go round
    // several owners before each has held the largest.)
    let round = [&large, &small, &large];
    for g in round.iter().cycle().take(3 * round.len()) {
        planner.plan_into(g, start, &mut plan).expect("plans");
    }
    let barriers = |p: &BarrierPlan| p.frames.iter().map(|f| f.barriers.all().len()).sum();
    let expected: usize = barriers(&plan);
    assert!(expected > 240, "the large graph has barriers to plan");
    for g in round {
        let n = allocations(|| planner.plan_into(g, start, &mut plan).expect("plans"));
        assert_eq!(
            n,
            0,
            "a warm re-plan of {} passes allocated",
            g.passes.len()
        );
    }
    assert_eq!(barriers(&plan), expected, "the same graph, the same plan");
    // A cold planner does allocate: the counter sees the planner's allocations at all.
    let cold = allocations(|| {
        EnhancedPlanner::on_one_thread()
            .plan_into(&large, start, &mut BarrierPlan::default())
            .expect("plans");
    });
    assert!(cold > 0, "a cold plan allocates its working memory");
}

/// Passes as the compiler takes them.
fn borrow(g: &[(Entity, String, Pass)]) -> Vec<(Entity, &str, &Pass)> {
    g.iter().map(|(e, s, p)| (*e, s.as_str(), p)).collect()
}

/// The graph of [`graph`] as passes for the compiler, with names.
fn passes(passes: usize, reads: usize) -> Vec<(Entity, String, Pass)> {
    let g = graph(passes, reads);
    (g.passes.iter().enumerate())
        .map(|(i, p)| {
            let uses = (g.uses_of(p).iter())
                .map(|u| Use {
                    target: u.target,
                    access: u.access,
                    stages: None,
                    clear: u.clear,
                    range: None,
                })
                .collect();
            let queue = match p.queue.index() {
                0 => QueueKind::Graphics,
                _ => QueueKind::Compute,
            };
            (
                p.entity,
                p.name.clone(),
                Pass::dispatch(queue, uses, i as u32),
            )
        })
        .collect()
}

/// Issue 18: the runtime recompiles on every graph change, so a warm compiler (and a warm
/// planner after it) must cost their work, not trips to the allocator, whatever graph sizes
/// they met before. Graphs on two queues, so that fence planning runs too.
#[test]
fn a_warm_compiler_recompiles_without_allocating() {
    for order in [Order::Declaration, Order::FewerBarriers, Order::Overlap] {
        warm_recompile(order);
    }
}

/// A warm compile and plan in `order` allocates nothing.
fn warm_recompile(order: Order) {
    let (large, small) = (passes(120, 2), passes(40, 3));
    let (large, small) = (borrow(&large), borrow(&small));
    let target = |_: Entity| TargetInfo::texture(Lifetime::Imported);
    let settings = Settings {
        order,
        ..Settings::default()
    };
    let mut compiler = Compiler::default();
    let mut compiled = CompiledGraph::default();
    let mut planner = EnhancedPlanner::on_one_thread();
    let mut plan = BarrierPlan::default();
    let round = [&large, &small, &large];
    let mut step = |g: &[(Entity, &str, &Pass)], compiled: &mut CompiledGraph| {
        (compiler.compile_into(g, target, &settings, compiled)).expect("compiles");
        planner
            .plan_into(compiled, start, &mut plan)
            .expect("plans");
    };
    for g in round.iter().cycle().take(3 * round.len()) {
        step(g, &mut compiled);
    }
    let expected = compiled.clone();
    assert!(
        expected.passes.iter().any(|p| !p.waits.is_empty()),
        "the graph has fences to plan"
    );
    for g in round {
        let n = allocations(|| step(g, &mut compiled));
        assert_eq!(
            n,
            0,
            "a warm {order:?} recompile of {} passes allocated",
            g.len()
        );
    }
    assert_eq!(compiled, expected, "the same graph, the same compile");
    let cold = allocations(|| {
        Compiler::default()
            .compile_into(&large, target, &settings, &mut CompiledGraph::default())
            .expect("compiles");
    });
    assert!(cold > 0, "a cold compile allocates its working memory");
}

/// Passes on graphics and compute, each writing a texture and reading the two before it;
/// two textures in three are transient (the others keep their passes from being culled).
fn transient_graph(passes: usize) -> CompiledGraph {
    let res = |i: usize| Entity::from_raw_u32(10_000 + i as u32).expect("valid index");
    let generated = (0..passes).map(|p| {
        let mut uses = vec![Use {
            target: res(p),
            access: UseAccess::UnorderedAccess,
            stages: None,
            clear: false,
            range: None,
        }];
        uses.extend((1..=2.min(p)).map(|k| Use {
            target: res(p - k),
            access: UseAccess::ShaderRead,
            stages: None,
            clear: false,
            range: None,
        }));
        ([QueueKind::Graphics, QueueKind::Compute][p % 3 / 2], uses)
    });
    let target = |e: Entity| match e.index_u32() % 3 {
        0 => TargetInfo::texture(Lifetime::Imported),
        _ => TargetInfo::texture(Lifetime::Transient),
    };
    compile_dispatches(generated, target, &Settings::default()).expect("compiles")
}

/// A warm aliasing planner places transients again without allocating (plan::alias), and
/// gives the same plan.
#[test]
fn a_warm_aliaser_places_without_allocating() {
    use fastframe::plan::{AliasPlan, Aliaser};
    let (large, small) = (transient_graph(150), transient_graph(50));
    let bytes = |e: Entity| match e.index_u32() % 3 {
        0 => None,
        1 => Some(1 << 20),
        _ => Some(3 << 20),
    };
    let (mut aliaser, mut plan) = (Aliaser::default(), AliasPlan::default());
    let round = [&large, &small, &large];
    for g in round.iter().cycle().take(2 * round.len()) {
        aliaser.place_into(g, bytes, &mut plan);
    }
    let expected = plan.clone();
    assert!(
        expected.placements.len() >= 90,
        "the large graph has transients"
    );
    assert!(expected.peak_bytes < expected.unaliased_bytes);
    for g in round {
        let n = allocations(|| aliaser.place_into(g, bytes, &mut plan));
        assert_eq!(
            n,
            0,
            "a warm placement of {} passes allocated",
            g.passes.len()
        );
    }
    assert_eq!(plan, expected, "the same graph, the same placement");
    let cold = allocations(|| {
        Aliaser::place(&large, bytes);
    });
    assert!(cold > 0, "a cold placement allocates its working memory");
}

/// A warm hand-over works out a placement's hand-overs and adds them to every frame of its
/// barrier plan without allocating (plan::alias::hand_over, EB-9d), with the same barriers,
/// on plans a warm planner made into the plans they replace.
#[test]
fn a_warm_hand_over_adds_its_barriers_without_allocating() {
    use fastframe::plan::alias::HandOver;
    use fastframe::plan::{AliasPlan, Aliaser};
    let (large, small) = (transient_graph(150), transient_graph(50));
    let bytes = |e: Entity| match e.index_u32() % 3 {
        0 => None,
        1 => Some(1 << 20),
        _ => Some(3 << 20),
    };
    let start = |e: Entity| TextureStart {
        transient: !e.index_u32().is_multiple_of(3),
        ..start(e)
    };
    let cases = [&large, &small, &large].map(|g| (g, Aliaser::place(g, bytes)));
    let mut planner = EnhancedPlanner::on_one_thread();
    let mut hand_over = HandOver::default();
    let mut plans = [(); 3].map(|()| BarrierPlan::default());
    let barriers =
        |p: &BarrierPlan| -> usize { (p.frames.iter()).map(|f| f.barriers.all().len()).sum() };
    // Each round: plan into the plan the case had, then hand over (counted), as the runtime
    // does on every graph change.
    let mut round = |plans: &mut [BarrierPlan; 3]| {
        (cases.iter().zip(plans.iter_mut()))
            .map(|((g, alias), plan): (&(&CompiledGraph, AliasPlan), _)| {
                (planner.plan_into(g, start, plan)).expect("plans");
                let before = barriers(plan);
                let n = allocations(|| {
                    hand_over.prepare(g, alias);
                    for f in &mut plan.frames {
                        hand_over.apply(g, alias, f);
                    }
                });
                assert!(barriers(plan) > before, "hand-overs add barriers");
                (n, barriers(plan))
            })
            .collect::<Vec<_>>()
    };
    let mut warm = Vec::new();
    for _ in 0..3 {
        warm = round(&mut plans);
    }
    for ((n, count), (_, expected)) in round(&mut plans).into_iter().zip(&warm) {
        assert_eq!(n, 0, "a warm hand-over allocated");
        assert_eq!(count, *expected, "the same plan, the same hand-overs");
    }
    let (g, alias) = &cases[0];
    let mut frame = plans[0].frames[0].clone();
    let cold = allocations(|| HandOver::default().prepare(g, alias));
    fastframe::plan::alias::hand_over(g, alias, &mut frame);
    assert!(cold > 0, "a cold hand-over allocates its working memory");
}
