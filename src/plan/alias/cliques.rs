//! The lower bound under the hand-over rule: the heaviest set of transients no two of which
//! may share bytes (EB-9d, V0814).
//!
//! Transients in use at one pass all need bytes of their own, so the most bytes in use at one
//! pass is a lower bound ([`super::lifetimes::Lifetimes::lower_bound`]). With async compute it
//! is not the only reason two transients cannot share: a transient whose uses another queue's
//! activation is not ordered after by any fence keeps its bytes from it though their uses
//! never meet, and a transient a compute pass activates at the start of the next frame, before
//! that queue waits on the graphics queue, cannot take the bytes of one the graphics queue
//! used last. Any set of transients that pairwise may not share (a clique of the meeting
//! graph, [`super::meets`]) needs the sum of their bytes, so the bound is the heaviest one
//! found.
//!
//! The heaviest clique of a general graph is hard to find; here the transients in use at
//! one pass already are a clique, and every clique of an interval graph is one of those. Each
//! is grown: among the transients that meet every one in use, the largest first, each one
//! that meets all those taken so far is taken. The sweep keeps, per transient, how many of
//! those in use it meets (counted as each enters and leaves, linear in the graph's pairs), so
//! the candidates come straight from the neighbours of the one in use with the fewest, and
//! only the few taken are tested pair by pair. That finds the heaviest on every bundled real
//! frame (an exhaustive search agrees, see the tests), within a budget linear in uses; past
//! the budget, the heaviest clique found so far is the bound, which stays a bound.

use super::lifetimes::{Known, Slot};
use super::meets::Meets;

/// Working memory of the clique search, kept between placements.
#[derive(Debug, Default)]
pub(super) struct Cliques {
    /// Slots in order of last use, as the sweep drops them.
    by_last: Vec<u32>,
    /// The slots in use at the current pass.
    live: Vec<u32>,
    /// Per slot: whether it is in `live`.
    in_live: Vec<bool>,
    /// Per slot: how many slots in `live` its lifetime meets.
    meets_live: Vec<u32>,
    /// Per slot: the last visit that counted it, so that a pair listed twice counts once.
    seen: Vec<u32>,
    visit: u32,
    /// The clique being grown, beyond the slots in use.
    taken: Vec<u32>,
    candidates: Vec<u32>,
}

impl Cliques {
    /// The heaviest clique found, at least `bound` (the most bytes in use at one pass),
    /// visiting at most about `budget` pairs; `meets` lists the graph of `slots` (in order of
    /// first use) over `known.n` passes.
    pub fn heaviest(
        &mut self,
        slots: &[Slot],
        meets: &Meets,
        known: Known<'_>,
        bound: u64,
        mut budget: u64,
    ) -> u64 {
        let n = known.n as usize;
        self.by_last.clear();
        self.by_last.extend(0..slots.len() as u32);
        self.by_last
            .sort_unstable_by_key(|&i| (slots[i as usize].last, i));
        self.live.clear();
        self.in_live.clear();
        self.in_live.resize(slots.len(), false);
        self.meets_live.clear();
        self.meets_live.resize(slots.len(), 0);
        self.seen.clear();
        self.seen.resize(slots.len(), 0);
        self.visit = 0;
        let (mut next, mut gone) = (0, 0);
        let mut best = bound;
        // The bytes of the transients in use.
        let mut held = 0;
        for x in 0..n as u32 {
            while next < slots.len() && slots[next].first == x {
                self.live.push(next as u32);
                self.in_live[next] = true;
                self.count(meets, next, 1);
                held += slots[next].bytes;
                next += 1;
            }
            // The member with the fewest neighbours: every other member of the clique is one.
            let Some(&pivot) = self
                .live
                .iter()
                .min_by_key(|&&i| meets.of(i as usize).len())
            else {
                continue;
            };
            // Its neighbours that meet every transient in use, each once.
            self.candidates.clear();
            self.visit += 1;
            let everyone = self.live.len() as u32;
            for &j in meets.of(pivot as usize) {
                let u = j as usize;
                if !self.in_live[u] && self.meets_live[u] == everyone && self.seen[u] != self.visit
                {
                    self.seen[u] = self.visit;
                    self.candidates.push(j);
                }
            }
            let around: u64 = (self.candidates.iter())
                .map(|&j| slots[j as usize].bytes)
                .sum();
            if held + around > best && budget > 0 {
                budget = budget.saturating_sub(meets.of(pivot as usize).len() as u64);
                self.candidates
                    .sort_unstable_by_key(|&j| (std::cmp::Reverse(slots[j as usize].bytes), j));
                self.taken.clear();
                let mut weight = held;
                for &c in &self.candidates {
                    let c = c as usize;
                    budget = budget.saturating_sub(self.taken.len() as u64);
                    if (self.taken.iter()).all(|&m| known.meet(slots, c, m as usize)) {
                        self.taken.push(c as u32);
                        weight += slots[c].bytes;
                    }
                }
                best = best.max(weight);
            }
            while gone < slots.len() && slots[self.by_last[gone] as usize].last == x {
                let i = self.by_last[gone] as usize;
                self.in_live[i] = false;
                self.count(meets, i, u32::MAX);
                held -= slots[i].bytes;
                gone += 1;
            }
            let in_live = &self.in_live;
            self.live.retain(|&i| in_live[i as usize]);
        }
        best
    }

    /// Add `step` (1 as slot `i` enters the slots in use, -1 wrapping as it leaves) to the
    /// count of each slot its lifetime meets.
    fn count(&mut self, meets: &Meets, i: usize, step: u32) {
        self.visit += 1;
        for &j in meets.of(i) {
            let j = j as usize;
            if self.seen[j] != self.visit {
                self.seen[j] = self.visit;
                self.meets_live[j] = self.meets_live[j].wrapping_add(step);
            }
        }
    }
}
