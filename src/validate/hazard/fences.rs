//! Fences in the happens-before model (FN-2): vector clocks carried from insert to wait, round
//! trips that complete a queue's own work, and the coverage a release needs (FS-6).

use super::*;

impl HazardTracker {
    /// A fence inserted on `queue` covers everything before it there.
    pub fn insert_fence(&mut self, queue: QueueId, fence: FenceId) {
        let q = queue.index();
        let pos = self.advance(q);
        self.fences.insert(fence, self.clocks[q]);
        let recent = &mut self.recent_fences[q];
        recent.push((pos, fence));
        if recent.len() > 256 {
            recent.drain(..128);
        }
    }

    /// FS-6: is every recorded access of `resource` covered by a fence that has passed?
    /// Returns the first uncovered access's queue and label.
    pub fn uncovered_use(
        &self,
        resource: ObjectKey,
        passed: impl Fn(FenceId) -> bool,
    ) -> Option<(QueueId, u32, u64)> {
        if let Some(positions) = self.uses.get(&resource) {
            for (q, &pos) in positions.iter().enumerate() {
                let covered = pos == 0
                    || self.recent_fences[q]
                        .iter()
                        .any(|(p, f)| *p > pos && passed(*f));
                if !covered {
                    return Some((QueueId::from_index(q).unwrap_or_default(), 0, 0));
                }
            }
        }
        let mut records = self
            .states_of(resource)
            .flat_map(|state| state.write.iter().chain(state.reads.iter()));
        records.find_map(|r| {
            let covered = self.recent_fences[r.queue]
                .iter()
                .any(|(pos, f)| *pos > r.pos && passed(*f));
            (!covered).then(|| {
                (
                    QueueId::from_index(r.queue).unwrap_or_default(),
                    r.label,
                    r.frame,
                )
            })
        })
    }

    /// A wait on `fence`: everything the fence covers is ordered before what follows on
    /// `queue`. Returns false when the fence was never inserted (FN-3).
    pub fn wait_fence(&mut self, queue: QueueId, fence: FenceId) -> bool {
        let q = queue.index();
        self.advance(q);
        let Some(clock) = self.fences.get(&fence).copied() else {
            return false;
        };
        // The signaller knew this queue complete up to its own entry for it.
        self.completed[q] = self.completed[q].max(clock[q]);
        for (i, (mine, theirs)) in self.clocks[q].iter_mut().zip(clock).enumerate() {
            if i != q {
                *mine = (*mine).max(theirs);
            }
        }
        true
    }

    /// The CPU saw `fence` pass: everything it covers is complete (FN-2).
    pub fn fence_seen_by_cpu(&mut self, fence: FenceId) {
        if let Some(clock) = self.fences.get(&fence) {
            for (mine, theirs) in self.cpu.iter_mut().zip(clock) {
                *mine = (*mine).max(*theirs);
            }
        }
    }

    /// A submission on `queue` made by the CPU after what it saw complete: ordered after
    /// it, and the queue's own work it saw complete is complete (FN-2).
    pub fn submitted_by_cpu(&mut self, queue: QueueId) {
        let q = queue.index();
        self.completed[q] = self.completed[q].max(self.cpu[q]);
        for (i, (mine, cpu)) in self.clocks[q].iter_mut().zip(self.cpu).enumerate() {
            if i != q {
                *mine = (*mine).max(cpu);
            }
        }
    }

    /// `key` (a view or a directly bound buffer) was used by the command at the current
    /// position of `queue`.
    pub fn note_use(&mut self, queue: QueueId, key: ObjectKey) {
        let q = queue.index();
        let pos = self.clocks[q][q];
        self.uses.entry(key).or_insert([0; QUEUE_COUNT])[q] = pos;
    }

    /// True when what `then` did after position `pos` of its stream (the command being
    /// validated when [`position`](Self::position) read `pos`) is ordered before what `now`
    /// does next: on one queue by its stream, across queues by a fence inserted after it
    /// and waited on, directly or through a chain of waits (FN-2).
    pub fn ordered_before(&self, then: QueueId, pos: u64, now: QueueId) -> bool {
        then == now || self.clocks[now.index()][then.index()] > pos
    }

    /// The current position in `queue`'s stream (of the last command that moved it).
    pub fn position(&self, queue: QueueId) -> u64 {
        let q = queue.index();
        self.clocks[q][q]
    }

    /// True when a fence inserted on `queue` after position `pos` has `passed` (CTX-6).
    pub fn fence_passed_after(
        &self,
        queue: QueueId,
        pos: u64,
        passed: impl Fn(FenceId) -> bool,
    ) -> bool {
        self.recent_fences[queue.index()]
            .iter()
            .any(|(p, f)| *p > pos && passed(*f))
    }

    /// The end of an ExecuteCommandLists scope on `queue` where the API drains the queue and
    /// flushes its caches there (PC D3D12, barrier-spec A8): everything before is complete
    /// on the queue, written back, and visible to any later access once ordered (on another
    /// queue a fence is still needed to order it, FN-2).
    pub fn scope_flushed(&mut self, queue: QueueId) {
        let q = queue.index();
        self.completed[q] = self.completed[q].max(self.clocks[q][q] + 1);
        for state in self.resources.values_mut() {
            for r in state.write.iter_mut().chain(state.reads.iter_mut()) {
                if r.queue == q {
                    r.chained = Sync::ALL.expand();
                    if r.write {
                        r.written_back = true;
                        r.visible_all = true;
                        r.visible_on = u16::MAX;
                    }
                }
            }
        }
    }

    /// Forget a destroyed object.
    pub fn forget(&mut self, resource: ObjectKey) {
        self.resources.remove(&resource);
        self.split.remove(&resource);
    }
}
