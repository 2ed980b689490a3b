//! The validation layer: an independent check of every stream the runtime submits (RL-4).
//!
//! It watches commands exactly as the device receives them and keeps its own model of what
//! they imply: which back buffers were waited on since they were last presented, what state is
//! bound, which views a clear, map or decompression invalidated, which dynamic buffers were
//! filled. It shares no logic with the planner in `systems/`: it never asks why a command was
//! emitted, only whether the stream is legal under fast semantics. Checks (rule IDs from the
//! catalogue):
//!
//! | code | rule | finding |
//! |---|---|---|
//! | V0101 | FS-5 | back buffer written with no wait on present since it was last presented |
//! | V0102 | RL-2 | wait on present for a buffer already presented this frame (hangs the GPU) |
//! | V0103 | FS-9 | swap-chain buffer written that is not at index 0 (view not rotated) |
//! | V0201 | FS-11 | draw or dispatch with state not set since the last present or clear-state |
//! | V0202 | FS-8 | draw or dispatch through a view not set again after a clear, map or decompress |
//! | V0203 | FS-7 | Get* call (GetState) on a fast context |
//! | V0204 | FS-14 | UpdateSubresource on a fast context |
//! | V0205 | FS-14 | primitive-reset index 0xFFFF set on a legacy context |
//! | V0206 | FS-12 | draw relying on immediate-context state a fast list changed (warning) |
//! | V0207 | FS-14 | 16-bit indexed strip without primitive-reset index 0xFFFF (warning) |
//! | V0301 | FS-10 | dynamic buffer bound without a write-discard map this frame |
//! | V0302 | CTX-5 | first map of a resource in a list is not write-discard |
//! | V0303 | CC-1 | dynamic resource bound on a compute context |
//! | V0305 | CC-6 | raw memory copy or fill whose size is not a multiple of 4 |
//! | V0306 | CC-6 | raw memory copy or fill of non-graphics memory (a dynamic buffer) |
//! | V0401 | FS-4 | buffer presented without a decompression since it was last written |
//! | V0811 | EB-5 | placed resource used without activation after an overlapping one's use and deactivation |
//! | V0812 | EB-9d | placed resource read after activation before any write (warning) |
//! | V0813 | EB-9c | resource copied onto itself whole or between intersecting regions |
//! | V0814 | EB-5 | aliased hand-over between queues with no fence ordering it |
//! | V0901 | CTX-3 | a second command-list playback begun while one is in progress |
//! | V0902 | CTX-4 | fast and legacy lists inside one Begin/EndCommandListExecution scope |
//! | V0903..V0905 | CTX-6 | query data read on a deferred context, before its list was played back, or before the GPU processed it |
//! | V0906 | CTX-3 | EndCommandListExecution with no playback scope open on its queue |
//! | V0907 | CTX-3 | a playback scope still open at Present on its queue (where a frame ends) |
//!
//! The README's table lists every code.

mod aliasing;
mod barriers;
mod code;
mod copies;
mod diagnostic;
mod hazard;
mod lists;
mod memory;
mod pipeline;
mod queries;
mod state;
mod stream;
mod sync;
mod touches;

pub use barriers::{queue_type, resource_info};
pub use code::Code;
pub use diagnostic::{Diagnostic, Severity};
pub use hazard::{Hazard, HazardKind, HazardTracker, Touch};
pub use stream::Validator;
pub use touches::Bindings;

#[cfg(test)]
mod tests;
