//! Per-queue facts the walk keeps for a resource, and the queue handle that indexes them:
//! arrays with a presence mask, and values packed in whole words (see [`Q`]).

use std::num::NonZeroU32;

use crate::barrier::*;
use crate::device::{QUEUE_COUNT, QueueId};
use crate::plan::barriers::{Movable, movable};

/// Slots in a [`PerQueue`]: a power of two at least [`QUEUE_COUNT`], so an index masked to
/// it needs no bounds check.
const SLOTS: usize = 16;
const _: () = assert!(QUEUE_COUNT <= SLOTS && SLOTS.is_power_of_two());

/// Each packed type (two bits of [`Q`], the spare value a copy queue too) and what it may
/// move: tables, because the walk asks at nearly every use and a match compiles to a chain
/// of compares.
const KINDS: [QueueType; 4] = [
    QueueType::Direct,
    QueueType::Compute,
    QueueType::Copy,
    QueueType::Copy,
];
const MOVABLE: [Movable; 4] = [
    movable(KINDS[0]),
    movable(KINDS[1]),
    movable(KINDS[2]),
    movable(KINDS[3]),
];

/// A queue with its bit, dense index and type, worked out once per pass when uses are
/// gathered: the walk asks several per-queue questions at every use, each a mask or an index.
///
/// Packed in one 32-bit word (bit, index, type from the low bits up), as an access is in a
/// 128-bit one ([`Acc`](super::track::Acc)) and per-queue facts in 64-bit ones ([`Facts`]):
/// the walk stores and reloads them at every use, and a load the compiler widens over
/// several narrower stores cannot be forwarded from them and stalls until they retire (such
/// stalls cost a fifth of a plan).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Q(NonZeroU32);

const _: () = assert!(QUEUE_COUNT <= 16, "Q keeps its queue's bit in 16 bits");

impl Q {
    /// Set in every queue, so `Option<Q>` needs no tag of its own.
    const VALID: NonZeroU32 = NonZeroU32::new(1 << 31).expect("nonzero");

    /// The packed word (see [`Acc`](super::track::Acc), which stores it).
    #[inline(always)]
    pub(super) fn bits(self) -> u32 {
        self.0.get()
    }

    /// A queue from its packed word.
    #[inline(always)]
    pub(super) fn from_bits(bits: u32) -> Q {
        Q(Self::VALID | bits)
    }

    pub(super) fn new(id: QueueId) -> Q {
        let index = id.index() as u32;
        let kind = id.queue_type() as u32;
        Q(Self::VALID | 1 << index | index << 16 | kind << 24)
    }

    #[inline(always)]
    fn bit(self) -> u32 {
        self.0.get() & 0xffff
    }

    #[inline(always)]
    fn index(self) -> usize {
        (self.0.get() >> 16) as usize & (SLOTS - 1)
    }

    /// The queue's barrier-spec type (A5).
    #[inline(always)]
    pub(super) fn kind(self) -> QueueType {
        KINDS[(self.0.get() >> 24 & 3) as usize]
    }

    /// The queue's type as one bit of four (see [`type_bits`](Self::type_bits)).
    #[inline(always)]
    pub(super) fn type_bit(self) -> u32 {
        1 << (self.0.get() >> 24 & 3)
    }

    /// The bits [`type_bit`](Self::type_bit) gives queues of type `kind`.
    pub(super) const fn type_bits(kind: QueueType) -> u32 {
        let mut bits = 0;
        let mut i = 0;
        while i < KINDS.len() {
            if KINDS[i] as u32 == kind as u32 {
                bits |= 1 << i;
            }
            i += 1;
        }
        bits
    }

    /// True when this queue may move a texture from `from` to `to` (barrier-spec A5).
    #[inline(always)]
    pub(super) fn can_transition(self, from: Layout, to: Layout) -> bool {
        from == to || MOVABLE[(self.0.get() >> 24 & 3) as usize].between(from, to)
    }
}

