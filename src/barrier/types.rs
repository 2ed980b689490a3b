//! The three barrier types (EB-6, barrier-spec A2) and the group a Barrier call carries.
//!
//! Their serde form is the one a scene script writes (the device's own commands are never
//! serialized): every sync, access and layout spelled out, with no policy default, because a
//! script exists to check a stream exactly as a title issues it. Sync and access are the
//! bitflags' string form (`"COMPUTE_SHADING | PIXEL_SHADING"`, `""` for SYNC_NONE and
//! ACCESS_COMMON), layouts [`Layout`] variants. Only a texture barrier's range (every
//! subresource) and its DISCARD flag (off) may be left out, because that is what a barrier
//! without them means in the specification too.

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
    #[inline]
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

impl TextureBarrierFlags {
    /// No flag set (`D3D12_TEXTURE_BARRIER_FLAG_NONE`).
    pub fn is_none(&self) -> bool {
        !self.discard
    }
}

/// A barrier on all memory of one queue; never changes layout, never split (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlobalBarrier {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
}

/// A barrier on one buffer, whole (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct BufferBarrier<R> {
    pub resource: R,
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
}

/// A barrier on a texture's subresources, with a layout transition (A2, EB-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "R: Deserialize<'de>"))]
pub struct TextureBarrier<R> {
    pub resource: R,
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    pub layout_before: Layout,
    pub layout_after: Layout,
    /// Every subresource when absent from a scene.
    #[serde(
        default,
        skip_serializing_if = "SubresourceRange::is_all",
        with = "range_form"
    )]
    pub range: SubresourceRange,
    /// A scene writes the one flag, `discard: true`, when set.
    #[serde(
        rename = "discard",
        default,
        skip_serializing_if = "TextureBarrierFlags::is_none",
        with = "discard_form"
    )]
    pub flags: TextureBarrierFlags,
}

impl<R> BufferBarrier<R> {
    /// The same barrier on `resource`.
    pub fn on<S>(&self, resource: S) -> BufferBarrier<S> {
        BufferBarrier {
            resource,
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
        }
    }
}

impl<R> TextureBarrier<R> {
    /// The same barrier on `resource`.
    pub fn on<S>(&self, resource: S) -> TextureBarrier<S> {
        TextureBarrier {
            resource,
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
            layout_before: self.layout_before,
            layout_after: self.layout_after,
            range: self.range,
            flags: self.flags,
        }
    }

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
/// an ECS entity in plans, a device handle in command streams, a name in a scene script
/// (where each list may be left out, and the group is the fields of a `Barrier` command).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "struct variant Command::Barrier",
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct BarrierGroup<R> {
    #[serde(default)]
    pub global: Vec<GlobalBarrier>,
    #[serde(default)]
    pub buffers: Vec<BufferBarrier<R>>,
    #[serde(default)]
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
            buffers: self.buffers.iter().map(|b| b.on(f(&b.resource))).collect(),
            textures: self.textures.iter().map(|t| t.on(f(&t.resource))).collect(),
        }
    }
}

/// A texture barrier's range as a scene writes it: absent for every subresource, and in it
/// each first index 0 and each count "to the end" unless given (barrier-spec A2).
mod range_form {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::SubresourceRange;

    #[derive(Serialize, Deserialize)]
    #[serde(rename = "Range", deny_unknown_fields)]
    struct Range {
        #[serde(default, skip_serializing_if = "is_zero")]
        first_mip: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mip_count: Option<u32>,
        #[serde(default, skip_serializing_if = "is_zero")]
        first_slice: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slice_count: Option<u32>,
        #[serde(default, skip_serializing_if = "is_zero")]
        first_plane: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plane_count: Option<u32>,
    }

    fn is_zero(v: &u32) -> bool {
        *v == 0
    }

    pub fn serialize<S: Serializer>(r: &SubresourceRange, s: S) -> Result<S::Ok, S::Error> {
        let count = |c: u32| (c != u32::MAX).then_some(c);
        let range = Range {
            first_mip: r.first_mip,
            mip_count: count(r.mip_count),
            first_slice: r.first_slice,
            slice_count: count(r.slice_count),
            first_plane: r.first_plane,
            plane_count: count(r.plane_count),
        };
        Some(range).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SubresourceRange, D::Error> {
        let Some(r) = Option::<Range>::deserialize(d)? else {
            return Ok(SubresourceRange::ALL);
        };
        Ok(SubresourceRange {
            first_mip: r.first_mip,
            mip_count: r.mip_count.unwrap_or(u32::MAX),
            first_slice: r.first_slice,
            slice_count: r.slice_count.unwrap_or(u32::MAX),
            first_plane: r.first_plane,
            plane_count: r.plane_count.unwrap_or(u32::MAX),
        })
    }
}

/// The texture barrier flags as a scene writes them: `discard: true` (EB-5).
mod discard_form {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::TextureBarrierFlags;

    pub fn serialize<S: Serializer>(f: &TextureBarrierFlags, s: S) -> Result<S::Ok, S::Error> {
        f.discard.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TextureBarrierFlags, D::Error> {
        bool::deserialize(d).map(|discard| TextureBarrierFlags { discard })
    }
}
