//! Copies of a resource onto itself (barrier-spec A3.8, EB-9c).
//!
//! With enhanced barriers a texture in a common layout may be the source and destination of
//! one copy, which spares the temporary texture legacy states needed; the hazard tracker
//! treats one command's own accesses as ordered by the command. That is sound only when the
//! two regions share no texel, so the overlap is checked here, with the command: a whole
//! resource copied onto itself, or intersecting regions, is undefined (V0813).

use super::Code;
use super::stream::{Ctx, Validator};
use crate::barrier::{CopyRegion, check_self_copy};
use crate::device::ObjectKey;

impl Validator {
    /// A copy from `src` to `dst`, of regions when given (CopyTextureRegion).
    pub(super) fn check_copy(
        &mut self,
        ctx: &Ctx,
        i: usize,
        src: ObjectKey,
        dst: ObjectKey,
        regions: Option<(&CopyRegion, &CopyRegion)>,
    ) {
        let (s, d) = (
            self.resource(ctx.device, src),
            self.resource(ctx.device, dst),
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
        self.report(ctx, i, Code::SelfCopyOverlap, Some(s), message);
    }
}
