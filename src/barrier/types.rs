//! The three barrier types (EB-6, barrier-spec A2) and the group a Barrier call carries.

use super::{Access, Layout, Sync};
use serde::{Deserialize, Serialize};

/// Which subresources a texture barrier touches (barrier-spec A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SubresourceRange {
    pub first_mip: u32,
    pub mip_count: u32,
    pub first_slice: u32,
    pub slice_count: u32,
    pub first_plane: u32,
    pub plane_count: u32,
}

impl SubresourceRange {
    /// `0xffffffff`: every subresource of the texture.
    pub const ALL: SubresourceRange = SubresourceRange {
        first_mip: 0,
        mip_count: u32::MAX,
        first_slice: 0,
        slice_count: u32::MAX,
        first_plane: 0,
        plane_count: u32::MAX,
    };

    /// True when the range names every subresource.
    pub fn is_all(&self) -> bool {
        *self == Self::ALL
    }
}

impl Default for SubresourceRange {
    fn default() -> Self {
        Self::ALL
    }
}

/// `D3D12_TEXTURE_BARRIER_FLAGS`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TextureBarrierFlags {
    /// Initialise compression metadata; only from `UNDEFINED` (EB-5, barrier-spec A2).
    pub discard: bool,
}

/// A barrier on all memory of one queue; never changes layout, never split (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalBarrier {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
}

/// A barrier on one buffer, whole (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferBarrier<R> {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    pub resource: R,
}

/// A barrier on a texture's subresources, with a layout transition (A2, EB-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureBarrier<R> {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    pub layout_before: Layout,
    pub layout_after: Layout,
    pub resource: R,
    pub range: SubresourceRange,
    pub flags: TextureBarrierFlags,
}

impl<R> TextureBarrier<R> {
    /// A barrier on every subresource of `resource`, without flags: the common case, as
    /// `[before, after]` pairs of sync, access and layout.
    pub fn whole(resource: R, sync: [Sync; 2], access: [Access; 2], layout: [Layout; 2]) -> Self {
        TextureBarrier {
            sync_before: sync[0],
            sync_after: sync[1],
            access_before: access[0],
            access_after: access[1],
            layout_before: layout[0],
            layout_after: layout[1],
            resource,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags::default(),
        }
    }
}

/// One Barrier call: a group per barrier type (A2). `R` is whatever names a resource:
/// an ECS entity in plans, a device handle in command streams.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BarrierGroup<R> {
    pub global: Vec<GlobalBarrier>,
    pub buffers: Vec<BufferBarrier<R>>,
    pub textures: Vec<TextureBarrier<R>>,
}

impl<R> Default for BarrierGroup<R> {
    fn default() -> Self {
        Self {
            global: Vec::new(),
            buffers: Vec::new(),
            textures: Vec::new(),
        }
    }
}

impl<R> BarrierGroup<R> {
    /// True when the call would carry no barrier at all (EB-11 warns on zero counts).
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.buffers.is_empty() && self.textures.is_empty()
    }

    /// Number of individual barriers.
    pub fn len(&self) -> usize {
        self.global.len() + self.buffers.len() + self.textures.len()
    }

    /// The same barriers with resources renamed (plan entities to device handles).
    pub fn map<S>(&self, f: impl FnMut(&R) -> S) -> BarrierGroup<S> {
        self.as_ref().map(f)
    }

    /// The group as borrowed slices.
    pub fn as_ref(&self) -> BarrierGroupRef<'_, R> {
        BarrierGroupRef {
            global: &self.global,
            buffers: &self.buffers,
            textures: &self.textures,
        }
    }
}

/// A barrier group borrowed from wherever it is stored (plans keep a frame's groups in
/// flat lists, see `plan::PassBarriers`).
#[derive(Debug, PartialEq, Eq)]
pub struct BarrierGroupRef<'a, R> {
    pub global: &'a [GlobalBarrier],
    pub buffers: &'a [BufferBarrier<R>],
    pub textures: &'a [TextureBarrier<R>],
}

impl<R> Clone for BarrierGroupRef<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for BarrierGroupRef<'_, R> {}

impl<R> BarrierGroupRef<'_, R> {
    /// No barriers.
    pub const EMPTY: Self = BarrierGroupRef {
        global: &[],
        buffers: &[],
        textures: &[],
    };

    /// True when the call would carry no barrier at all.
    pub fn is_empty(&self) -> bool {
        self.global.is_empty() && self.buffers.is_empty() && self.textures.is_empty()
    }

    /// Number of individual barriers.
    pub fn len(&self) -> usize {
        self.global.len() + self.buffers.len() + self.textures.len()
    }

    /// An owned group with resources renamed (plan entities to device handles).
    pub fn map<S>(&self, mut f: impl FnMut(&R) -> S) -> BarrierGroup<S> {
        BarrierGroup {
            global: self.global.to_vec(),
            buffers: self
                .buffers
                .iter()
                .map(|b| BufferBarrier {
                    sync_before: b.sync_before,
                    sync_after: b.sync_after,
                    access_before: b.access_before,
                    access_after: b.access_after,
                    resource: f(&b.resource),
                })
                .collect(),
            textures: self
                .textures
                .iter()
                .map(|t| TextureBarrier {
                    sync_before: t.sync_before,
                    sync_after: t.sync_after,
                    access_before: t.access_before,
                    access_after: t.access_after,
                    layout_before: t.layout_before,
                    layout_after: t.layout_after,
                    resource: f(&t.resource),
                    range: t.range,
                    flags: t.flags,
                })
                .collect(),
        }
    }
}
