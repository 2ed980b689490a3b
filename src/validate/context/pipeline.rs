//! Checks on the pipeline state a draw or dispatch runs with, from the validator's own
//! shadow of it ([`super::state`]), per queue in [`super::Contexts`].
//!
//! - FS-14 (V0207): on a fast context the primitive-reset index stays 0xFFFFFFFF until set,
//!   for 16-bit indices too, so a 16-bit index never matches it: an indexed strip draw with
//!   16-bit indices must follow `SetPrimitiveResetIndex(0xFFFF)`, or its strip cuts are drawn
//!   as vertex 65535. A draw with an index buffer bound is an indexed draw.
//! - FS-12 (V0206): nothing is saved or restored around a fast command list, so whatever
//!   the list sets is what the immediate context has after it. A piece of state the
//!   immediate context had set before playing a fast list back, that the list set to another
//!   value, and that a draw or dispatch on the immediate context then uses without setting
//!   it again, is state the stream relies on getting back: it does not come back. (A legacy
//!   list starts cleared and the state before it is restored, as D3D11 does.)

use super::state::{StateKey, StateShadow};
use super::{Code, Contexts, Ctx, Diagnostic};
use crate::device::{Command, IndexFormat};
use crate::model::Semantics;

impl Contexts {
    /// Shadow the state `cmd` sets on the current context and check the state a draw or
    /// dispatch runs with. Runs before the command's other checks (a reset comes after).
    pub fn pipeline(&mut self, ctx: &Ctx, i: usize, cmd: &Command, out: &mut Vec<Diagnostic>) {
        let q = &mut self.queues[ctx.queue];
        if q.state.set(cmd) {
            if ctx.list.is_none() && !q.clobbered.is_empty() {
                for key in StateShadow::keys_set(cmd) {
                    q.clobbered.remove(&key);
                }
            }
            return;
        }
        let graphics = match cmd {
            Command::Draw { .. } | Command::ExecuteIndirect { .. } => true,
            Command::Dispatch { .. } | Command::DispatchIndirect { .. } => false,
            _ => return,
        };
        let strip_cut_missed = graphics
            && ctx.semantics() == Semantics::Fast
            && q.state.indexed()
            && q.state.topology().is_strip()
            && q.state.index_format() == IndexFormat::R16Uint
            && q.state.reset_index() != 0xFFFF;
        let relied: Vec<(StateKey, u32)> = if ctx.list.is_none() {
            (q.state.used(graphics).into_iter())
                .filter_map(|k| q.clobbered.remove(&k).map(|label| (k, label)))
                .collect()
        } else {
            Vec::new()
        };
        if strip_cut_missed {
            let reset = q.state.reset_index();
            let message = format!(
                "16-bit indexed strip drawn with primitive-reset index {reset:#X}: a fast context keeps 0xFFFFFFFF for 16-bit indices too, so no strip is ever cut; call SetPrimitiveResetIndex(0xFFFF) first"
            );
            out.push(ctx.finding(i, Code::StripWithoutResetIndex, None, message));
        }
        for (key, label) in relied {
            let message = format!(
                "{} uses the {} that command list {} changed: fast lists restore no state, so what the immediate context set before the list is gone; set it again after ExecuteCommandList",
                if graphics { "draw" } else { "dispatch" },
                key.describe(),
                ctx.device.label_name(label)
            );
            out.push(ctx.finding(i, Code::StateChangedByFastList, None, message));
        }
    }
}
