//! The compute context's own calls (seed 002): placement binding (CC-3) and dispatch flags
//! (CC-4).
//!
//! `CSSetPlacementResource` binds one view at one slot and overrides the base address stored
//! in the view with the buffer `base`, `offset` bytes in. The shaders address the view's whole
//! extent from there, so the extent must lie inside `base`, and the offset must be 4-byte
//! aligned (the device's [`PLACEMENT_ALIGNMENT`]: the seed gives the override and no alignment
//! of its own, so the device asks for the dword alignment of its raw memory operations, CC-6).
//! A placement that misses either is V0213, as the device refuses it. The hazard checks see
//! the whole base buffer through the slot (`touches`): a finer byte range is not tracked for
//! committed buffers, which is conservative (a false hazard, never a missed one).
//!
//! A compute context inserts no pipeline flush between dispatches (CC-4). The debug dispatch
//! flags (`SetDispatchFlags(debug_partial_flush | debug_invalidate_l1 | debug_flush_l2)`)
//! re-introduce flushes after each dispatch, on debug and validated driver builds only: they
//! are for finding a missing barrier, and a retail driver ignores them. So the hazard checks
//! never count them as ordering, and a hazard between work on a compute context whose debug
//! flags are on is named for what it is (V0505): it runs correctly under the debug driver and
//! breaks in retail. The validator follows each compute context's flags as the device does
//! (set by SetDispatchFlags, reset by Resume, FS-11).
//!
//! With `bypass_l1` a dispatch's shader-resource and UAV accesses go to L2, not the CUs' L1
//! (constant-buffer loads take the scalar path, K$, and are not bypassed): what another
//! dispatch or queue wrote and wrote back is visible to them with no L1 invalidation, the
//! saving the seed weighs against "using and flushing L1 appropriately". The hazard checks
//! mark such accesses (`Touch::through_l2`); a dispatch without the flag still needs the
//! invalidation, so a title that skips it relying on a bypass its reader does not have is
//! caught as the unseen write it is (FS-2, V0521).

use super::hazard::{Hazard, HazardKind};
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::compute::DispatchFlags;
use crate::device::compute::{PLACEMENT_ALIGNMENT, placement_fault};
use crate::device::{Command, QUEUE_COUNT};

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

/// Each compute context's dispatch flags, as the stream sets them (CC-4).
#[derive(Clone, Debug, Default)]
pub(super) struct DispatchFlagsCheck {
    flags: [DispatchFlags; QUEUE_COUNT],
}

impl DispatchFlagsCheck {
    /// Follow `cmd` on `ctx`'s queue: SetDispatchFlags sets the queue's flags, Resume resets
    /// every context's (FS-11).
    pub fn command(&mut self, ctx: &Ctx, cmd: &Command) {
        match cmd {
            Command::Resume => self.flags = Default::default(),
            _ => {
                if let Some(f) = DispatchFlags::of(cmd) {
                    self.flags[ctx.queue.index()] = f;
                }
            }
        }
    }

    /// Mark the shader-resource and UAV accesses of a dispatch on a context with L1 bypassed
    /// as reads through L2 (CC-4).
    pub fn bypass_l1(&self, ctx: &Ctx, cmd: &Command, touches: &mut [super::Touch]) {
        let dispatch = matches!(
            cmd,
            Command::Dispatch { .. } | Command::DispatchIndirect { .. }
        );
        if !dispatch || !self.flags[ctx.queue.index()].bypass_l1 {
            return;
        }
        let l1 = crate::barrier::Access::SHADER_RESOURCE | crate::barrier::Access::UNORDERED_ACCESS;
        for t in touches.iter_mut().filter(|t| l1.contains(t.access)) {
            t.through_l2 = true;
        }
    }

    /// V0505: a hazard on one compute context between dispatches (or a dispatch and other
    /// work) while debug dispatch flags are on, whose flushes order it on a debug driver only.
    pub fn hidden_by_debug_flags(
        &self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        h: &Hazard,
    ) -> Option<Diagnostic> {
        let flags = self.flags[ctx.queue.index()];
        let dispatch = matches!(
            cmd,
            Command::Dispatch { .. } | Command::DispatchIndirect { .. }
        );
        let same_queue = matches!(
            h.kind,
            HazardKind::ReadAfterWrite | HazardKind::WriteAfterRead | HazardKind::WriteAfterWrite
        ) || (h.kind == HazardKind::WriteNotVisible
            && h.earlier_queue == ctx.queue);
        if !flags.debug() || !dispatch || !same_queue || h.through.is_some() {
            return None;
        }
        let earlier = ctx.device.label_name(h.earlier_label).to_owned();
        let message = format!(
            "{}: this dispatch and the earlier access of pass {earlier} are ordered only by the debug dispatch flags' automatic flushes, which debug and validated driver builds make and a retail build does not: insert the barrier (a compute context inserts no pipeline flush between dispatches) and keep the debug flags for finding such mistakes",
            h.kind.name()
        );
        Some(ctx.finding(i, Code::DebugFlushReliedOn, Some(h.resource), message))
    }
}
