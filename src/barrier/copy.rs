//! Copying a subresource onto itself (barrier-spec A3.8, EB-9c).
//!
//! Legacy states cannot combine COPY_SOURCE with COPY_DEST, so moving data between two regions
//! of one texture used to need a temporary texture and extra transitions. With enhanced
//! barriers a subresource in a common layout may be both source and destination of one copy,
//! provided the regions do not intersect; intersecting regions are undefined and validation
//! must report them. This file holds the region type and that one check.

use super::BarrierError;

/// A box in one subresource, half-open like `D3D12_BOX` (`left..right` etc.).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyRegion {
    pub subresource: u32,
    pub left: u32,
    pub top: u32,
    pub front: u32,
    pub right: u32,
    pub bottom: u32,
    pub back: u32,
}

impl CopyRegion {
    /// A `width x height x depth` box at `(x, y, z)`; saturates instead of overflowing.
    pub fn new(subresource: u32, origin: [u32; 3], extent: [u32; 3]) -> Self {
        Self {
            subresource,
            left: origin[0],
            top: origin[1],
            front: origin[2],
            right: origin[0].saturating_add(extent[0]),
            bottom: origin[1].saturating_add(extent[1]),
            back: origin[2].saturating_add(extent[2]),
        }
    }

    /// True when the two boxes share at least one texel.
    pub fn intersects(&self, other: &CopyRegion) -> bool {
        let overlap = |a0: u32, a1: u32, b0: u32, b1: u32| a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
        self.subresource == other.subresource
            && overlap(self.left, self.right, other.left, other.right)
            && overlap(self.top, self.bottom, other.top, other.bottom)
            && overlap(self.front, self.back, other.front, other.back)
    }
}

/// A copy from a resource to itself (A3.8, EB-9c): allowed between non-intersecting regions
/// (no temporary texture needed), refused when the regions intersect.
pub fn check_self_copy(src: &CopyRegion, dst: &CopyRegion) -> Result<(), BarrierError> {
    if src.intersects(dst) {
        Err(BarrierError::SelfCopyOverlap)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BarrierError as E;

    #[test]
    fn eb9c_copy_to_self_needs_disjoint_regions() {
        // Top-left quarter to bottom-right quarter of a 256x256 texture: fine.
        let src = CopyRegion::new(0, [0, 0, 0], [128, 128, 1]);
        let dst = CopyRegion::new(0, [128, 128, 0], [128, 128, 1]);
        assert_eq!(check_self_copy(&src, &dst), Ok(()));
        // Shifted by one texel: the boxes intersect.
        let dst = CopyRegion::new(0, [127, 127, 0], [128, 128, 1]);
        assert_eq!(check_self_copy(&src, &dst), Err(E::SelfCopyOverlap));
        // Same box, other subresource: fine.
        let other = CopyRegion {
            subresource: 1,
            ..src
        };
        assert_eq!(check_self_copy(&src, &other), Ok(()));
        // Empty boxes share nothing; saturating extents do not wrap.
        let empty = CopyRegion::new(0, [0, 0, 0], [0, 128, 1]);
        assert_eq!(check_self_copy(&src, &empty), Ok(()));
        let huge = CopyRegion::new(0, [u32::MAX, 0, 0], [u32::MAX, 1, 1]);
        assert_eq!(check_self_copy(&huge, &src), Ok(()));
    }
}
