//! GPU resources as ECS components: textures and buffers, their creation flags, and whether
//! the frame graph owns their contents (transient) or only borrows them (imported).

use bevy_ecs::prelude::*;
use glam::UVec2;
use serde::{Deserialize, Serialize};

/// Pixel formats the simulated device knows. Sizes drive copy, clear and decompression cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Format {
    Rgba8Unorm,
    Bgra8Unorm,
    Rgb10A2Unorm,
    R11G11B10Float,
    Rgba16Float,
    Rg16Float,
    R8Unorm,
    R16Float,
    R32Float,
    D32Float,
    D24UnormS8Uint,
    D32FloatS8X24Uint,
}

impl Format {
    /// Bytes per texel.
    pub fn bytes_per_texel(self) -> u64 {
        match self {
            Format::R8Unorm => 1,
            Format::R16Float => 2,
            Format::Rgba8Unorm
            | Format::Bgra8Unorm
            | Format::Rgb10A2Unorm
            | Format::R11G11B10Float
            | Format::Rg16Float
            | Format::R32Float
            | Format::D32Float
            | Format::D24UnormS8Uint => 4,
            Format::Rgba16Float | Format::D32FloatS8X24Uint => 8,
        }
    }

    /// Depth formats can only be bound through depth-stencil views.
    pub fn is_depth(self) -> bool {
        matches!(
            self,
            Format::D32Float | Format::D24UnormS8Uint | Format::D32FloatS8X24Uint
        )
    }

    /// Depth and stencil compress independently (EB-8b).
    pub fn has_stencil(self) -> bool {
        matches!(self, Format::D24UnormS8Uint | Format::D32FloatS8X24Uint)
    }
}

/// Creation flags of a texture. Compression metadata only exists where the allow flag was
/// given (EB-4): render targets need `render_target`, depth buffers `depth_stencil`, DCC `dcc`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextureFlags {
    pub render_target: bool,
    pub depth_stencil: bool,
    pub unordered_access: bool,
    pub dcc: bool,
    /// Texture-compatible DCC can be sampled compressed (EB-4's second table).
    pub texture_compatible: bool,
}

/// A texture resource.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texture {
    pub format: Format,
    pub extent: UVec2,
    #[serde(default = "one")]
    pub mips: u32,
    #[serde(default = "one")]
    pub array_size: u32,
    #[serde(default = "one")]
    pub samples: u32,
    #[serde(default)]
    pub flags: TextureFlags,
}

fn one() -> u32 {
    1
}

impl Texture {
    /// Colour with DCC but not texture-compatible, or depth: reading it as a plain shader
    /// resource forces a decompression (EB-4), so planners keep it in a layout that does not.
    pub fn compressible(&self) -> bool {
        (self.flags.render_target && self.flags.dcc && !self.flags.texture_compatible)
            || self.flags.depth_stencil
    }

    /// A plain 2D texture: one mip, one slice, one sample.
    pub fn new_2d(format: Format, extent: UVec2, flags: TextureFlags) -> Texture {
        Texture {
            format,
            extent,
            mips: 1,
            array_size: 1,
            samples: 1,
            flags,
        }
    }

    /// Bytes of the top mip of every slice and sample; mips add a third (geometric series).
    pub fn bytes(&self) -> u64 {
        let top = self.extent.x as u64
            * self.extent.y as u64
            * self.format.bytes_per_texel()
            * self.array_size as u64
            * self.samples as u64;
        if self.mips > 1 { top + top / 3 } else { top }
    }

    /// Number of subresources (mips x slices x planes).
    pub fn subresources(&self) -> u32 {
        let planes = if self.format.has_stencil() { 2 } else { 1 };
        self.mips * self.array_size * planes
    }
}

/// How the CPU may write a buffer (FS-10, CTX-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BufferUsage {
    /// GPU-only memory; filled by copies or shaders.
    #[default]
    Default,
    /// CPU-writable every frame through Map; contents are not inherited (FS-10).
    Dynamic,
}

/// A buffer resource.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buffer {
    pub size: u64,
    #[serde(default)]
    pub usage: BufferUsage,
    /// Allows unordered-access views.
    #[serde(default)]
    pub unordered_access: bool,
}

/// Who owns a resource's contents across frames.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lifetime {
    /// Contents live only within a frame: activated from UNDEFINED (with DISCARD) at first use
    /// each frame (EB-5), and free to alias with other transients.
    Transient,
    /// Contents persist across frames or come from outside the graph.
    #[default]
    Imported,
}

/// Layout and last access of a texture (or, for a swap chain, of its back buffers) between
/// frames: what the first barrier of the next frame must name as "before" (EB-11).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureState {
    pub layout: crate::barrier::Layout,
    pub access: crate::barrier::Access,
}

impl TextureState {
    /// A texture no barrier has touched yet: COMMON (or UNDEFINED), not accessed.
    pub fn new(layout: crate::barrier::Layout) -> Self {
        Self {
            layout,
            access: crate::barrier::Access::NO_ACCESS,
        }
    }
}

/// Layout and last access of each part of a texture that planning split by subresource
/// ranges, as the last frame left them (`crate::plan::Parts`): where the next plan of a split
/// texture starts each part. Empty for a texture planned whole, whose [`TextureState`] says.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct SubresourceStates(pub Vec<(crate::barrier::SubresourceRange, TextureState)>);

impl SubresourceStates {
    /// The state of the part `range` names: recorded for that range, else for a recorded
    /// range that contains it (a later plan may split the texture finer).
    pub fn get(&self, range: &crate::barrier::SubresourceRange) -> Option<TextureState> {
        let inside = |outer: &crate::barrier::SubresourceRange| {
            let axis = |f: u32, c: u32, of: u32, oc: u32| {
                of <= f && f.saturating_add(c) <= of.saturating_add(oc)
            };
            axis(
                range.first_mip,
                range.mip_count,
                outer.first_mip,
                outer.mip_count,
            ) && axis(
                range.first_slice,
                range.slice_count,
                outer.first_slice,
                outer.slice_count,
            ) && axis(
                range.first_plane,
                range.plane_count,
                outer.first_plane,
                outer.plane_count,
            )
        };
        (self.0.iter().find(|(r, _)| r == range))
            .or_else(|| self.0.iter().find(|(r, _)| inside(r)))
            .map(|(_, s)| *s)
    }

    /// Record the state of the part `range` names.
    pub fn set(&mut self, range: crate::barrier::SubresourceRange, state: TextureState) {
        match self.0.iter_mut().find(|(r, _)| *r == range) {
            Some((_, s)) => *s = state,
            None => self.0.push((range, state)),
        }
    }
}
