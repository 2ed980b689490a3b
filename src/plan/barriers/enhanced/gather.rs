//! Each resource's uses in compiled order, gathered once per plan.
//!
//! A graph from compile carries its resources numbered and its uses' places when grouped by
//! resource ([`ResourceIndex`], which fence planning uses too): the gather then only checks
//! that the index still describes the graph and copies each use to its place. A graph
//! without one (built by hand, or changed since compile) is numbered here, through a table
//! indexed by entity index or a hash map, and grouped by a counting sort.

use bevy_ecs::prelude::*;

use super::phases::ResUse;
use super::track::Q;
use super::worker::Share;
use crate::barrier::{Access, Sync};
use crate::plan::CompiledGraph;
#[cfg(doc)]
use crate::plan::ResourceIndex;

/// A table entry with no resource.
const NONE: u32 = u32::MAX;

/// Every resource's uses in compiled order, resources in order of first use: one counting
/// sort, linear in uses. `spans[r]..spans[r + 1]` indexes `uses` for resource `order[r]`.
#[derive(Default)]
pub(super) struct ByResource {
    /// Resource numbers by entity index, from `low`: ECS entities are numbered densely, so a
    /// graph's resources usually sit in a range a few times their uses, where indexing a
    /// table is cheaper than hashing every use. Kept between plans, and left empty of
    /// numbers: a re-planned graph's resources mostly fall in the last one's range, and then
    /// need no pass of their own to find it, nor a table filled afresh.
    direct: Vec<u32>,
    low: u32,
    /// Resource numbers by entity, when the indices are spread too thinly for the table.
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
        if self.gather_indexed(graph, total) {
            return;
        }
        let numbered = (!self.direct.is_empty() && self.number_directly(graph)) || {
            // The table's range misses some resource: find the graph's own.
            let (mut low, mut high) = (u32::MAX, 0);
            for p in &graph.passes {
                for u in graph.uses_of(p) {
                    let i = u.key.index_u32();
                    (low, high) = (low.min(i), high.max(i));
                }
            }
            // (No uses at all leave `low` above `high`.)
            let dense = low <= high && (high - low) as usize <= 4 * total + 64;
            dense && {
                // Room above for resources created since, which get higher indices.
                let room = (high - low) / 4 + 64;
                self.low = low;
                self.direct.clear();
                self.direct
                    .resize((high - low) as usize + 1 + room as usize, NONE);
                self.number_directly(graph)
            }
        };
        if !numbered {
            self.index.clear();
            self.index.reserve(total);
            self.count(graph, |index, e, order| {
                *index.entry(e).or_insert_with(|| {
                    order.push(e);
                    order.len() as u32 - 1
                })
            });
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
        self.make_room(graph, total);
        let mut k = 0;
        for (i, p) in graph.passes.iter().enumerate() {
            let (queue, own_complete) = (Q::new(p.queue), p.own_complete.map(|k| k as i32));
            for u in graph.uses_of(p) {
                let slot = &mut self.next[self.ids[k] as usize];
                self.uses[*slot as usize] = ResUse::of(i, queue, own_complete, u);
                *slot += 1;
                k += 1;
            }
        }
    }

    /// Gather through the index compile built (see [`ResourceIndex`]): the resources are
    /// numbered and each use's place is known, so a use costs one check that the index
    /// still describes it and one copy. False, to gather from scratch, when the graph has no
    /// index or its uses changed since (what was written here is then all rewritten).
    fn gather_indexed(&mut self, graph: &CompiledGraph, total: usize) -> bool {
        let index = &graph.resources;
        if total == 0 || index.uses() != total {
            return false;
        }
        let resources = index.resources();
        self.make_room(graph, total);
        let mut known = index.numbers().iter().zip(index.places());
        for (i, p) in graph.passes.iter().enumerate() {
            let (queue, own_complete) = (Q::new(p.queue), p.own_complete.map(|k| k as i32));
            for u in graph.uses_of(p) {
                let Some((&n, &place)) = known.next() else {
                    return false;
                };
                if resources[n as usize] != u.key {
                    return false;
                }
                self.uses[place as usize] = ResUse::of(i, queue, own_complete, u);
            }
        }
        self.order.clear();
        self.order.extend_from_slice(resources);
        self.spans.clear();
        self.spans.extend_from_slice(index.spans());
        true
    }

    /// `total` places for uses, each about to be written (the spans partition the uses),
    /// so what the last plan left there needs no clearing first.
    fn make_room(&mut self, graph: &CompiledGraph, total: usize) {
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
        self.uses.truncate(total);
        self.uses.resize(total, filler);
    }

    /// Number resources through the table indexed by entity index; false if some index is
    /// outside the table or two generations of one index are used, and the numbering must
    /// be redone. The table is left empty of numbers either way.
    fn number_directly(&mut self, graph: &CompiledGraph) -> bool {
        let (low, mut direct) = (self.low, std::mem::take(&mut self.direct));
        let mut ok = true;
        self.count(graph, |_, e, order| {
            let Some(slot) = direct.get_mut(e.index_u32().wrapping_sub(low) as usize) else {
                ok = false;
                return 0;
            };
            if *slot == NONE {
                order.push(e);
                *slot = order.len() as u32 - 1;
            } else if order[*slot as usize] != e {
                ok = false;
            }
            *slot
        });
        // Every resource numbered is in the table's range.
        for e in &self.order {
            direct[(e.index_u32() - low) as usize] = NONE;
        }
        self.direct = direct;
        ok
    }

