//! Copy regions of a pass (barrier-spec A3.8, EB-9c).
//!
//! A copy pass may name the region it reads (`from`) and the one it writes (`to`). Both or
//! neither, each inside a subresource of its texture. A texture that is both the pass's copy
//! source and its copy destination is copied onto itself: enhanced barriers allow that in a
//! common layout, so no temporary texture is needed, but only between regions that share no
//! texel. Intersecting regions are undefined, and refused here rather than left to the GPU.
//!
//! A copy without regions whose side names part of a texture (a `range`) is
//! recorded as one `CopyTextureRegion` a subresource, the i-th of the source into the i-th of
//! the destination (barrier-spec A3.8). Both sides must then name as many subresources: a
//! slice copied into a cube's six faces would pair five faces with source subresources the
//! pass never named, which the plan leaves in whatever layout they hold. A copy that
//! reinterprets one texture's bytes as another shape goes through a buffer, as D3D12 needs.

use super::check::Check;
use super::error::SceneError;
use super::format::PassDef;
use super::index::Resource;
use crate::barrier::check_self_copy;
use crate::model::{CopyBox, UseAccess, Work};

/// Rules: copy regions come in pairs, fit their textures, and a self-copy's do not meet.
pub fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    let Work::Copy { from, to, .. } = p.work else {
        return Ok(());
    };
    let at = || c.loc.def_key(id, "work", 0);
    let resource = |access: UseAccess| {
        let u = p.uses.iter().find(|u| u.access == access)?;
        c.index.resource(c.index.id(&u.target)?).map(|(r, _)| r)
    };
    let (src, dst) = (
        resource(UseAccess::CopySource),
        resource(UseAccess::CopyDest),
    );
    let onto_itself = src.is_some() && src == dst;
    let (from, to) = match (from, to) {
        (Some(f), Some(t)) => (f, t),
        (None, None) if onto_itself => {
            return Err(c.misuse(at(), id, "this pass copies a texture onto itself: give the `from` and `to` regions, which must not intersect (barrier-spec A3.8, EB-9c)".into()));
        }
        (None, None) => return parts_pair(c, id, p),
        _ => {
            return Err(c.misuse(
                at(),
                id,
                "give both copy regions, `from` and `to`, or neither (a whole-resource copy)"
                    .into(),
            ));
        }
    };
    for (what, region, res) in [("from", from, src), ("to", to, dst)] {
        if let Some(problem) = res.and_then(|r| outside(c, r, &region)) {
            return Err(c.misuse(
                c.loc.def_key(id, what, 0),
                id,
                format!("copy region `{what}` {problem}"),
            ));
        }
    }
    if onto_itself && check_self_copy(&from.region(), &to.region()).is_err() {
        return Err(c.misuse(at(), id, format!(
            "the copy regions intersect ({}x{} at {:?} and {}x{} at {:?} of subresource {}): copying a texture onto itself is defined only between regions that share no texel (barrier-spec A3.8, EB-9c); move one region, or copy through a temporary texture",
            from.extent.x, from.extent.y, from.origin.to_array(),
            to.extent.x, to.extent.y, to.origin.to_array(), to.subresource,
        )));
    }
    Ok(())
}

/// Rule: a copy into or out of part of a texture names as many subresources on each side,
/// since it is recorded one subresource a call, paired in order (barrier-spec A3.8).
fn parts_pair(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    let side = |access: UseAccess| {
        let j = p.uses.iter().position(|u| u.access == access)?;
        Some((j, subresources(c, &p.uses[j])?))
    };
    let (Some((_, (src, src_part))), Some((j, (dst, dst_part)))) =
        (side(UseAccess::CopySource), side(UseAccess::CopyDest))
    else {
        return Ok(());
    };
    if (src_part || dst_part) && src != dst {
        return Err(c.misuse(
            c.loc.def_key_value(id, "target", j),
            id,
            format!(
                "this copy names {src} source subresource(s) and {dst} destination subresource(s): a copy into or out of part of a texture is recorded one subresource a call, the i-th into the i-th (barrier-spec A3.8), so both sides must name as many; to copy one texture's bytes into another of a different shape, copy through a buffer"
            ),
        ));
    }
    Ok(())
}

