//! What a Barrier call costs: lower it to hardware actions, then price them (EB-2..EB-5,
//! EB-8, EB-9).
//!
//! [`barrier_work`] is the one place the device turns a barrier into time. Lowering follows
//! seed 004: SyncBefore becomes the stages to drain and SyncAfter the stages to block (EB-2);
//! AccessBefore becomes cache write-backs and AccessAfter invalidations (EB-3); a layout change
//! out of a compressed layout becomes a decompression of the whole resource (EB-4, EB-8b), and
//! DISCARD from UNDEFINED an initialisation of its metadata (EB-5). On Xbox a split barrier is
//! performed at its near side and its far side ignored, pessimistically holding the front end
//! (EB-8c); a legacy barrier always holds the whole front end. The lowering here is the
//! device's own small one; when the barrier module's lowering is available it replaces
//! [`lower`] and nothing else changes, since pricing only reads the [`Lowered`] data.
//!
//! Pricing: a drain costs exactly the in-flight work it waits for, which the simulation knows
//! and this function does not (EB-9: a flush with nothing in flight costs nothing). What a
//! barrier adds of its own is the cache work (write-backs in parallel, then invalidations in
//! parallel) and the compression work (bytes read and written over the memory bandwidth).

use super::stages::{CacheSet, StageMask};
use super::{Memory, ObjectDesc, ObjectKey, Profile, QueueId};
use crate::barrier::{Access, BarrierGroup, Layout, Sync};

/// Hardware actions of one Barrier call, as plain data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lowered {
    /// Stages whose in-flight work must finish first (EB-2).
    pub drains: StageMask,
    /// Stages whose later work waits for the barrier (EB-2).
    pub blocks: StageMask,
    /// The whole front end waits (legacy barriers, split barriers on Xbox, EB-8c).
    pub front_end: bool,
    pub write_back: CacheSet,
    pub invalidate: CacheSet,
    /// Bytes decompressed: whole resources (EB-4, EB-8b).
    pub decompress_bytes: u64,
    /// Bytes of resources whose compression metadata is initialised (EB-5).
    pub discard_bytes: u64,
}

/// A barrier as the simulation runs it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BarrierWork {
    pub drains: StageMask,
    pub blocks: StageMask,
    pub front_end: bool,
    /// Write-back then invalidation latency, ns.
    pub cache_ns: u64,
    /// Decompression and metadata initialisation, ns.
    pub decompress_ns: u64,
}

/// Price a Barrier call on `queue` (EB-9: what it adds beyond the drains it waits for).
pub fn barrier_work(
    group: &BarrierGroup<ObjectKey>,
    queue: QueueId,
    legacy: bool,
    memory: &Memory,
    profile: &Profile,
) -> BarrierWork {
    price(&lower(group, queue, legacy, memory), profile)
}

