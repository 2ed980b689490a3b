//! The validation layer: an independent check of every stream the runtime submits (RL-4).
//!
//! It watches commands exactly as the device receives them and keeps its own model of what
//! they imply: which back buffers were waited on since they were last presented, what state is
//! bound, which views a clear, map or decompression invalidated, which dynamic buffers were
//! filled. It never asks why a command was emitted, only whether the stream is legal under
//! the rules of the API it is written to (fast semantics by default, `model::Api`), and it
//! shares no code with the planner (`systems/barriers/`, `src/plan/`): it is the independent
//! oracle.
//!
//! [`Validator`] owns one checker per concern, each in its own file with its own state, and
//! hands each command to them in a fixed order (`stream/dispatch.rs`):
//!
//! | checker | rules | codes |
//! |---|---|---|
//! | `swap_chain` | FS-5, RL-2, FS-9 | V0101-V0103 |
//! | `context` (state and bindings) | FS-3, FS-7, FS-8, FS-11, FS-12, FS-13, FS-14 | V0201-V0212 |
//! | `memory` (dynamic buffers) | FS-10, CTX-5, CC-1, FS-15 | V0301-V0303, V0307-V0310 |
//! | `copies` | CC-6, EB-9c | V0305, V0306, V0813 |
//! | `compute` (compute-context calls) | CC-3, CC-4 | V0213, V0505 |
//! | `layouts` | EB-1, RL-1 | V0402, V0403 |
//! | `compression` | FS-4 | V0401, V0404 |
//! | `sync` (hazards, lifetime) | FS-1-3, RL-1, FN-3, RL-3, FS-6 | V05xx, V0601, V0701, V0702 |
//! | `barriers` | EB-6, EB-7, EB-9, EB-11 | V0801, V0804 |
//! | `shader_reads` (legacy shader-resource states) | EB-11 | V0804 |
//! | `aliasing` (protocol), `hazard::memory` (bytes) | EB-5, EB-9d | V0811, V0812, V0814, V0815 |
//! | `lists` (playback scopes) | CTX-3, CTX-4 | V0901, V0902, V0906, V0907 |
//! | `queries` | CTX-6 | V0903-V0905, V0908 |
//! | `binding` (fast resource binding) | RB-1, RB-2 | V1001-V1003 |
//!
//! Every code, with the finding it names, is a variant of [`Code`]; the README's table lists
//! them for users.

mod aliasing;
mod barriers;
mod binding;
mod code;
mod compression;
mod compute;
mod context;
mod copies;
mod diagnostic;
mod hazard;
mod layouts;
mod lists;
mod memory;
mod queries;
mod queues;
mod shader_reads;
mod stream;
mod swap_chain;
mod sync;
mod touches;
mod views;

pub use barriers::resource_info;
pub use code::Code;
pub use diagnostic::{Diagnostic, Repeated, Severity, repeated};
pub use hazard::{Hazard, HazardKind, HazardTracker, Touch};
pub use stream::{DIAGNOSTICS_KEPT, LegacyCall, Validator};
pub use touches::Bindings;

#[cfg(test)]
mod tests;
