//! Where a command being checked comes from: its device, queue, frame, pass and list, its
//! place in the scene file, and which legacy `ResourceBarrier` calls the submission's Barrier
//! commands translate (EB-7, EB-10). Every finding is made here, so that each names its
//! command, pass, resource and `file:line:col` the same way.

use std::sync::Arc;

use super::super::{Code, Diagnostic, Severity};
use crate::device::{Device, ObjectKey, QueueId};
use crate::model::Semantics;

/// A legacy `ResourceBarrier` call as the application issued it, at the index of the first
/// Barrier command translating it: the submission's command, and the command within the list
/// it plays back when the call was recorded into one; a second translated command (an
/// aliasing hand-over's activation) carries no barriers of its own.
pub type LegacyCall = (
    usize,
    Option<usize>,
    Vec<crate::barrier::LegacyBarrier<ObjectKey>>,
);

/// Where the command being checked comes from.
pub(in crate::validate) struct Ctx<'a> {
    pub device: &'a Device,
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub pass: String,
    /// Inside a command list played back on the immediate context: the list's semantics.
    pub list: Option<Semantics>,
    /// Where each command of the submission is in the scene file (empty when unknown).
    pub origins: &'a [Arc<str>],
    /// The submission's Barrier commands translated from legacy calls.
    pub legacy: &'a [LegacyCall],
}

impl Ctx<'_> {
    /// The semantics of the context that issued the command: a list's own (the deferred
    /// context that recorded it), else the device's (CTX-4).
    pub fn semantics(&self) -> Semantics {
        self.list.unwrap_or_else(|| self.device.semantics())
    }

    /// The legacy call command `i` translates, when it is a driver translation (EB-7, EB-10).
    pub fn legacy_call(&self, i: usize) -> Option<&[crate::barrier::LegacyBarrier<ObjectKey>]> {
        let found = (self.legacy.iter()).find(|(at, inner, _)| *at == i && inner.is_none());
        found.map(|(.., b)| b.as_slice())
    }

    /// A finding of command `command` whose code fixes its rule and severity.
    pub fn finding(
        &self,
        command: usize,
        code: Code,
        resource: Option<ObjectKey>,
        message: String,
    ) -> Diagnostic {
        let rule = code.rule().unwrap_or_default();
        let severity = code.severity().unwrap_or(Severity::Error);
        self.finding_as(command, code, rule, severity, resource, message)
    }

    /// A finding whose rule and severity come from the finding itself (V0801).
    pub fn finding_as(
        &self,
        command: usize,
        code: Code,
        rule: &'static str,
        severity: Severity,
        resource: Option<ObjectKey>,
        message: String,
    ) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            rule,
            frame: self.frame,
            queue: self.queue.to_string(),
            command,
            pass: self.pass.clone(),
            resource: resource.map_or_else(String::new, |r| self.device.memory.name(r)),
            message,
            location: (self.origins.get(command)).map_or_else(String::new, |o| o.to_string()),
        }
    }
}
