//! What a barrier targets, and which subresources a range names (EB-6, barrier-spec A2).
//!
//! Validation and lowering need a little knowledge of the resource behind a barrier: whether it
//! is a buffer or a texture, how many mips, slices and planes it has, which creation flags
//! allow render-target, depth, UAV and DCC metadata (EB-4), whether it is texture-compatible
//! (which of the driver's two compression tables applies), and its size (what decompressing it
//! costs). `ResourceInfo` carries exactly that, independent of the ECS model. Resolving a
//! range to a box of (mip, slice, plane) is done once here so the validator, the tracker and
//! the compression rules agree on what "the whole resource" means (EB-8b).

use super::{BarrierError, SubresourceRange};
use std::ops::Range;

/// Creation facts of a texture that barriers depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextureInfo {
    pub mips: u32,
    pub array_size: u32,
    /// 1, or 2 for a depth+stencil format (plane 0 depth, plane 1 stencil).
    pub planes: u32,
    /// `ALLOW_RENDER_TARGET`: colour metadata (fast clear, DCC) may exist (EB-4).
    pub render_target: bool,
    /// `ALLOW_DEPTH_STENCIL`: HTILE metadata may exist (EB-4).
    pub depth_stencil: bool,
    /// `ALLOW_UNORDERED_ACCESS`.
    pub unordered_access: bool,
    /// `ALLOW_DCC`: delta colour compression (EB-4).
    pub dcc: bool,
    /// `FORCE_TEXTURE_COMPATIBILITY`: shaders read the compressed form directly (EB-4).
    pub texture_compatible: bool,
    /// Bytes of the whole resource, all planes; what a decompression reads and writes.
    pub size_bytes: u64,
}

impl Default for TextureInfo {
    fn default() -> Self {
        Self {
            mips: 1,
            array_size: 1,
            planes: 1,
            render_target: false,
            depth_stencil: false,
            unordered_access: false,
            dcc: false,
            texture_compatible: false,
            size_bytes: 0,
        }
    }
}

impl TextureInfo {
    /// A colour render target with DCC, not texture-compatible.
    pub fn render_target(mips: u32, array_size: u32, size_bytes: u64) -> Self {
        Self {
            mips,
            array_size,
            render_target: true,
            dcc: true,
            size_bytes,
            ..Self::default()
        }
    }

    /// A depth+stencil target (two planes), not texture-compatible.
    pub fn depth_stencil(mips: u32, array_size: u32, size_bytes: u64) -> Self {
        Self {
            mips,
            array_size,
            planes: 2,
            depth_stencil: true,
            size_bytes,
            ..Self::default()
        }
    }

    /// Number of subresources (mips x slices x planes).
    pub fn subresource_count(&self) -> u64 {
        (self.mips as u64)
            .saturating_mul(self.array_size as u64)
            .saturating_mul(self.planes as u64)
    }

    /// `D3D12CalcSubresource`: the flat index of (mip, slice, plane).
    pub fn subresource_index(&self, mip: u32, slice: u32, plane: u32) -> u64 {
        let (mips, slices) = (self.mips as u64, self.array_size as u64);
        (mip as u64)
            .saturating_add((slice as u64).saturating_mul(mips))
            .saturating_add((plane as u64).saturating_mul(mips.saturating_mul(slices)))
    }

    /// Refuses descriptions no device could create, which would also make ranges meaningless.
    pub fn check(&self) -> Result<(), BarrierError> {
        let detail = if self.mips == 0 || self.array_size == 0 {
            "zero mips or array slices"
        } else if self.planes == 0 || self.planes > 2 {
            "plane count must be 1 or 2"
        } else if self.mips > 32 || self.array_size > 16_384 {
            "more mips or array slices than any D3D12 texture has"
        } else {
            return Ok(());
        };
        Err(BarrierError::InvalidResourceInfo { detail })
    }
}

/// What a barrier targets (EB-6): a buffer has no layout and no subresources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceInfo {
    Buffer,
    Texture(TextureInfo),
}

impl ResourceInfo {
    /// The texture facts, if a texture.
    pub fn texture(&self) -> Option<&TextureInfo> {
        match self {
            ResourceInfo::Texture(t) => Some(t),
            ResourceInfo::Buffer => None,
        }
    }

    /// "buffer" or "texture", for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ResourceInfo::Buffer => "buffer",
            ResourceInfo::Texture(_) => "texture",
        }
    }
}

/// A resolved subresource range: a box of mips x slices x planes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subresources {
    pub mips: Range<u32>,
    pub slices: Range<u32>,
    pub planes: Range<u32>,
}

impl Subresources {
    /// Every subresource of `tex`.
    pub fn all(tex: &TextureInfo) -> Self {
        Self {
            mips: 0..tex.mips,
            slices: 0..tex.array_size,
            planes: 0..tex.planes,
        }
    }

    /// Resolve `range` against `tex` (barrier-spec A2): mip count 0 makes the first field a
    /// subresource index, with `0xffffffff` meaning all; a count of `0xffffffff` means "to the
    /// end" (the crate's [`SubresourceRange::ALL`] spelling).
    pub fn resolve(range: &SubresourceRange, tex: &TextureInfo) -> Result<Self, BarrierError> {
        tex.check()?;
        if range.is_all() {
            return Ok(Self::all(tex));
        }
        if range.mip_count == 0 {
            return Self::from_index(range.first_mip, tex);
        }
        Ok(Self {
            mips: dim("mip", range.first_mip, range.mip_count, tex.mips)?,
            slices: dim(
                "array slice",
                range.first_slice,
                range.slice_count,
                tex.array_size,
            )?,
            planes: dim("plane", range.first_plane, range.plane_count, tex.planes)?,
        })
    }

