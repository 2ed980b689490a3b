//! Hand-overs on hand-made plans (EB-5, EB-9d): who held a transient's bytes before it, and
//! the activation and deactivation barriers added to a frame.

use bevy_ecs::prelude::*;

use super::occupants::{previous_occupants, sharing};
use super::{ALIAS_ALIGNMENT, AliasPlacement, AliasPlan, hand_over};
use crate::barrier::{Access, BufferBarrier, Sync};
use crate::model::UseAccess;
use crate::plan::CompiledGraph;
use crate::plan::barriers::{FramePlan, PassBarriersBuilder, WholeTexture};

const K: u64 = ALIAS_ALIGNMENT;

fn e(i: u32) -> Entity {
    Entity::from_raw_u32(100 + i).expect("valid index")
}

fn placement(i: u32, offset: u64, bytes: u64, first: u32, last: u32) -> AliasPlacement {
    AliasPlacement {
        resource: e(i),
        offset,
        bytes,
        first,
        last,
        release: last + 1,
        queue: 0,
    }
}

fn plan(placements: Vec<AliasPlacement>, passes: u32) -> AliasPlan {
    AliasPlan {
        placements,
        passes,
        ..AliasPlan::default()
    }
}

/// X at [0, 2K), then Y over its upper half and more, then Z over its lower half: on the
/// frame's circle X follows Z and Y (the frame before), Y follows X, Z follows X.
#[test]
fn previous_occupants_are_the_latest_holders_of_each_byte_on_the_circle() {
    let p = plan(
        vec![
            placement(0, 0, 2 * K, 0, 0),
            placement(1, K, 2 * K, 1, 1),
            placement(2, 0, K, 2, 2),
            placement(3, 8 * K, K, 0, 2),
        ],
        3,
    );
    assert_eq!(sharing(&p), [0, 1, 2], "the fourth shares no byte");
    let mut found = previous_occupants(&p, &sharing(&p));
    found.iter_mut().for_each(|(_, v)| v.sort_unstable());
    assert_eq!(found, [(0, vec![1, 2]), (1, vec![0]), (2, vec![0])]);
}

/// A graph of three graphics passes: p0 writes buffer A, p1 reads it, p2 writes buffer B,
/// which takes A's bytes. `C` has bytes of its own.
fn graph() -> CompiledGraph {
    let mut g = CompiledGraph::reading(&[&[e(0), e(2)], &[e(0)], &[e(1)]]);
    for (p, stages) in [(0, Sync::COMPUTE_SHADING), (2, Sync::VERTEX_SHADING)] {
        let u = &mut g.uses_of_mut(p)[0];
        (u.access, u.stages) = (UseAccess::UnorderedAccess, stages);
    }
    g
}

fn frame(planner: impl FnOnce(&mut PassBarriersBuilder<WholeTexture>)) -> FramePlan {
    let mut b = PassBarriersBuilder::<WholeTexture>::new(3);
    planner(&mut b);
    FramePlan {
        barriers: b.finish(),
        ..FramePlan::default()
    }
}

fn barrier(r: Entity, sync: (Sync, Sync), access: (Access, Access)) -> BufferBarrier<Entity> {
    BufferBarrier {
        resource: r,
        sync_before: sync.0,
        sync_after: sync.1,
        access_before: access.0,
        access_after: access.1,
    }
}

