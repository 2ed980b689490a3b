//! Which transients' lifetimes meet: the graph the offline packings ([`super::greedy`],
//! [`super::repair`]) place against, as flat adjacency lists.
//!
//! Two transients may not share a byte when they hold their bytes at one pass of the frame's
//! circle, each from its first use up to its release ([`super::lifetimes`]), unless their
//! queues order them all the same ([`Known::apart`]: a release is the latest over every
//! queue, and the queue that activates the other may know the uses earlier). A lifetime is one
//! or two *parts* on the frame: `first..release`, or, when it is released only in the next
//! frame, `first..n` and `0..release - n` (the next frame's start is this frame's, EB-5: the
//! frame repeats); one that spans a whole frame is `0..n`. With the parts sorted by start, the
//! parts meeting a part and starting no earlier are the run after it that starts before it
//! ends, found by binary search; every pair is met once that way, so counting the pairs is
//! n log n and listing them is linear in their number. The packings run only where that
//! number stays within a budget linear in uses, so their cost does. The pairs set apart are
//! left out as the lists are built, one test per pair.

use super::lifetimes::{Known, Slot};

/// The meeting graph's working memory: parts, and per slot its neighbours.
#[derive(Debug, Default)]
pub(super) struct Meets {
    /// Parts sorted by start: (start, end, slot).
    parts: Vec<(u32, u32, u32)>,
    /// Per part: one past the last part starting before it ends.
    reach: Vec<u32>,
    /// Per slot: where its neighbours start in `adjacent` (one more entry than slots).
    start: Vec<u32>,
    /// Neighbours of every slot, slot after slot; a pair met by two parts is listed twice.
    adjacent: Vec<u32>,
    /// Pairs of meeting lifetimes the last build counted.
    pub pairs: u64,
    /// Per slot: the parts its parts meet, counted before any pair is set apart and kept
    /// when the pairs are too many to list, so the packing orders alike either way.
    pub degree: Vec<u32>,
    /// Per part: the earlier parts reaching it, as differences.
    reached: Vec<i32>,
    /// Per pair met, in the order the build meets them: whether it is listed (its queues do
    /// not set it apart).
    kept: Vec<bool>,
}

impl Meets {
    /// Build the graph of `slots` (in order of first use) over a frame of `n` passes, unless
    /// it has more than `budget` pairs: then false, and nothing is listed. Pairs `known` sets
    /// apart (their queues order them, though their releases meet) are left out.
    pub fn build(&mut self, slots: &[Slot], n: usize, budget: u64, known: Known<'_>) -> bool {
        self.parts.clear();
        let n32 = n as u32;
        // Parts starting at 0 first: whole frames and the next frame's end of wrapping ones.
        for (i, s) in slots.iter().enumerate() {
            if s.release - s.first >= n32 {
                self.parts.push((0, n32, i as u32));
            } else if s.release > n32 {
                self.parts.push((0, s.release - n32, i as u32));
            }
        }
        self.parts.sort_unstable();
        for (i, s) in slots.iter().enumerate() {
            if s.release - s.first < n32 {
                self.parts.push((s.first, s.release.min(n32), i as u32));
            }
        }
        // Slots are in order of first use, and the parts at 0 come first: sorted by start.
        debug_assert!(self.parts.windows(2).all(|w| w[0].0 <= w[1].0));
        self.reach.clear();
        let mut pairs = 0u64;
        for (k, &(_, end, _)) in self.parts.iter().enumerate() {
            let r = k + 1 + self.parts[k + 1..].partition_point(|p| p.0 < end);
            self.reach.push(r as u32);
            pairs += (r - k - 1) as u64;
        }
        self.pairs = pairs;
        self.count_degrees(slots.len());
        if pairs > budget {
            return false;
        }
        // Each pair once, in the order the fill below meets them: whether its queues set it
        // apart, and each slot's count of the pairs kept.
        self.start.clear();
        self.start.resize(slots.len() + 1, 0);
        self.kept.clear();
        for k in 0..self.parts.len() {
            let i = self.parts[k].2 as usize;
            for q in k + 1..self.reach[k] as usize {
                let j = self.parts[q].2 as usize;
                let kept = !known.apart(slots, i, j);
                self.kept.push(kept);
                self.start[i + 1] += u32::from(kept);
                self.start[j + 1] += u32::from(kept);
            }
        }
        for i in 1..self.start.len() {
            self.start[i] += self.start[i - 1];
        }
        self.adjacent.clear();
        self.adjacent.resize(self.start[slots.len()] as usize, 0);
        // Fill using `start[i]` as slot i's cursor, then shift back.
        let mut pair = 0;
        for k in 0..self.parts.len() {
            let i = self.parts[k].2 as usize;
            for q in k + 1..self.reach[k] as usize {
                let j = self.parts[q].2 as usize;
                if self.kept[pair] {
                    self.adjacent[self.start[i] as usize] = j as u32;
                    self.start[i] += 1;
                    self.adjacent[self.start[j] as usize] = i as u32;
                    self.start[j] += 1;
                }
                pair += 1;
            }
        }
        for i in (1..self.start.len()).rev() {
            self.start[i] = self.start[i - 1];
        }
        self.start[0] = 0;
        true
    }

    /// Each slot's [`Meets::degree`]: per part, the parts after it that it reaches and the
    /// parts before it that reach it (each earlier part reaches a run, counted by
    /// differences), linear in parts.
    fn count_degrees(&mut self, slots: usize) {
        self.degree.clear();
        self.degree.resize(slots, 0);
        self.reached.clear();
        self.reached.resize(self.parts.len() + 1, 0);
        for (k, &r) in self.reach.iter().enumerate() {
            self.reached[k + 1] += 1;
            self.reached[r as usize] -= 1;
        }
        let mut before = 0;
        for (k, &(_, _, i)) in self.parts.iter().enumerate() {
            before += self.reached[k];
            self.degree[i as usize] += before as u32 + self.reach[k] - k as u32 - 1;
        }
    }

    /// The slots whose lifetimes meet slot `i`'s.
    pub fn of(&self, i: usize) -> &[u32] {
        &self.adjacent[self.start[i] as usize..self.start[i + 1] as usize]
    }
}