    fn from_index(index: u32, tex: &TextureInfo) -> Result<Self, BarrierError> {
        if index == u32::MAX {
            return Ok(Self::all(tex));
        }
        let count = tex.subresource_count();
        if index as u64 >= count {
            return Err(BarrierError::SubresourcesOutOfBounds {
                what: "subresource index",
                end: index as u64 + 1,
                total: count,
            });
        }
        // `check` guarantees non-zero mips and slices.
        let mip = index % tex.mips;
        let slice = (index / tex.mips) % tex.array_size;
        let plane = index / (tex.mips * tex.array_size);
        Ok(Self {
            mips: mip..mip + 1,
            slices: slice..slice + 1,
            planes: plane..plane + 1,
        })
    }

    /// True when the box names every subresource of `tex` (EB-8b "the whole resource").
    pub fn covers_all(&self, tex: &TextureInfo) -> bool {
        *self == Self::all(tex)
    }

    /// True when every mip and slice of `tex` is named (planes may be a subset).
    pub fn covers_all_mips_and_slices(&self, tex: &TextureInfo) -> bool {
        self.mips == (0..tex.mips) && self.slices == (0..tex.array_size)
    }

    /// Number of subresources in the box.
    pub fn len(&self) -> u64 {
        (self.mips.len() as u64)
            .saturating_mul(self.slices.len() as u64)
            .saturating_mul(self.planes.len() as u64)
    }

    /// True when the box is empty (never, for a resolved range).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Flat subresource indices in the box (`D3D12CalcSubresource` order).
    pub fn indices<'a>(&'a self, tex: &'a TextureInfo) -> impl Iterator<Item = u64> + 'a {
        self.planes.clone().flat_map(move |p| {
            self.slices.clone().flat_map(move |s| {
                self.mips
                    .clone()
                    .map(move |m| tex.subresource_index(m, s, p))
            })
        })
    }
}

fn dim(what: &'static str, first: u32, count: u32, total: u32) -> Result<Range<u32>, BarrierError> {
    if count == u32::MAX {
        if first >= total {
            return Err(BarrierError::SubresourcesOutOfBounds {
                what,
                end: first as u64 + 1,
                total: total as u64,
            });
        }
        return Ok(first..total);
    }
    if count == 0 {
        return Err(BarrierError::SubresourceRangeMalformed {
            detail: "zero array-slice or plane count",
        });
    }
    let end = first as u64 + count as u64;
    if end > total as u64 {
        return Err(BarrierError::SubresourcesOutOfBounds {
            what,
            end,
            total: total as u64,
        });
    }
    Ok(first..end as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex() -> TextureInfo {
        TextureInfo {
            mips: 4,
            array_size: 3,
            planes: 2,
            ..TextureInfo::default()
        }
    }

    fn range(
        first_mip: u32,
        mip_count: u32,
        first_slice: u32,
        slice_count: u32,
    ) -> SubresourceRange {
        SubresourceRange {
            first_mip,
            mip_count,
            first_slice,
            slice_count,
            first_plane: 0,
            plane_count: 1,
        }
    }

    #[test]
    fn all_spellings_cover_everything() {
        let t = tex();
        let all = Subresources::resolve(&SubresourceRange::ALL, &t).unwrap();
        assert!(all.covers_all(&t));
        assert_eq!(all.len(), 24);
        let idx = Subresources::resolve(&range(u32::MAX, 0, 0, 0), &t).unwrap();
        assert!(idx.covers_all(&t));
    }

    #[test]
    fn subresource_index_form_decomposes() {
        let t = tex();
        // mip 1, slice 2, plane 1: 1 + 2*4 + 1*12 = 21.
        let s = Subresources::resolve(&range(21, 0, 0, 0), &t).unwrap();
        assert_eq!(
            (s.mips.clone(), s.slices.clone(), s.planes.clone()),
            (1..2, 2..3, 1..2)
        );
        assert_eq!(s.indices(&t).collect::<Vec<_>>(), vec![21]);
        assert!(matches!(
            Subresources::resolve(&range(24, 0, 0, 0), &t),
            Err(BarrierError::SubresourcesOutOfBounds { .. })
        ));
    }

    #[test]
    fn ranges_are_bounds_checked() {
        let t = tex();
        let r = Subresources::resolve(&range(1, 2, 0, 3), &t).unwrap();
        assert_eq!(r.len(), 6);
        assert!(!r.covers_all(&t));
        assert!(matches!(
            Subresources::resolve(&range(3, 2, 0, 1), &t),
            Err(BarrierError::SubresourcesOutOfBounds { what: "mip", .. })
        ));
        assert!(matches!(
            Subresources::resolve(&range(0, 1, 0, 0), &t),
            Err(BarrierError::SubresourceRangeMalformed { .. })
        ));
        // Overflowing arithmetic is refused, not wrapped.
        assert!(Subresources::resolve(&range(u32::MAX - 1, 5, 0, 1), &t).is_err());
    }

    #[test]
    fn impossible_descriptions_are_refused() {
        let bad = TextureInfo {
            planes: 3,
            ..TextureInfo::default()
        };
        assert!(matches!(
            Subresources::resolve(&SubresourceRange::ALL, &bad),
            Err(BarrierError::InvalidResourceInfo { .. })
        ));
    }
}
