//! Texel formats: what one texel (or one 4x4 block of a block-compressed format) weighs, and
//! which uses each format allows.
//!
//! Sizes drive everything the simulated device charges per byte: memory, clears, copies and
//! decompressions. Most formats store one texel in a whole number of bytes. The
//! block-compressed formats BC1-BC7 store a 4x4 block of texels in 8 bytes (BC1, BC4) or 16
//! bytes (the others), so a texture's size counts blocks, and a mip smaller than a block
//! still takes a whole one. The rest of the fastframe vocabulary follows the D3D12 format
//! support tables:
//!
//! - block-compressed formats are sampled only: no render target, no depth, no UAV, no
//!   multisampling, and mip 0 must be a whole number of blocks;
//! - sRGB formats can be render targets and shader resources but have no typed UAV;
//! - integer formats (`Uint`/`Sint`) are render targets and UAVs but cannot be blended or
//!   filtered (which the simulation does not model, so only their sizes matter);
//! - depth formats exist for 2D textures only (no 3D depth buffer).

use serde::{Deserialize, Serialize};

/// Texel formats the simulated device knows, named as DXGI names them without the prefix
/// and underscores (`R8G8B8A8_UNORM_SRGB` is `Rgba8UnormSrgb`, `BC7_UNORM` is `Bc7Unorm`).
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
    // sRGB: colour stored gamma-encoded, converted to linear on read and back on write.
    Rgba8UnormSrgb,
    Bgra8UnormSrgb,
    // 16-bit normalised.
    R16Unorm,
    Rg16Unorm,
    Rgba16Unorm,
    // Integer.
    R8Uint,
    R16Uint,
    R32Uint,
    R32Sint,
    Rg16Uint,
    Rg16Sint,
    Rg32Uint,
    Rgba8Uint,
    Rgba16Uint,
    Rgba16Sint,
    Rgba32Uint,
    Rgba32Float,
    // Block-compressed, 4x4 texels per block.
    Bc1Unorm,
    Bc1UnormSrgb,
    Bc2Unorm,
    Bc2UnormSrgb,
    Bc3Unorm,
    Bc3UnormSrgb,
    Bc4Unorm,
    Bc4Snorm,
    Bc5Unorm,
    Bc5Snorm,
    Bc6hUf16,
    Bc6hSf16,
    Bc7Unorm,
    Bc7UnormSrgb,
}

