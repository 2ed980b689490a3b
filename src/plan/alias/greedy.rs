//! Placement by size: the offline packing that frame graphs with mixed sizes need.
//!
//! A sweep in pass order ([`super::placement`]) decides each transient's place knowing only
//! what came before it, and with mixed sizes it leaves gaps a later, larger transient cannot
//! use. Placing the largest first, each at the smallest gap among the placed transients whose
//! lifetimes meet its own (the greedy-by-size packing of neural-network runtimes), keeps the
//! large ones low and fills around them. Among transients of one size, the one whose lifetime
//! meets the most others first ([`Meets::degree`]), then the earlier: placed late, it finds
//! fewer gaps clear of all of them (on layered graphs this beats the longer lifetime first). When
//! that misses the goal, the packing runs again with ties in order of first use only, and then
//! in order of first use, as the sweep does but beside only the transients each one meets
//! (async compute frames: a queue may take bytes its releases still hold for another), and
//! the smallest heap wins (each order is the better one on some graphs).
//!
//! A transient's gap is found among its placed neighbours in offset order, from one of two
//! sources that give the same places ([`Neighbours`]): the meeting graph's lists
//! ([`super::meets`]), sorted per transient, which costs the graph's pairs times a log; or
//! every placed transient, kept in offset order and tested against the lifetime 64 at a time
//! without branches, which costs transients squared over two but no sort, and wins where
//! lifetimes are long and each meets most others. Either way the first exact fit ends the
//! search. The lists serve while the pairs stay within a budget linear in uses, the walk while
//! the transients squared do; beyond both (many long lifetimes, where the sweep is within a
//! few percent of the bound from 10,000 passes) the sweep alone decides.

use super::ALIAS_ALIGNMENT;
use super::lifetimes::{Known, Slot};
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
    /// When walked: every placed transient in offset order, as offset and end packed as in
    /// `around`, and apart, its first use and release.
    by_offset: Vec<u64>,
    firsts: Vec<u32>,
    releases: Vec<u32>,
    /// When walked: the slot of each, for [`Known::apart`].
    slot_of: Vec<u32>,
}

