//! Copies (CC-6, EB-9c): checks of one command each, with no state.
//!
//! Raw memory copies and fills run on the compute engine over graphics memory only, in
//! multiples of 4 bytes (CC-6): a size that is not is V0305, a dynamic buffer (CPU-writable
//! memory) V0306. Only compute queues run them at all; the device refuses them elsewhere.
//!
//! With enhanced barriers a texture in a common layout may be the source and destination of
//! one copy, which spares the temporary texture legacy states needed; the hazard tracker
//! treats one command's own accesses as ordered by the command. That is sound only when the
//! two regions share no texel (barrier-spec A3.8), so the overlap is checked here, with the
//! command: a whole resource copied onto itself, or intersecting regions, is undefined
//! (EB-9c, V0813).

use super::memory::is_dynamic;
use super::stream::Ctx;
use super::views::Views;
use super::{Code, Diagnostic};
use crate::barrier::{CopyRegion, check_self_copy};
use crate::device::ObjectKey;

/// A raw copy or fill of `bytes` through `keys` (source, then destination).
pub(super) fn check_raw(
    ctx: &Ctx,
    i: usize,
    keys: &[ObjectKey],
    bytes: u64,
    views: &Views,
    out: &mut Vec<Diagnostic>,
) {
    if !bytes.is_multiple_of(4) {
        let r = keys.last().map(|k| views.resolve(ctx.device, *k));
        let message =
            format!("raw copy or fill of {bytes} bytes: the size must be a multiple of 4");
        out.push(ctx.finding(i, Code::RawSizeNotMultipleOf4, r, message));
    }
    for k in keys {
        let r = views.resolve(ctx.device, *k);
        if is_dynamic(ctx, r) {
            out.push(ctx.finding(i, Code::RawOnDynamicMemory, Some(r), "raw copies and fills work on graphics memory only; a dynamic buffer lives in CPU-writable memory: copy through a default buffer".into()));
        }
    }
}

/// A copy from `src` to `dst`, of regions when given (CopyTextureRegion).
pub(super) fn check_copy(
    ctx: &Ctx,
    i: usize,
    (src, dst): (ObjectKey, ObjectKey),
    regions: Option<(&CopyRegion, &CopyRegion)>,
    views: &Views,
    out: &mut Vec<Diagnostic>,
) {
    let (s, d) = (
        views.resolve(ctx.device, src),
        views.resolve(ctx.device, dst),
    );
    if s != d {
        return;
    }
    let message = match regions {
        None => "a resource copied onto itself whole: source and destination intersect, which is undefined; copy between disjoint regions with CopyTextureRegion (barrier-spec A3.8)".to_owned(),
        Some((from, to)) if check_self_copy(from, to).is_err() => format!(
            "copy of a texture onto itself between intersecting regions (subresource {}, {}..{} x {}..{} and subresource {}, {}..{} x {}..{}) is undefined: pick disjoint regions or copy through a temporary texture (barrier-spec A3.8)",
            from.subresource, from.left, from.right, from.top, from.bottom,
            to.subresource, to.left, to.right, to.top, to.bottom,
        ),
        Some(_) => return,
    };
    out.push(ctx.finding(i, Code::SelfCopyOverlap, Some(s), message));
}
