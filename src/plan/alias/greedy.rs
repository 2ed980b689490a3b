//! Placement by size: the offline packing that frame graphs with mixed sizes need.
//!
//! A sweep in pass order ([`super::placement`]) decides each transient's place knowing only
//! what came before it, and with mixed sizes it leaves gaps a later, larger transient cannot
//! use. Placing the largest first, each at the smallest gap among the placed transients whose
//! lifetimes meet its own (the greedy-by-size packing of neural-network runtimes), keeps the
//! large ones low and fills around them. Among transients of one size, the longer lifetime
//! first, then the earlier: a long one placed late finds fewer gaps that last it out. When
//! that misses the goal, the packing runs again with ties in order of first use only, and the
//! smaller heap wins (each order is the better one on some graphs). The transients a lifetime meets come from the meeting
//! graph ([`super::meets`]), so the packing costs the graph's pairs (times a log, to sort
//! each transient's placed neighbours by offset): it runs only while they stay within a
//! budget linear in uses. Beyond it (long lifetimes, each meeting tens of others per use,
//! where the sweep is within a few percent of the bound from 10,000 passes) the sweep alone
//! decides.

use super::ALIAS_ALIGNMENT;
use super::lifetimes::Slot;
use super::meets::Meets;

/// The greedy packing's working memory and result.
#[derive(Debug, Default)]
pub(super) struct Greedy {
    pub offsets: Vec<u64>,
    /// The other order's offsets while it is tried.
    trial: Vec<u64>,
    placed: Vec<bool>,
    order: Vec<u32>,
    /// The placed neighbours of the transient being placed: offset and end, in units of
    /// [`ALIAS_ALIGNMENT`], packed high and low.
    around: Vec<u64>,
}

impl Greedy {
    /// Place `slots` with their meeting graph `meets`, again in the second order when the
    /// heap exceeds `goal`; the heap's size.
    pub fn place(&mut self, slots: &[Slot], meets: &Meets, goal: u64) -> u64 {
        let long = |i: u32| {
            let s = &slots[i as usize];
            (std::cmp::Reverse((s.bytes, s.release - s.first)), i)
        };
        let peak = self.place_in(slots, meets, long);
        if peak <= goal {
            return peak;
        }
        std::mem::swap(&mut self.offsets, &mut self.trial);
        let first = |i: u32| (std::cmp::Reverse(slots[i as usize].bytes), i);
        let again = self.place_in(slots, meets, first);
        if again < peak {
            return again;
        }
        std::mem::swap(&mut self.offsets, &mut self.trial);
        peak
    }

    /// Place `slots` largest first, in the order of `key`; the heap's size.
    fn place_in<K: Ord>(&mut self, slots: &[Slot], meets: &Meets, key: impl Fn(u32) -> K) -> u64 {
        self.offsets.clear();
        self.offsets.resize(slots.len(), 0);
        self.placed.clear();
        self.placed.resize(slots.len(), false);
        self.order.clear();
        self.order.extend(0..slots.len() as u32);
        self.order.sort_unstable_by_key(|&i| key(i));
        let mut peak = 0;
        for k in 0..self.order.len() {
            let i = self.order[k] as usize;
            let bytes = slots[i].bytes;
            // In units of the alignment, offset and end packed in one word: one cheap sort.
            let size = bytes / ALIAS_ALIGNMENT;
            self.around.clear();
            for &j in meets.of(i) {
                let j = j as usize;
                if self.placed[j] {
                    let o = self.offsets[j] / ALIAS_ALIGNMENT;
                    self.around
                        .push(o << 32 | (o + slots[j].bytes / ALIAS_ALIGNMENT));
                }
            }
            self.around.sort_unstable();
            // The smallest gap between the transients it meets that holds it, else above them.
            let (mut best, mut end) = (None::<(u64, u64)>, 0u64);
            for &w in &self.around {
                let (o, e) = (w >> 32, w & u64::from(u32::MAX));
                if o >= end + size && best.is_none_or(|(gap, _)| o - end < gap) {
                    best = Some((o - end, end));
                }
                end = end.max(e);
            }
            let at = best.map_or(end, |(_, at)| at) * ALIAS_ALIGNMENT;
            self.offsets[i] = at;
            self.placed[i] = true;
            peak = peak.max(at + bytes);
        }
        peak
    }
}