#[test]
fn sharing_buffers_are_activated_after_their_predecessors_and_deactivated_after_their_last_use() {
    let g = graph();
    let p = plan(
        vec![
            placement(0, 0, K, 0, 1),
            placement(1, 0, K, 2, 2),
            placement(2, 4 * K, K, 0, 0),
        ],
        3,
    );
    // The planner's own barrier between A's write and its read.
    let (compute, pixel) = (Sync::COMPUTE_SHADING, Sync::PIXEL_SHADING);
    let mut f = frame(|b| {
        let uav_to_srv = (Access::UNORDERED_ACCESS, Access::SHADER_RESOURCE);
        b.buffer(1, false, barrier(e(0), (compute, pixel), uav_to_srv));
    });
    hand_over(&g, &p, &mut f);
    let only = |group: crate::barrier::BarrierGroupRef<'_, Entity>| -> Vec<BufferBarrier<Entity>> {
        group.buffers.to_vec()
    };
    let (none, no) = (Sync::NONE, Access::NO_ACCESS);
    // A: activated before p0, waiting for B's vertex work of the frame before and its own.
    let a_on = only(f.barriers.before(0));
    assert_eq!(a_on.len(), 1, "C shares nothing: {a_on:?}");
    assert_eq!(a_on[0].resource, e(0));
    assert_eq!(a_on[0].access_before, no);
    assert!(a_on[0].sync_before.contains(Sync::VERTEX_SHADING));
    // The planner's barrier before p1 is left as it was.
    assert_eq!(only(f.barriers.before(1)).len(), 1);
    // A: deactivated after p1, from the read the last barrier declared.
    let a_off = only(f.barriers.after(1));
    let expected = barrier(e(0), (pixel, none), (Access::SHADER_RESOURCE, no));
    assert_eq!(a_off, [expected]);
    // B: activated before p2, waiting for A's stages on graphics; deactivated after it.
    let b_on = only(f.barriers.before(2));
    assert_eq!((b_on.len(), b_on[0].resource), (1, e(1)));
    assert!(b_on[0].sync_before.contains(compute | pixel), "{b_on:?}");
    assert_eq!(b_on[0].access_before, no);
    let b_off = only(f.barriers.after(2));
    assert_eq!((b_off[0].access_after, b_off[0].sync_after), (no, none));
    // Nothing else: p0's end and C.
    assert!(only(f.barriers.after(0)).is_empty());
}

#[test]
fn a_planner_barrier_at_the_first_use_becomes_the_activation() {
    let g = graph();
    let p = plan(vec![placement(0, 0, K, 0, 1), placement(1, 0, K, 2, 2)], 3);
    let mut f = frame(|b| {
        let srv_to_uav = (Access::SHADER_RESOURCE, Access::UNORDERED_ACCESS);
        let sync = (Sync::PIXEL_SHADING, Sync::COMPUTE_SHADING);
        b.buffer(0, false, barrier(e(0), sync, srv_to_uav));
    });
    hand_over(&g, &p, &mut f);
    let on = f.barriers.before(0).buffers.to_vec();
    assert_eq!(on.len(), 1, "one barrier on A in the call: {on:?}");
    assert_eq!(on[0].access_before, Access::NO_ACCESS);
    assert_eq!(on[0].access_after, Access::UNORDERED_ACCESS);
    assert!(
        on[0]
            .sync_before
            .contains(Sync::PIXEL_SHADING | Sync::VERTEX_SHADING)
    );
}

/// The sweep's previous occupants match a brute-force search on random placements: for each
/// unit of a sharing placement's bytes, the placement before it in order of first use (round
/// the frame's circle) that covers that unit.
#[test]
fn previous_occupants_match_a_search_byte_by_byte() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for _ in 0..200 {
        let count = 1 + next(12) as u32;
        let placements = (0..count)
            .map(|i| placement(i, next(16) * K, (1 + next(6)) * K, i, i))
            .collect();
        let p = plan(placements, count);
        let shares = sharing(&p);
        let mut found = previous_occupants(&p, &shares);
        found.iter_mut().for_each(|(_, v)| v.sort_unstable());
        let covers = |j: u32, unit: u64| {
            let q = &p.placements[j as usize];
            q.offset <= unit * K && unit * K < q.offset + q.bytes
        };
        let expected: Vec<(u32, Vec<u32>)> = (shares.iter().enumerate())
            .map(|(k, &i)| {
                let q = &p.placements[i as usize];
                let mut before: Vec<u32> = (q.offset / K..(q.offset + q.bytes) / K)
                    .filter_map(|unit| {
                        (1..=shares.len())
                            .map(|back| shares[(k + shares.len() - back) % shares.len()])
                            .find(|&j| covers(j, unit))
                    })
                    .filter(|&j| j != i)
                    .collect();
                before.sort_unstable();
                before.dedup();
                (i, before)
            })
            .collect();
        assert_eq!(found, expected, "{:?}", p.placements);
    }
}
