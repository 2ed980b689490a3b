//! The ordering rules of [`order`](super::order), at memory speed.
//!
//! Compile applies the resource-version rules to every pass of every frame graph it is given,
//! so it cannot afford what the readable form does (a hash map of resource to reader list,
//! edges sorted and deduplicated as pairs). Here the resources are dense numbers, each use is
//! one `u32` (its resource's number shifted left, and the low bit set for a write), the readers
//! of each resource's latest version are a linked list threaded through one pool, and the
//! edges come out grouped by the pass they enter, as predecessor lists: the form the
//! topological order, culling and fence planning read. All memory is kept between builds, so
//! a warm build allocates nothing.
//!
//! The edges are the same set [`order::edges`](super::order::edges) gives for the same
//! passes (a test below checks it on random graphs), with one difference in form: reads of a
//! resource that keeps nothing, declared before its first write, see the frame's final
//! version through *late* edges from its last writer back to an earlier pass. Those are kept
//! apart, since only a graph that has them needs a real topological sort.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// No pass, no reader: the end of a list.
const NONE: u32 = u32::MAX;

/// A use as the builder sees it: `key << 1`, plus 1 when the use writes.
pub fn touch(key: u32, write: bool) -> u32 {
    key << 1 | u32::from(write)
}

/// Edges grouped by the pass they enter: pass `i`'s predecessors are
/// `list[starts[i]..starts[i + 1]]`, ascending and distinct.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Preds {
    pub starts: Vec<u32>,
    pub list: Vec<u32>,
}

impl Preds {
    /// The predecessors of pass `i`.
    pub fn of(&self, i: usize) -> &[u32] {
        &self.list[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// Passes described.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// End the list of the pass whose predecessors were pushed from `start`: sorted, each
    /// once.
    fn close(&mut self, start: usize) {
        self.list[start..].sort_unstable();
        let mut kept = start;
        for k in start..self.list.len() {
            if kept == start || self.list[k] != self.list[kept - 1] {
                self.list[kept] = self.list[k];
                kept += 1;
            }
        }
        self.list.truncate(kept);
        self.starts.push(kept as u32);
    }
}

/// The builder's working memory.
#[derive(Debug, Default)]
pub struct Versions {
    /// Per key: the pass that wrote its latest version.
    writer: Vec<u32>,
    /// Per key: the first of the readers of its latest version, in `pool`.
    head: Vec<u32>,
    /// Readers as (pass, next reader of the same key).
    pool: Vec<(u32, u32)>,
    /// Per key: the last pass that wrote or read it, so a pass counts once per key.
    mark: Vec<u32>,
    /// Late reads, as (key, reader), then as edges (last writer, reader).
    late: Vec<(u32, u32)>,
    /// The edges with the late ones added ([`add_late`](Self::add_late)), swapped in.
    spare: Preds,
    /// Topological order: in-degrees, successor lists and the ready passes.
    indegree: Vec<u32>,
    succ: Preds,
    ready: BinaryHeap<Reverse<u32>>,
}

impl Versions {
    /// The edges between `passes` (each its uses as [`touch`]es, in execution or declaration
    /// order) into `preds`. `keeps[k]` says whether key `k` keeps its contents across frames;
    /// `after` holds explicit edges `(before, after)` sorted by their second pass. Returns
    /// true when some edge points backwards (a late read or an `after` edge against
    /// declaration order), so that declaration order is not a valid order.
    pub fn build<'a>(
        &mut self,
        keys: usize,
        keeps: &[bool],
        passes: impl Iterator<Item = &'a [u32]>,
        after: &[(u32, u32)],
        preds: &mut Preds,
    ) -> bool {
        reset(&mut self.writer, keys, NONE);
        reset(&mut self.head, keys, NONE);
        reset(&mut self.mark, keys, NONE);
        self.pool.clear();
        self.late.clear();
        preds.starts.clear();
        preds.list.clear();
        preds.starts.push(0);
        let mut backward = false;
        let mut next_after = after.iter().peekable();
        for (i, touches) in passes.enumerate() {
            let i = i as u32;
            let start = preds.list.len();
            // A write replaces the version: it follows the last writer and the version's
            // readers (a pass that reads and writes a key counts as a writer).
            for &t in touches.iter().filter(|t| *t & 1 == 1) {
                let k = (t >> 1) as usize;
                if self.mark[k] == i {
                    continue;
                }
                self.mark[k] = i;
                if self.writer[k] != NONE {
                    preds.list.push(self.writer[k]);
                }
                let mut r = std::mem::replace(&mut self.head[k], NONE);
                while r != NONE {
                    let (reader, next) = self.pool[r as usize];
                    preds.list.push(reader);
                    r = next;
                }
                self.writer[k] = i;
            }
            for &t in touches.iter().filter(|t| *t & 1 == 0) {
                let k = (t >> 1) as usize;
                if self.mark[k] == i {
                    continue;
                }
                self.mark[k] = i;
                let w = self.writer[k];
                if w != NONE {
                    preds.list.push(w);
                } else if !keeps[k] {
                    self.late.push((k as u32, i));
                    continue;
                }
                self.pool.push((i, self.head[k]));
                self.head[k] = self.pool.len() as u32 - 1;
            }
            while let Some(&(a, _)) = next_after.next_if(|(_, b)| *b == i) {
                if a != i {
                    preds.list.push(a);
                    backward |= a > i;
                }
            }
            preds.close(start);
        }
        let writer = &self.writer;
        self.late.retain_mut(|(k, reader)| {
            let w = writer[*k as usize];
            *k = w;
            w != NONE && w != *reader
        });
        backward || !self.late.is_empty()
    }

    /// Add the late edges of the last [`build`](Self::build) to `preds`, each list kept
    /// ascending and distinct, so that an order drawn from `preds` alone (the schedulers')
    /// keeps every late read after the frame's last write, which it sees.
    pub fn add_late(&mut self, preds: &mut Preds) {
        if self.late.is_empty() {
            return;
        }
        self.late.sort_unstable_by_key(|&(a, b)| (b, a));
        let spare = &mut self.spare;
        spare.starts.clear();
        spare.list.clear();
        spare.starts.push(0);
        let mut late = self.late.iter().peekable();
        for b in 0..preds.len() {
            let start = spare.list.len();
            spare.list.extend_from_slice(preds.of(b));
            while let Some(&(a, _)) = late.next_if(|(_, r)| *r as usize == b) {
                spare.list.push(a);
            }
            spare.close(start);
        }
        std::mem::swap(preds, spare);
    }

    /// The late edges of the last [`build`](Self::build), as (last writer, reader): each
    /// points backwards.
    #[cfg(test)]
    pub fn late(&self) -> &[(u32, u32)] {
        &self.late
    }

    /// A topological order of the passes of the last build (`preds` and its late edges),
    /// preferring the lowest pass first, into `out`; `Err` when they form a cycle.
    pub fn order(&mut self, preds: &Preds, out: &mut Vec<u32>) -> Result<(), ()> {
        let n = preds.len();
        reset(&mut self.indegree, n, 0);
        // Successor lists: counted, then placed.
        let succ = &mut self.succ;
        reset(&mut succ.starts, n + 1, 0);
        let edges = || {
            (0..n)
                .flat_map(|b| preds.of(b).iter().map(move |&a| (a, b as u32)))
                .chain(self.late.iter().copied())
        };
        for (a, b) in edges() {
            succ.starts[a as usize + 1] += 1;
            self.indegree[b as usize] += 1;
        }
        for i in 1..=n {
            succ.starts[i] += succ.starts[i - 1];
        }
        reset(&mut succ.list, succ.starts[n] as usize, 0);
        for (a, b) in edges() {
            let slot = &mut succ.starts[a as usize];
            succ.list[*slot as usize] = b;
            *slot += 1;
        }
        // Placing moved each start to the next one's: shift them back.
        for i in (1..=n).rev() {
            succ.starts[i] = succ.starts[i - 1];
        }
        succ.starts[0] = 0;
        out.clear();
        self.ready.clear();
        self.ready.extend(
            (0..n as u32)
                .filter(|&i| self.indegree[i as usize] == 0)
                .map(Reverse),
        );
        while let Some(Reverse(i)) = self.ready.pop() {
            out.push(i);
            for &s in self.succ.of(i as usize) {
                self.indegree[s as usize] -= 1;
                if self.indegree[s as usize] == 0 {
                    self.ready.push(Reverse(s));
                }
            }
        }
        if out.len() == n { Ok(()) } else { Err(()) }
    }
}

/// `v` as `len` copies of `value`, keeping its memory.
fn reset<T: Copy>(v: &mut Vec<T>, len: usize, value: T) {
    v.clear();
    v.resize(len, value);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::order::{self, GraphNode};
    use bevy_ecs::entity::Entity;

    /// A small deterministic generator (xorshift), so the test needs no dependency.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    fn entity(k: u32) -> Entity {
        Entity::from_raw_u32(k + 1).expect("valid index")
    }

