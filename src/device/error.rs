//! Errors the simulated device reports instead of crashing or hanging.

use super::{FenceId, ObjectKey, QueueId};
use thiserror::Error;

/// A device error. Exit code 1 at the command line.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DeviceError {
    /// A command or call named an object that was already destroyed (FS-6).
    #[error("FS-6: object {object:?} was used after it was destroyed")]
    Destroyed { object: ObjectKey },
    /// A view operation was applied to something that is not a view.
    #[error("object {object:?} is not a view")]
    NotAView { object: ObjectKey },
    /// A swap chain handle is stale.
    #[error("swap chain handle is stale")]
    NoSwapChain,
    /// A deferred context began a second list before finishing the first (CTX-2).
    #[error("CTX-2: deferred context {context} is already recording a command list")]
    AlreadyRecording { context: u32 },
    /// A command was pushed to, or a list finished on, a context that is not recording.
    #[error("CTX-2: deferred context {context} is not recording")]
    NotRecording { context: u32 },
    /// Work was submitted to a queue the device does not have (CC-2).
    #[error("CC-2: queue {queue} does not exist on this device")]
    NoSuchQueue { queue: QueueId },
    /// A command is not allowed on the queue it was submitted to (barrier-spec A5).
    #[error("{command} cannot run on queue {queue}")]
    WrongQueue {
        command: &'static str,
        queue: QueueId,
    },
    /// Queues wait on each other's fences in a cycle, or on a fence never kicked off (FN-3).
    #[error("FN-3: deadlock: {}", describe_waits(.waits, .not_kicked))]
    Deadlock {
        waits: Vec<(QueueId, FenceId)>,
        not_kicked: Option<FenceId>,
    },
    /// An object was destroyed while GPU work referencing it was unfinished (FS-6).
    #[error(
        "FS-6: {object} destroyed while {pending} submitted command(s) still reference it or its fence has not passed"
    )]
    InUse { object: String, pending: u32 },
    /// An object destroyed while the display shows it or has a flip to it queued (FS-6);
    /// ResizeBuffers lets go of its old buffers on the display's side first.
    #[error("FS-6: {object} destroyed while the display shows it or has a flip to it queued")]
    OnScreen { object: String },
    /// The GPU is hung: a wait on present that only a later present in the same stream could
    /// satisfy (RL-2), or work still running when the wait at Suspend timed out (CC-8);
    /// `rule` says which, `culprit` names the command.
    #[error("{rule}: GPU hang on queue {queue}: {culprit}")]
    Hang {
        queue: QueueId,
        rule: &'static str,
        culprit: String,
    },
    /// A fence on a compute or DMA queue locked by Suspend, with no Resume to unlock it (CC-8).
    #[error(
        "CC-8: queue {queue} is locked by Suspend and no Resume follows; fence {fence} never passes"
    )]
    Suspended { queue: QueueId, fence: FenceId },
    /// A compute or DMA context called between Suspend and Resume on the graphics immediate
    /// context: Suspend locks them, no API may be called on them until Resume (CC-8).
    #[error(
        "CC-8: queue {queue} is locked by Suspend: no call on a compute or DMA context until Resume"
    )]
    LockedBySuspend { queue: QueueId },
    /// A placed resource names a heap the device does not have.
    #[error("EB-9d: heap {heap} does not exist")]
    NoSuchHeap { heap: u32 },
    /// A heap destroyed while a resource is still placed in it.
    #[error("FS-6: heap {heap} destroyed while {object} is still placed in it")]
    HeapInUse { heap: String, object: String },
    /// A placed resource does not fit in its heap.
    #[error(
        "EB-9d: {object} needs {bytes} bytes at offset {offset}, past the end of heap {heap} ({size} bytes)"
    )]
    PlacementOutOfBounds {
        object: String,
        heap: String,
        offset: u64,
        bytes: u64,
        size: u64,
    },
    /// A fast context was asked for what it does not do: a Get* call or a context state
    /// object (FS-7), automatic compute flushes (FS-3).
    #[error("{rule}: {command} fails on a fast context")]
    FastContextRefuses {
        command: &'static str,
        rule: &'static str,
    },
    /// A placement call's view does not fit its base buffer at its byte offset, or the
    /// offset is misaligned (CC-3).
    #[error("CC-3: CSSetPlacementResource: {detail}")]
    PlacementBase { detail: String },
    /// A ResolveSubresource of something that cannot be resolved: a source that is not a
    /// multisampled colour texture, or a destination that is not a single-sampled texture of
    /// its size and format family (`device::resolve`).
    #[error("ResolveSubresource: {detail}")]
    Resolve { detail: String },
    /// A SetPredication whose 8-byte predicate, or a ResolveQueryData whose results, do not
    /// lie inside a buffer at an 8-byte aligned offset (`device::predicate`).
    #[error("{detail}")]
    ValueOutsideBuffer { detail: String },
    /// The CPU waited on a fence that was never inserted.
    #[error("FN-1: fence {fence} was never inserted")]
    UnknownFence { fence: FenceId },
}

fn describe_waits(waits: &[(QueueId, FenceId)], not_kicked: &Option<FenceId>) -> String {
    let mut parts: Vec<String> = waits
        .iter()
        .map(|(q, f)| format!("{q} waits on fence {f}"))
        .collect();
    if let Some(f) = not_kicked {
        parts.push(format!(
            "fence {f} was inserted without kickoff and never kicked off"
        ));
    }
    parts.join(", ")
}