    /// Number every use's resource with `id` (which also lists new resources in `order`),
    /// and count each resource's uses into `spans`.
    #[inline(always)]
    fn count(
        &mut self,
        graph: &CompiledGraph,
        mut id: impl FnMut(&mut hashbrown::HashMap<Entity, u32>, Entity, &mut Vec<Entity>) -> u32,
    ) {
        self.order.clear();
        self.ids.clear();
        // Uses per resource, counted as resources are met: `spans[r + 1]` for resource `r`.
        self.spans.clear();
        self.spans.push(0);
        for p in &graph.passes {
            for u in graph.uses_of(p) {
                let id = id(&mut self.index, u.key, &mut self.order);
                match self.spans.get_mut(id as usize + 1) {
                    Some(n) => *n += 1,
                    None => self.spans.push(1),
                }
                self.ids.push(id);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{PlannedUse, ResourceIndex};

    /// A graph of one pass per list, each using the listed resources (shader reads).
    fn graph(passes: &[&[Entity]]) -> CompiledGraph {
        CompiledGraph::reading(passes)
    }

    /// Each resource (in order of first use) with the passes that use it.
    fn gathered(by: &mut ByResource, g: &CompiledGraph) -> Vec<(Entity, Vec<u32>)> {
        by.gather(g);
        let spans = by.spans.clone();
        let uses = |r: usize| by.uses[spans[r] as usize..spans[r + 1] as usize].iter();
        (by.order.iter().enumerate())
            .map(|(r, &e)| (e, uses(r).map(|u| u.pass).collect()))
            .collect()
    }

    /// Dense entity indices go through the table, spread ones through the hash map, and two
    /// generations of one index (which the table would confuse) fall back to it too: all
    /// three gather the same uses in the same order, and one gatherer serves them in turn,
    /// its table kept from graph to graph and renumbered when a graph falls outside it.
    #[test]
    fn dense_spread_and_aliased_entities_gather_alike() {
        let e = |i: u32| Entity::from_raw_u32(i).expect("valid index");
        let (a, b, c) = (e(10), e(11), e(12));
        let far = e(4_000_000);
        let older = Entity::from_index_and_generation(
            a.index(),
            bevy_ecs::entity::EntityGeneration::FIRST.after_versions(1),
        );
        let mut by = ByResource::default();
        for (x, y) in [(c, a), (a, c), (far, a), (older, a), (c, a)] {
            let g = graph(&[&[x, b], &[y], &[b, x]]);
            assert_eq!(
                gathered(&mut by, &g),
                vec![(x, vec![0, 2]), (b, vec![0, 2]), (y, vec![1])],
                "first used {x}, then {y}"
            );
        }
        let empty = graph(&[]);
        assert_eq!(gathered(&mut by, &empty), vec![]);
    }

    /// A graph compile indexed gathers through its index, alike; an index its uses no
    /// longer match (a use retargeted, a use added) is not trusted, and the gather from
    /// scratch gives the graph's real uses.
    #[test]
    fn indexed_graphs_gather_alike_and_stale_indices_are_not_trusted() {
        let e = |i: u32| Entity::from_raw_u32(i).expect("valid index");
        let (a, b, c) = (e(10), e(11), e(12));
        let indexed = |g: CompiledGraph| CompiledGraph {
            resources: ResourceIndex::of(&g.uses),
            ..g
        };
        let mut by = ByResource::default();
        let g = indexed(graph(&[&[c, b], &[a], &[b, c]]));
        assert!(g.resources.indexes(&g.uses));
        let want = vec![(c, vec![0, 2]), (b, vec![0, 2]), (a, vec![1])];
        assert_eq!(gathered(&mut by, &g), want);
        assert!(by.direct.is_empty(), "the index numbered the resources");

        let mut retargeted = g.clone();
        retargeted.uses_of_mut(1)[0].key = b;
        let want = vec![(c, vec![0, 2]), (b, vec![0, 1, 2])];
        assert_eq!(gathered(&mut by, &retargeted), want);
        assert!(!by.direct.is_empty(), "numbered from scratch");

        let mut grown = g.clone();
        // A use of `a` added at the end of the first pass: the later passes' uses move up.
        let extra = grown.uses_of(&grown.passes[1])[0];
        let end = grown.passes[0].uses.end;
        grown.uses.insert(
            end as usize,
            PlannedUse {
                resource: a,
                ..extra
            },
        );
        grown.passes[0].uses.end += 1;
        for p in &mut grown.passes[1..] {
            p.uses = p.uses.start + 1..p.uses.end + 1;
        }
        let want = vec![(c, vec![0, 2]), (b, vec![0, 2]), (a, vec![0, 1])];
        assert_eq!(gathered(&mut by, &grown), want);
    }
}