    /// On random graphs (reads, writes, read-writes, repeated uses, history and transient
    /// keys, `after` edges both ways), the dense builder gives exactly the readable rules'
    /// edges, and the same order or the same verdict that there is none.
    #[test]
    fn dense_edges_are_the_readable_rules_edges() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut versions = Versions::default();
        let (mut preds, mut out) = (Preds::default(), Vec::new());
        for _ in 0..400 {
            let passes = 1 + rng.below(12) as usize;
            let keys = 1 + rng.below(6) as usize;
            let keeps: Vec<bool> = (0..keys).map(|_| rng.below(2) == 0).collect();
            let mut touches: Vec<Vec<u32>> = Vec::new();
            let mut nodes = Vec::new();
            let mut after = Vec::new();
            for i in 0..passes {
                let mut node = GraphNode::default();
                let mut t = Vec::new();
                for _ in 0..rng.below(4) {
                    let k = rng.below(keys as u64) as u32;
                    let write = rng.below(3) == 0;
                    t.push(touch(k, write));
                    match write {
                        true => node.writes.push(entity(k)),
                        false => node.reads.push(entity(k)),
                    }
                }
                if passes > 1 && rng.below(8) == 0 {
                    let a = rng.below(passes as u64) as usize;
                    node.after.push(a);
                    after.push((a as u32, i as u32));
                }
                touches.push(t);
                nodes.push(node);
            }
            let keep = |e: Entity| keeps[e.index_u32() as usize - 1];
            let backward = versions.build(
                keys,
                &keeps,
                touches.iter().map(Vec::as_slice),
                &after,
                &mut preds,
            );
            let mut dense: Vec<(usize, usize)> = (0..passes)
                .flat_map(|b| preds.of(b).iter().map(move |&a| (a as usize, b)))
                .chain(
                    versions
                        .late()
                        .iter()
                        .map(|&(a, b)| (a as usize, b as usize)),
                )
                .collect();
            dense.sort_unstable();
            dense.dedup();
            let readable = order::edges(&nodes, keep);
            assert_eq!(dense, readable, "{nodes:?}");
            assert_eq!(backward, readable.iter().any(|(a, b)| a > b));
            let expected = order::order(&nodes, keep);
            let got = versions.order(&preds, &mut out);
            match expected {
                Ok(o) => {
                    let mine: Vec<usize> = out.iter().map(|&i| i as usize).collect();
                    assert_eq!(mine, o)
                }
                Err(_) => assert!(got.is_err()),
            }
        }
    }
}
