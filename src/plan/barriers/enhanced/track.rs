//! What the walk knows about one resource: its layout, the accesses not yet ordered, the
//! latest write and who has seen it, and each queue's barrier history (barrier-spec A3.4, A9).

use std::num::NonZeroU128;

pub(super) use super::queues::Q;
use super::queues::{Facts, NOTHING, PerQueue};
use crate::barrier::*;

/// An access (or a layout transition) not yet ordered: its virtual pass (copy * n + pass),
/// queue, stages and flags, packed in one 128-bit word that is stored and loaded whole (see
/// [`Q`]: the walk copies the latest write at nearly every use, and a copy the compiler
/// makes of a struct of narrower fields spans their stores and stalls on them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Acc(NonZeroU128);

impl Acc {
    const WRITE: u128 = 1 << 96;
    /// A layout transition (a barrier), not output-merger work.
    const BARRIER: u128 = 2 << 96;
    /// Always set, so `Option<Acc>` needs no tag of its own.
    const SET: NonZeroU128 = NonZeroU128::new(4 << 96).expect("nonzero");

    #[inline(always)]
    pub(super) fn new(pass: u32, queue: Q, stages: Sync, write: bool, barrier: bool) -> Acc {
        let fields = pass as u128 | (queue.bits() as u128) << 32 | (stages.bits() as u128) << 64;
        let flags = (write as u128 * Self::WRITE) | (barrier as u128 * Self::BARRIER);
        Acc(Self::SET | fields | flags)
    }

    #[inline(always)]
    pub(super) fn pass(self) -> u32 {
        self.0.get() as u32
    }

    #[inline(always)]
    pub(super) fn queue(self) -> Q {
        Q::from_bits((self.0.get() >> 32) as u32)
    }

    #[inline(always)]
    pub(super) fn stages(self) -> Sync {
        Sync::from_bits_retain((self.0.get() >> 64) as u32)
    }

    #[inline(always)]
    pub(super) fn write(self) -> bool {
        self.0.get() & Self::WRITE != 0
    }

    #[inline(always)]
    pub(super) fn barrier(self) -> bool {
        self.0.get() & Self::BARRIER != 0
    }

    /// The same access `n` virtual passes later.
    #[inline(always)]
    fn moved(self, n: u32) -> Acc {
        let pass = self.pass() + n;
        Acc(Self::SET | (self.0.get() & !(u32::MAX as u128) | pass as u128))
    }
}

pub(super) struct Track {
    pub(super) texture: bool,
    pub(super) layout: Layout,
    /// Accesses since the last barrier on their queue that covered them.
    pub(super) pending: Vec<Acc>,
    /// The latest write, whether its caches were written back, and the other queues that
    /// invalidated theirs for it since (FS-2).
    pub(super) last_write: Option<Acc>,
    pub(super) written_back: bool,
    /// Per queue: the stages ordered after, and accesses made visible, of the latest write
    /// (by acquires on other queues, by later barriers on the writer's).
    pub(super) covered: PerQueue<Facts>,
    /// Per queue: accesses since its last barrier on this resource, and that barrier's
    /// SyncAfter and AccessAfter. Sequential barriers on one queue must chain: SyncBefore
    /// contains the previous SyncAfter (barrier-spec A3.4), AccessBefore stays within the
    /// previous AccessAfter (A9).
    pub(super) since: PerQueue<Facts>,
    pub(super) last_after: PerQueue<Facts>,
    /// The queue of the last barrier on the resource: when another queue takes it over
    /// behind a fence, the sequence of barriers starts again there.
    pub(super) owner: Option<Q>,
    /// Per queue: the accesses its last barrier on the resource allowed until the next one.
    /// Never forgotten within a walk, so it also tells which queues have had a barrier on
    /// the resource (see [`unknown_on`](Self::unknown_on)).
    pub(super) declared: PerQueue<Access>,
    /// Walking a plan's first frame: earlier barriers are unknown.
    pub(super) history_unknown: bool,
}

impl Track {
    pub(super) fn new(texture: bool, layout: Layout) -> Self {
        Track {
            texture,
            layout,
            pending: Vec::new(),
            last_write: None,
            written_back: false,
            covered: PerQueue::empty(NOTHING),
            since: PerQueue::empty(NOTHING),
            last_after: PerQueue::empty(NOTHING),
            owner: None,
            declared: PerQueue::empty(Access::empty()),
            history_unknown: true,
        }
    }

    /// Become a copy of `other`, keeping the pending list's memory (a derived
    /// `clone_from` would allocate a new list for every resource walked).
    pub(super) fn copy_from(&mut self, other: &Track) {
        let Track {
            texture,
            layout,
            pending,
            last_write,
            written_back,
            covered,
            since,
            last_after,
            owner,
            declared,
            history_unknown,
        } = other;
        self.pending.clear();
        // One access at a time: a memmove's wide loads would span the accesses' stores,
        // just made by the walk, and wait for them.
        for &a in pending {
            self.pending.push(a);
        }
        (self.texture, self.layout, self.last_write) = (*texture, *layout, *last_write);
        (self.written_back, self.owner) = (*written_back, *owner);
        self.covered.copy_from(covered);
        self.since.copy_from(since);
        self.last_after.copy_from(last_after);
        self.declared.copy_from(declared);
        self.history_unknown = *history_unknown;
    }

