//! Placement: a sweep over the frame that packs transients into one heap.
//!
//! Pass by pass, the transients released there give their bytes back (merged with the free
//! gaps beside them) and those first used there take bytes, largest first, from the smallest
//! free gap that holds them (best fit), the heap growing only when no gap does. The gaps are
//! scanned in offset order and the first exact fit ends the scan: with the few sizes a
//! frame's targets come in, most transients find one early. Lifetimes are known in advance,
//! so the sweep frees exactly when a later occupant may take over without a race
//! ([`super::lifetimes`]).
//!
//! The frame repeats: a transient released only in the next frame (*wrapping*) still holds its
//! bytes when that frame's first transients are placed. Those first transients (first used
//! before the last wrapping release) are placed before anything else, low in the heap; a
//! wrapping transient is placed above all of them. A transient whose lifetime spans a whole
//! frame shares with nothing.

use super::ALIAS_ALIGNMENT;
use super::lifetimes::Slot;

/// The sweep's working memory and result.
#[derive(Debug, Default)]
pub(super) struct Sweep {
    /// Per slot: its offset in the heap.
    pub offsets: Vec<u64>,
    /// Free gaps below `top`, sorted by offset, never touching each other or `top`.
    gaps: Vec<(u64, u64)>,
    top: u64,
    /// Slots in order of first use, the largest first among those of one pass.
    order: Vec<u32>,
    /// Slots grouped by release pass (`release_start[t]..release_start[t + 1]`).
    by_release: Vec<u32>,
    release_start: Vec<u32>,
}

fn align(x: u64) -> u64 {
    x.div_ceil(ALIAS_ALIGNMENT) * ALIAS_ALIGNMENT
}

impl Sweep {
    /// Place `slots` (in order of first use) over a frame of `n` passes; the heap's size.
    pub fn place(&mut self, slots: &[Slot], n: u32) -> u64 {
        let n = n as usize;
        self.offsets.clear();
        self.offsets.resize(slots.len(), 0);
        self.gaps.clear();
        self.top = 0;
        let whole = |s: &Slot| s.release as usize - s.first as usize >= n;
        let wraps = |s: &Slot| s.release as usize > n;
        // The last wrapping release, into the next frame.
        let horizon = (slots.iter())
            .filter(|s| wraps(s) && !whole(s))
            .map(|s| s.release as usize - n)
            .max()
            .unwrap_or(0);
        // Held for the whole frame: spans it, or wraps and is among the first too.
        let dedicated = |s: &Slot| whole(s) || (wraps(s) && (s.first as usize) < horizon);
        for (i, s) in slots.iter().enumerate() {
            if dedicated(s) {
                self.offsets[i] = self.take(align(s.bytes), 0);
            }
        }
        self.order.clear();
        self.order
            .extend((0..slots.len() as u32).filter(|&i| !dedicated(&slots[i as usize])));
        let mut start = 0;
        while start < self.order.len() {
            let first = slots[self.order[start] as usize].first;
            let end =
                start + self.order[start..].partition_point(|&i| slots[i as usize].first == first);
            self.order[start..end]
                .sort_unstable_by_key(|&i| (std::cmp::Reverse(slots[i as usize].bytes), i));
            start = end;
        }
        self.group_releases(slots, n, &dedicated);
        // Bytes below `floor` may hold the first transients when a wrapping one is placed.
        let mut floor = self.top;
        let mut next = 0;
        for t in 0..n {
            for k in self.release_start[t] as usize..self.release_start[t + 1] as usize {
                let i = self.by_release[k] as usize;
                self.give(self.offsets[i], align(slots[i].bytes));
            }
            while next < self.order.len() && slots[self.order[next] as usize].first as usize == t {
                let i = self.order[next] as usize;
                next += 1;
                let s = &slots[i];
                let min = if wraps(s) { floor } else { 0 };
                let offset = self.take(align(s.bytes), min);
                self.offsets[i] = offset;
                if t < horizon {
                    floor = floor.max(offset + align(s.bytes));
                }
            }
        }
        (slots.iter().zip(&self.offsets))
            .map(|(s, &o)| o + align(s.bytes))
            .max()
            .unwrap_or(0)
    }

