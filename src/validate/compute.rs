//! The compute context's own calls (seed 002): placement binding (CC-3).
//!
//! `CSSetPlacementResource` binds one view at one slot and overrides the base address stored
//! in the view with the buffer `base`, `offset` bytes in. The shaders address the view's whole
//! extent from there, so the extent must lie inside `base`, and the offset must be 4-byte
//! aligned (the device's [`PLACEMENT_ALIGNMENT`]: the seed gives the override and no alignment
//! of its own, so the device asks for the dword alignment of its raw memory operations, CC-6).
//! A placement that misses either is V0213, as the device refuses it. The hazard checks see
//! the whole base buffer through the slot (`touches`): a finer byte range is not tracked for
//! committed buffers, which is conservative (a false hazard, never a missed one).

use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::Command;
use crate::device::compute::{PLACEMENT_ALIGNMENT, placement_fault};

/// A placement call whose view does not fit its base buffer at its offset (CC-3, V0213).
pub(super) fn check_placement(ctx: &Ctx, i: usize, cmd: &Command, out: &mut Vec<Diagnostic>) {
    let Command::CSSetPlacementResource { base, .. } = cmd else {
        return;
    };
    if let Some(fault) = placement_fault(&ctx.device.memory, cmd) {
        let message = format!(
            "CSSetPlacementResource: {fault}: the view's extent from the base address must lie inside the base buffer, at a byte offset that is a multiple of {PLACEMENT_ALIGNMENT}"
        );
        out.push(ctx.finding(i, Code::PlacementOutsideBase, Some(*base), message));
    }
}
