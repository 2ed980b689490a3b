//! Placement by size: the offline packing that frame graphs with short lifetimes need.
//!
//! A sweep in pass order ([`super::placement`]) decides each transient's place knowing only
//! what came before it, and with mixed sizes it leaves gaps a later, larger transient cannot
//! use. Placing the largest first, each at the smallest gap among the placed transients whose
//! lifetimes meet its own (the greedy-by-size packing of neural-network runtimes), keeps the
//! large ones low and fills around them. Finding those transients walks every pass of each
//! lifetime, which costs the sum over passes of the square of the transients live there, so
//! it runs only while that sum stays within a budget linear in uses; beyond it (long
//! lifetimes, where the sweep is already close to the bound) the sweep alone decides.
//! Lifetimes are on the frame's circle: one released in the next frame holds its bytes over
//! that frame's first passes too.

use super::ALIAS_ALIGNMENT;
use super::lifetimes::Slot;

/// The greedy packing's working memory and result.
#[derive(Debug, Default)]
pub(super) struct Greedy {
    pub offsets: Vec<u64>,
    /// Per pass: the placed transients holding bytes there.
    holding: Vec<Vec<u32>>,
    live: Vec<i64>,
    order: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    meets: Vec<(u64, u64)>,
}

fn align(x: u64) -> u64 {
    x.div_ceil(ALIAS_ALIGNMENT) * ALIAS_ALIGNMENT
}

/// The passes of the frame's circle `s` holds its bytes over, as at most two ranges.
fn spans(s: &Slot, n: usize) -> [std::ops::Range<usize>; 2] {
    let (f, r) = (s.first as usize, s.release as usize);
    if r - f >= n {
        [0..n, 0..0]
    } else if r > n {
        [f..n, 0..r - n]
    } else {
        [f..r, 0..0]
    }
}

impl Greedy {
    /// Place `slots` over a frame of `n` passes when the work stays within `budget`; the
    /// heap's size, or None when it would not.
    pub fn place(&mut self, slots: &[Slot], n: usize, budget: u64) -> Option<u64> {
        self.live.clear();
        self.live.resize(n + 1, 0);
        for s in slots {
            for r in spans(s, n) {
                self.live[r.start] += 1;
                self.live[r.end] -= 1;
            }
        }
        let (mut now, mut work) = (0i64, 0u64);
        for t in 0..n {
            now += self.live[t];
            work = work.saturating_add((now as u64).saturating_mul(now as u64));
        }
        if work > budget {
            return None;
        }
        if self.holding.len() < n {
            self.holding.resize_with(n, Vec::new);
        }
        self.holding[..n].iter_mut().for_each(Vec::clear);
        self.offsets.clear();
        self.offsets.resize(slots.len(), 0);
        self.seen.clear();
        self.seen.resize(slots.len(), 0);
        self.stamp = 0;
        self.order.clear();
        self.order.extend(0..slots.len() as u32);
        self.order
            .sort_unstable_by_key(|&i| (std::cmp::Reverse(slots[i as usize].bytes), i));
        let mut peak = 0;
        for k in 0..self.order.len() {
            let i = self.order[k] as usize;
            let s = &slots[i];
            let bytes = align(s.bytes);
            self.stamp += 1;
            self.meets.clear();
            for r in spans(s, n) {
                for t in r {
                    for &j in &self.holding[t] {
                        if self.seen[j as usize] != self.stamp {
                            self.seen[j as usize] = self.stamp;
                            let o = self.offsets[j as usize];
                            self.meets.push((o, o + align(slots[j as usize].bytes)));
                        }
                    }
                }
            }
            self.meets.sort_unstable();
            // The smallest gap between the transients it meets that holds it, else above them.
            let (mut best, mut end) = (None::<(u64, u64)>, 0u64);
            for &(o, e) in &self.meets {
                if o >= end + bytes && best.is_none_or(|(gap, _)| o - end < gap) {
                    best = Some((o - end, end));
                }
                end = end.max(e);
            }
            let at = best.map_or(end, |(_, at)| at);
            self.offsets[i] = at;
            peak = peak.max(at + bytes);
            for r in spans(s, n) {
                for t in r {
                    self.holding[t].push(i as u32);
                }
            }
        }
        Some(peak)
    }
}
