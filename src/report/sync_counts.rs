//! What the submitted barriers ask of the hardware, counted by lowering each Barrier call
//! with the barrier rules (EB-2..EB-5, EB-8): partial flushes by kind, cache write-backs and
//! invalidations, decompressions, DISCARD metadata initialisations, split barriers.

use bevy_ecs::prelude::Resource;

use crate::barrier::{BarrierGroup, LowerOptions, Sync, lower};
use crate::device::{Device, ObjectKey, QueueId};
use crate::validate::resource_info;

/// Totals over a run.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncCounts {
    pub vs_partial_flushes: u64,
    pub ps_partial_flushes: u64,
    pub cs_partial_flushes: u64,
    /// Full idles: every stage drained.
    pub idles: u64,
    pub cache_writebacks: u64,
    pub cache_invalidations: u64,
    pub decompressions: u64,
    pub discards: u64,
    pub split_barriers: u64,
}

impl SyncCounts {
    /// Count one Barrier call on `queue`.
    pub fn absorb(&mut self, device: &Device, queue: QueueId, group: &BarrierGroup<ObjectKey>) {
        let actions = lower(
            group,
            queue.queue_type(),
            |k| resource_info(device, *k),
            LowerOptions::default(),
        );
        let f = actions.flush_counts();
        self.vs_partial_flushes += f.vs as u64;
        self.ps_partial_flushes += f.ps as u64;
        self.cs_partial_flushes += f.cs as u64;
        self.idles += f.full_idle as u64;
        self.cache_writebacks += actions.write_back_count() as u64;
        self.cache_invalidations += actions.invalidation_count() as u64;
        self.decompressions += actions.decompression_count() as u64;
        self.discards += actions.discard_count() as u64;
        let split = |s: Sync| s.contains(Sync::SPLIT);
        self.split_barriers += group
            .buffers
            .iter()
            .map(|b| (b.sync_before, b.sync_after))
            .chain(group.textures.iter().map(|t| (t.sync_before, t.sync_after)))
            .filter(|(b, a)| split(*b) || split(*a))
            .count() as u64;
    }
}
