//! Fence planning's tests: the waits compile keeps, and every knowledge width alike.

use bevy_ecs::prelude::*;

use super::*;
use crate::model::{Lifetime, QueueKind, Settings, Use, UseAccess};
use crate::plan::{CompiledGraph, TargetInfo, compile_dispatches};

/// The wait across the frame boundary is found by walking each resource's uses through
/// the resource index, and the index compile renumbers for fence planning and keeps for
/// the barrier planners is the one the compiled passes would give.
#[test]
fn wrap_around_waits_are_found_through_the_index_compile_keeps() {
    let res = |i: u32| Entity::from_raw_u32(100 + i).expect("valid index");
    let use_ = |r, access| Use {
        target: res(r),
        access,
        stages: None,
        clear: false,
        range: None,
    };
    // Compute writes what graphics reads after it (to write another texture, so neither
    // pass is culled), and writes it again next frame: a wait within the frame, and one
    // across the frame boundary, which only the per-resource pass over the index finds.
    let passes = [
        (
            QueueKind::Compute,
            vec![use_(0, UseAccess::UnorderedAccess)],
        ),
        (
            QueueKind::Graphics,
            vec![
                use_(0, UseAccess::ShaderRead),
                use_(1, UseAccess::RenderTarget),
            ],
        ),
    ];
    let target = |_| TargetInfo::texture(Lifetime::Imported);
    let g = compile_dispatches(passes, target, &Settings::default()).expect("compiles");
    assert!(
        g.passes.iter().any(|p| !p.waits.is_empty()),
        "some pass waits"
    );
    assert!(
        g.passes.iter().any(|p| !p.waits_previous.is_empty()),
        "and across frames"
    );
    let mut again = g.passes.clone();
    for p in &mut again {
        (p.waits, p.waits_previous, p.signals, p.own_complete) = (vec![], vec![], false, None);
    }
    let index = ResourceIndex::of(&g.uses);
    let fences = &mut Fences::default();
    fences.plan(&mut again, &g.uses, &g.edges, &index, &[], &mut Vec::new());
    assert_eq!(again, g.passes);
    assert_eq!(index, g.resources);
    assert!(g.resources.indexes(&g.uses));
}

/// Knowledge at the width the graph's lanes round up to gives the waits, signals and
/// own-queue knowledge that the widest vectors give, on random graphs of two to five
/// queues (the two- and four-lane widths, and the fallback).
#[test]
fn every_width_plans_the_waits_the_widest_plans() {
    let queues = [
        QueueId::Graphics,
        QueueId::Compute { pipe: 0, index: 0 },
        QueueId::Compute { pipe: 1, index: 2 },
        QueueId::Dma { engine: 1 },
        QueueId::Compute { pipe: 0, index: 5 },
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let res = |i: usize| Entity::from_raw_u32(1000 + i as u32).expect("valid index");
    let mut planned_waits = 0;
    for round in 0..60 {
        let used = 2 + round % 4;
        let n = 8 + next(40);
        let reads: Vec<Vec<Entity>> = (0..n)
            .map(|_| (0..1 + next(3)).map(|_| res(next(6))).collect())
            .collect();
        let reads: Vec<&[Entity]> = reads.iter().map(Vec::as_slice).collect();
        let mut g = CompiledGraph::reading(&reads);
        for k in 0..n {
            g.passes[k].queue = queues[next(used)];
            g.uses_of_mut(k)[0].access = UseAccess::UnorderedAccess;
        }
        g.passes[0].queue = QueueId::Graphics;
        let (passes, uses) = (g.passes, &g.uses);
        let edges: Vec<(usize, usize)> = (1..n)
            .flat_map(|b| (0..next(3)).map(move |k| (b * 7 + k * 13, b)))
            .map(|(x, b)| (x % b, b))
            .collect();
        let index = ResourceIndex::of(uses);
        let (mut fitted, mut widest) = (passes.clone(), passes);
        let (mut present_fitted, mut present_widest) = (Vec::new(), Vec::new());
        let chains = [res(0)];
        let fences = &mut Fences::default();
        fences.plan(
            &mut fitted,
            uses,
            &edges,
            &index,
            &chains,
            &mut present_fitted,
        );
        let mut f = Fences::default();
        let present = &mut present_widest;
        assert!(f.lanes(&widest) >= 2, "round {round}: two queues at least");
        present_candidates(&widest, uses, &f.queues, &chains, present);
        f.across::<QUEUE_COUNT>(&mut widest, &edges, &index, &chains, present);
        assert_eq!(fitted, widest, "round {round}");
        assert_eq!(present_fitted, present_widest, "round {round}");
        planned_waits += fitted.iter().map(|p| p.waits.len()).sum::<usize>();
    }
    assert!(planned_waits > 100, "the graphs wait across queues");
}