    /// Group the slots released within the frame by release pass (counting sort).
    fn group_releases(&mut self, slots: &[Slot], n: usize, dedicated: &impl Fn(&Slot) -> bool) {
        let inside = |s: &Slot| !dedicated(s) && (s.release as usize) < n;
        self.release_start.clear();
        self.release_start.resize(n + 2, 0);
        for s in slots.iter().filter(|s| inside(s)) {
            self.release_start[s.release as usize + 1] += 1;
        }
        for t in 1..self.release_start.len() {
            self.release_start[t] += self.release_start[t - 1];
        }
        self.by_release.clear();
        self.by_release
            .resize(self.release_start[n + 1] as usize, 0);
        // Fill using `release_start[t + 1]` as a cursor, then shift back.
        for (i, s) in slots.iter().enumerate().filter(|(_, s)| inside(s)) {
            let c = &mut self.release_start[s.release as usize];
            self.by_release[*c as usize] = i as u32;
            *c += 1;
        }
        for t in (1..self.release_start.len()).rev() {
            self.release_start[t] = self.release_start[t - 1];
        }
        self.release_start[0] = 0;
    }

    /// Take `bytes` (aligned) at or above `min`: the smallest gap that holds them, else the top.
    fn take(&mut self, bytes: u64, min: u64) -> u64 {
        let mut best: Option<(u64, usize, u64)> = None;
        if min == 0 {
            // Gaps start aligned: the first that fits exactly cannot be beaten.
            let mut fit = u64::MAX;
            for (g, &(o, len)) in self.gaps.iter().enumerate() {
                if len >= bytes && len < fit {
                    (fit, best) = (len, Some((len, g, o)));
                    if len == bytes {
                        break;
                    }
                }
            }
        } else {
            for (g, &(o, len)) in self.gaps.iter().enumerate() {
                let at = align(o.max(min));
                if at + bytes <= o + len && best.is_none_or(|(l, _, _)| len < l) {
                    best = Some((len, g, at));
                }
            }
        }
        let Some((_, g, at)) = best else {
            let at = align(self.top.max(min));
            if at > self.top {
                self.gaps.push((self.top, at - self.top));
            }
            self.top = at + bytes;
            return at;
        };
        let (o, len) = self.gaps[g];
        let (left, right) = (at - o, o + len - (at + bytes));
        match (left > 0, right > 0) {
            (false, false) => {
                self.gaps.remove(g);
            }
            (true, false) => self.gaps[g] = (o, left),
            (false, true) => self.gaps[g] = (at + bytes, right),
            (true, true) => {
                self.gaps[g] = (o, left);
                self.gaps.insert(g + 1, (at + bytes, right));
            }
        }
        at
    }

    /// Give back `bytes` at `offset`, merging with the gaps beside them and the top.
    fn give(&mut self, offset: u64, bytes: u64) {
        let end = offset + bytes;
        let g = self.gaps.partition_point(|&(o, _)| o < offset);
        let (mut start, mut stop) = (offset, end);
        let mut from = g;
        if g > 0 && self.gaps[g - 1].0 + self.gaps[g - 1].1 == offset {
            from = g - 1;
            start = self.gaps[g - 1].0;
        }
        let mut to = g;
        if g < self.gaps.len() && self.gaps[g].0 == end {
            stop = end + self.gaps[g].1;
            to = g + 1;
        }
        if stop == self.top {
            self.gaps.drain(from..to);
            self.top = start;
        } else if to - from == 0 {
            self.gaps.insert(g, (start, stop - start));
        } else {
            self.gaps[from] = (start, stop - start);
            self.gaps.drain(from + 1..to);
        }
    }
}
