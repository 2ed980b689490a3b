//! The steady copy may repeat the second instead of walking it; both must give the same plan.

use bevy_ecs::prelude::*;

use super::EnhancedPlanner;
use crate::barrier::Layout;
use crate::model::TextureState;
use crate::model::{Lifetime, QueueKind, Settings, Use, UseAccess};
use crate::plan::CompiledGraph;
use crate::plan::{TargetInfo, TextureStart, compile_dispatches};

/// A seeded random graph over a few textures and buffers on random queues, compiled.
fn graph(seed: u64) -> Option<(CompiledGraph, Vec<bool>)> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let resources = 2 + next(6) as usize;
    let res = |i: usize| Entity::from_raw_u32(1_000 + i as u32).expect("valid index");
    let buffer: Vec<bool> = (0..resources).map(|_| next(3) == 0).collect();
    let transient: Vec<bool> = (0..resources).map(|_| next(3) == 0).collect();
    let passes: Vec<(QueueKind, Vec<Use>)> = (0..3 + next(12) as usize)
        .map(|_| {
            let queue =
                [QueueKind::Graphics, QueueKind::Compute, QueueKind::Copy][next(3) as usize];
            let mut uses = Vec::new();
            for (r, &is_buffer) in buffer.iter().enumerate() {
                if next(3) != 0 {
                    continue;
                }
                let access = match (queue, is_buffer, next(3)) {
                    (QueueKind::Copy, _, 0) => UseAccess::CopyDest,
                    (QueueKind::Copy, _, _) => UseAccess::CopySource,
                    (QueueKind::Graphics, false, 0) => UseAccess::RenderTarget,
                    (_, _, 0) => UseAccess::UnorderedAccess,
                    (QueueKind::Graphics, true, 1) => UseAccess::VertexBuffer,
                    _ => UseAccess::ShaderRead,
                };
                // Graphics passes shade in pixel shaders, as the draws they stand for would,
                // so the graphs mix pixel and compute shading (a dispatch's uses default to
                // compute shading on any queue).
                let shader = matches!(access, UseAccess::ShaderRead | UseAccess::UnorderedAccess);
                let pixel = queue == QueueKind::Graphics && shader;
                uses.push(Use {
                    target: res(r),
                    access,
                    stages: pixel.then_some(crate::barrier::Sync::PIXEL_SHADING),
                    clear: false,
                    range: None,
                });
            }
            (queue, uses)
        })
        .collect();
    let target = |e: Entity| {
        let i = (e.index_u32() - 1_000) as usize;
        let lifetime = if transient[i] {
            Lifetime::Transient
        } else {
            Lifetime::Imported
        };
        if buffer[i] {
            TargetInfo::Buffer { lifetime }
        } else {
            TargetInfo::texture(lifetime)
        }
    };
    let compiled = compile_dispatches(passes, target, &Settings::default()).ok()?;
    Some((compiled, transient))
}

/// A planner walking on two threads from `parallel_from` uses, and walking the steady copy
/// even when it repeats the second.
fn planner(parallel_from: Option<usize>, walk_steady: bool) -> EnhancedPlanner {
    let mut p = EnhancedPlanner::default();
    p.parallel_from = parallel_from;
    p.pace = super::pace::Pace::forced();
    p.walk_steady = walk_steady;
    p
}

/// Where [`graph`]'s resources start: in COMMON, transients as the graph made them.
fn starts(transient: &[bool], compressible: bool) -> impl Fn(Entity) -> TextureStart + Copy {
    move |e: Entity| TextureStart {
        state: TextureState::new(Layout::Common),
        transient: transient[(e.index_u32() - 1_000) as usize],
        chain: false,
        compressible,
    }
}

#[test]
fn repeating_the_second_copy_plans_what_walking_the_steady_one_does() {
    // Also: when every steady copy repeats, the plan is two frames, the second steady.
    // And a second copy that converges to the first gives what walking it does.
    let (mut planned, mut repeated, mut walked_all, mut two_frames) = (0, 0, 0, 0);
    let mut converged = 0;
    for seed in 0..400 {
        let Some((g, transient)) = graph(seed) else {
            continue;
        };
        let start = starts(&transient, seed % 2 == 0);
        let mut fast = EnhancedPlanner::default();
        let mut walked = planner(None, true);
        let a = fast.plan(&g, start);
        let b = walked.plan(&g, start);
        // A plan whose steady frame is its second stops there; frame by frame they agree.
        match (&a, &b) {
            (Ok(a), Ok(b)) => {
                for k in 0..3 {
                    assert_eq!(a.frame_at(k), b.frame_at(k), "seed {seed}, frame {k}");
                }
                two_frames += (a.frames.len() == 2) as usize;
            }
            _ => assert_eq!(a, b, "seed {seed}"),
        }
        planned += a.is_ok() as usize;
        repeated += fast.repeated;
        converged += fast.converged;
        walked_all += walked.repeated + walked.converged;
    }
    assert!(planned > 200, "only {planned} graphs planned");
    assert!(
        repeated > 200,
        "the steady copy repeated only {repeated} times"
    );
    assert!(converged > 10, "only {converged} second copies converged");
    assert_eq!(walked_all, 0);
    assert!(two_frames > 100, "only {two_frames} plans of two frames");
}

