//! Sync scopes (barrier-spec A1): which pipeline stages a barrier waits for (`SyncBefore`) and
//! which it blocks until done (`SyncAfter`). Values match `D3D12_BARRIER_SYNC` so that diagnostics
//! and traces can be compared with PIX captures (EB-12).

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

bitflags! {
    /// `D3D12_BARRIER_SYNC` bits (ray-tracing and video bits omitted, barrier-spec A1).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(transparent)]
    pub struct Sync: u32 {
        /// Every stage.
        const ALL = 0x1;
        /// INDEX_INPUT | VERTEX_SHADING | PIXEL_SHADING | DEPTH_STENCIL | RENDER_TARGET.
        const DRAW = 0x2;
        const INDEX_INPUT = 0x4;
        const VERTEX_SHADING = 0x8;
        const PIXEL_SHADING = 0x10;
        const DEPTH_STENCIL = 0x20;
        const RENDER_TARGET = 0x40;
        const COMPUTE_SHADING = 0x80;
        const RAYTRACING = 0x100;
        const COPY = 0x200;
        const RESOLVE = 0x400;
        /// Also PREDICATION (the next name).
        const EXECUTE_INDIRECT = 0x800;
        /// `D3D12_BARRIER_SYNC_PREDICATION`, the same bit: the stage SetPredication reads its
        /// buffer in. Declared after EXECUTE_INDIRECT so that the bit prints by that name.
        const PREDICATION = 0x800;
        /// VERTEX | PIXEL | COMPUTE shading.
        const ALL_SHADING = 0x1000;
        /// VERTEX | COMPUTE shading.
        const NON_PIXEL_SHADING = 0x2000;
        const CLEAR_UNORDERED_ACCESS_VIEW = 0x8000;
        /// Marks the begin (as SyncAfter) or end (as SyncBefore) half of a split barrier (A4).
        const SPLIT = 0x8000_0000;
    }
}

impl Sync {
    /// `SYNC_NONE`: no synchronisation (only legal with `NO_ACCESS`, barrier-spec A3.1).
    pub const NONE: Sync = Sync::empty();

    /// The concrete stages an aggregate stands for, with the aggregates themselves removed.
    /// `ALL` expands to every stage; SPLIT is dropped.
    pub fn expand(self) -> Sync {
        let concrete = Sync::INDEX_INPUT
            | Sync::VERTEX_SHADING
            | Sync::PIXEL_SHADING
            | Sync::DEPTH_STENCIL
            | Sync::RENDER_TARGET
            | Sync::COMPUTE_SHADING
            | Sync::RAYTRACING
            | Sync::COPY
            | Sync::RESOLVE
            | Sync::EXECUTE_INDIRECT
            | Sync::CLEAR_UNORDERED_ACCESS_VIEW;
        let aggregates = Sync::ALL | Sync::DRAW | Sync::ALL_SHADING | Sync::NON_PIXEL_SHADING;
        if !self.intersects(aggregates) {
            // The usual case (planners expand every use's stages): nothing to add.
            return self & concrete;
        }
        if self.contains(Sync::ALL) {
            return concrete;
        }
        let mut out = self & concrete;
        if self.contains(Sync::DRAW) {
            out |= Sync::INDEX_INPUT
                | Sync::VERTEX_SHADING
                | Sync::PIXEL_SHADING
                | Sync::DEPTH_STENCIL
                | Sync::RENDER_TARGET;
        }
        if self.contains(Sync::ALL_SHADING) {
            out |= Sync::VERTEX_SHADING | Sync::PIXEL_SHADING | Sync::COMPUTE_SHADING;
        }
        if self.contains(Sync::NON_PIXEL_SHADING) {
            out |= Sync::VERTEX_SHADING | Sync::COMPUTE_SHADING;
        }
        out
    }

    /// True when every concrete stage of `other` is also a stage of `self`.
    pub fn covers(self, other: Sync) -> bool {
        self.expand().contains(other.expand())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_expand_to_their_stages() {
        assert!(Sync::DRAW.covers(Sync::PIXEL_SHADING | Sync::RENDER_TARGET));
        assert!(!Sync::DRAW.covers(Sync::COMPUTE_SHADING));
        assert!(Sync::NON_PIXEL_SHADING.covers(Sync::VERTEX_SHADING));
        assert!(!Sync::NON_PIXEL_SHADING.covers(Sync::PIXEL_SHADING));
        assert!(Sync::ALL.covers(Sync::COPY | Sync::DRAW));
        assert_eq!(Sync::NONE.expand(), Sync::empty());
    }
}
