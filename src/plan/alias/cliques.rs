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
//! is grown: among the transients that meet the one of them with the fewest neighbours, the
//! largest first, each one that meets all those taken so far is taken. That finds the heaviest
//! on every bundled real frame (an exhaustive search agrees, see the tests), within a budget
//! linear in uses; past the budget, the heaviest clique found so far is the bound, which
//! stays a bound.

use super::lifetimes::{Known, Slot};
use super::meets::Meets;

/// Working memory of the clique search, kept between placements.
#[derive(Debug, Default)]
pub(super) struct Cliques {
    /// Slots grouped by first use and by last use, as the sweep adds and drops them.
    by_last: Vec<u32>,
    /// The slots in use at the current pass.
    live: Vec<u32>,
    /// Per slot: whether it is in `live`.
    in_live: Vec<bool>,
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
        let (mut next, mut gone) = (0, 0);
        let mut best = bound;
        for x in 0..n as u32 {
            while next < slots.len() && slots[next].first == x {
                self.live.push(next as u32);
                self.in_live[next] = true;
                next += 1;
            }
            let held: u64 = self.live.iter().map(|&i| slots[i as usize].bytes).sum();
            // The member with the fewest neighbours: every other member of the clique is one.
            let Some(&pivot) = self
                .live
                .iter()
                .min_by_key(|&&i| meets.of(i as usize).len())
            else {
                continue;
            };
            self.candidates.clear();
            let around: u64 = (meets.of(pivot as usize).iter())
                .filter(|&&j| !self.in_live[j as usize])
                .map(|&j| slots[j as usize].bytes)
                .sum();
            if held + around > best && budget > 0 {
                self.candidates.extend(
                    (meets.of(pivot as usize).iter()).filter(|&&j| !self.in_live[j as usize]),
                );
                self.candidates.sort_unstable();
                self.candidates.dedup();
                self.candidates
                    .sort_unstable_by_key(|&j| (std::cmp::Reverse(slots[j as usize].bytes), j));
                self.taken.clear();
                let mut weight = held;
                for k in 0..self.candidates.len() {
                    let c = self.candidates[k] as usize;
                    budget = budget.saturating_sub((self.live.len() + self.taken.len()) as u64);
                    let all = (self.live.iter().chain(&self.taken))
                        .all(|&m| known.meet(slots, c, m as usize));
                    if all {
                        self.taken.push(c as u32);
                        weight += slots[c].bytes;
                    }
                }
                best = best.max(weight);
            }
            while gone < slots.len() && slots[self.by_last[gone] as usize].last == x {
                self.in_live[self.by_last[gone] as usize] = false;
                gone += 1;
            }
            let in_live = &self.in_live;
            self.live.retain(|&i| in_live[i as usize]);
        }
        best
    }
}
