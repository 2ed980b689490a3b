//! What the hand-overs need to know of each transient that shares bytes, worked out once per
//! placement from the graph's uses (EB-5, EB-9d): the stages, accesses and layouts of its first
//! and last uses, the queue it is used on last, and the stages of the previous occupants of
//! its bytes that its activation must wait for (V0815).

use bevy_ecs::prelude::*;

use super::AliasPlan;
use super::lookup::Lookup;
use super::occupants::Occupancy;
use crate::barrier::{Access, Layout, Sync};
use crate::device::QUEUE_COUNT;
use crate::plan::CompiledGraph;

/// What the hand-overs need to know of one sharing transient.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sharing {
    pub(super) resource: Entity,
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
}

/// A use on the queue of a transient's last pass, up to that pass: where the deactivation
/// finds the accesses since the last barrier on it.
#[derive(Clone, Copy, Debug)]
pub(super) struct TailUse {
    pub(super) pass: u32,
    pub(super) stages: Sync,
    pub(super) access: Access,
}

/// Every sharing transient's facts that do not depend on a frame's barriers, in placement
/// order, with their tail uses grouped by transient; and the memory that finds them, kept
/// between placements.
#[derive(Debug, Default)]
pub(super) struct SharingFacts {
    pub(super) info: Vec<Sharing>,
    pub(super) lookup: Lookup,
    /// Transient `i`'s tail uses are `tail[tail_starts[i]..tail_starts[i + 1]]`, in pass order.
    pub(super) tail: Vec<TailUse>,
    pub(super) tail_starts: Vec<u32>,
    occupancy: Occupancy,
    sharing: Vec<u32>,
    /// Per sharing transient and queue: the stages of its uses there.
    stages_on: Vec<[Sync; QUEUE_COUNT]>,
    /// Tail uses, by transient, in pass order, before grouping.
    found: Vec<(u32, TailUse)>,
    /// Placement index -> position among the sharing ones.
    position: Vec<u32>,
}

impl SharingFacts {
    /// Transient `i`'s uses on its last queue, up to its last pass.
    pub(super) fn tail(&self, i: usize) -> &[TailUse] {
        &self.tail[self.tail_starts[i] as usize..self.tail_starts[i + 1] as usize]
    }

    /// Work out each sharing transient's facts for `alias` on `graph`.
    pub(super) fn gather(&mut self, graph: &CompiledGraph, alias: &AliasPlan) {
        (self.occupancy).sharing(alias, &mut self.sharing);
        self.info.clear();
        self.info.extend(self.sharing.iter().map(|&i| Sharing {
            resource: alias.placements[i as usize].resource,
            placement: i,
            texture: false,
            first_stages: Sync::NONE,
            first_access: Access::empty(),
            first_layout: None,
            wait: Sync::NONE,
            own_stages: Sync::NONE,
            own_access: Access::empty(),
            last_access: Access::empty(),
            reuse: None,
            reuse_stages: Sync::NONE,
            reuse_access: Access::empty(),
            reuse_layout: None,
        }));
        self.lookup.rebuild(self.info.iter().map(|s| s.resource));
        self.tail.clear();
        self.tail_starts.clear();
        self.tail_starts.resize(self.info.len() + 1, 0);
        if self.info.is_empty() {
            return;
        }
        self.uses(graph, alias);
        self.position.clear();
        self.position.resize(alias.placements.len(), u32::MAX);
        for (at, &p) in self.sharing.iter().enumerate() {
            self.position[p as usize] = at as u32;
        }
        let (info, position, stages_on) = (&mut self.info, &self.position, &self.stages_on);
        (self.occupancy).for_each_previous_occupant(alias, &self.sharing, |p, o| {
            let (i, o) = (position[p as usize] as usize, position[o as usize] as usize);
            let q = graph.passes[alias.placements[p as usize].first as usize]
                .queue
                .index();
            info[i].wait |= stages_on[o][q];
        });
        // Group the tail uses by transient, keeping pass order (a stable counting sort).
        for (i, _) in &self.found {
            self.tail_starts[*i as usize + 1] += 1;
        }
        for i in 0..self.info.len() {
            self.tail_starts[i + 1] += self.tail_starts[i];
        }
        let filler = TailUse {
            pass: 0,
            stages: Sync::NONE,
            access: Access::empty(),
        };
        self.tail.resize(self.found.len(), filler);
        // Fill using `tail_starts[i]` as transient i's cursor, then shift back.
        for &(i, u) in &self.found {
            let at = &mut self.tail_starts[i as usize];
            self.tail[*at as usize] = u;
            *at += 1;
        }
        for i in (1..self.tail_starts.len()).rev() {
            self.tail_starts[i] = self.tail_starts[i - 1];
        }
        self.tail_starts[0] = 0;
    }

    /// One pass over the graph's uses: each sharing transient's stages per queue, its first,
    /// own, last and reuse accesses, and its tail uses.
    fn uses(&mut self, graph: &CompiledGraph, alias: &AliasPlan) {
        self.stages_on.clear();
        (self.stages_on).resize(self.info.len(), [Sync::NONE; QUEUE_COUNT]);
        self.found.clear();
        for (k, pass) in graph.passes.iter().enumerate() {
            for u in graph.uses_of(pass) {
                let Some(i) = self.lookup.get(u.resource) else {
                    continue;
                };
                let s = &mut self.info[i];
                self.stages_on[i][pass.queue.index()] |= u.stages;
                let placement = &alias.placements[s.placement as usize];
                let first_queue = graph.passes[placement.first as usize].queue;
                let last_queue = graph.passes[placement.last as usize].queue;
                if first_queue == pass.queue {
                    s.own_stages |= u.stages;
                    s.own_access |= u.access.access();
                }
                if last_queue == pass.queue {
                    s.last_access |= u.access.access();
                    if k <= placement.last as usize {
                        let (stages, access) = (u.stages, u.access.access());
                        let pass = k as u32;
                        let tail = TailUse {
                            pass,
                            stages,
                            access,
                        };
                        self.found.push((i as u32, tail));
                    }
                }
                if placement.first as usize == k {
                    s.texture = u.layout.is_some();
                    s.first_stages |= u.stages;
                    s.first_access |= u.access.access();
                    s.first_layout = s.first_layout.or(u.layout);
                }
                if pass.queue == last_queue
                    && k != placement.first as usize
                    && first_queue != last_queue
                    && s.reuse.is_none_or(|r| r as usize == k)
                {
                    s.reuse = Some(k as u32);
                    s.reuse_stages |= u.stages;
                    s.reuse_access |= u.access.access();
                    s.reuse_layout = s.reuse_layout.or(u.layout);
                }
            }
        }
    }
}
