//! Barriers as a command script writes them (EB-1, EB-6): the three barrier types with every
//! sync, access and layout spelled out, and resources by name.
//!
//! A script exists to check a stream exactly as a title would issue it, so nothing here has a
//! policy default: sync and access are written as the bitflags' string form
//! (`"COMPUTE_SHADING | PIXEL_SHADING"`, `""` for SYNC_NONE and ACCESS_COMMON), layouts as
//! [`Layout`] variants. Only the subresource range (every subresource) and the DISCARD flag
//! (off) may be left out, because that is what a barrier without them means in the
//! specification too. The device's own [`BarrierGroup`] is not serde data and holds device
//! handles; these definitions are generic over how a resource is named (`String` in a file,
//! [`super::Target`] once loaded) and turn into a group once names are resolved.

use serde::{Deserialize, Serialize};

use crate::barrier::{
    Access, BarrierGroup, BufferBarrier, GlobalBarrier, Layout, SubresourceRange, Sync,
    TextureBarrier, TextureBarrierFlags,
};

/// A global barrier: all memory of the queue, no layout (EB-6).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "GlobalBarrier", deny_unknown_fields)]
pub struct GlobalBarrierDef {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
}

/// A barrier on one whole buffer (EB-6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "BufferBarrier",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct BufferBarrierDef<R> {
    pub resource: R,
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
}

/// A barrier on a texture's subresources with its layout transition (EB-1, EB-4, EB-6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "TextureBarrier",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct TextureBarrierDef<R> {
    pub resource: R,
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    pub layout_before: Layout,
    pub layout_after: Layout,
    /// Every subresource when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<RangeDef>,
    /// Initialise compression metadata (EB-5); only from `Undefined`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub discard: bool,
}

/// A subresource range; a missing count means "to the end".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Range", deny_unknown_fields)]
pub struct RangeDef {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_mip: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mip_count: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_slice: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_count: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_plane: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plane_count: Option<u32>,
}

impl RangeDef {
    /// The device's range.
    pub fn range(self) -> SubresourceRange {
        SubresourceRange {
            first_mip: self.first_mip,
            mip_count: self.mip_count.unwrap_or(u32::MAX),
            first_slice: self.first_slice,
            slice_count: self.slice_count.unwrap_or(u32::MAX),
            first_plane: self.first_plane,
            plane_count: self.plane_count.unwrap_or(u32::MAX),
        }
    }
}

impl GlobalBarrierDef {
    /// The device's barrier.
    pub fn barrier(&self) -> GlobalBarrier {
        GlobalBarrier {
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
        }
    }
}

impl<R> BufferBarrierDef<R> {
    /// The same barrier on `f`'s name for the resource.
    pub fn try_map<'a, S, E>(
        &'a self,
        f: impl FnOnce(&'a R) -> Result<S, E>,
    ) -> Result<BufferBarrierDef<S>, E> {
        Ok(BufferBarrierDef {
            resource: f(&self.resource)?,
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
        })
    }
}

impl<R: Clone> BufferBarrierDef<R> {
    /// The device's barrier.
    pub fn barrier(&self) -> BufferBarrier<R> {
        BufferBarrier {
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
            resource: self.resource.clone(),
        }
    }
}

impl<R> TextureBarrierDef<R> {
    /// The same barrier on `f`'s name for the resource.
    pub fn try_map<'a, S, E>(
        &'a self,
        f: impl FnOnce(&'a R) -> Result<S, E>,
    ) -> Result<TextureBarrierDef<S>, E> {
        Ok(TextureBarrierDef {
            resource: f(&self.resource)?,
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
            layout_before: self.layout_before,
            layout_after: self.layout_after,
            range: self.range,
            discard: self.discard,
        })
    }
}

impl<R: Clone> TextureBarrierDef<R> {
    /// The device's barrier.
    pub fn barrier(&self) -> TextureBarrier<R> {
        TextureBarrier {
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
            layout_before: self.layout_before,
            layout_after: self.layout_after,
            resource: self.resource.clone(),
            range: self.range.map_or(SubresourceRange::ALL, RangeDef::range),
            flags: TextureBarrierFlags {
                discard: self.discard,
            },
        }
    }
}

/// One Barrier call's group, as the device takes it (EB-6).
pub fn barrier_group<R: Clone>(
    global: &[GlobalBarrierDef],
    buffers: &[BufferBarrierDef<R>],
    textures: &[TextureBarrierDef<R>],
) -> BarrierGroup<R> {
    BarrierGroup {
        global: global.iter().map(GlobalBarrierDef::barrier).collect(),
        buffers: buffers.iter().map(BufferBarrierDef::barrier).collect(),
        textures: textures.iter().map(TextureBarrierDef::barrier).collect(),
    }
}

fn is_false(v: &bool) -> bool {
    !*v
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}
