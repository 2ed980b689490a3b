//! What the walk knows about one resource: its layout, the accesses not yet ordered, the
//! latest write and who has seen it, and each queue's barrier history (barrier-spec A3.4, A9).

use crate::barrier::*;
use crate::device::QueueId;

#[derive(Clone, Copy, Debug)]
pub(super) struct Acc {
    /// Virtual pass index: copy * n + pass.
    pub(super) pass: usize,
    pub(super) queue: QueueId,
    pub(super) stages: Sync,
    pub(super) write: bool,
    /// A layout transition (a barrier), not output-merger work.
    pub(super) barrier: bool,
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
    pub(super) covered: Vec<(QueueId, Sync, Access)>,
    /// Per queue: accesses since its last barrier on this resource, and that barrier's
    /// SyncAfter and AccessAfter. Sequential barriers on one queue must chain: SyncBefore
    /// contains the previous SyncAfter (barrier-spec A3.4), AccessBefore stays within the
    /// previous AccessAfter (A9).
    pub(super) since: Vec<(QueueId, Sync, Access)>,
    pub(super) last_after: Vec<(QueueId, Sync, Access)>,
    /// The queue of the last barrier on the resource: when another queue takes it over
    /// behind a fence, the sequence of barriers starts again there.
    pub(super) owner: Option<QueueId>,
    /// Per queue: the accesses its last barrier on the resource allowed until the next one.
    pub(super) declared: Vec<(QueueId, Access)>,
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
            covered: Vec::new(),
            since: Vec::new(),
            last_after: Vec::new(),
            owner: None,
            declared: Vec::new(),
            history_unknown: true,
        }
    }

    pub(super) fn entry(
        list: &mut Vec<(QueueId, Sync, Access)>,
        q: QueueId,
    ) -> &mut (QueueId, Sync, Access) {
        match list.iter().position(|x| x.0 == q) {
            Some(i) => &mut list[i],
            None => {
                list.push((q, Sync::NONE, Access::empty()));
                list.last_mut().expect("just pushed")
            }
        }
    }

    /// The Before half of a new barrier on `q`, which must also reach `reach` stages.
    pub(super) fn before(&mut self, q: QueueId, reach: Sync) -> (Sync, Access) {
        // A plan's first frame does not know the barriers before it: wait for everything.
        let unknown = self.history_unknown && !self.last_after.iter().any(|x| x.0 == q);
        let reach = if unknown { reach | Sync::ALL } else { reach };

        let since = *Self::entry(&mut self.since, q);
        let last = *Self::entry(&mut self.last_after, q);
        let access = if !since.2.is_empty() {
            since.2
        } else if last.2.is_empty() {
            Access::NO_ACCESS
        } else {
            last.2
        };
        (since.1 | last.1 | reach, access)
    }

    /// A barrier with this After half was issued on `q`.
    pub(super) fn issued(&mut self, q: QueueId, after: Sync, access: Access) {
        // The resource changes hands: other queues' barrier sequences start again at their
        // next barrier (as the validator's per-queue history does). Their accesses since still
        // need ordering, unless a layout transition absorbed them (see `transitioned`).
        if self.owner.is_some_and(|o| o != q) {
            self.last_after.retain(|x| x.0 == q);
        }
        self.owner = Some(q);
        self.declared.retain(|x| x.0 != q);
        self.declared.push((q, access));
        *Self::entry(&mut self.since, q) = (q, Sync::NONE, Access::empty());
        *Self::entry(&mut self.last_after, q) = (q, after, access);
    }

    /// A layout transition writes the texture (barrier-spec D): everything before it is
    /// ordered before it, and whatever follows must be ordered after it.
    pub(super) fn transitioned(
        &mut self,
        pass: usize,
        q: QueueId,
        before: Sync,
        after: Sync,
        access: Access,
    ) {
        // Kept as named (not expanded): ALL must stay legal on every queue type (A5).
        let acc = Acc {
            pass,
            queue: q,
            stages: before,
            write: true,
            barrier: true,
        };
        self.pending.clear();
        self.pending.push(acc);
        // Everything before the transition is ordered before it, on every queue.
        self.since.clear();
        self.last_after.retain(|x| x.0 == q);
        self.last_write = Some(acc);
        self.written_back = true;
        self.covered.clear();
        self.cover(q, after.expand(), access);
    }

    pub(super) fn covers(&self, q: QueueId, stages: Sync, access: Access) -> bool {
        self.covered
            .iter()
            .any(|c| c.0 == q && c.1.contains(stages) && c.2.contains(access))
    }

    pub(super) fn cover(&mut self, q: QueueId, stages: Sync, access: Access) {
        let c = Self::entry(&mut self.covered, q);
        c.1 |= stages;
        c.2 |= access;
    }

    /// `q` accessed the resource.
    pub(super) fn accessed(&mut self, q: QueueId, stages: Sync, access: Access) {
        let e = Self::entry(&mut self.since, q);
        e.1 |= stages;
        e.2 |= access;
    }
}
