//! Resources numbered once per compile.
//!
//! Fences and the enhanced barrier planner both look at a graph's uses resource by resource,
//! in pass order. Compile numbers every resource its passes use, densely and in order of
//! first use, and groups the uses by resource once; the others index arrays with those
//! numbers instead of each hashing every use's entity again.
//!
//! The index belongs to the passes it was built from. A graph assembled by hand, or whose
//! uses changed after compile, has an index that does not describe it; readers check with
//! [`ResourceIndex::indexes`] (or the same test inline) and number the resources themselves
//! when it fails.

use std::ops::Range;

use bevy_ecs::prelude::*;

use super::PlannedUse;

/// Every resource a compiled graph's passes use, numbered, and the uses grouped by
/// resource. Built only by [`ResourceIndex::of`], so its parts always agree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceIndex {
    /// The resources in order of first use (pass order, then use order).
    resources: Vec<Entity>,
    /// Per use, in pass order then use order: its resource's number.
    numbers: Vec<u32>,
    /// Per use (same order): whether it writes, which is all fence planning reads of a use.
    writes: Vec<bool>,
    /// Per use (same order): its place among the uses grouped by resource, each resource's
    /// uses in pass order.
    places: Vec<u32>,
    /// Where each resource's uses start among the grouped ones; one more entry ends them.
    spans: Vec<u32>,
}

impl ResourceIndex {
    /// Number the resources of `uses` (a graph's, [`CompiledGraph::uses`]) and group them.
    pub fn of(uses: &[PlannedUse]) -> ResourceIndex {
        let total = uses.len();
        let mut number_of: hashbrown::HashMap<Entity, u32> = hashbrown::HashMap::new();
        let (mut resources, mut numbers) = (Vec::new(), Vec::with_capacity(total));
        let writes = uses.iter().map(|u| u.access.is_write()).collect();
        // Uses per resource, at `spans[r + 1]`, summed into starts below.
        let mut spans = vec![0];
        for u in uses {
            let n = *number_of.entry(u.key).or_insert_with(|| {
                resources.push(u.key);
                spans.push(0);
                resources.len() as u32 - 1
            });
            spans[n as usize + 1] += 1;
            numbers.push(n);
        }
        for r in 1..spans.len() {
            spans[r] += spans[r - 1];
        }
        let mut next = spans.clone();
        let places = (numbers.iter())
            .map(|&n| {
                let place = next[n as usize];
                next[n as usize] += 1;
                place
            })
            .collect();
        ResourceIndex {
            resources,
            numbers,
            writes,
            places,
            spans,
        }
    }

    /// The index [`of`](Self::of) would build, into this one's memory, from uses the caller
    /// has numbered already: `touches` gives each use's number, shifted left by one, with
    /// the low bit set for a write ([`touch`](super::versions::touch)), in pass order then
    /// use order, and `keys[n]` is the resource of number `n`. `remap` is working memory.
    /// Compile numbers every resource once, for all passes; this renumbers those it kept
    /// without hashing.
    pub(crate) fn rebuild(
        &mut self,
        keys: &[Entity],
        touches: impl Iterator<Item = u32>,
        remap: &mut Vec<u32>,
    ) {
        const UNSEEN: u32 = u32::MAX;
        remap.clear();
        remap.resize(keys.len(), UNSEEN);
        self.resources.clear();
        self.numbers.clear();
        self.writes.clear();
        self.spans.clear();
        self.spans.push(0);
        for t in touches {
            let n = t >> 1;
            self.writes.push(t & 1 == 1);
            let m = &mut remap[n as usize];
            if *m == UNSEEN {
                *m = self.resources.len() as u32;
                self.resources.push(keys[n as usize]);
                self.spans.push(0);
            }
            self.spans[*m as usize + 1] += 1;
            self.numbers.push(*m);
        }
        for r in 1..self.spans.len() {
            self.spans[r] += self.spans[r - 1];
        }
        // `remap` now counts each resource's next place.
        remap.clear();
        remap.extend_from_slice(&self.spans);
        self.places.clear();
        self.places.extend(self.numbers.iter().map(|&n| {
            let place = remap[n as usize];
            remap[n as usize] += 1;
            place
        }));
    }

    /// True when this index was built from `uses` as they are: the same number of them, each
    /// of the resource it was numbered for, writing where it was noted to write.
    pub fn indexes(&self, uses: &[PlannedUse]) -> bool {
        let mut numbers = self.numbers.iter().zip(&self.writes);
        uses.iter().all(|u| {
            numbers.next().is_some_and(|(&n, &w)| {
                self.resources[n as usize] == u.key && w == u.access.is_write()
            })
        }) && numbers.next().is_none()
    }

    /// The resources, in order of first use.
    pub fn resources(&self) -> &[Entity] {
        &self.resources
    }

