//! Fences in the happens-before model (FN-2): vector clocks carried from insert to wait, round
//! trips that complete a queue's own work, and the coverage a release needs (FS-6) and a
//! CPU write of mapped memory (FS-1: fences the CPU saw pass).
//!
//! A fence may be waited on at any time after it was inserted (FN-1 IDs never repeat), so
//! no wait can be ruled out; but a run inserts fences every frame, and keeping each one's
//! clock forever grows without bound. The tracker keeps the clocks of each queue's fences of
//! the last [`FENCE_FRAMES`] frames, and at least its last [`FENCE_WINDOW`]: waits are on
//! fences a few frames old (frames in flight are at most 8), and what is kept is bounded by
//! the scene (its fences per frame), not by the run. A wait on an older fence, which the
//! tracker has dropped, counts as a wait on the first fence the queue ever dropped: its
//! clock is at most the dropped fence's (a queue's clock only grows), so the wait orders no
//! more than the real one would, and what it leaves unordered is reported, never missed. It
//! is not a wait on a fence never inserted (FN-3): the fence's sequence number shows it was
//! dropped.

use super::*;

/// Fences per queue whose clocks the tracker keeps at least.
pub const FENCE_WINDOW: usize = 512;

/// Frames whose fences the tracker keeps whatever their number: twice the most frames in
/// flight.
pub const FENCE_FRAMES: u64 = 16;

/// Fences per queue kept at least with their stream positions for the release and query
/// checks (FS-6, CTX-6), besides those of the last [`FENCE_FRAMES`] frames. A queue passes
/// its fences in order, so a use is covered once any fence after it has passed; forgetting
/// older ones could only report a use uncovered whose later kept fences are all pending,
/// never miss one.
const RECENT_FENCES: usize = 256;

/// True when the oldest of `len` fences, inserted in frame `oldest`, may be forgotten in
/// frame `now` by a table that keeps `keep`.
fn forgettable(len: usize, keep: usize, oldest: u64, now: u64) -> bool {
    len > keep && oldest.saturating_add(FENCE_FRAMES) <= now
}

impl HazardTracker {
    /// A fence inserted on `queue` in `frame` covers everything before it there.
    pub fn insert_fence(&mut self, queue: QueueId, fence: FenceId, frame: u64) {
        let q = queue.index();
        let pos = self.advance(q);
        if self.fences.insert(fence, self.clocks[q]).is_none()
            && let Some(named) = fence.queue()
        {
            // Fences whose ID names no queue cannot come from the device (FN-1); they are
            // kept, not windowed.
            let window = &mut self.fence_window[named.index()];
            window.order.push_back((fence, frame));
            while let Some(&(old, at)) = window.order.front()
                && forgettable(window.order.len(), FENCE_WINDOW, at, frame)
            {
                window.order.pop_front();
                if let Some(clock) = self.fences.remove(&old) {
                    window.floor.get_or_insert(clock);
                }
                window.dropped_upto = window.dropped_upto.max(old.sequence());
            }
        }
        let recent = &mut self.recent_fences[q];
        recent.push_back((pos, fence, frame));
        while let Some(&(_, _, at)) = recent.front()
            && forgettable(recent.len(), RECENT_FENCES, at, frame)
        {
            recent.pop_front();
        }
    }

    /// FS-6: is every recorded access of `resource` covered by a fence that has passed?
    /// Returns the first uncovered access's queue and label.
    pub fn uncovered_use(
        &self,
        resource: ObjectKey,
        passed: impl Fn(FenceId) -> bool,
    ) -> Option<(QueueId, u32, u64)> {
        self.first_use(resource, |q, pos| {
            self.recent_fences[q]
                .iter()
                .any(|(p, f, _)| *p > pos && passed(*f))
        })
    }

    /// FS-1, FN-2: is every recorded access of `resource` covered by a fence the CPU saw
    /// pass (a wait or a poll that found it passed)? A fence that passed unobserved tells
    /// the CPU nothing. Returns the first access it has not seen complete.
    pub fn use_unseen_by_cpu(&self, resource: ObjectKey) -> Option<(QueueId, u32, u64)> {
        self.first_use(resource, |q, pos| self.cpu[q] > pos)
    }

