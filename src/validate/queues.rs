//! Per-queue state as a dense array: the device has a small fixed set of queues (CC-2), each
//! with a dense index ([`QueueId::index`]), so a checker's per-queue state is one slot per
//! queue rather than a hash map that grows an entry the first time a queue is seen. An
//! untouched slot holds the state's default, which is what a queue that never ran anything
//! has.

use std::ops::{Index, IndexMut};

use crate::device::{QUEUE_COUNT, QueueId};

/// One `T` per hardware queue, indexed by [`QueueId`].
#[derive(Clone, Debug)]
pub(super) struct PerQueue<T>([T; QUEUE_COUNT]);

impl<T: Default> Default for PerQueue<T> {
    fn default() -> Self {
        Self(std::array::from_fn(|_| T::default()))
    }
}

impl<T> PerQueue<T> {
    /// Every queue's slot, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (QueueId, &T)> {
        (self.0.iter().enumerate()).filter_map(|(i, t)| QueueId::from_index(i).map(|q| (q, t)))
    }
}

impl<T> Index<QueueId> for PerQueue<T> {
    type Output = T;

    fn index(&self, queue: QueueId) -> &T {
        &self.0[queue.index()]
    }
}

impl<T> IndexMut<QueueId> for PerQueue<T> {
    fn index_mut(&mut self, queue: QueueId) -> &mut T {
        &mut self.0[queue.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slot_per_queue_in_index_order() {
        let mut per = PerQueue::<u32>::default();
        let dma = QueueId::Dma { engine: 1 };
        per[dma] += 2;
        per[QueueId::Graphics] += 1;
        let all: Vec<(QueueId, u32)> = per.iter().map(|(q, n)| (q, *n)).collect();
        assert_eq!(all.len(), QUEUE_COUNT);
        assert!(all.iter().enumerate().all(|(i, (q, _))| q.index() == i));
        assert_eq!(all[0], (QueueId::Graphics, 1));
        assert_eq!(all[dma.index()], (dma, 2));
        assert_eq!(all.iter().map(|(_, n)| n).sum::<u32>(), 3);
    }
}
