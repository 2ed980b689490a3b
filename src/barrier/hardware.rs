//! What a lowered barrier asks of the hardware (EB-2..EB-5, EB-12), as plain data.
//!
//! Seed 004 describes barrier lowering on Xbox Series in three independent parts: sync becomes
//! drain and block requirements on pipeline stages, lowered to bottom-of-pipe events and
//! top-of-pipe waits (EB-2); access becomes cache write-backs and invalidations (EB-3); layout
//! becomes compression work (EB-4, EB-5). [`HardwareActions`] records all three for one Barrier
//! call, the way PIX shows a barrier event holding the packets it produced (EB-12). It is data
//! only: tests compare it, the timing model prices it, the JSON summary counts it. Nothing here
//! decides what to emit; that is `lower.rs`. [`Stages`] and [`Caches`] are the hardware's
//! vocabulary for the whole crate: the device's timing model also keeps the stages each work
//! item occupies and each drain waits on in them.

use bitflags::bitflags;
use serde::Serialize;

bitflags! {
    /// Pipeline stages a barrier can drain or block (EB-2).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
    #[serde(transparent)]
    pub struct Stages: u8 {
        const VERTEX = 0x1;
        const PIXEL = 0x2;
        const COMPUTE = 0x4;
        /// Copies issued on the queue (CP DMA and driver copy blits).
        const COPY = 0x8;
        /// Colour back-end: render-target writes, resolves, driver texture copies (EB-8d).
        const CB = 0x10;
        /// Depth back-end: depth/stencil tests and writes.
        const DB = 0x20;
    }
}

impl Stages {
    /// The shader stages, each with its own partial flush.
    pub const SHADERS: Stages = Stages::VERTEX.union(Stages::PIXEL).union(Stages::COMPUTE);
    /// The fixed-function back ends, drained only by an end-of-pipe event.
    pub const BACK_END: Stages = Stages::CB.union(Stages::DB);
}

bitflags! {
    /// Front-end engines a barrier can hold (EB-8c).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
    #[serde(transparent)]
    pub struct FrontEnd: u8 {
        /// The prefetch parser, which reads ahead (indirect arguments, commands).
        const PREFETCH_PARSER = 0x1;
        /// The constant engine, which updates constants and descriptors ahead of draws.
        const CONSTANT_ENGINE = 0x2;
    }
}

bitflags! {
    /// Caches a barrier writes back or invalidates (EB-3).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
    #[serde(transparent)]
    pub struct Caches: u8 {
        /// Colour back-end cache.
        const CB = 0x1;
        /// Depth back-end cache.
        const DB = 0x2;
        /// The vector memory path's L0 and L1 (shader reads, UAVs, vertex fetch).
        const L0_L1 = 0x4;
        /// The scalar cache K$ (scalar constant loads).
        const SCALAR_K = 0x8;
        /// The shared L2.
        const L2 = 0x10;
    }
}

/// One synchronisation packet, in emission order (EB-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SyncEvent {
    /// Wait for in-flight vertex-shader work (VS_PARTIAL_FLUSH).
    VsPartialFlush,
    /// Wait for in-flight pixel-shader work (PS_PARTIAL_FLUSH).
    PsPartialFlush,
    /// Wait for in-flight compute work (CS_PARTIAL_FLUSH).
    CsPartialFlush,
    /// Wait for in-flight copies on this queue.
    CopyDrain,
    /// One end-of-pipe event serving several drains, the back-end drains, and the cache
    /// write-backs riding on it.
    EndOfPipe,
    /// Every stage drained: bottom-of-pipe flush and invalidate, then a fence wait (IDLE).
    FullIdle,
    /// Top-of-pipe: hold blocked work until the bottom-of-pipe event has signalled, holding the
    /// named front-end engines as well.
    TopOfPipeWait {
        prefetch_parser: bool,
        constant_engine: bool,
    },
}

/// What a compression operation does (EB-4, EB-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CompressionKind {
    /// DCC decompress ("DCC eliminate"), which also resolves fast-cleared blocks.
    DccDecompress,
    /// Write the clear colour into fast-cleared blocks (no DCC involved).
    FastClearEliminate,
    /// HTILE depth decompress (plane 0), independent of stencil (EB-8b).
    DepthDecompress,
    /// HTILE stencil decompress (plane 1), independent of depth (EB-8b).
    StencilDecompress,
    /// Initialise compression metadata: DISCARD from UNDEFINED (EB-5).
    MetadataInit,
}

impl CompressionKind {
    /// True for the decompressions (everything but metadata initialisation).
    pub fn is_decompression(self) -> bool {
        self != CompressionKind::MetadataInit
    }
}

/// One compression operation on one resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CompressionOp<R> {
    pub kind: CompressionKind,
    pub resource: R,
    /// The barrier named only some subresources; compression is tracked per resource, so the
    /// whole resource is processed anyway (EB-8b).
    pub partial_range: bool,
    /// Bytes read plus written by the operation (model estimate, see `compression.rs`).
    pub bytes: u64,
}

/// Flush packets by kind, for statistics and the timing model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct FlushCounts {
    pub vs: u32,
    pub ps: u32,
    pub cs: u32,
    pub copy: u32,
    pub end_of_pipe: u32,
    pub full_idle: u32,
    pub top_of_pipe_waits: u32,
}