    /// Start over for another resource, keeping the pending list's memory.
    pub(super) fn reset(&mut self, texture: bool, layout: Layout) {
        self.texture = texture;
        self.layout = layout;
        self.pending.clear();
        self.last_write = None;
        self.written_back = false;
        self.covered.clear();
        self.since.clear();
        self.last_after.clear();
        self.owner = None;
        self.declared.clear();
        self.history_unknown = true;
    }

    /// True when this track is `earlier` moved `n` virtual passes on, in everything a walk
    /// from here reads: walking the same uses makes the same decisions, `n` passes later.
    ///
    /// A walk that starts with a write on `writer` (whose layout that queue can move) reads
    /// less: the write is ordered after other queues' accesses by fences, so their pending
    /// accesses, what any queue acquired of the last write, and the last write itself once
    /// written back, are forgotten unread.
    pub(super) fn is_shifted(&self, earlier: &Track, n: usize, writer: Option<Q>) -> bool {
        let moved = |a: &Acc, b: &Acc| b.moved(n as u32) == *a;
        let read = |a: &&Acc| writer.is_none_or(|q| a.queue() == q);
        let (mut now, mut then) = (
            self.pending.iter().filter(read),
            earlier.pending.iter().filter(read),
        );
        let same_pending = loop {
            match (now.next(), then.next()) {
                (Some(a), Some(b)) if moved(a, b) => {}
                (None, None) => break true,
                _ => break false,
            }
        };
        let written_back = writer.is_some() && self.written_back;
        self.texture == earlier.texture
            && self.layout == earlier.layout
            && same_pending
            && (written_back
                || match (&self.last_write, &earlier.last_write) {
                    (Some(a), Some(b)) => moved(a, b),
                    (None, None) => true,
                    _ => false,
                })
            && self.written_back == earlier.written_back
            && (writer.is_some() || self.covered == earlier.covered)
            && self.since == earlier.since
            && self.last_after == earlier.last_after
            && self.owner == earlier.owner
            && self.declared == earlier.declared
            && self.history_unknown == earlier.history_unknown
    }

    /// True while nothing is known of the barriers on `q` before the walk (EB-8a): until
    /// `q`'s first barrier on the resource in the plan, which waits for everything before.
    /// After it, another queue taking the resource over restarts `q`'s sequence of barriers
    /// (see `issued`) but brings back nothing unknown: `q`'s next barrier waits for what its
    /// sequence needs, as in any later frame.
    #[inline]
    pub(super) fn unknown_on(&self, q: Q) -> bool {
        self.history_unknown && self.declared.get(q).is_none()
    }

    /// The Before half of a new barrier on `q`, which must also reach `reach` stages.
    #[inline(always)]
    pub(super) fn before(&self, q: Q, reach: Sync) -> (Sync, Access) {
        // A plan's first frame does not know the barriers before it: wait for everything.
        let reach = if self.unknown_on(q) {
            reach | Sync::ALL
        } else {
            reach
        };
        let since = self.since.get(q).unwrap_or(NOTHING);
        let last = self.last_after.get(q).unwrap_or(NOTHING);
        let access = if !since.access().is_empty() {
            since.access()
        } else if last.access().is_empty() {
            Access::NO_ACCESS
        } else {
            last.access()
        };
        (since.stages() | last.stages() | reach, access)
    }

    /// A barrier with this After half was issued on `q`.
    #[inline(always)]
    pub(super) fn issued(&mut self, q: Q, after: Sync, access: Access) {
        // The resource changes hands: other queues' barrier sequences start again at their
        // next barrier (as the validator's per-queue history does). Their accesses since still
        // need ordering, unless a layout transition absorbed them (see `transitioned`).
        if self.owner.is_some_and(|o| o != q) {
            self.last_after.keep_only(q);
        }
        self.owner = Some(q);
        self.declared.set(q, access);
        self.since.set(q, NOTHING);
        self.last_after.set(q, Facts::new(after, access));
    }

    /// A layout transition writes the texture (barrier-spec D): everything before it is
    /// ordered before it, and whatever follows must be ordered after it.
    #[inline(always)]
    pub(super) fn transitioned(
        &mut self,
        pass: usize,
        q: Q,
        before: Sync,
        after: Sync,
        access: Access,
    ) {
        // Kept as named (not expanded): ALL must stay legal on every queue type (A5).
        let acc = Acc::new(pass as u32, q, before, true, true);
        self.pending.clear();
        self.pending.push(acc);
        // Everything before the transition is ordered before it, on every queue.
        self.since.clear();
        self.last_after.keep_only(q);
        self.last_write = Some(acc);
        self.written_back = true;
        self.covered.clear();
        self.cover(q, after.expand(), access);
    }

    #[inline]
    pub(super) fn covers(&self, q: Q, stages: Sync, access: Access) -> bool {
        self.covered
            .get(q)
            .is_some_and(|c| c.stages().contains(stages) && c.access().contains(access))
    }

    /// `q` has acquired the latest write for some access.
    #[inline]
    pub(super) fn acquired(&self, q: Q) -> bool {
        self.covered.get(q).is_some_and(|c| !c.access().is_empty())
    }

    #[inline]
    pub(super) fn cover(&mut self, q: Q, stages: Sync, access: Access) {
        self.covered.entry(q, NOTHING).add(stages, access);
    }

    /// `q` accessed the resource.
    #[inline]
    pub(super) fn accessed(&mut self, q: Q, stages: Sync, access: Access) {
        self.since.entry(q, NOTHING).add(stages, access);
    }
}
