//! Command lists played back on the immediate context (CTX-3, CTX-4, FS-12).
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
//! A list's commands are checked in place, with the list's label, as the device runs them.
//! A fast list starts from whatever state the context has and leaves its own behind: no
//! ClearState before, no restore after (FS-12, checked in [`super::pipeline`]). A legacy
//! list starts cleared and the state before it is restored, as D3D11 does.

use hashbrown::HashSet;

use super::Code;
use super::stream::{Ctx, Validator};
use crate::device::Command;
use crate::model::Semantics;

/// A playback scope open on a queue: where it began, and the semantics of the first list in
/// it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Scope {
    /// The submission label, frame and command index of its `BeginCommandListExecution`.
    pub begun: (u32, u64, usize),
    pub first: Option<(Semantics, u32)>,
}

impl Validator {
    /// Scope commands, Present (which ends the frame and must find no scope open) and query
    /// ends: CTX-3, and what CTX-6 needs to know later.
    pub(super) fn check_playback(&mut self, ctx: &Ctx, i: usize, cmd: &Command) {
        match cmd {
            Command::BeginCommandListExecution => {
                let scope = Scope {
                    begun: (ctx.label, ctx.frame, i),
                    first: None,
                };
                let already_open = self.playback.insert(ctx.queue, scope).is_some();
                if already_open {
                    *self.owed_ends.entry(ctx.queue).or_default() += 1;
                    self.report(ctx, i, Code::TwoPlaybacks, None, "a second command-list playback begun while one is in progress: the immediate context plays back one list at a time; call EndCommandListExecution first".into());
                }
            }
            Command::EndCommandListExecution => {
                if self.playback.remove(&ctx.queue).is_some() {
                    return;
                }
                // The End of a scope a second Begin replaced, already reported (V0901), is not
                // a second finding.
                let owed = self.owed_ends.entry(ctx.queue).or_default();
                if *owed > 0 {
                    *owed -= 1;
                } else {
                    self.report(ctx, i, Code::EndWithoutScope, None, "EndCommandListExecution with no command-list playback scope open on this queue: each EndCommandListExecution closes the scope its BeginCommandListExecution opened; add the missing BeginCommandListExecution before the lists, or remove this End".into());
                }
            }
            Command::Present(_) => {
                // Present ends the frame: a scope must not outlive it. Closed here, so the
                // next frame's first scope is not also a second playback (V0901).
                self.owed_ends.remove(&ctx.queue);
                if let Some(scope) = self.playback.remove(&ctx.queue) {
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
                    self.report(ctx, i, Code::ScopeOpenAtPresent, None, message);
                }
            }
            Command::EndQuery(query) => {
                let pos = self.hazards.position(ctx.queue);
                self.queries.insert(*query, (ctx.queue, pos));
            }
            _ => {}
        }
    }

    /// Play back one list: check the scope (CTX-3, CTX-4), then its commands in place.
    pub(super) fn execute_list(
        &mut self,
        ctx: &Ctx,
        i: usize,
        label: u32,
        semantics: Semantics,
        commands: &[Command],
    ) {
        let name = ctx.device.label_name(label).to_owned();
        if let Some(scope) = self.playback.get_mut(&ctx.queue) {
            match scope.first {
                None => scope.first = Some((semantics, label)),
                Some((first, other)) if first != semantics => {
                    let other = ctx.device.label_name(other).to_owned();
                    let message = format!(
                        "{semantics:?} list {name} played back in the scope of {first:?} list {other}: fast and legacy lists must not be mixed inside one Begin/EndCommandListExecution scope; end the scope and begin another"
                    );
                    self.report(ctx, i, Code::MixedListsInScope, None, message);
                }
                Some(_) => {}
            }
        }
        let inner = Ctx {
            device: ctx.device,
            queue: ctx.queue,
            frame: ctx.frame,
            label,
            pass: name,
            list: Some(semantics),
        };
        let saved = self.queues.get(&ctx.queue).cloned().unwrap_or_default();
        let saved_bindings = self.bindings.get(&ctx.queue).cloned().unwrap_or_default();
        if semantics == Semantics::Legacy {
            self.queues.insert(ctx.queue, Default::default());
            self.bindings.insert(ctx.queue, Default::default());
        }
        // The first Map of each resource in a list must be write-discard (CTX-5).
        let mut first_map = HashSet::new();
        for cmd in commands {
            self.observe_one(&inner, i, cmd, &mut first_map);
        }
        match semantics {
            Semantics::Legacy => {
                self.queues.insert(ctx.queue, saved);
                self.bindings.insert(ctx.queue, saved_bindings);
            }
            Semantics::Fast => {
                if ctx.list.is_none() {
                    self.mark_clobbered(ctx, &saved.state, label);
                }
            }
        }
    }
}