/// Side of a BC block, in texels.
pub const BLOCK_SIDE: u32 = 4;

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 43] = [
        Format::Rgba8Unorm,
        Format::Bgra8Unorm,
        Format::Rgb10A2Unorm,
        Format::R11G11B10Float,
        Format::Rgba16Float,
        Format::Rg16Float,
        Format::R8Unorm,
        Format::R16Float,
        Format::R32Float,
        Format::D32Float,
        Format::D24UnormS8Uint,
        Format::D32FloatS8X24Uint,
        Format::Rgba8UnormSrgb,
        Format::Bgra8UnormSrgb,
        Format::R16Unorm,
        Format::Rg16Unorm,
        Format::Rgba16Unorm,
        Format::R8Uint,
        Format::R16Uint,
        Format::R32Uint,
        Format::R32Sint,
        Format::Rg16Uint,
        Format::Rg16Sint,
        Format::Rg32Uint,
        Format::Rgba8Uint,
        Format::Rgba16Uint,
        Format::Rgba16Sint,
        Format::Rgba32Uint,
        Format::Rgba32Float,
        Format::Bc1Unorm,
        Format::Bc1UnormSrgb,
        Format::Bc2Unorm,
        Format::Bc2UnormSrgb,
        Format::Bc3Unorm,
        Format::Bc3UnormSrgb,
        Format::Bc4Unorm,
        Format::Bc4Snorm,
        Format::Bc5Unorm,
        Format::Bc5Snorm,
        Format::Bc6hUf16,
        Format::Bc6hSf16,
        Format::Bc7Unorm,
        Format::Bc7UnormSrgb,
    ];

    /// Bytes of one storage unit: a texel, or a 4x4 block of a block-compressed format.
    pub fn unit_bytes(self) -> u64 {
        use Format::*;
        match self {
            R8Unorm | R8Uint => 1,
            R16Float | R16Unorm | R16Uint => 2,
            Rgba8Unorm | Bgra8Unorm | Rgb10A2Unorm | R11G11B10Float | Rg16Float | R32Float
            | D32Float | D24UnormS8Uint | Rgba8UnormSrgb | Bgra8UnormSrgb | Rg16Unorm | R32Uint
            | R32Sint | Rg16Uint | Rg16Sint | Rgba8Uint => 4,
            Rgba16Float | D32FloatS8X24Uint | Rgba16Unorm | Rg32Uint | Rgba16Uint | Rgba16Sint => 8,
            Rgba32Uint | Rgba32Float => 16,
            Bc1Unorm | Bc1UnormSrgb | Bc4Unorm | Bc4Snorm => 8,
            Bc2Unorm | Bc2UnormSrgb | Bc3Unorm | Bc3UnormSrgb | Bc5Unorm | Bc5Snorm | Bc6hUf16
            | Bc6hSf16 | Bc7Unorm | Bc7UnormSrgb => 16,
        }
    }

    /// Texels per storage unit along each side: 4 for block-compressed formats, else 1.
    pub fn block_side(self) -> u32 {
        if self.is_block_compressed() {
            BLOCK_SIDE
        } else {
            1
        }
    }

    /// Bits per texel: 4 for BC1 and BC4, 8 for the other BC formats, eight times the bytes
    /// per texel otherwise. What a per-texel cost or a report reads.
    pub fn bits_per_texel(self) -> u64 {
        let side = self.block_side() as u64;
        self.unit_bytes() * 8 / (side * side)
    }

    /// Bytes of a `width` x `height` image (one slice of one mip): whole blocks for
    /// block-compressed formats, so a 2x2 mip of BC1 still takes one 8-byte block.
    pub fn image_bytes(self, width: u32, height: u32) -> u64 {
        let side = self.block_side();
        let units = |n: u32| n.div_ceil(side) as u64;
        units(width) * units(height) * self.unit_bytes()
    }

    /// BC1-BC7: 4x4 blocks, sampled only.
    pub fn is_block_compressed(self) -> bool {
        use Format::*;
        matches!(
            self,
            Bc1Unorm
                | Bc1UnormSrgb
                | Bc2Unorm
                | Bc2UnormSrgb
                | Bc3Unorm
                | Bc3UnormSrgb
                | Bc4Unorm
                | Bc4Snorm
                | Bc5Unorm
                | Bc5Snorm
                | Bc6hUf16
                | Bc6hSf16
                | Bc7Unorm
                | Bc7UnormSrgb
        )
    }

    /// Gamma-encoded colour: no typed UAV in D3D12.
    pub fn is_srgb(self) -> bool {
        use Format::*;
        matches!(
            self,
            Rgba8UnormSrgb
                | Bgra8UnormSrgb
                | Bc1UnormSrgb
                | Bc2UnormSrgb
                | Bc3UnormSrgb
                | Bc7UnormSrgb
        )
    }

    /// Unsigned or signed integer texels.
    pub fn is_integer(self) -> bool {
        use Format::*;
        matches!(
            self,
            R8Uint
                | R16Uint
                | R32Uint
                | R32Sint
                | Rg16Uint
                | Rg16Sint
                | Rg32Uint
                | Rgba8Uint
                | Rgba16Uint
                | Rgba16Sint
                | Rgba32Uint
        )
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

    /// Why a texture of this format cannot be a render target, if it cannot: depth formats
    /// are depth targets, block-compressed ones are sampled only.
    pub fn render_target_problem(self) -> Option<&'static str> {
        if self.is_depth() {
            Some("a depth format: it is written through depth uses, not as a render target")
        } else if self.is_block_compressed() {
            Some("block-compressed: BC formats can only be sampled, not rendered to")
        } else {
            None
        }
    }

    /// Why a texture of this format cannot be written through a UAV, if it cannot.
    pub fn uav_problem(self) -> Option<&'static str> {
        if self.is_depth() {
            Some("a depth format, which has no UAV")
        } else if self.is_block_compressed() {
            Some(
                "block-compressed: BC formats have no UAV (write an integer texture of the block size and copy it)",
            )
        } else if self.is_srgb() {
            Some("an sRGB format, which has no typed UAV in D3D12 (write the UNORM format instead)")
        } else {
            None
        }
    }

    /// The family of formats sharing this one's bit layout, which views of a resource may
    /// use in place of its own: what D3D12 creates as one `TYPELESS` format (or lists as a
    /// resource's castable formats). Formats of different families never alias texels.
    pub fn family(self) -> u8 {
        use Format::*;
        match self {
            Rgba8Unorm | Rgba8UnormSrgb | Rgba8Uint => 1,
            Bgra8Unorm | Bgra8UnormSrgb => 2,
            R16Float | R16Unorm | R16Uint => 3,
            Rg16Float | Rg16Unorm | Rg16Uint | Rg16Sint => 4,
            R32Float | R32Uint | R32Sint => 5,
            Rgba16Float | Rgba16Unorm | Rgba16Uint | Rgba16Sint => 6,
            Rgba32Uint | Rgba32Float => 7,
            R8Unorm | R8Uint => 8,
            Bc1Unorm | Bc1UnormSrgb => 9,
            Bc2Unorm | Bc2UnormSrgb => 10,
            Bc3Unorm | Bc3UnormSrgb => 11,
            Bc4Unorm | Bc4Snorm => 12,
            Bc5Unorm | Bc5Snorm => 13,
            Bc6hUf16 | Bc6hSf16 => 14,
            Bc7Unorm | Bc7UnormSrgb => 15,
            // Formats with no sibling here are their own family.
            Rgb10A2Unorm => 16,
            R11G11B10Float => 17,
            Rg32Uint => 18,
            D32Float => 19,
            D24UnormS8Uint => 20,
            D32FloatS8X24Uint => 21,
        }
    }

    /// Colour formats a swap chain's buffers can have: the flip model's display formats
    /// (an sRGB back buffer is rendered through an sRGB view of a UNORM buffer instead).
    pub fn is_display(self) -> bool {
        matches!(
            self,
            Format::Rgba8Unorm | Format::Bgra8Unorm | Format::Rgb10A2Unorm | Format::Rgba16Float
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_formats_weigh_blocks_and_round_up() {
        assert_eq!(Format::Bc1Unorm.image_bytes(256, 256), 64 * 64 * 8);
        assert_eq!(Format::Bc7Unorm.image_bytes(256, 256), 64 * 64 * 16);
        // A 2x2 or 1x1 mip still takes one whole block; 6 texels take two.
        assert_eq!(Format::Bc1Unorm.image_bytes(2, 2), 8);
        assert_eq!(Format::Bc3Unorm.image_bytes(1, 1), 16);
        assert_eq!(Format::Bc4Unorm.image_bytes(6, 4), 16);
        assert_eq!(Format::Bc1Unorm.bits_per_texel(), 4);
        assert_eq!(Format::Bc5Snorm.bits_per_texel(), 8);
    }

    #[test]
    fn texel_formats_weigh_texels() {
        assert_eq!(Format::R32Uint.image_bytes(3, 5), 60);
        assert_eq!(Format::Rg16Sint.unit_bytes(), 4);
        assert_eq!(Format::Rgba16Unorm.bits_per_texel(), 64);
        assert_eq!(Format::Rgba8UnormSrgb.unit_bytes(), 4);
        assert_eq!(Format::Rgba32Uint.unit_bytes(), 16);
    }

    #[test]
    fn uses_follow_the_format_support_tables() {
        assert!(Format::Bc7Unorm.render_target_problem().is_some());
        assert!(Format::Bc7Unorm.uav_problem().is_some());
        assert!(Format::Bgra8UnormSrgb.render_target_problem().is_none());
        assert!(Format::Bgra8UnormSrgb.uav_problem().is_some());
        assert!(Format::R32Uint.uav_problem().is_none());
        assert!(!Format::Bgra8UnormSrgb.is_display());
        assert_eq!(Format::Bgra8UnormSrgb.family(), Format::Bgra8Unorm.family());
        assert_ne!(Format::Rgba8UnormSrgb.family(), Format::Bgra8Unorm.family());
        assert_eq!(Format::Bc7UnormSrgb.family(), Format::Bc7Unorm.family());
    }
}