/// Where the packing finds the placed transients a lifetime meets, in offset order.
#[derive(Clone, Copy)]
pub(super) enum Neighbours<'m> {
    /// The meeting graph's lists, each sorted as it is used: pairs times a log.
    Listed(&'m Meets),
    /// Every placed transient walked in offset order, tested against the lifetime: transients
    /// squared over two, and no sort, for lifetimes that meet most others; those met are set
    /// apart by `known` as the lists are.
    Walked { known: Known<'m> },
}

/// True when lifetimes `a` and `b` (first use, release) hold their bytes at one pass of the
/// frame's circle of `n` passes: the relation [`Meets`] lists.
#[inline]
pub(super) fn meet((a0, a1): (u32, u32), (b0, b1): (u32, u32), n: u32) -> bool {
    let (la, lb) = (a1 - a0, b1 - b0);
    // Both start within the frame: how far `b` starts after `a` around the circle.
    let d = b0
        .wrapping_sub(a0)
        .wrapping_add(if b0 < a0 { n } else { 0 });
    (la >= n) | (lb >= n) | (d < la) | (n - d < lb)
}

impl Greedy {
    /// Place `slots`, finding each one's neighbours through `meets`, and again in the next
    /// order, up to `orders` of them, while the heap exceeds `goal`; the heap's size.
    pub fn place(
        &mut self,
        slots: &[Slot],
        (meets, degree): (Neighbours<'_>, &[u32]),
        goal: u64,
        orders: u8,
    ) -> u64 {
        let long = |i: u32| {
            let s = &slots[i as usize];
            (std::cmp::Reverse((s.bytes, degree[i as usize])), i)
        };
        let peak = self.place_in(slots, meets, long);
        if peak <= goal || orders < 2 {
            return peak;
        }
        std::mem::swap(&mut self.offsets, &mut self.trial);
        let first = |i: u32| (std::cmp::Reverse(slots[i as usize].bytes), i);
        let mut peak = peak;
        let again = self.place_in(slots, meets, first);
        if again < peak {
            peak = again;
            std::mem::swap(&mut self.offsets, &mut self.trial);
        }
        if peak <= goal || orders < 3 {
            std::mem::swap(&mut self.offsets, &mut self.trial);
            return peak;
        }
        // The best so far is in `trial`. In order of first use, as the sweep, but each
        // beside only the transients it meets (the sweep's releases hold for every queue).
        let swept = |i: u32| {
            let s = &slots[i as usize];
            (s.first, std::cmp::Reverse(s.bytes), i)
        };
        let third = self.place_in(slots, meets, swept);
        if third < peak {
            return third;
        }
        std::mem::swap(&mut self.offsets, &mut self.trial);
        peak
    }

    /// Place `slots` largest first, in the order of `key`; the heap's size.
    fn place_in<K: Ord>(
        &mut self,
        slots: &[Slot],
        meets: Neighbours<'_>,
        key: impl Fn(u32) -> K,
    ) -> u64 {
        self.offsets.clear();
        self.offsets.resize(slots.len(), 0);
        self.placed.clear();
        self.placed.resize(slots.len(), false);
        self.order.clear();
        self.order.extend(0..slots.len() as u32);
        self.order.sort_unstable_by_key(|&i| key(i));
        self.by_offset.clear();
        self.firsts.clear();
        self.releases.clear();
        self.slot_of.clear();
        let mut peak = 0;
        for k in 0..self.order.len() {
            let i = self.order[k] as usize;
            let bytes = slots[i].bytes;
            // In units of the alignment, offset and end packed in one word: one cheap sort.
            let size = bytes / ALIAS_ALIGNMENT;
            let at = match meets {
                Neighbours::Listed(meets) => {
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
                    let mut fit = BestFit::new(size);
                    for &w in &self.around {
                        if fit.offer(w) {
                            break;
                        }
                    }
                    fit.at()
                }
                Neighbours::Walked { known } => {
                    let n = known.n;
                    let life = (slots[i].first, slots[i].release);
                    let mut fit = BestFit::new(size);
                    // 64 placed ones at a time: which of them meet it, as a mask computed
                    // without branches, then those in offset order until an exact fit.
                    'walk: for start in (0..self.by_offset.len()).step_by(64) {
                        let end = (start + 64).min(self.by_offset.len());
                        let (firsts, releases) =
                            (&self.firsts[start..end], &self.releases[start..end]);
                        let mut flags = [0u8; 64];
                        for ((flag, &f), &r) in flags.iter_mut().zip(firsts).zip(releases) {
                            *flag = u8::from(meet(life, (f, r), n));
                        }
                        let mut mask = 0u64;
                        for (k, bytes) in flags.chunks_exact(8).enumerate() {
                            // Eight 0/1 bytes to eight bits: each byte's bit lands in the top
                            // byte of the product.
                            let word = u64::from_le_bytes(bytes.try_into().expect("eight"));
                            mask |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
                        }
                        while mask != 0 {
                            let k = mask.trailing_zeros() as usize;
                            mask &= mask - 1;
                            let j = self.slot_of[start + k] as usize;
                            if known.apart(slots, i, j) {
                                continue;
                            }
                            if fit.offer(self.by_offset[start + k]) {
                                break 'walk;
                            }
                        }
                    }
                    fit.at()
                }
            } * ALIAS_ALIGNMENT;
            self.offsets[i] = at;
            self.placed[i] = true;
            if let Neighbours::Walked { .. } = meets {
                let o = at / ALIAS_ALIGNMENT;
                let k = self.by_offset.partition_point(|&w| w >> 32 <= o);
                self.by_offset.insert(k, o << 32 | (o + size));
                self.firsts.insert(k, slots[i].first);
                self.releases.insert(k, slots[i].release);
                self.slot_of.insert(k, i as u32);
            }
            peak = peak.max(at + bytes);
        }
        peak
    }
}

/// The smallest gap of at least `size` between placed transients offered in offset order
/// (offset and end packed), else the end of the highest.
struct BestFit {
    size: u64,
    best: Option<(u64, u64)>,
    end: u64,
}

impl BestFit {
    fn new(size: u64) -> BestFit {
        BestFit {
            size,
            best: None,
            end: 0,
        }
    }

    /// Take the next placed transient; true on an exact fit, which no later gap beats.
    #[inline]
    fn offer(&mut self, w: u64) -> bool {
        let (o, e) = (w >> 32, w & u64::from(u32::MAX));
        let end = self.end;
        if o >= end + self.size && self.best.is_none_or(|(gap, _)| o - end < gap) {
            self.best = Some((o - end, end));
            if o - end == self.size {
                return true;
            }
        }
        self.end = end.max(e);
        false
    }

    /// Where the transient goes.
    fn at(&self) -> u64 {
        self.best.map_or(self.end, |(_, at)| at)
    }
}
