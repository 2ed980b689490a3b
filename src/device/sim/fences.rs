//! The fence table (FN-1, FN-2): which fences were inserted, when each signalled, and the
//! critical path that led to it.
//!
//! A queue's fences signal in the order they were inserted (each is a bottom-of-pipe event
//! after everything before it), so once many newer fences of a queue have signalled, an old
//! one only needs to be remembered as "passed": the table keeps the last few thousand per
//! queue and a per-queue watermark for the rest, staying bounded over any run length.

use hashbrown::HashMap;
use std::collections::VecDeque;

use super::super::{FenceId, QUEUE_COUNT};
use super::record::Path;

#[derive(Clone, Copy, Debug, Default)]
struct FenceState {
    signal: Option<u64>,
    path: Path,
}

/// Inserted fences and their signal times.
#[derive(Default)]
pub(crate) struct FenceTable {
    fences: HashMap<FenceId, FenceState>,
    /// Signalled fences per queue, oldest first, for pruning the map.
    signalled: [VecDeque<FenceId>; QUEUE_COUNT],
    /// Per queue: every fence with a sequence up to this one has signalled and been pruned.
    retired_upto: [u64; QUEUE_COUNT],
}

/// Signalled fences remembered per queue before older ones are reduced to the watermark:
/// frames in flight are at most 8, and a frame inserts a few fences per queue, so a queue's
/// waits are on its last few dozen; the table is full after a few hundred frames.
const KEEP: usize = 512;

impl FenceTable {
    /// An `InsertFence` carrying `fence` was submitted.
    pub fn register(&mut self, fence: FenceId) {
        self.fences.insert(fence, FenceState::default());
    }

    /// Fences in the table.
    pub fn len(&self) -> usize {
        self.fences.len()
    }

    /// Bytes the table has allocated.
    pub fn heap_bytes(&self) -> usize {
        let lists: usize = (self.signalled.iter())
            .map(|l| l.capacity() * size_of::<FenceId>())
            .sum();
        self.fences.capacity() * (size_of::<(FenceId, FenceState)>() + 1) + lists
    }

    /// True when the fence was inserted (pruned ones included).
    pub fn is_known(&self, fence: FenceId) -> bool {
        self.fences.contains_key(&fence) || self.pruned(fence)
    }

    /// True when the fence is in the table itself (inserted, not pruned).
    pub fn is_registered(&self, fence: FenceId) -> bool {
        self.fences.contains_key(&fence)
    }

    fn pruned(&self, fence: FenceId) -> bool {
        fence
            .queue()
            .is_some_and(|q| fence.sequence() <= self.retired_upto[q.index()])
    }

    /// Signal time, if signalled (pruned fences signalled long ago: 0).
    pub fn signal(&self, fence: FenceId) -> Option<u64> {
        match self.fences.get(&fence) {
            Some(s) => s.signal,
            None => self.pruned(fence).then_some(0),
        }
    }

    /// The critical path up to the fence's signal.
    pub fn path(&self, fence: FenceId) -> Path {
        self.fences.get(&fence).map_or(Path::default(), |s| s.path)
    }

    /// The queue passed the fence at `t`.
    pub fn set_signalled(&mut self, fence: FenceId, t: u64, path: Path) {
        let Some(s) = self.fences.get_mut(&fence) else {
            return;
        };
        s.signal = Some(t);
        s.path = path;
        let Some(q) = fence.queue() else { return };
        let list = &mut self.signalled[q.index()];
        list.push_back(fence);
        while list.len() > KEEP {
            if let Some(old) = list.pop_front() {
                self.fences.remove(&old);
                let upto = &mut self.retired_upto[q.index()];
                *upto = (*upto).max(old.sequence());
            }
        }
    }
}
