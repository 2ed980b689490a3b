//! What the hand-overs need to know of each transient that shares bytes, worked out once per
//! placement from the graph's uses (EB-5, EB-9d): the stages, accesses and layouts of its first
//! and last uses, the queue it is used on last, and the stages of the previous occupants of
//! its bytes that its activation must wait for (V0815).

use bevy_ecs::entity::EntityHashMap;

use super::AliasPlan;
use super::occupants::{previous_occupants, sharing};
use crate::barrier::{Access, Layout, Sync};
use crate::device::QUEUE_COUNT;
use crate::plan::CompiledGraph;

/// What the hand-overs need to know of one sharing transient.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sharing {
    /// Index of its placement.
    pub(super) placement: u32,
    pub(super) texture: bool,
    /// Stages, accesses and layout of its uses in its first pass.
    pub(super) first_stages: Sync,
    pub(super) first_access: Access,
    pub(super) first_layout: Option<Layout>,
    /// SyncBefore its activation adds: the previous occupants' stages on its first queue.
    pub(super) wait: Sync,
    /// Stages and accesses of all its uses on its first queue, and accesses on its last.
    pub(super) own_stages: Sync,
    pub(super) own_access: Access,
    pub(super) last_access: Access,
    /// Its first pass on the queue of its last pass, when that is not its first pass, with
    /// the stages, accesses and layout of its uses there.
    pub(super) reuse: Option<u32>,
    pub(super) reuse_stages: Sync,
    pub(super) reuse_access: Access,
    pub(super) reuse_layout: Option<Layout>,
    /// The last barrier on it, on the queue of its last pass, up to that pass: its slot and
    /// SyncAfter, AccessAfter and LayoutAfter.
    pub(super) last_barrier: Option<(u32, Sync, Access, Layout)>,
    /// Stages and accesses of its uses on its last queue after that barrier.
    pub(super) since_stages: Sync,
    pub(super) since_access: Access,
}

/// Each sharing transient's facts that do not depend on a frame's barriers.
pub(super) fn sharing_info(graph: &CompiledGraph, alias: &AliasPlan) -> EntityHashMap<Sharing> {
    let sharing = sharing(alias);
    let mut info: EntityHashMap<Sharing> = EntityHashMap::default();
    if sharing.is_empty() {
        return info;
    }
    for &i in &sharing {
        let p = &alias.placements[i as usize];
        info.insert(
            p.resource,
            Sharing {
                placement: i,
                ..Sharing::default()
            },
        );
    }
    // Per sharing transient and queue: the stages of its uses there.
    let mut stages_on: EntityHashMap<[Sync; QUEUE_COUNT]> = EntityHashMap::default();
    for (k, pass) in graph.passes.iter().enumerate() {
        for u in &pass.uses {
            let Some(s) = info.get_mut(&u.resource) else {
                continue;
            };
            let entry = stages_on
                .entry(u.resource)
                .or_insert([Sync::NONE; QUEUE_COUNT]);
            entry[pass.queue.index()] |= u.stages;
            let placement = &alias.placements[s.placement as usize];
            if graph.passes[placement.first as usize].queue == pass.queue {
                s.own_stages |= u.stages;
                s.own_access |= u.access.access();
            }
            if graph.passes[placement.last as usize].queue == pass.queue {
                s.last_access |= u.access.access();
            }
            if placement.first as usize == k {
                s.texture = u.layout.is_some();
                s.first_stages |= u.stages;
                s.first_access |= u.access.access();
                s.first_layout = s.first_layout.or(u.layout);
            }
            let last_queue = graph.passes[placement.last as usize].queue;
            if pass.queue == last_queue && k != placement.first as usize {
                let q0 = graph.passes[placement.first as usize].queue;
                if q0 != last_queue && s.reuse.is_none_or(|r| r as usize == k) {
                    s.reuse = Some(k as u32);
                    s.reuse_stages |= u.stages;
                    s.reuse_access |= u.access.access();
                    s.reuse_layout = s.reuse_layout.or(u.layout);
                }
            }
        }
    }
    for (p, preds) in previous_occupants(alias, &sharing) {
        let placement = &alias.placements[p as usize];
        let q = graph.passes[placement.first as usize].queue.index();
        let wait = (preds.iter())
            .filter_map(|o| stages_on.get(&alias.placements[*o as usize].resource))
            .fold(Sync::NONE, |w, s| w | s[q]);
        if let Some(s) = info.get_mut(&placement.resource) {
            s.wait = wait;
        }
    }
    info
}