/// Cost of the lowered actions.
pub fn price(l: &Lowered, p: &Profile) -> BarrierWork {
    let caches = [
        (CacheSet::CB, p.caches.color),
        (CacheSet::DB, p.caches.depth),
        (CacheSet::VECTOR, p.caches.vector),
        (CacheSet::SCALAR, p.caches.scalar),
        (CacheSet::L2, p.caches.l2),
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
    // Decompression reads and writes the surface; metadata is 1/256 of it (one byte per
    // 256-byte block), written once.
    let decompress =
        Profile::transfer_ns(l.decompress_bytes.saturating_mul(2), p.memory_bytes_per_us)
            + Profile::transfer_ns(l.discard_bytes / 256, p.memory_bytes_per_us);
    BarrierWork {
        drains: l.drains,
        blocks: l.blocks,
        front_end: l.front_end,
        cache_ns: write_back + invalidate,
        decompress_ns: decompress,
    }
}

/// The device's own lowering of a Barrier call (EB-2..EB-5, EB-8b, EB-8c).
pub fn lower(
    group: &BarrierGroup<ObjectKey>,
    queue: QueueId,
    legacy: bool,
    memory: &Memory,
) -> Lowered {
    let mut l = Lowered {
        front_end: legacy,
        ..Lowered::default()
    };
    let mut add = |before: Sync, after: Sync, access: (Access, Access)| {
        // EB-8c: the far (end) half of a split barrier is ignored; the near (begin) half is
        // performed at once, holding the front end.
        if before.contains(Sync::SPLIT) {
            return false;
        }
        let split = after.contains(Sync::SPLIT);
        l.drains = l.drains.union(StageMask::from_sync(before));
        l.blocks = l.blocks.union(if split {
            StageMask::ALL
        } else {
            StageMask::from_sync(after)
        });
        l.front_end |= split;
        if !before.is_empty() {
            l.write_back = l.write_back.union(CacheSet::written_by(access.0));
        }
        if !after.is_empty() || split {
            l.invalidate = l.invalidate.union(CacheSet::read_by(access.1));
        }
        true
    };
    for g in &group.global {
        add(
            g.sync_before,
            g.sync_after,
            (g.access_before, g.access_after),
        );
    }
    for b in &group.buffers {
        add(
            b.sync_before,
            b.sync_after,
            (b.access_before, b.access_after),
        );
    }
    for t in &group.textures {
        if !add(
            t.sync_before,
            t.sync_after,
            (t.access_before, t.access_after),
        ) {
            continue;
        }
        let Ok(obj) = memory.get(t.resource) else {
            continue;
        };
        let ObjectDesc::Texture(tex) = &obj.desc else {
            continue;
        };
        let f = tex.flags;
        let metadata = f.render_target || f.depth_stencil;
        if !metadata {
            continue;
        }
        if t.flags.discard && t.layout_before == Layout::Undefined {
            l.discard_bytes += obj.bytes;
        } else if needs_decompress(f.texture_compatible, t.layout_before, t.layout_after) {
            l.decompress_bytes += obj.bytes;
        }
    }
    if matches!(queue, QueueId::Dma { .. }) {
        // DMA engines have no shader caches to write back or invalidate.
        l.write_back = CacheSet::NONE;
        l.invalidate = CacheSet::NONE;
    }
    l.front_end |= l.blocks == StageMask::ALL && !l.drains.is_empty();
    l
}

/// EB-4: leaving a layout in which the surface may be compressed for one in which it may not
/// decompresses it, unless shaders read the compressed form directly (texture-compatible).
fn needs_decompress(texture_compatible: bool, before: Layout, after: Layout) -> bool {
    if before == Layout::Undefined || !before.may_be_compressed() || after.may_be_compressed() {
        return false;
    }
    let shader_read = matches!(
        after,
        Layout::ShaderResource
            | Layout::GenericRead
            | Layout::ComputeQueueShaderResource
            | Layout::ComputeQueueGenericRead
            | Layout::DirectQueueGenericReadComputeQueueAccessible
    );
    !(texture_compatible && shader_read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::GlobalBarrier;

    #[test]
    fn a_global_compute_barrier_drains_and_blocks_compute_only() {
        let mut g = BarrierGroup::default();
        g.global.push(GlobalBarrier {
            sync_before: Sync::COMPUTE_SHADING,
            sync_after: Sync::COMPUTE_SHADING,
            access_before: Access::UNORDERED_ACCESS,
            access_after: Access::UNORDERED_ACCESS,
        });
        let l = lower(&g, QueueId::Graphics, false, &Memory::default());
        assert_eq!(l.drains, StageMask::COMPUTE);
        assert_eq!(l.blocks, StageMask::COMPUTE);
        assert!(!l.front_end);
        assert_eq!(l.write_back, CacheSet::VECTOR);
        assert_eq!(l.invalidate, CacheSet::VECTOR);
        let p = Profile::default();
        let w = price(&l, &p);
        assert_eq!(
            w.cache_ns,
            p.caches.vector.writeback_ns + p.caches.vector.invalidate_ns
        );
        // Legacy barriers hold the whole front end.
        assert!(lower(&g, QueueId::Graphics, true, &Memory::default()).front_end);
    }

    #[test]
    fn decompression_follows_eb4() {
        use Layout::*;
        assert!(needs_decompress(false, RenderTarget, ShaderResource));
        assert!(!needs_decompress(true, RenderTarget, ShaderResource));
        assert!(needs_decompress(true, RenderTarget, Common));
        assert!(!needs_decompress(false, Undefined, ShaderResource));
        assert!(!needs_decompress(false, ShaderResource, RenderTarget));
    }
}
