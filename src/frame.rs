//! Per-run and per-frame state the systems share: the CPU clock, fences in flight, what the
//! current frame recorded, and the error that stops a run.

use bevy_ecs::prelude::*;
use hashbrown::HashMap;
use std::collections::VecDeque;

use crate::device::{Command, CommandList, DeferredContext, FenceId, ObjectKey, QueueId};
use crate::error::RuntimeError;
use crate::model::ViewKind;

/// The simulated CPU clock, in nanoseconds.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub cpu_ns: u64,
}

/// The first error of a run. Once set, the remaining systems of the tick do nothing and
/// [`crate::Runtime::tick`] returns it.
#[derive(Resource, Debug, Default)]
pub struct Fatal(pub Option<RuntimeError>);

impl Fatal {
    /// Record `err` unless an earlier error is already recorded.
    pub fn set(&mut self, err: impl Into<RuntimeError>) {
        if self.0.is_none() {
            self.0 = Some(err.into());
        }
    }
}

/// Run condition: no error so far.
pub fn healthy(fatal: Res<Fatal>) -> bool {
    fatal.0.is_none()
}

/// End-of-frame fences, one per queue the frame used, for frames the GPU may still run.
#[derive(Resource, Debug, Default)]
pub struct FramesInFlight {
    pub frames: VecDeque<(u64, Vec<FenceId>)>,
}

/// The fence inserted after each signalling pass, this frame and the previous one. Keyed by
/// pass entity so that a recompile between frames cannot mix them up.
#[derive(Resource, Debug, Default)]
pub struct PassFences {
    pub current: HashMap<Entity, FenceId>,
    pub previous: HashMap<Entity, FenceId>,
}

/// Views the runtime made for uses that name a resource directly.
#[derive(Resource, Debug, Default)]
pub struct ImplicitViews {
    /// By resource, kind and the subresources the use names (`PlannedUse::view_range`).
    pub views: HashMap<(Entity, ViewKind, crate::barrier::SubresourceRange), ObjectKey>,
}

/// The deferred contexts passes record on, one per pass (CTX-2).
#[derive(Resource, Debug, Default)]
pub struct ContextPool {
    pub contexts: Vec<DeferredContext>,
    /// The batches each pass slot built, kept for the next frames (RB-2).
    pub batches: Vec<Vec<crate::device::SharedBatch<crate::device::ObjectKey>>>,
}

// What each stage of a tick hands the next. Every output is its own resource, emptied at one
// point, the start of the tick (`systems::begin::start_frame`); stages only add to it or take
// it, so what a stage consumed is visibly gone.

/// Commands the immediate context issues before the first pass that touches a swap chain's
/// back buffer this frame: the wait on present (FS-5) and view placement (RL-7). Made by the
/// wait-on-present and rotate stages, taken by submission.
#[derive(Resource, Debug, Default)]
pub struct ChainPrologues(pub Vec<(Entity, Vec<Command>)>);

impl ChainPrologues {
    /// Append `commands` to the prologue of `chain`.
    pub fn extend(&mut self, chain: Entity, commands: Vec<Command>) {
        match self.0.iter_mut().find(|(c, _)| *c == chain) {
            Some((_, cmds)) => cmds.extend(commands),
            None => self.0.push((chain, commands)),
        }
    }
}

/// The recorded list of each compiled pass (same index): the record stage's output, taken by
/// submission.
#[derive(Resource, Debug, Default)]
pub struct RecordedLists(pub Vec<CommandList>);

/// Where in the scene file each command of a scripted pass's recorded list is, by pass index
/// (same index as [`RecordedLists`]), one `file:line:col` per command of the list (empty for
/// the planner's barriers around the script): the validation layer's findings on a pass-script
/// command name it. Passes without a located script have no entry.
#[derive(Resource, Debug, Default)]
pub struct RecordedOrigins(pub hashbrown::HashMap<usize, Vec<std::sync::Arc<str>>>);

/// The legacy `ResourceBarrier` calls of each scripted pass's recorded list, by pass index
/// (same index as [`RecordedLists`]): where in the list the Barrier commands translating
/// each call start, with the call's legacy barriers, so that the validation layer tracks
/// the legacy states the call sets (EB-7) as it does for frame scripts.
#[derive(Resource, Debug, Default)]
pub struct RecordedLegacy(pub hashbrown::HashMap<usize, Vec<crate::validate::LegacyCall>>);

/// What this frame submitted: the submit stage's (or a frame script's) output, which present
/// fences and release waits on (FS-6).
#[derive(Resource, Debug, Default)]
pub struct FrameSubmissions {
    /// Entities whose GPU objects this frame referenced, with the queue that did.
    pub used: Vec<(Entity, QueueId)>,
    /// Queues that received work this frame.
    pub queues: Vec<QueueId>,
    /// Swap chains whose back buffer was written this frame.
    pub presented: Vec<Entity>,
}

impl FrameSubmissions {
    /// Note that `queue` received work.
    pub fn queue(&mut self, queue: QueueId) {
        if !self.queues.contains(&queue) {
            self.queues.push(queue);
        }
    }
}

/// The heap the frame graph's transients are placed in, and what earlier placements left
/// to destroy.
#[derive(Resource, Debug, Default)]
pub struct TransientHeap {
    /// The device heap of the current placement, if any.
    pub heap: Option<u32>,
    /// Each placed transient's offset in it.
    pub offsets: bevy_ecs::entity::EntityHashMap<u64>,
    /// Objects and heaps of replaced placements, waiting for their fences.
    pub retiring: Vec<Retiring>,
}

/// What a replaced placement leaves: destroyed once `fences` have passed (FS-6).
#[derive(Debug, Default)]
pub struct Retiring {
    /// Views first, then the resources they view.
    pub objects: Vec<ObjectKey>,
    pub heap: Option<u32>,
    pub fences: Vec<u64>,
}
