//! A pass's uses of one subresource agree (EB-1, EB-11; barrier-spec A6).
//!
//! During a pass each subresource it touches sits in one layout (one legacy state), and a
//! write access excludes every other access in the same barrier: a texture cannot be an
//! unordered-access view and a shader resource at once, nor a render target and a shader
//! resource (a feedback loop), and a buffer written through a UAV cannot be read through an
//! SRV in the same work. No barrier strategy can place a barrier inside a draw or dispatch,
//! so such a pass has no valid plan; the loader refuses it, pointing at the second use,
//! rather than leaving the validator to report the broken barriers frame after frame.
//!
//! Uses of disjoint subresources are independent (a mip chain reading mip 0 through one view
//! while writing mip 1 through another), several reads of one subresource are one read
//! state, and the same access twice is one use. The one write that may meet another access
//! is a copy onto itself, `CopySource` and `CopyDest` of one texture, which EB-9c allows in a
//! common layout between regions `super::copies` checks.
//!
//! A ping-pong pair (last frame's history read while this frame's is written) is two
//! resources in the scene, as it is two textures in an engine.

use super::check::Check;
use super::error::SceneError;
use super::format::PassDef;
use super::index::Resource;
use crate::model::UseAccess;

/// The mips and slices a use touches, as half-open intervals; `None` when its target does
/// not resolve (reported elsewhere).
type Span = ((u32, u32), (u32, u32));

/// Rule: no subresource is written by a pass and, in the same pass, accessed another way
/// (except a copy onto itself, EB-9c).
pub fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    let touched: Vec<Option<(usize, Span)>> = p.uses.iter().map(|u| span(c, u)).collect();
    for (j, b) in p.uses.iter().enumerate() {
        let Some((res_b, span_b)) = touched[j] else {
            continue;
        };
        for (i, a) in p.uses[..j].iter().enumerate() {
            let Some((res_a, span_a)) = touched[i] else {
                continue;
            };
            if res_a != res_b || !overlap(span_a, span_b) || !conflict(a.access, b.access) {
                continue;
            }
            let name = c.index.name(res_b).unwrap_or_default();
            return Err(c.misuse(
                c.loc.def_key_value(id, "target", j),
                id,
                format!(
                    "{name:?} is used as {:?} and as {:?} by the same pass: a subresource has one \
                     layout during a pass and a write excludes any other access (EB-1, EB-11); \
                     use disjoint mips or slices through views, or two resources (last frame's \
                     history and this frame's)",
                    a.access, b.access
                ),
            ));
        }
    }
    Ok(())
}

/// Two accesses of one subresource in one pass that no barrier can reconcile.
fn conflict(a: UseAccess, b: UseAccess) -> bool {
    let self_copy = matches!(
        (a, b),
        (UseAccess::CopySource, UseAccess::CopyDest) | (UseAccess::CopyDest, UseAccess::CopySource)
    );
    a != b && (a.is_write() || b.is_write()) && !self_copy
}

/// The resource a use reaches and the mips and slices of it that it touches.
fn span(c: &Check, u: &super::format::UseDef) -> Option<(usize, Span)> {
    let target = c.index.id(&u.target)?;
    let (res_id, res) = c.index.resource(target)?;
    let Resource::Texture(t) = res else {
        return Some((res_id, ((0, 1), (0, 1))));
    };
    let axis = |first: u32, count: Option<u32>, total: u32| {
        let end = count.map_or(total, |n| first.saturating_add(n));
        (first, end)
    };
    let view = c.index.def(target).and_then(|d| d.view.as_ref());
    let span = match (view, &u.range) {
        (Some(v), _) => (
            axis(v.first_mip, v.mip_count, t.mips),
            axis(v.first_slice, v.slice_count, t.slices),
        ),
        (None, Some(r)) => (
            axis(r.first_mip, r.mip_count, t.mips),
            axis(r.first_slice, r.slice_count, t.slices),
        ),
        (None, None) => ((0, t.mips), (0, t.slices)),
    };
    Some((res_id, span))
}

/// Whether two sets of mips and slices share a subresource.
fn overlap(a: Span, b: Span) -> bool {
    let meets = |x: (u32, u32), y: (u32, u32)| x.0 < y.1 && y.0 < x.1;
    meets(a.0, b.0) && meets(a.1, b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_conflicts_with_any_other_access_but_a_self_copy() {
        assert!(conflict(UseAccess::ShaderRead, UseAccess::UnorderedAccess));
        assert!(conflict(UseAccess::RenderTarget, UseAccess::ShaderRead));
        assert!(conflict(
            UseAccess::RenderTarget,
            UseAccess::UnorderedAccess
        ));
        assert!(!conflict(UseAccess::CopySource, UseAccess::CopyDest));
        assert!(!conflict(UseAccess::ShaderRead, UseAccess::DepthRead));
        assert!(!conflict(
            UseAccess::UnorderedAccess,
            UseAccess::UnorderedAccess
        ));
    }

    #[test]
    fn disjoint_mips_or_slices_do_not_overlap() {
        let whole = ((0, 4), (0, 2));
        assert!(overlap(whole, ((1, 2), (1, 2))));
        assert!(!overlap(((0, 1), (0, 2)), ((1, 2), (0, 2))));
        assert!(!overlap(((0, 4), (0, 1)), ((0, 4), (1, 2))));
    }
}
