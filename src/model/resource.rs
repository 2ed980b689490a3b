//! GPU resources as ECS components: textures and buffers, their creation flags, and whether
//! the frame graph owns their contents (transient) or only borrows them (imported).

use bevy_ecs::prelude::*;
use glam::UVec2;
use serde::{Deserialize, Serialize};

pub use super::format::Format;

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

/// A texture resource: 2D (an array of `array_size` slices), or 3D when `depth` is more
/// than 1 (one slice of `depth` layers, each mip halving width, height and depth).
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Texture {
    pub format: Format,
    pub extent: UVec2,
    /// Layers of a 3D texture; 1 for 2D textures.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub depth: u32,
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

fn is_one(v: &u32) -> bool {
    *v == 1
}

impl Texture {
    /// A render target that is not texture-compatible (it holds fast-clear metadata, and DCC
    /// when allowed: the render-target flag is the allow flag, EB-4), or depth: reading it as
    /// a plain shader resource forces a fast-clear eliminate or a decompression, so planners
    /// keep it in a layout that does not.
    pub fn compressible(&self) -> bool {
        (self.flags.render_target && !self.flags.texture_compatible) || self.flags.depth_stencil
    }

    /// A plain 2D texture: one mip, one slice, one sample.
    pub fn new_2d(format: Format, extent: UVec2, flags: TextureFlags) -> Texture {
        Texture {
            format,
            extent,
            depth: 1,
            mips: 1,
            array_size: 1,
            samples: 1,
            flags,
        }
    }

    /// A 3D texture: its subresources are mips only, each `depth` layers deep.
    pub fn is_3d(&self) -> bool {
        self.depth > 1
    }

    /// Bytes of mip `mip` of one slice and one sample: whole 4x4 blocks for
    /// block-compressed formats, width, height and depth each halving per mip (at least 1).
    pub fn mip_bytes(&self, mip: u32) -> u64 {
        let half = |n: u32| n.checked_shr(mip).unwrap_or(0).max(1);
        self.format
            .image_bytes(half(self.extent.x), half(self.extent.y))
            .saturating_mul(half(self.depth) as u64)
    }

    /// Bytes of the whole texture: every mip of every slice and sample.
    pub fn bytes(&self) -> u64 {
        let per_slice = (0..self.mips).fold(0u64, |n, m| n.saturating_add(self.mip_bytes(m)));
        per_slice
            .saturating_mul(self.array_size as u64)
            .saturating_mul(self.samples as u64)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_sum_every_mip_in_whole_blocks() {
        let t = |format, x, y, mips| Texture {
            mips,
            ..Texture::new_2d(format, UVec2::new(x, y), TextureFlags::default())
        };
        // 8x8 RGBA8 with 4 mips: 256 + 64 + 16 + 4 bytes.
        assert_eq!(t(Format::Rgba8Unorm, 8, 8, 4).bytes(), 340);
        // 8x8 BC1 with 4 mips: 4 blocks, then the 4x4, 2x2 and 1x1 mips take one block each.
        assert_eq!(t(Format::Bc1Unorm, 8, 8, 4).bytes(), 8 * (4 + 1 + 1 + 1));
        assert_eq!(t(Format::Bc7Unorm, 8, 8, 4).bytes(), 16 * (4 + 1 + 1 + 1));
        let slices = Texture {
            array_size: 6,
            ..t(Format::Bc6hUf16, 16, 16, 1)
        };
        assert_eq!(slices.bytes(), 6 * 16 * 16);
    }

    #[test]
    fn a_3d_texture_halves_its_depth_per_mip() {
        let t = Texture {
            depth: 8,
            mips: 4,
            ..Texture::new_2d(Format::R32Uint, UVec2::new(8, 8), TextureFlags::default())
        };
        assert!(t.is_3d());
        assert_eq!(t.mip_bytes(0), 8 * 8 * 8 * 4);
        assert_eq!(t.mip_bytes(1), 4 * 4 * 4 * 4);
        assert_eq!(t.bytes(), 4 * (512 + 64 + 8 + 1));
        assert_eq!(t.subresources(), 4);
    }
}
