//! Each resource's uses in compiled order, gathered once per plan.

use bevy_ecs::prelude::*;

use super::phases::ResUse;
use super::track::Q;
use super::worker::Share;
use crate::barrier::{Access, Sync};
use crate::plan::CompiledGraph;

/// Every resource's uses in compiled order, resources in order of first use: one counting
/// sort, linear in uses. `spans[r]..spans[r + 1]` indexes `uses` for resource `order[r]`.
#[derive(Default)]
pub(super) struct ByResource {
    index: hashbrown::HashMap<Entity, u32>,
    pub(super) order: Vec<Entity>,
    ids: Vec<u32>,
    spans: Vec<u32>,
    next: Vec<u32>,
    uses: Vec<ResUse>,
}

impl ByResource {
    pub(super) fn gather(&mut self, graph: &CompiledGraph) {
        let total: usize = graph.passes.iter().map(|p| p.uses.len()).sum();
        self.index.clear();
        self.index.reserve(total);
        self.order.clear();
        self.ids.clear();
        // Uses per resource, counted as resources are met: `spans[r + 1]` for resource `r`.
        self.spans.clear();
        self.spans.push(0);
        for p in &graph.passes {
            for u in &p.uses {
                let (order, spans) = (&mut self.order, &mut self.spans);
                let id = *self.index.entry(u.resource).or_insert_with(|| {
                    order.push(u.resource);
                    spans.push(0);
                    order.len() as u32 - 1
                });
                spans[id as usize + 1] += 1;
                self.ids.push(id);
            }
        }
        // The running sum stays in a register: summing in place would reload each total
        // just stored, a store-to-load round trip per resource.
        let mut at = 0;
        for s in &mut self.spans {
            at += *s;
            *s = at;
        }
        self.next.clear();
        self.next.extend_from_slice(&self.spans);
        let Some(first) = graph.passes.first() else {
            self.uses.clear();
            return;
        };
        let filler = ResUse {
            pass: 0,
            queue: Q::new(first.queue),
            stages: Sync::NONE,
            access: Access::empty(),
            write: false,
            layout: None,
            shared: false,
            own_complete: None,
        };
        // Every place is written below (the spans partition the uses), so what the last plan
        // left there needs no clearing first.
        self.uses.truncate(total);
        self.uses.resize(total, filler);
        let mut k = 0;
        for (i, p) in graph.passes.iter().enumerate() {
            let queue = Q::new(p.queue);
            for u in &p.uses {
                let slot = &mut self.next[self.ids[k] as usize];
                self.uses[*slot as usize] = ResUse {
                    pass: i as u32,
                    queue,
                    stages: u.stages.expand(),
                    access: u.access.access(),
                    write: u.access.is_write(),
                    layout: u.layout,
                    shared: false,
                    own_complete: p.own_complete.map(|k| k as i32),
                };
                *slot += 1;
                k += 1;
            }
        }
    }

    /// The first resource of the half of the uses that comes second (at least one resource
    /// on each side when there are two).
    pub(super) fn middle(&self) -> usize {
        let half = (self.uses.len() / 2) as u32;
        let last = self.order.len().saturating_sub(1).max(1);
        self.spans.partition_point(|&s| s < half).clamp(1, last)
    }

    /// The resources before `k` and from `k` on, as two workers' shares.
    pub(super) fn shares(&mut self, k: usize) -> (Share<'_>, Share<'_>) {
        let (a, b) = self.uses.split_at_mut(self.spans[k] as usize);
        let (before, after) = self.order.split_at(k);
        (
            Share {
                order: before,
                spans: &self.spans[..=k],
                uses: a,
            },
            Share {
                order: after,
                spans: &self.spans[k..],
                uses: b,
            },
        )
    }
}
