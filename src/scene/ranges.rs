//! Rules on subresource ranges: a view's or a use's range lies within its texture (EB-6),
//! counted per axis (mips, array slices, planes), each problem reported with the field to fix.

use super::format::UseRange;
use super::index::Resource;

/// Rule: a use's `range` names subresources of the texture it targets directly (a view has
/// its own range; buffers and swap chains have none). Returns the offending field and the
/// message.
pub fn use_range(r: &UseRange, res: &Resource, direct: bool) -> Option<(&'static str, String)> {
    let Resource::Texture(t) = res else {
        return Some((
            "range",
            "only a texture has subresources to name in `range`".into(),
        ));
    };
    if !direct {
        return Some((
            "range",
            "a use through a view takes the view's range: give the range to the view, or target the texture".into(),
        ));
    }
    if t.swap_chain {
        return Some((
            "range",
            "a swap chain's buffer is used whole: remove `range`".into(),
        ));
    }
    let planes = if t.format.has_stencil() { 2 } else { 1 };
    range("mip", r.first_mip, r.mip_count, t.mips)
        .or_else(|| range("slice", r.first_slice, r.slice_count, t.slices))
        .or_else(|| range("plane", r.first_plane, r.plane_count, planes))
}

/// `first` and optional `count` within `total` subresources of one dimension.
pub(super) fn range(
    dim: &'static str,
    first: u32,
    count: Option<u32>,
    total: u32,
) -> Option<(&'static str, String)> {
    let (first_key, count_key) = match dim {
        "mip" => ("first_mip", "mip_count"),
        "plane" => ("first_plane", "plane_count"),
        _ => ("first_slice", "slice_count"),
    };
    if first >= total {
        return Some((
            first_key,
            format!("{first_key} {first} is beyond the texture's {total} {dim}(s)"),
        ));
    }
    match count {
        Some(0) => Some((count_key, format!("{count_key} must be at least 1"))),
        Some(n) if first.checked_add(n).is_none_or(|end| end > total) => Some((
            count_key,
            format!(
                "{first_key} {first} + {count_key} {n} is beyond the texture's {total} {dim}(s)"
            ),
        )),
        _ => None,
    }
}
