//! A recorded command list: what a deferred context hands the immediate one (CTX-1, CTX-3).
//! It carries the label of the pass it was recorded for, so that diagnostics and traces can
//! name it, and the CPU time its recording took, which is spent on the deferred context's
//! thread and not the submitting one (CTX-7).

use super::Command;

/// A recorded list: commands from one deferred context, labelled with the pass they came
/// from so that diagnostics and traces can name it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CommandList {
    pub commands: Vec<Command>,
    /// The pass label of each command, by index into `labels`.
    pub label: u32,
    /// CPU time its recording took on its deferred context, ns (CTX-7, `cpu_cost`).
    pub cpu_ns: u64,
}