/// How many subresources a copy use of a texture names, and whether that is part of the
/// texture rather than all of it; `None` for a buffer or a target that does not resolve.
fn subresources(c: &Check, u: &super::format::UseDef) -> Option<(u32, bool)> {
    let target = c.index.id(&u.target)?;
    let (_, res) = c.index.resource(target)?;
    let Resource::Texture(t) = res else {
        return None;
    };
    let planes = if t.format.has_stencil() { 2 } else { 1 };
    let axis = |first: u32, count: Option<u32>, total: u32| {
        let end = count.map_or(total, |n| first.saturating_add(n)).min(total);
        end.saturating_sub(first)
    };
    // A copy names its part by a `range` (views are bound for shader and target accesses).
    let [m, s, pl] = match &u.range {
        Some(r) => [
            axis(r.first_mip, r.mip_count, t.mips),
            axis(r.first_slice, r.slice_count, t.slices),
            axis(r.first_plane, r.plane_count, planes),
        ],
        None => [t.mips, t.slices, planes],
    };
    let n = m.saturating_mul(s).saturating_mul(pl);
    Some((n, n != t.mips * t.slices * planes))
}

/// Why `region` does not fit texture definition `res`, if it does not.
fn outside(c: &Check, res: usize, region: &CopyBox) -> Option<String> {
    let d = c.index.def(res)?;
    let Some(t) = d.texture.as_ref() else {
        return Some("names a region of something that is not a texture".into());
    };
    let subresources = t.mips.saturating_mul(t.array_size);
    if region.subresource >= subresources {
        return Some(format!(
            "names subresource {} of a texture with {subresources}",
            region.subresource
        ));
    }
    let mip = region.subresource % t.mips.max(1);
    let size = (t.extent >> mip).max(glam::UVec2::ONE);
    let end = region.origin.saturating_add(region.extent);
    if region.extent.min_element() == 0 {
        return Some("is empty".into());
    }
    if end.x > size.x || end.y > size.y {
        return Some(format!(
            "reaches ({}, {}), outside mip {mip} of {}x{}",
            end.x, end.y, size.x, size.y
        ));
    }
    // A block-compressed texture is copied in whole 4x4 blocks: the region starts on a
    // block and ends on one or at the mip's edge (CopyTextureRegion's BC rule).
    let side = t.format.block_side();
    let off_block = |origin: u32, end: u32, edge: u32| {
        !origin.is_multiple_of(side) || (!end.is_multiple_of(side) && end != edge)
    };
    (off_block(region.origin.x, end.x, size.x) || off_block(region.origin.y, end.y, size.y)).then(
        || {
            format!(
                "is not whole 4x4 blocks of {:?}: origin ({}, {}) and end ({}, {}) must be multiples of 4 (or the end the mip's edge, {}x{})",
                t.format, region.origin.x, region.origin.y, end.x, end.y, size.x, size.y
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use crate::scene::check::tests::problem;

    const ATLAS: &str = r#"(name: "atlas", texture: (format: Rgba8Unorm, extent: (512, 256), mips: 2)),
        (name: "other", texture: (format: Rgba8Unorm, extent: (512, 256))),"#;

    fn copy(src: &str, dst: &str, regions: &str) -> Option<String> {
        problem(&format!(
            r#"{ATLAS} (name: "c", pass: (queue: Graphics, uses: [(target: "{src}", access: CopySource), (target: "{dst}", access: CopyDest)], work: Copy(bytes: 1024{regions})))"#
        ))
    }

    #[test]
    fn block_compressed_regions_are_whole_blocks() {
        let bc = r#"(name: "bc", texture: (format: Bc1Unorm, extent: (64, 64), mips: 4)),
            (name: "bc2", texture: (format: Bc1Unorm, extent: (64, 64), mips: 4)),"#;
        let copy = |regions: &str| {
            problem(&format!(
                r#"{bc} (name: "c", pass: (queue: Graphics, uses: [(target: "bc", access: CopySource), (target: "bc2", access: CopyDest)], work: Copy(bytes: 512{regions})))"#
            ))
        };
        assert_eq!(
            copy(", from: (extent: (16, 8)), to: (origin: (4, 8), extent: (16, 8))"),
            None
        );
        // Mip 3 is 8x8 texels, mip 3 of 64x64; a 6x6 region of 8x8 ends inside a block.
        let partial =
            ", from: (subresource: 3, extent: (6, 8)), to: (subresource: 3, extent: (6, 8))";
        assert!(copy(partial).is_some_and(|m| m.contains("4x4 blocks")));
        let misplaced = ", from: (origin: (2, 0), extent: (4, 4)), to: (extent: (4, 4))";
        assert!(copy(misplaced).is_some_and(|m| m.contains("4x4 blocks")));
    }

    #[test]
    fn a_copy_onto_itself_needs_disjoint_regions() {
        let disjoint = ", from: (extent: (64, 64)), to: (origin: (64, 0), extent: (64, 64))";
        assert_eq!(copy("atlas", "atlas", disjoint), None);
        let touching = ", from: (extent: (64, 64)), to: (origin: (63, 63), extent: (64, 64))";
        assert!(copy("atlas", "atlas", touching).is_some_and(|m| m.contains("EB-9c")));
        let other_mip = ", from: (extent: (64, 64)), to: (subresource: 1, extent: (64, 64))";
        assert_eq!(
            copy("atlas", "atlas", other_mip),
            None,
            "different subresources"
        );
        assert!(copy("atlas", "atlas", "").is_some_and(|m| m.contains("`from` and `to`")));
        assert_eq!(
            copy("atlas", "other", ""),
            None,
            "a whole copy between two textures"
        );
    }

    #[test]
    fn regions_come_in_pairs_and_fit_their_subresource() {
        let half = ", from: (extent: (64, 64))";
        assert!(copy("atlas", "other", half).is_some_and(|m| m.contains("or neither")));
        let big = ", from: (subresource: 1, extent: (300, 10)), to: (extent: (300, 10))";
        assert!(
            copy("atlas", "other", big).is_some_and(|m| m.contains("outside mip 1 of 256x128"))
        );
        let absent = ", from: (subresource: 2, extent: (1, 1)), to: (extent: (1, 1))";
        assert!(copy("atlas", "other", absent).is_some_and(|m| m.contains("subresource 2")));
        let empty = ", from: (extent: (0, 4)), to: (extent: (0, 4))";
        assert!(copy("atlas", "other", empty).is_some_and(|m| m.contains("empty")));
        let huge =
            ", from: (origin: (4294967295, 0), extent: (4294967295, 1)), to: (extent: (1, 1))";
        assert!(
            copy("atlas", "other", huge).is_some_and(|m| m.contains("outside")),
            "no overflow"
        );
    }

    #[test]
    fn a_copy_of_parts_names_as_many_subresources_on_each_side() {
        let arrays = r#"(name: "spot", texture: (format: D32Float, extent: (64, 96), array_size: 8)),
            (name: "cube", texture: (format: D32Float, extent: (32, 32), array_size: 12)),
            (name: "mips", texture: (format: Rgba8Unorm, extent: (64, 64), mips: 3)),
            (name: "flat", texture: (format: Rgba8Unorm, extent: (64, 64))),
            (name: "layers", texture: (format: Rgba8Unorm, extent: (64, 64), array_size: 4)),
            (name: "bytes", buffer: (size: 65536)),"#;
        let copy = |src: &str, dst: &str| {
            problem(&format!(
                r#"{arrays} (name: "c", pass: (queue: Graphics, uses: [(target: {src}, access: CopySource), (target: {dst}, access: CopyDest)], work: Copy(bytes: 1024)))"#
            ))
        };
        let one_slice = r#""spot", range: (first_slice: 5, slice_count: 1)"#;
        let six_faces = r#""cube", range: (first_slice: 0, slice_count: 6)"#;
        assert!(copy(one_slice, six_faces).is_some_and(|m| {
            m.contains("1 source subresource(s) and 6 destination subresource(s)")
        }));
        // A whole side counts every subresource: three mips into two slices.
        let two_layers = r#""layers", range: (first_slice: 1, slice_count: 2)"#;
        assert!(
            copy(r#""mips""#, two_layers)
                .is_some_and(|m| m.contains("3 source subresource(s) and 2"))
        );
        let six_slices = r#""spot", range: (first_slice: 2, slice_count: 6)"#;
        assert_eq!(copy(six_slices, six_faces), None, "six into six");
        assert_eq!(
            copy(r#""flat""#, r#""mips", range: (mip_count: 1)"#),
            None,
            "one into one"
        );
        assert_eq!(
            copy(one_slice, r#""bytes""#),
            None,
            "into a buffer's footprint"
        );
        assert_eq!(
            copy(r#""bytes""#, six_faces),
            None,
            "out of a buffer's footprint"
        );
    }
}
