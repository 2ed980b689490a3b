//! What a Barrier call costs: lower it to hardware actions, then price them (EB-2..EB-5,
//! EB-8, EB-9).
//!
//! [`barrier_work`] is the one place the device turns a barrier into time. Lowering is the
//! barrier module's (`barrier::lower`, seed 004's model): SyncBefore becomes the stages to
//! drain and SyncAfter the stages to block (EB-2), AccessBefore cache write-backs and
//! AccessAfter invalidations (EB-3), a layout change out of a compressed layout a
//! decompression of the whole resource (EB-4, EB-8b), DISCARD from UNDEFINED an initialisation
//! of its metadata (EB-5); split barriers are performed at their near side holding the front
//! end (EB-8c), and legacy barriers hold every stage and the front end (EB-10). The device
//! only reads the result as plain data ([`Lowered`]) and prices it.
//!
//! Pricing: a drain costs exactly the in-flight work it waits for, which the simulation knows
//! and this function does not (EB-9: a flush with nothing in flight costs nothing). What a
//! barrier adds of its own is the cache work (write-backs in parallel, then invalidations in
//! parallel) and the compression work (the bytes it reads and writes over the memory
//! bandwidth).

use super::{Memory, ObjectKey, Profile, QueueId};
use crate::barrier::{
    BarrierGroup, Caches, CompressionKind, CompressionState, LowerOptions, QueueType, ResourceInfo,
    Stages,
};

/// Hardware actions of one Barrier call, as plain data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lowered {
    /// Stages whose in-flight work must finish first (EB-2).
    pub drains: Stages,
    /// Stages whose later work waits for the barrier (EB-2).
    pub blocks: Stages,
    /// The whole front end waits (legacy barriers, split barriers on Xbox, EB-8c).
    pub front_end: bool,
    pub write_back: Caches,
    pub invalidate: Caches,
    /// Bytes read and written by decompressions of whole resources (EB-4, EB-8b).
    pub decompress_bytes: u64,
    /// Bytes written initialising compression metadata (EB-5).
    pub discard_bytes: u64,
}

/// A barrier as the simulation runs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarrierWork {
    pub drains: Stages,
    pub blocks: Stages,
    pub front_end: bool,
    /// Write-back then invalidation latency, ns.
    pub cache_ns: u64,
    /// Decompression and metadata initialisation, ns.
    pub decompress_ns: u64,
    /// It writes back or invalidates a cache every queue's shaders use (the vector L0/L1,
    /// the scalar K$, L2). Cache operations take the whole cache, never a range (CC-4): on a
    /// compute queue such a flush disturbs the graphics work running meanwhile
    /// ([`super::compute::GRAPHICS_REFILL_NS`]).
    pub shared_caches: bool,
}

/// Price a Barrier call on `queue` (EB-9: what it adds beyond the drains it waits for).
/// `compression` is what each surface holds, read and updated as the barrier changes it
/// (EB-8b), so a surface already decompressed is not decompressed again.
pub fn barrier_work(
    group: &BarrierGroup<ObjectKey>,
    queue: QueueId,
    options: LowerOptions,
    memory: &Memory,
    profile: &Profile,
    compression: &mut CompressionState<ObjectKey>,
) -> BarrierWork {
    price(&lower(group, queue, options, memory, compression), profile)
}

/// Cost of the lowered actions.
pub fn price(l: &Lowered, p: &Profile) -> BarrierWork {
    let caches = [
        (Caches::CB, p.caches.color),
        (Caches::DB, p.caches.depth),
        (Caches::L0_L1, p.caches.vector),
        (Caches::SCALAR_K, p.caches.scalar),
        (Caches::L2, p.caches.l2),
    ];
    let write_back = (caches.iter())
        .filter(|(c, _)| l.write_back.contains(*c))
        .map(|(_, cost)| cost.writeback_ns)
        .max()
        .unwrap_or(0);
    let invalidate = (caches.iter())
        .filter(|(c, _)| l.invalidate.contains(*c))
        .map(|(_, cost)| cost.invalidate_ns)
        .max()
        .unwrap_or(0);
    // The compression work is the bytes it reads and writes, at memory bandwidth.
    let decompress = Profile::transfer_ns(
        l.decompress_bytes.saturating_add(l.discard_bytes),
        p.memory_bytes_per_us,
    );
    BarrierWork {
        drains: l.drains,
        blocks: l.blocks,
        front_end: l.front_end,
        cache_ns: write_back + invalidate,
        decompress_ns: decompress,
        shared_caches: (l.write_back | l.invalidate)
            .intersects(Caches::L0_L1 | Caches::SCALAR_K | Caches::L2),
    }
}

