//! Access bits (barrier-spec A1): which caches hold a resource's data before and after a
//! barrier (EB-3). Values match `D3D12_BARRIER_ACCESS`.

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

bitflags! {
    /// `D3D12_BARRIER_ACCESS` bits. `COMMON` is the empty set (barrier-spec A1).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(transparent)]
    pub struct Access: u32 {
        const VERTEX_BUFFER = 0x1;
        const CONSTANT_BUFFER = 0x2;
        const INDEX_BUFFER = 0x4;
        const RENDER_TARGET = 0x8;
        const UNORDERED_ACCESS = 0x10;
        const DEPTH_STENCIL_WRITE = 0x20;
        const DEPTH_STENCIL_READ = 0x40;
        const SHADER_RESOURCE = 0x80;
        const STREAM_OUTPUT = 0x100;
        /// Also PREDICATION (the next name).
        const INDIRECT_ARGUMENT = 0x200;
        /// `D3D12_BARRIER_ACCESS_PREDICATION`, the same bit: what SetPredication reads.
        /// Declared after INDIRECT_ARGUMENT so that the bit prints by that name.
        const PREDICATION = 0x200;
        const COPY_DEST = 0x400;
        const COPY_SOURCE = 0x800;
        const RESOLVE_DEST = 0x1000;
        const RESOLVE_SOURCE = 0x2000;
        const SHADING_RATE_SOURCE = 0x10000;
        /// Not accessed; combines with no other bit (barrier-spec A3.2).
        const NO_ACCESS = 0x8000_0000;
    }
}

impl Access {
    /// `ACCESS_COMMON`: any access the layout allows (barrier-spec A1).
    pub const COMMON: Access = Access::empty();

    /// Accesses that modify memory. A barrier after one of these must write caches back.
    pub const WRITES: Access = Access::RENDER_TARGET
        .union(Access::UNORDERED_ACCESS)
        .union(Access::DEPTH_STENCIL_WRITE)
        .union(Access::STREAM_OUTPUT)
        .union(Access::COPY_DEST)
        .union(Access::RESOLVE_DEST);

    /// True when any bit is a write (COMMON counts as "all writes" as AccessBefore, A1).
    pub fn is_write(self) -> bool {
        self.intersects(Access::WRITES) || self.is_empty()
    }
}
