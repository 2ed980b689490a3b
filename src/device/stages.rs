//! The pipeline stages and caches the timing model knows (EB-2, EB-3).
//!
//! Sync scopes name many stages (`INDEX_INPUT`, `DRAW`, `ALL_SHADING`...), but the hardware
//! drains and blocks only a few: the vertex, pixel and compute shader stages (each with its
//! own partial flush), copies, and the colour and depth back-ends (drained by an end-of-pipe
//! event). Work items occupy some of these six; barriers drain and block sets of them. The bit
//! layout matches the barrier lowering's `Stages` and `Caches` so that lowered actions map
//! onto the model one to one.

use crate::barrier::{Access, Sync};

/// A set of pipeline stages a work item occupies or a barrier drains or blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StageMask(pub u8);

impl StageMask {
    pub const NONE: StageMask = StageMask(0);
    pub const VERTEX: StageMask = StageMask(0x1);
    pub const PIXEL: StageMask = StageMask(0x2);
    pub const COMPUTE: StageMask = StageMask(0x4);
    pub const COPY: StageMask = StageMask(0x8);
    /// Colour back-end (render targets, resolves, driver texture copies).
    pub const CB: StageMask = StageMask(0x10);
    /// Depth back-end.
    pub const DB: StageMask = StageMask(0x20);
    pub const ALL: StageMask = StageMask(0x3f);

    /// The stages a sync scope stands for (aggregates expanded, SPLIT dropped).
    pub fn from_sync(sync: Sync) -> StageMask {
        let s = sync.expand();
        let mut m = 0;
        let mut set = |bits: Sync, stage: StageMask| {
            if s.intersects(bits) {
                m |= stage.0;
            }
        };
        set(Sync::INDEX_INPUT | Sync::VERTEX_SHADING, StageMask::VERTEX);
        set(Sync::PIXEL_SHADING, StageMask::PIXEL);
        set(
            Sync::COMPUTE_SHADING | Sync::RAYTRACING | Sync::CLEAR_UNORDERED_ACCESS_VIEW,
            StageMask::COMPUTE,
        );
        set(Sync::COPY, StageMask::COPY);
        set(Sync::RESOLVE | Sync::RENDER_TARGET, StageMask::CB);
        set(Sync::DEPTH_STENCIL, StageMask::DB);
        // Indirect arguments are read by the front end for draws and dispatches alike.
        set(
            Sync::EXECUTE_INDIRECT,
            StageMask(StageMask::VERTEX.0 | StageMask::COMPUTE.0),
        );
        StageMask(m)
    }

    pub fn intersects(self, other: StageMask) -> bool {
        self.0 & other.0 != 0
    }

    pub fn contains(self, other: StageMask) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: StageMask) -> StageMask {
        StageMask(self.0 | other.0)
    }
}

/// A set of caches a barrier writes back or invalidates (EB-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheSet(pub u8);

impl CacheSet {
    pub const NONE: CacheSet = CacheSet(0);
    pub const CB: CacheSet = CacheSet(0x1);
    pub const DB: CacheSet = CacheSet(0x2);
    /// The vector memory path L0/L1.
    pub const VECTOR: CacheSet = CacheSet(0x4);
    /// The scalar cache K$.
    pub const SCALAR: CacheSet = CacheSet(0x8);
    pub const L2: CacheSet = CacheSet(0x10);

    /// Caches whose dirty lines hold what `access` wrote (EB-3). COMMON stands for every write.
    pub fn written_by(access: Access) -> CacheSet {
        if access.contains(Access::NO_ACCESS) {
            return CacheSet::NONE;
        }
        let all = access.is_empty();
        let mut m = 0;
        let mut set = |bits: Access, c: CacheSet| {
            if all || access.intersects(bits) {
                m |= c.0;
            }
        };
        set(Access::RENDER_TARGET | Access::RESOLVE_DEST, CacheSet::CB);
        set(Access::DEPTH_STENCIL_WRITE, CacheSet::DB);
        set(Access::UNORDERED_ACCESS, CacheSet::VECTOR);
        set(Access::COPY_DEST | Access::STREAM_OUTPUT, CacheSet::L2);
        CacheSet(m)
    }

    /// Caches that may hold stale lines for a reader with `access` (EB-3). COMMON stands for
    /// every read.
    pub fn read_by(access: Access) -> CacheSet {
        if access.contains(Access::NO_ACCESS) {
            return CacheSet::NONE;
        }
        let all = access.is_empty();
        let mut m = 0;
        let mut set = |bits: Access, c: CacheSet| {
            if all || access.intersects(bits) {
                m |= c.0;
            }
        };
        set(Access::RENDER_TARGET | Access::RESOLVE_SOURCE, CacheSet::CB);
        set(
            Access::DEPTH_STENCIL_READ | Access::DEPTH_STENCIL_WRITE,
            CacheSet::DB,
        );
        set(
            Access::SHADER_RESOURCE
                | Access::UNORDERED_ACCESS
                | Access::VERTEX_BUFFER
                | Access::INDEX_BUFFER,
            CacheSet::VECTOR,
        );
        set(Access::CONSTANT_BUFFER, CacheSet::SCALAR);
        set(
            Access::COPY_SOURCE | Access::INDIRECT_ARGUMENT,
            CacheSet::L2,
        );
        CacheSet(m)
    }

    pub fn contains(self, other: CacheSet) -> bool {
        self.0 & other.0 == other.0 && other.0 != 0
    }

    pub fn union(self, other: CacheSet) -> CacheSet {
        CacheSet(self.0 | other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sync_scopes_map_to_hardware_stages() {
        assert_eq!(StageMask::from_sync(Sync::ALL), StageMask::ALL);
        assert_eq!(
            StageMask::from_sync(Sync::DRAW),
            StageMask(0x1 | 0x2 | 0x10 | 0x20)
        );
        assert_eq!(
            StageMask::from_sync(Sync::COMPUTE_SHADING),
            StageMask::COMPUTE
        );
        assert_eq!(StageMask::from_sync(Sync::NONE), StageMask::NONE);
    }

    #[test]
    fn accesses_map_to_caches() {
        assert_eq!(CacheSet::written_by(Access::RENDER_TARGET), CacheSet::CB);
        assert_eq!(
            CacheSet::written_by(Access::SHADER_RESOURCE),
            CacheSet::NONE
        );
        assert_eq!(CacheSet::read_by(Access::SHADER_RESOURCE), CacheSet::VECTOR);
        assert_eq!(CacheSet::read_by(Access::NO_ACCESS), CacheSet::NONE);
        assert_eq!(
            CacheSet::written_by(Access::COMMON),
            CacheSet(0x1 | 0x2 | 0x4 | 0x10)
        );
    }
}
