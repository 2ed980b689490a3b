//! What the walk knows about one resource: its layout, the accesses not yet ordered, the
//! latest write and who has seen it, and each queue's barrier history (barrier-spec A3.4, A9).

use crate::barrier::*;
use crate::device::{QUEUE_COUNT, QueueId};
use crate::systems::barriers::{movable, queue_type};

/// A queue with its dense index and bit, worked out once per pass when uses are gathered:
/// the walk asks several per-queue questions at every use, each an array index or a mask.
#[derive(Clone, Copy, Debug)]
pub(super) struct Q {
    bit: u16,
    index: u8,
    pub(super) kind: QueueType,
}

impl Q {
    pub(super) fn new(id: QueueId) -> Q {
        Q {
            index: id.index() as u8,
            kind: queue_type(id),
            bit: 1 << id.index(),
        }
    }

    /// True when this queue may move a texture from `from` to `to` (barrier-spec A5).
    #[inline(always)]
    pub(super) fn can_transition(self, from: Layout, to: Layout) -> bool {
        from == to || movable(self.kind).between(from, to)
    }
}

impl PartialEq for Q {
    fn eq(&self, other: &Q) -> bool {
        self.index == other.index
    }
}

impl Eq for Q {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Acc {
    /// Virtual pass index: copy * n + pass (u32 keeps the pending list dense).
    pub(super) pass: u32,
    pub(super) queue: Q,
    pub(super) stages: Sync,
    pub(super) write: bool,
    /// A layout transition (a barrier), not output-merger work.
    pub(super) barrier: bool,
}

/// A value per hardware queue, absent until set: an array indexed by [`QueueId::index`]
/// and a bit per queue saying which entries hold a value, so the walk's per-queue questions
/// cost an index and forgetting costs a mask, not a search or a fill.
#[derive(Clone, Copy, Debug)]
pub(super) struct PerQueue<T: Copy + PartialEq> {
    present: u16,
    values: [T; QUEUE_COUNT],
}

const _: () = assert!(
    QUEUE_COUNT <= 16,
    "PerQueue keeps one bit per queue in a u16"
);

impl<T: Copy + PartialEq> PartialEq for PerQueue<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        if self.present != other.present {
            return false;
        }
        let mut left = self.present;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            if self.values[i] != other.values[i] {
                return false;
            }
            left &= left - 1;
        }
        true
    }
}

impl<T: Copy + PartialEq> PerQueue<T> {
    const fn empty(filler: T) -> Self {
        PerQueue {
            present: 0,
            values: [filler; QUEUE_COUNT],
        }
    }

    #[inline]
    fn bit(q: Q) -> u16 {
        q.bit
    }

    #[inline]
    pub(super) fn get(&self, q: Q) -> Option<T> {
        (self.present & Self::bit(q) != 0).then(|| self.values[q.index as usize])
    }

    #[inline]
    pub(super) fn set(&mut self, q: Q, v: T) {
        self.present |= Self::bit(q);
        self.values[q.index as usize] = v;
    }

    /// The value for `q`, set to `default` first if absent.
    #[inline]
    pub(super) fn entry(&mut self, q: Q, default: T) -> &mut T {
        if self.present & Self::bit(q) == 0 {
            self.set(q, default);
        }
        &mut self.values[q.index as usize]
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        self.present = 0;
    }

    /// Forget every queue but `q`.
    #[inline]
    pub(super) fn keep_only(&mut self, q: Q) {
        self.present &= Self::bit(q);
    }
}

/// Stages and accesses, nothing yet.
const NOTHING: (Sync, Access) = (Sync::NONE, Access::empty());

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
    pub(super) covered: PerQueue<(Sync, Access)>,
    /// Per queue: accesses since its last barrier on this resource, and that barrier's
    /// SyncAfter and AccessAfter. Sequential barriers on one queue must chain: SyncBefore
    /// contains the previous SyncAfter (barrier-spec A3.4), AccessBefore stays within the
    /// previous AccessAfter (A9).
    pub(super) since: PerQueue<(Sync, Access)>,
    pub(super) last_after: PerQueue<(Sync, Access)>,
    /// The queue of the last barrier on the resource: when another queue takes it over
    /// behind a fence, the sequence of barriers starts again there.
    pub(super) owner: Option<Q>,
    /// Per queue: the accesses its last barrier on the resource allowed until the next one.
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
        self.pending.extend_from_slice(pending);
        (self.texture, self.layout, self.last_write) = (*texture, *layout, *last_write);
        (self.written_back, self.covered, self.since) = (*written_back, *covered, *since);
        (self.last_after, self.owner, self.declared) = (*last_after, *owner, *declared);
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
        let moved = |a: &Acc, b: &Acc| {
            Acc {
                pass: b.pass + n as u32,
                ..*b
            } == *a
        };
        let read = |a: &&Acc| writer.is_none_or(|q| a.queue == q);
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

    /// True while nothing is known of the barriers on `q` before the walk (EB-8a).
    #[inline]
    pub(super) fn unknown_on(&self, q: Q) -> bool {
        self.history_unknown && self.last_after.get(q).is_none()
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
        let access = if !since.1.is_empty() {
            since.1
        } else if last.1.is_empty() {
            Access::NO_ACCESS
        } else {
            last.1
        };
        (since.0 | last.0 | reach, access)
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
        self.last_after.set(q, (after, access));
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
        let acc = Acc {
            pass: pass as u32,
            queue: q,
            stages: before,
            write: true,
            barrier: true,
        };
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
            .is_some_and(|c| c.0.contains(stages) && c.1.contains(access))
    }

    /// `q` has acquired the latest write for some access.
    #[inline]
    pub(super) fn acquired(&self, q: Q) -> bool {
        self.covered.get(q).is_some_and(|c| !c.1.is_empty())
    }

    #[inline]
    pub(super) fn cover(&mut self, q: Q, stages: Sync, access: Access) {
        let c = self.covered.entry(q, NOTHING);
        c.0 |= stages;
        c.1 |= access;
    }

    /// `q` accessed the resource.
    #[inline]
    pub(super) fn accessed(&mut self, q: Q, stages: Sync, access: Access) {
        let e = self.since.entry(q, NOTHING);
        e.0 |= stages;
        e.1 |= access;
    }
}