    /// Per use, in pass order then use order: its resource's number.
    pub fn numbers(&self) -> &[u32] {
        &self.numbers
    }

    /// Per use (same order): whether it writes.
    pub fn writes(&self) -> &[bool] {
        &self.writes
    }

    /// Per use (same order): its place among the uses grouped by resource.
    pub fn places(&self) -> &[u32] {
        &self.places
    }

    /// Where each resource's uses start among the grouped ones; one more entry ends them.
    pub fn spans(&self) -> &[u32] {
        &self.spans
    }

    /// The places of resource `r`'s uses among the grouped ones.
    pub fn span(&self, r: usize) -> Range<usize> {
        self.spans[r] as usize..self.spans[r + 1] as usize
    }

    /// Uses indexed.
    pub fn uses(&self) -> usize {
        self.numbers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::CompiledGraph;

    /// Pass `i` reading the resources numbered `reads[i]` (as entity indices).
    fn graph(reads: &[&[u32]]) -> CompiledGraph {
        let e = |i: &u32| Entity::from_raw_u32(*i).expect("valid index");
        let reads: Vec<Vec<Entity>> = reads.iter().map(|r| r.iter().map(e).collect()).collect();
        CompiledGraph::reading(&reads.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }

    /// Resources are numbered in order of first use, and grouping puts each resource's uses
    /// together in pass order: the places are a permutation that a naive grouping agrees with.
    #[test]
    fn resources_are_numbered_by_first_use_and_grouped_in_pass_order() {
        let g = graph(&[&[7, 3], &[3], &[9, 7, 3]]);
        let index = ResourceIndex::of(&g.uses);
        let e = |i: u32| Entity::from_raw_u32(i).expect("valid index");
        assert_eq!(index.resources(), &[e(7), e(3), e(9)]);
        assert_eq!(index.numbers(), &[0, 1, 1, 2, 0, 1]);
        assert_eq!(index.spans(), &[0, 2, 5, 6]);
        let flat: Vec<(usize, Entity)> = (g.passes.iter().enumerate())
            .flat_map(|(i, p)| g.uses_of(p).iter().map(move |u| (i, u.key)))
            .collect();
        let mut grouped = vec![None; flat.len()];
        for (k, &place) in index.places().iter().enumerate() {
            assert!(
                grouped[place as usize].is_none(),
                "place {place} taken twice"
            );
            grouped[place as usize] = Some(flat[k]);
        }
        for (r, &res) in index.resources().iter().enumerate() {
            let naive: Vec<(usize, Entity)> =
                flat.iter().copied().filter(|&(_, x)| x == res).collect();
            let mine: Vec<(usize, Entity)> =
                index.span(r).map(|p| grouped[p].expect("filled")).collect();
            assert_eq!(mine, naive, "resource {res}");
        }
        assert!(index.indexes(&g.uses));
        assert_eq!(index.uses(), 6);
    }

    /// Rebuilding from the caller's numbers gives the index `of` builds, whatever numbers
    /// the caller chose, in the memory of the index it replaces.
    #[test]
    fn a_rebuilt_index_is_the_index_of_the_passes() {
        let g = graph(&[&[7, 3], &[3], &[9, 7, 3]]);
        let e = |i: u32| Entity::from_raw_u32(i).expect("valid index");
        // The caller numbered 3 as 0, 9 as 1, 7 as 2, and a resource no kept pass uses as 3.
        let keys = [e(3), e(9), e(7), e(5)];
        let number = |x: Entity| keys.iter().position(|&k| k == x).expect("numbered") as u32;
        let touches = (g.uses.iter()).map(|u| number(u.key) << 1 | u32::from(u.access.is_write()));
        let mut index = ResourceIndex::of(&graph(&[&[1, 2, 4, 5, 6]]).uses);
        index.rebuild(&keys, touches, &mut Vec::new());
        assert_eq!(index, ResourceIndex::of(&g.uses));
    }

    /// An index describes only the uses it was built from.
    #[test]
    fn an_index_knows_when_uses_changed() {
        let g = graph(&[&[1, 2], &[2]]);
        let index = ResourceIndex::of(&g.uses);
        let mut other = g.clone();
        other.uses_of_mut(1)[0].key = Entity::from_raw_u32(1).expect("valid index");
        assert!(!index.indexes(&other.uses), "a use names another resource");
        assert!(!index.indexes(&g.uses[..2]), "a use went");
        let mut written = g.clone();
        written.uses_of_mut(1)[0].access = crate::model::UseAccess::UnorderedAccess;
        assert!(!index.indexes(&written.uses), "a read became a write");
        let more = graph(&[&[1, 2], &[2], &[1]]);
        assert!(!index.indexes(&more.uses), "a use came");
        assert!(ResourceIndex::default().indexes(&[]));
        assert!(!ResourceIndex::default().indexes(&g.uses));
    }
}