/// A value per hardware queue, absent until set: an array indexed by [`QueueId::index`]
/// and a bit per queue saying which entries hold a value, so the walk's per-queue questions
/// cost an index and forgetting costs a mask, not a search or a fill.
#[derive(Clone, Copy, Debug)]
pub(super) struct PerQueue<T: Copy + PartialEq> {
    /// 32 bits, not 16: the walk sets and tests it at every use, and a 16-bit store followed
    /// by the 32-bit load the compiler widens the test to cannot be forwarded, stalling the
    /// walk on the store.
    present: u32,
    values: [T; SLOTS],
}

impl<T: Copy + PartialEq> PartialEq for PerQueue<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        if self.present != other.present {
            return false;
        }
        let mut left = self.present;
        while left != 0 {
            let i = left.trailing_zeros() as usize & (SLOTS - 1);
            if self.values[i] != other.values[i] {
                return false;
            }
            left &= left - 1;
        }
        true
    }
}

impl<T: Copy + PartialEq> PerQueue<T> {
    pub(super) const fn empty(filler: T) -> Self {
        PerQueue {
            present: 0,
            values: [filler; SLOTS],
        }
    }

    #[inline]
    fn bit(q: Q) -> u32 {
        q.bit()
    }

    #[inline]
    pub(super) fn get(&self, q: Q) -> Option<T> {
        (self.present & Self::bit(q) != 0).then(|| self.values[q.index()])
    }

    #[inline]
    pub(super) fn set(&mut self, q: Q, v: T) {
        self.present |= Self::bit(q);
        self.values[q.index()] = v;
    }

    /// The value for `q`, set to `default` first if absent.
    #[inline]
    pub(super) fn entry(&mut self, q: Q, default: T) -> &mut T {
        if self.present & Self::bit(q) == 0 {
            self.set(q, default);
        }
        &mut self.values[q.index()]
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        self.present = 0;
    }

    /// Become a copy of `other`, entry by entry: the walk has just written them, and the
    /// wide loads of a whole-array copy could not be forwarded from those narrow stores.
    #[inline]
    pub(super) fn copy_from(&mut self, other: &Self) {
        self.present = other.present;
        let mut left = other.present;
        while left != 0 {
            let i = left.trailing_zeros() as usize & (SLOTS - 1);
            self.values[i] = other.values[i];
            left &= left - 1;
        }
    }

    /// Forget every queue but `q`.
    #[inline]
    pub(super) fn keep_only(&mut self, q: Q) {
        self.present &= Self::bit(q);
    }
}

/// Stages and accesses in one 64-bit word (stages low, accesses high), stored and updated
/// whole so later loads of either half or both never span separate stores (see [`Q`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Facts(u64);

/// Stages and accesses, nothing yet.
pub(super) const NOTHING: Facts = Facts(0);

impl Facts {
    #[inline(always)]
    pub(super) fn new(stages: Sync, access: Access) -> Facts {
        Facts(stages.bits() as u64 | (access.bits() as u64) << 32)
    }

    #[inline(always)]
    pub(super) fn stages(self) -> Sync {
        Sync::from_bits_retain(self.0 as u32)
    }

    #[inline(always)]
    pub(super) fn access(self) -> Access {
        Access::from_bits_retain((self.0 >> 32) as u32)
    }

    #[inline(always)]
    pub(super) fn add(&mut self, stages: Sync, access: Access) {
        self.0 |= Facts::new(stages, access).0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::barriers::can_transition;

    /// A packed queue answers what its `QueueId` does: its type, and which layouts it may
    /// move between (barrier-spec A5), for every hardware queue.
    #[test]
    fn packed_queues_keep_type_and_transitions() {
        for i in 0..QUEUE_COUNT {
            let id = QueueId::from_index(i).expect("a queue");
            let q = Q::new(id);
            assert_eq!(q.kind(), id.queue_type(), "{id}");
            assert_eq!(q.index(), i, "{id}");
            for from in Layout::ALL {
                for to in Layout::ALL {
                    let want = can_transition(id, from, to);
                    assert_eq!(q.can_transition(from, to), want, "{id}: {from:?} -> {to:?}");
                }
            }
        }
    }
}