#[test]
fn planning_into_an_old_plan_gives_what_planning_afresh_does() {
    let mut planner = EnhancedPlanner::default();
    let mut out = crate::plan::BarrierPlan {
        generation: 3,
        ..Default::default()
    };
    let mut reused = 0;
    for seed in 0..60 {
        let Some((g, transient)) = graph(seed) else {
            continue;
        };
        let start = starts(&transient, false);
        let fresh = EnhancedPlanner::default().plan(&g, start);
        let into = planner.plan_into(&g, start, &mut out);
        match fresh {
            Ok(p) => {
                into.expect("plans as afresh");
                assert_eq!(out.frames, p.frames, "seed {seed}");
                assert_eq!(out.generation, 3, "restarts, keeps generation");
                reused += 1;
            }
            Err(e) => {
                assert_eq!(into, Err(e));
                assert!(out.frames.is_empty(), "a failed plan leaves nothing to run");
            }
        }
    }
    assert!(reused > 30, "only {reused} graphs planned");
}

#[test]
fn two_workers_plan_exactly_what_one_does() {
    let mut planned = 0;
    for seed in 0..400 {
        let Some((g, transient)) = graph(seed) else {
            continue;
        };
        let start = starts(&transient, seed % 3 == 0);
        let mut one = EnhancedPlanner::on_one_thread();
        // Every graph split between two threads, however small.
        let mut two = planner(Some(0), false);
        let mut two_walked = planner(Some(0), true);
        let a = one.plan(&g, start);
        assert_eq!(two.plan(&g, start), a, "seed {seed}");
        assert_eq!(two.repeated, one.repeated, "seed {seed}");
        let mut one_walked = planner(None, true);
        assert_eq!(
            two_walked.plan(&g, start),
            one_walked.plan(&g, start),
            "seed {seed}"
        );
        planned += a.is_ok() as usize;
    }
    assert!(planned > 200, "only {planned} graphs planned");
}

/// EB-8a: no access is barrier-free, so in a plan's first frame each queue's first access
/// to a resource waits for everything before the plan (SyncBefore ALL). Once a queue has had
/// that barrier, the resource going to another queue and back brings nothing unknown back:
/// the queue's next barrier waits for what it needs, as it does in the steady frame.
#[test]
fn first_frame_waits_for_everything_once_per_queue() {
    let r = |i: u32| Entity::from_raw_u32(1_000 + i).expect("valid index");
    let (x, y, z) = (r(0), r(1), r(2));
    let reads = |target| Use {
        target,
        access: UseAccess::ShaderRead,
        stages: None,
        clear: false,
        range: None,
    };
    let writes = |target| Use {
        access: UseAccess::UnorderedAccess,
        ..reads(target)
    };
    // Graphics writes x, compute reads it (writing y), graphics reads it (writing z).
    let passes = [
        (QueueKind::Graphics, vec![writes(x)]),
        (QueueKind::Compute, vec![reads(x), writes(y)]),
        (QueueKind::Graphics, vec![reads(x), writes(z)]),
    ];
    let target = |_: Entity| TargetInfo::texture(Lifetime::Imported);
    let g = compile_dispatches(passes, target, &Settings::default()).expect("compiles");
    assert_eq!(g.passes.len(), 3, "nothing culled");
    let plan = EnhancedPlanner::on_one_thread()
        .plan(&g, starts(&[false; 3], false))
        .expect("plans");
    // The barriers on x at the start of a pass.
    let before = |frame: usize, pass: usize| {
        let f = plan.frame_at(frame).expect("a frame");
        let on_x = |t: &&crate::barrier::TextureBarrier<Entity>| t.resource == x;
        let b = f.barriers.before(pass);
        b.textures.iter().filter(on_x).copied().collect::<Vec<_>>()
    };
    let all = |b: &[crate::barrier::TextureBarrier<Entity>]| {
        b.iter()
            .any(|b| b.sync_before.contains(crate::barrier::Sync::ALL))
    };
    for pass in [0, 1] {
        let first = before(0, pass);
        assert_eq!(
            first.len(),
            1,
            "pass {pass}: a first access has a barrier (EB-8a)"
        );
        assert!(all(&first), "pass {pass} waits for everything: {first:?}");
        assert!(!all(&before(1, pass)), "pass {pass}, steady frame");
    }
    // Graphics again, after compute: its sequence of barriers restarted, but nothing
    // before the plan is left to wait for.
    let back = before(0, 2);
    assert_eq!(
        back.len(),
        1,
        "graphics reads what compute last had: {back:?}"
    );
    assert!(!all(&back), "{back:?}");
    assert_eq!(back, before(1, 2), "as in the steady frame");
}