/// The hardware actions of a Barrier call on `queue`, by the barrier module's lowering.
pub fn lower(
    group: &BarrierGroup<ObjectKey>,
    queue: QueueId,
    options: LowerOptions,
    memory: &Memory,
    compression: &mut CompressionState<ObjectKey>,
) -> Lowered {
    let queue = match queue {
        QueueId::Graphics => QueueType::Direct,
        QueueId::Compute { .. } => QueueType::Compute,
        QueueId::Dma { .. } => QueueType::Copy,
    };
    let info = |k: &ObjectKey| resource_info(memory, *k);
    let a = crate::barrier::lower_tracked(group, queue, info, options, compression);
    let bytes = |metadata: bool| {
        (a.compression.iter())
            .filter(|op| (op.kind == CompressionKind::MetadataInit) == metadata)
            .map(|op| op.bytes)
            .fold(0u64, u64::saturating_add)
    };
    Lowered {
        drains: a.drains,
        blocks: a.blocks,
        front_end: !a.front_end.is_empty(),
        write_back: a.write_back,
        invalidate: a.invalidate,
        decompress_bytes: bytes(false),
        discard_bytes: bytes(true),
    }
}

/// What lowering needs to know about a device object (EB-4: flags, size, planes).
fn resource_info(memory: &Memory, key: ObjectKey) -> Option<ResourceInfo> {
    memory.resource_info(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, GlobalBarrier, Sync};

    fn compute_barrier() -> BarrierGroup<ObjectKey> {
        let mut g = BarrierGroup::default();
        g.global.push(GlobalBarrier {
            sync_before: Sync::COMPUTE_SHADING,
            sync_after: Sync::COMPUTE_SHADING,
            access_before: Access::UNORDERED_ACCESS,
            access_after: Access::UNORDERED_ACCESS,
        });
        g
    }

    #[test]
    fn a_global_compute_barrier_drains_and_blocks_compute_only() {
        let (g, m) = (compute_barrier(), Memory::default());
        let l = lower(
            &g,
            QueueId::Graphics,
            LowerOptions::default(),
            &m,
            &mut Default::default(),
        );
        assert_eq!(l.drains, Stages::COMPUTE);
        assert_eq!(l.blocks, Stages::COMPUTE);
        assert!(!l.front_end);
        // L0/L1 write through to L2: UAV writes need only an invalidation (EB-3).
        assert_eq!(l.write_back, Caches::empty());
        assert_eq!(l.invalidate, Caches::L0_L1);
        let p = Profile::default();
        assert_eq!(price(&l, &p).cache_ns, p.caches.vector.invalidate_ns);
        // Legacy barriers hold the whole front end (EB-10).
        let legacy = LowerOptions {
            legacy: true,
            ..LowerOptions::default()
        };
        assert!(lower(&g, QueueId::Graphics, legacy, &m, &mut Default::default()).front_end);
    }

    #[test]
    fn caches_write_back_in_parallel_then_invalidate_in_parallel() {
        let l = Lowered {
            write_back: Caches::CB.union(Caches::L0_L1),
            invalidate: Caches::L0_L1.union(Caches::SCALAR_K),
            decompress_bytes: 2000,
            ..Lowered::default()
        };
        let p = Profile::default();
        let w = price(&l, &p);
        let c = p.caches;
        assert_eq!(
            w.cache_ns,
            c.color.writeback_ns.max(c.vector.writeback_ns)
                + c.vector.invalidate_ns.max(c.scalar.invalidate_ns)
        );
        assert_eq!(
            w.decompress_ns,
            Profile::transfer_ns(2000, p.memory_bytes_per_us)
        );
    }
}
