//! Fast resource binding (RB-1, RB-2): what a `SetFastResources` call or a batch copied by
//! `SetFastResourcesFromBatch` may hold, and whether a batch still names live objects.
//!
//! A call sets at most eight resources in any permutation (RB-1, V1001), and so does a batch,
//! which is one call's tokens compiled ahead. A vertex buffer object needs the with-offset
//! form: `IA_VB` carries no offset or stride (RB-1, V1002). A batch names its objects as they
//! were when it was built, and nothing keeps them alive: every one must still exist when the
//! GPU copies the batch (RB-2, V1003). What the call binds is then checked as the legacy calls
//! it replaces would be ([`crate::device::FastSet::as_legacy`]), by the state, hazard and
//! dynamic-memory checkers (`stream/dispatch.rs`).

use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::{Command, FastSet, MAX_FAST_RESOURCES, ObjectKey};

/// The tokens of a fast binding command, or `None` for other commands.
pub(super) fn fast_sets(cmd: &Command) -> Option<&[FastSet<ObjectKey>]> {
    match cmd {
        Command::SetFastResources(sets) => Some(sets),
        Command::SetFastResourcesFromBatch(batch) => Some(&batch.sets),
        _ => None,
    }
}

/// Check one fast binding command; true when what it binds may be checked further (a batch
/// naming a released object binds nothing the other checkers could look at).
pub(super) fn check(ctx: &Ctx, i: usize, cmd: &Command, out: &mut Vec<Diagnostic>) -> bool {
    let Some(sets) = fast_sets(cmd) else {
        return false;
    };
    let what = match cmd {
        Command::SetFastResourcesFromBatch(_) => "the batch",
        _ => "the call",
    };
    let n: usize = sets.iter().map(FastSet::len).sum();
    if n > MAX_FAST_RESOURCES {
        let message = format!(
            "{what} sets {n} resources; SetFastResources takes at most {MAX_FAST_RESOURCES} \
             (split it in two calls or batches)"
        );
        out.push(ctx.finding(i, Code::TooManyFastResources, None, message));
    }
    for set in sets {
        if let FastSet::VertexBuffers { buffers, .. } = set
            && let Some(b) = buffers.first()
        {
            let message = "a vertex buffer object set with D3D11X_SET_FAST_IA_VB, which has \
                           no offset or stride: use VertexBuffersWithOffset"
                .to_owned();
            out.push(ctx.finding(i, Code::FastVertexBufferWithoutOffset, Some(*b), message));
        }
    }
    let mut live = true;
    if let Command::SetFastResourcesFromBatch(batch) = cmd {
        for k in batch.sets.iter().flat_map(|s| s.objects()) {
            if ctx.device.memory.get(*k).is_err() {
                live = false;
                let message = "the batch names an object released since it was built; \
                               whoever uses a batch must keep everything it names alive"
                    .to_owned();
                out.push(ctx.finding(i, Code::BatchNamesReleasedObject, Some(*k), message));
            }
        }
    }
    live
}
