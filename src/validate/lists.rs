//! Command-list playback scopes on the immediate context (CTX-3, CTX-4).
//!
//! The immediate context plays back one command list at a time (CTX-3): a
//! `BeginCommandListExecution` opens a playback scope and `EndCommandListExecution` closes
//! it; an `ExecuteCommandList` outside a scope is a playback of its own. Opening a second
//! scope before the first is closed is two playbacks at once (V0901). Inside one scope every
//! list must have the same semantics (CTX-4, V0902): fast lists may run on a legacy
//! immediate context and a fast immediate context runs both kinds, but never mixed in one
//! scope.
//!
//! Scopes must also be balanced (CTX-3). An `EndCommandListExecution` with no scope open on
//! its queue closes nothing (V0906). A scope must be closed before its frame ends, and for
//! the validator a frame ends at `Present` on the queue: Present resets all state (FS-11),
//! and scopes and Present are both immediate-context calls on the graphics queue. A scope
//! still open at Present is V0907; the validator then closes it, so the next frame's first
//! scope is judged on its own rather than also as a second playback (V0901). A scope may
//! span submissions within a frame. A frame that never presents does not end: its open
//! scope carries on, and the next `BeginCommandListExecution` is V0901.
//!
//! One mistake, one finding: a second Begin (V0901) replaces the open scope. If an End was
//! forgotten before it, the second scope's End closes it and nothing is open at Present.
//! If the second scope was nested instead, its End closes it and the outer scope's End,
//! finding nothing open, is excused rather than reported as V0906: one End per V0901,
//! until the frame's Present.
//!
//! A list's commands are checked in place by the validator's dispatch, with the list's
//! label, as the device runs them; this checker sees the scope commands, Present and each
//! list played back.

use super::queues::PerQueue;
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::Command;
use crate::model::Semantics;

/// A playback scope open on a queue: where it began, and the semantics of the first list in
/// it.
#[derive(Clone, Copy, Debug, Default)]
struct Scope {
    /// The submission label, frame and command index of its `BeginCommandListExecution`.
    begun: (u32, u64, usize),
    first: Option<(Semantics, u32)>,
}

/// Playback scopes per queue.
#[derive(Default)]
pub(super) struct Playback {
    /// The scope open on each queue (CTX-3, CTX-4).
    scopes: PerQueue<Option<Scope>>,
    /// Per queue, the second Begins reported as V0901 since the last Present: each excuses one
    /// End that finds no scope open, a consequence of that mistake, not another (CTX-3).
    owed_ends: PerQueue<u32>,
}

impl Playback {
    /// Scope commands, and Present, which ends the frame and must find no scope open (CTX-3).
    pub fn command(&mut self, ctx: &Ctx, i: usize, cmd: &Command, out: &mut Vec<Diagnostic>) {
        let q = ctx.queue;
        match cmd {
            Command::BeginCommandListExecution => {
                let scope = Scope {
                    begun: (ctx.label, ctx.frame, i),
                    first: None,
                };
                if self.scopes[q].replace(scope).is_some() {
                    self.owed_ends[q] += 1;
                    out.push(ctx.finding(i, Code::TwoPlaybacks, None, "a second command-list playback begun while one is in progress: the immediate context plays back one list at a time; call EndCommandListExecution first".into()));
                }
            }
            Command::EndCommandListExecution => {
                if self.scopes[q].take().is_some() {
                    return;
                }
                // The End of a scope a second Begin replaced, already reported (V0901), is not
                // a second finding.
                let owed = &mut self.owed_ends[q];
                if *owed > 0 {
                    *owed -= 1;
                } else {
                    out.push(ctx.finding(i, Code::EndWithoutScope, None, "EndCommandListExecution with no command-list playback scope open on this queue: each EndCommandListExecution closes the scope its BeginCommandListExecution opened; add the missing BeginCommandListExecution before the lists, or remove this End".into()));
                }
            }
            Command::Present(_) => {
                // Present ends the frame: a scope must not outlive it. Closed here, so the
                // next frame's first scope is not also a second playback (V0901).
                self.owed_ends[q] = 0;
                if let Some(scope) = self.scopes[q].take() {
                    let (label, frame, command) = scope.begun;
                    let mut begun = match ctx.device.label_name(label) {
                        "" => format!("command {command}"),
                        pass => format!("command {command} of {pass}"),
                    };
                    if frame != ctx.frame {
                        begun.push_str(&format!(", frame {frame}"));
                    }
                    let message = format!(
                        "Present with a command-list playback scope still open (BeginCommandListExecution at {begun}): a scope must not outlive its frame; call EndCommandListExecution after the scope's last ExecuteCommandList, before Present"
                    );
                    out.push(ctx.finding(i, Code::ScopeOpenAtPresent, None, message));
                }
            }
            _ => {}
        }
    }

    /// One list played back (`ExecuteCommandList` with `label` and `semantics`): inside a
    /// scope, all lists have the semantics of the first (CTX-4).
    pub fn list(
        &mut self,
        ctx: &Ctx,
        i: usize,
        label: u32,
        semantics: Semantics,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(scope) = &mut self.scopes[ctx.queue] else {
            return;
        };
        match scope.first {
            None => scope.first = Some((semantics, label)),
            Some((first, other)) if first != semantics => {
                let name = ctx.device.label_name(label);
                let other = ctx.device.label_name(other);
                let message = format!(
                    "{semantics:?} list {name} played back in the scope of {first:?} list {other}: fast and legacy lists must not be mixed inside one Begin/EndCommandListExecution scope; end the scope and begin another"
                );
                out.push(ctx.finding(i, Code::MixedListsInScope, None, message));
            }
            Some(_) => {}
        }
    }
}