    /// The first recorded access of `resource` that `covered` (given its queue's index and
    /// stream position) does not cover: its queue, label and frame.
    fn first_use(
        &self,
        resource: ObjectKey,
        covered: impl Fn(usize, u64) -> bool,
    ) -> Option<(QueueId, u32, u64)> {
        if let Some(uses) = self.uses.get(&resource) {
            for (q, u) in uses.iter().enumerate() {
                if u.pos != 0 && !covered(q, u.pos) {
                    let queue = QueueId::from_index(q).unwrap_or_default();
                    return Some((queue, u.label, u.frame));
                }
            }
        }
        let mut records = self
            .states_of(resource)
            .flat_map(|state| state.write.iter().chain(state.reads.iter()));
        records.find_map(|r| {
            (!covered(r.queue, r.pos)).then(|| {
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
        let dropped = |f: FenceId| {
            let window = &self.fence_window[f.queue()?.index()];
            (f.sequence() <= window.dropped_upto).then_some(window.floor?)
        };
        let Some(clock) = self.fences.get(&fence).copied().or_else(|| dropped(fence)) else {
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
    pub fn note_use(&mut self, at: &super::At, key: ObjectKey) {
        let q = at.queue.index();
        let pos = self.clocks[q][q];
        let (label, frame) = (at.label, at.frame);
        self.uses.entry(key).or_default()[q] = super::Use { pos, label, frame };
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
            .any(|(p, f, _)| *p > pos && passed(*f))
    }

    /// The end of an ExecuteCommandLists scope on `queue` where the API drains the queue and
    /// flushes its caches there (PC D3D12, barrier-spec A8): everything before is complete
    /// on the queue, written back, and visible to any later access once ordered (on another
    /// queue a fence is still needed to order it, FN-2).
    pub fn scope_flushed(&mut self, queue: QueueId) {
        let q = queue.index();
        self.completed[q] = self.completed[q].max(self.clocks[q][q] + 1);
        let split = self.split.values_mut().flatten();
        for state in self.resources.values_mut().chain(split) {
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

    /// Forget a destroyed object: its records and uses (a destroyed key is never named
    /// again, FS-6).
    pub fn forget(&mut self, resource: ObjectKey) {
        self.resources.remove(&resource);
        self.split.remove(&resource);
        self.uses.remove(&resource);
    }

    /// Forget every object `live` says no longer exists (views destroyed with their texture
    /// included), so that the maps hold live objects only.
    pub fn retain_live(&mut self, live: impl Fn(ObjectKey) -> bool) {
        self.resources.retain(|k, _| live(*k));
        self.split.retain(|k, _| live(*k));
        self.uses.retain(|k, _| live(*k));
        self.presented.retain(|k, _| live(*k));
    }

    /// Entries held: resources with records, fence clocks, recent fences, used objects
    /// (for the memory report of a soak run).
    pub fn entries(&self) -> usize {
        let split = self.split.values().flatten();
        let reads: usize = self
            .resources
            .values()
            .chain(split)
            .map(|s| s.reads.len())
            .sum();
        let subresources: usize = self.split.values().map(Vec::len).sum();
        let recent: usize = self.recent_fences.iter().map(VecDeque::len).sum();
        self.resources.len() + subresources + reads + self.fences.len() + recent + self.uses.len()
    }

    /// Bytes the tracker's tables have allocated.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let split = self.split.values().flatten();
        let reads: usize = (self.resources.values().chain(split))
            .map(|s| s.reads.capacity() * size_of::<Record>())
            .sum();
        let subresources: usize = (self.split.values())
            .map(|v| v.capacity() * size_of::<ResourceState>())
            .sum();
        let recent: usize = (self.recent_fences.iter())
            .map(|r| r.capacity() * size_of::<(u64, FenceId, u64)>())
            .sum();
        let order: usize = (self.fence_window.iter())
            .map(|w| w.order.capacity() * size_of::<(FenceId, u64)>())
            .sum();
        self.resources.capacity() * (size_of::<(ObjectKey, ResourceState)>() + 1)
            + reads
            + subresources
            + self.split.capacity() * (size_of::<(ObjectKey, Vec<ResourceState>)>() + 1)
            + self.fences.capacity() * (size_of::<(FenceId, VectorClock)>() + 1)
            + recent
            + order
            + self.uses.capacity() * (size_of::<(ObjectKey, [super::Use; QUEUE_COUNT])>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    const CS: QueueId = QueueId::Compute { pipe: 0, index: 0 };

    fn at(queue: QueueId) -> At {
        At {
            queue,
            label: 0,
            frame: 0,
        }
    }

    fn touch(resource: ObjectKey, write: bool) -> Touch {
        Touch {
            resource,
            access: if write {
                Access::UNORDERED_ACCESS
            } else {
                Access::SHADER_RESOURCE
            },
            stages: Sync::COMPUTE_SHADING,
            write,
            part: None,
            through_l2: false,
        }
    }

    /// A compute write of `key` followed by a fence, then `n` fences more, a frame each.
    fn write_then_fences(h: &mut HazardTracker, key: ObjectKey, seq: &mut u64, n: usize) {
        h.access(at(CS), &[touch(key, true)]);
        for _ in 0..=n {
            *seq += 1;
            h.insert_fence(CS, FenceId::new(CS, *seq), *seq);
        }
    }

    #[test]
    fn fence_clocks_stay_bounded_and_recent_waits_order() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let buffer = keys.insert(());
        let mut h = HazardTracker::default();
        let mut seq = 0;
        for _ in 0..4 * FENCE_WINDOW {
            seq += 1;
            h.insert_fence(CS, FenceId::new(CS, seq), seq);
        }
        assert_eq!(h.fences.len(), FENCE_WINDOW);
        assert_eq!(h.recent_fences[CS.index()].len(), RECENT_FENCES);
        // Many fences in one frame are all kept until the frame is old (FENCE_FRAMES).
        let frame = seq + 1;
        for _ in 0..2 * FENCE_WINDOW {
            seq += 1;
            h.insert_fence(CS, FenceId::new(CS, seq), frame);
        }
        let kept = h.fences.len();
        assert!((2 * FENCE_WINDOW..=2 * FENCE_WINDOW + FENCE_FRAMES as usize).contains(&kept));
        let later = frame + FENCE_FRAMES;
        for _ in 0..4 * FENCE_WINDOW {
            seq += 1;
            h.insert_fence(CS, FenceId::new(CS, seq), later);
        }
        assert_eq!(h.fences.len(), 4 * FENCE_WINDOW, "the old frame's went");
        // The frame moves on, one fence a frame: the window shrinks back.
        for f in 1..=FENCE_FRAMES + 1 {
            seq += 1;
            h.insert_fence(CS, FenceId::new(CS, seq), later + f);
        }
        for _ in 0..FENCE_WINDOW {
            seq += 1;
            h.insert_fence(CS, FenceId::new(CS, seq), later + 2 * FENCE_FRAMES);
        }
        let frame = later + 3 * FENCE_FRAMES;
        seq += 1;
        h.insert_fence(CS, FenceId::new(CS, seq), frame);
        assert_eq!(h.fences.len(), FENCE_WINDOW);
        let entries = h.entries();
        // A write, its fence, a wait on graphics: the read there races nothing (FN-2).
        write_then_fences(&mut h, buffer, &mut seq, 0);
        assert_eq!(
            h.entries(),
            entries + 1,
            "one resource record, no more fences"
        );
        assert!(h.wait_fence(QueueId::Graphics, FenceId::new(CS, seq)));
        let found = h.access(at(QueueId::Graphics), &[touch(buffer, false)]);
        assert!(found.iter().all(|f| f.kind != HazardKind::ReadRacingWrite));
    }

    #[test]
    fn a_wait_on_a_dropped_fence_orders_no_more_than_it_did() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (early, late) = (keys.insert(()), keys.insert(()));
        let mut h = HazardTracker::default();
        let mut seq = 0;
        write_then_fences(&mut h, early, &mut seq, 0);
        let first = FenceId::new(CS, seq);
        write_then_fences(&mut h, late, &mut seq, 0);
        let second = FenceId::new(CS, seq);
        write_then_fences(&mut h, keys.insert(()), &mut seq, 2 * FENCE_WINDOW);
        assert!(!h.fences.contains_key(&second), "dropped from the window");
        // Not a wait on a fence never inserted (FN-3), and it orders the write before the
        // first fence: the first dropped fence's clock is at most its own.
        assert!(h.wait_fence(QueueId::Graphics, second));
        let read = |h: &mut HazardTracker, key| {
            let found = h.access(at(QueueId::Graphics), &[touch(key, false)]);
            found.iter().any(|f| f.kind == HazardKind::ReadRacingWrite)
        };
        assert!(
            !read(&mut h, early),
            "ordered by the first fence, which the floor is"
        );
        // The write between the first fence and the second is ordered by the second only,
        // which the tracker no longer knows: reported, never missed.
        assert!(read(&mut h, late));
        assert!(first.sequence() < second.sequence());
        // A fence never inserted is still one (FN-3).
        assert!(!h.wait_fence(QueueId::Graphics, FenceId::new(CS, seq + 10)));
    }
}