/// Everything one Barrier call asks of the hardware (EB-2..EB-5, EB-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HardwareActions<R> {
    /// Stages that must drain before the barrier completes (from SyncBefore).
    pub drains: Stages,
    /// Stages whose later work waits for the barrier (from SyncAfter).
    pub blocks: Stages,
    /// Front-end engines held as well.
    pub front_end: FrontEnd,
    /// The packets that realise drains and blocks, in order.
    pub events: Vec<SyncEvent>,
    pub write_back: Caches,
    pub invalidate: Caches,
    pub compression: Vec<CompressionOp<R>>,
    /// Begin-split barriers turned into immediate barriers at the near side (EB-8c).
    pub splits_converted: u32,
    /// End-split barriers ignored, their work having been done at the begin (EB-8c).
    pub split_ends_ignored: u32,
}

impl<R> Default for HardwareActions<R> {
    fn default() -> Self {
        Self {
            drains: Stages::empty(),
            blocks: Stages::empty(),
            front_end: FrontEnd::empty(),
            events: Vec::new(),
            write_back: Caches::empty(),
            invalidate: Caches::empty(),
            compression: Vec::new(),
            splits_converted: 0,
            split_ends_ignored: 0,
        }
    }
}

impl<R> HardwareActions<R> {
    /// True when the barrier costs nothing: no drain, block, packet, cache or compression work.
    pub fn is_empty(&self) -> bool {
        self.drains.is_empty()
            && self.blocks.is_empty()
            && self.front_end.is_empty()
            && self.events.is_empty()
            && self.write_back.is_empty()
            && self.invalidate.is_empty()
            && self.compression.is_empty()
    }

    /// Flush packets by kind.
    pub fn flush_counts(&self) -> FlushCounts {
        let mut c = FlushCounts::default();
        for e in &self.events {
            match e {
                SyncEvent::VsPartialFlush => c.vs = c.vs.saturating_add(1),
                SyncEvent::PsPartialFlush => c.ps = c.ps.saturating_add(1),
                SyncEvent::CsPartialFlush => c.cs = c.cs.saturating_add(1),
                SyncEvent::CopyDrain => c.copy = c.copy.saturating_add(1),
                SyncEvent::EndOfPipe => c.end_of_pipe = c.end_of_pipe.saturating_add(1),
                SyncEvent::FullIdle => c.full_idle = c.full_idle.saturating_add(1),
                SyncEvent::TopOfPipeWait { .. } => {
                    c.top_of_pipe_waits = c.top_of_pipe_waits.saturating_add(1)
                }
            }
        }
        c
    }

    /// VS, PS and CS partial flushes together.
    pub fn partial_flushes(&self) -> u32 {
        let c = self.flush_counts();
        c.vs + c.ps + c.cs
    }

    /// True when the barrier idles the whole queue.
    pub fn is_full_idle(&self) -> bool {
        self.events.contains(&SyncEvent::FullIdle)
    }

    /// Number of caches written back.
    pub fn write_back_count(&self) -> u32 {
        self.write_back.bits().count_ones()
    }

    /// Number of caches invalidated.
    pub fn invalidation_count(&self) -> u32 {
        self.invalidate.bits().count_ones()
    }

    /// Operations of one kind.
    pub fn count(&self, kind: CompressionKind) -> usize {
        self.compression.iter().filter(|o| o.kind == kind).count()
    }

    /// Decompressions of any kind (DCC, fast clear, depth, stencil).
    pub fn decompression_count(&self) -> usize {
        self.compression
            .iter()
            .filter(|o| o.kind.is_decompression())
            .count()
    }

    /// Metadata initialisations from DISCARD (EB-5).
    pub fn discard_count(&self) -> usize {
        self.count(CompressionKind::MetadataInit)
    }

    /// Bytes of compression work, recorded at lowering from each resource's
    /// [`TextureInfo::size_bytes`](super::TextureInfo::size_bytes).
    pub fn compression_bytes(&self) -> u64 {
        self.compression
            .iter()
            .fold(0u64, |sum, o| sum.saturating_add(o.bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_count_what_was_recorded() {
        let mut a = HardwareActions::<u32>::default();
        assert!(a.is_empty());
        a.drains = Stages::VERTEX | Stages::COMPUTE;
        a.events = vec![SyncEvent::VsPartialFlush, SyncEvent::CsPartialFlush];
        a.write_back = Caches::CB;
        a.invalidate = Caches::L0_L1 | Caches::SCALAR_K;
        a.compression = vec![
            CompressionOp {
                kind: CompressionKind::DccDecompress,
                resource: 1,
                partial_range: false,
                bytes: 200,
            },
            CompressionOp {
                kind: CompressionKind::MetadataInit,
                resource: 2,
                partial_range: false,
                bytes: 3,
            },
        ];
        assert!(!a.is_empty());
        let c = a.flush_counts();
        assert_eq!((c.vs, c.ps, c.cs, c.full_idle), (1, 0, 1, 0));
        assert_eq!(a.partial_flushes(), 2);
        assert!(!a.is_full_idle());
        assert_eq!((a.write_back_count(), a.invalidation_count()), (1, 2));
        assert_eq!((a.decompression_count(), a.discard_count()), (1, 1));
        assert_eq!(a.compression_bytes(), 203);
    }

    #[test]
    fn serialises_for_the_json_summary() {
        let a = HardwareActions {
            drains: Stages::COMPUTE,
            events: vec![SyncEvent::CsPartialFlush],
            invalidate: Caches::L0_L1,
            ..HardwareActions::<u32>::default()
        };
        let json = serde_json::to_string(&a).unwrap_or_default();
        assert!(json.contains("\"drains\":\"COMPUTE\""), "{json}");
        assert!(
            json.contains("CsPartialFlush") && json.contains("L0_L1"),
            "{json}"
        );
    }
}
