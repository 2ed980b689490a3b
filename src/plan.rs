//! Plans are data: what compile and barrier planning decided, as plain structs that tests can
//! inspect, print and compare. Systems fill them; recording and submission only read them.

use bevy_ecs::prelude::*;

use crate::barrier::{Access, BarrierGroup, Layout, Sync};
use crate::device::QueueId;
use crate::model::{UseAccess, ViewKind};

/// One use of a pass, resolved: what it touches and how.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedUse {
    /// The entity the scene named (a resource, a view or a swap chain).
    pub target: Entity,
    /// The resource whose memory is touched; for a swap chain, the chain entity itself,
    /// standing for whichever buffer is at index 0 this frame.
    pub resource: Entity,
    pub access: UseAccess,
    pub stages: Sync,
    /// Layout the texture must be in (None for buffers).
    pub layout: Option<Layout>,
    /// The view kind to bind it through (None for buffers bound directly).
    pub view_kind: Option<ViewKind>,
    pub clear: bool,
}

/// A pass that survived culling, in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledPass {
    pub entity: Entity,
    pub name: String,
    /// Device label of the pass (for command lists and diagnostics).
    pub label: u32,
    pub queue: QueueId,
    pub uses: Vec<PlannedUse>,
    /// Passes (indices into [`CompiledGraph::passes`]) on other queues this one waits for
    /// within the frame.
    pub waits: Vec<usize>,
    /// Passes on other queues whose work from the previous frame this one waits for
    /// (write-after-read and friends across the frame boundary).
    pub waits_previous: Vec<usize>,
    /// True when some other queue waits on this pass: a fence is inserted after it.
    pub signals: bool,
}

/// The result of compile: ordered passes with queues and cross-queue synchronisation.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CompiledGraph {
    pub passes: Vec<CompiledPass>,
    /// Passes removed because nothing kept depends on their results.
    pub culled: Vec<String>,
    /// Dependency edges between compiled passes (indices), for the graph printer.
    pub edges: Vec<(usize, usize)>,
    /// Compiles so far (the plan is cached between graph changes).
    pub generation: u64,
}

/// Barriers around each compiled pass, by the same index.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BarrierPlan {
    /// Issued at the start of the pass, on its queue.
    pub before: Vec<BarrierGroup<Entity>>,
    /// Issued at the end of the pass, before its fence (transitions the next queue cannot do).
    pub after: Vec<BarrierGroup<Entity>>,
    /// Layout and access each texture was assumed to start the frame in.
    pub initial: Vec<(Entity, Layout, Access)>,
    /// Layout and access each texture is left in at the end of the frame.
    pub finals: Vec<(Entity, Layout, Access)>,
    /// Plans made so far (re-planned when the graph or the starting layouts change).
    pub generation: u64,
    /// Barriers for the first frame of this plan, when it differs from the steady state:
    /// it starts from where the textures really are, and from unknown earlier accesses.
    pub first_before: Vec<BarrierGroup<Entity>>,
    pub first_after: Vec<BarrierGroup<Entity>>,
    /// True during the first frame of the plan.
    pub first_frame: bool,
}

/// Set when the graph changed and compile must run again.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphDirty(pub bool);

impl Default for GraphDirty {
    fn default() -> Self {
        GraphDirty(true)
    }
}

impl BarrierPlan {
    /// The barriers before and after pass `i` this frame.
    pub fn groups(
        &self,
        i: usize,
    ) -> (Option<&BarrierGroup<Entity>>, Option<&BarrierGroup<Entity>>) {
        if self.first_frame && !self.first_before.is_empty() {
            (self.first_before.get(i), self.first_after.get(i))
        } else {
            (self.before.get(i), self.after.get(i))
        }
    }
}
