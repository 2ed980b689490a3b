//! Plans are data: what compile and barrier planning decided, as plain structs that tests can
//! inspect, print and compare. Systems fill them; recording and submission only read them.

use bevy_ecs::prelude::*;

use crate::barrier::{Access, BarrierGroupRef, Layout, LegacyBarrier, Sync};

mod barriers;
mod builder;
mod index;

use crate::device::QueueId;
use crate::model::{UseAccess, ViewKind};
pub use barriers::{PassBarriers, TextureRecord, WholeTexture};
pub use builder::{Mark, PassBarriersBuilder};
pub use index::ResourceIndex;

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
    /// The latest earlier pass of this pass's own queue known complete when it starts,
    /// through a round trip of fences (index into this frame; negative: the previous frame's
    /// pass at index + n). Accesses up to it need no barrier to be ordered.
    pub own_complete: Option<i64>,
}

#[cfg(test)]
impl CompiledPass {
    /// Graphics pass `p{i}` (entity `i + 1`) reading `resources` in its pixel shader, with
    /// no fences: what unit tests that group uses by resource build graphs from.
    pub(crate) fn reading(i: usize, resources: &[Entity]) -> CompiledPass {
        CompiledPass {
            entity: Entity::from_raw_u32(i as u32 + 1).expect("valid index"),
            name: format!("p{i}"),
            label: 0,
            queue: QueueId::Graphics,
            uses: (resources.iter())
                .map(|&e| PlannedUse {
                    target: e,
                    resource: e,
                    access: UseAccess::ShaderRead,
                    stages: Sync::PIXEL_SHADING,
                    layout: None,
                    view_kind: None,
                    clear: false,
                })
                .collect(),
            waits: Vec::new(),
            waits_previous: Vec::new(),
            signals: false,
            own_complete: None,
        }
    }
}

/// The result of compile: ordered passes with queues and cross-queue synchronisation.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CompiledGraph {
    pub passes: Vec<CompiledPass>,
    /// Passes removed because nothing kept depends on their results.
    pub culled: Vec<String>,
    /// Dependency edges between compiled passes (indices), for the graph printer.
    pub edges: Vec<(usize, usize)>,
    /// The resources the passes use, numbered, with the uses grouped by resource (empty
    /// for a graph not made by compile; see [`ResourceIndex`]).
    pub resources: ResourceIndex,
    /// Compiles so far (the plan is cached between graph changes).
    pub generation: u64,
}

/// The barriers of one frame of a plan, around each compiled pass (same index).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FramePlan {
    /// Issued at the start of each pass, on its queue, and at its end, before its fence
    /// (write-backs for other queues, transitions the next queue cannot do).
    pub barriers: PassBarriers,
    /// Layout and access each texture is assumed to start the frame in.
    pub start: Vec<(Entity, Layout, Access)>,
    /// Layout and access each texture is left in at the end of the frame.
    pub end: Vec<(Entity, Layout, Access)>,
    /// With the `legacy` strategy: legacy barriers before and after each pass, which the
    /// driver translates when the pass is recorded (EB-10).
    pub legacy_before: Vec<Vec<LegacyBarrier<Entity>>>,
    pub legacy_after: Vec<Vec<LegacyBarrier<Entity>>>,
    /// With the `legacy` strategy: the state each resource is left in.
    pub legacy_end: Vec<(Entity, crate::barrier::ResourceStates)>,
}

/// The barrier plan: the first frames after planning (which start from wherever textures
/// really are, knowing nothing of earlier barriers) and then the steady frame, repeated.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BarrierPlan {
    /// Introductory frames, then the steady one (the last), which repeats.
    pub frames: Vec<FramePlan>,
    /// Frames run with this plan so far.
    pub frame: usize,
    /// Plans made so far (re-planned when the graph or the starting layouts change).
    pub generation: u64,
}

impl BarrierPlan {
    /// The frame plan in effect now.
    pub fn current(&self) -> Option<&FramePlan> {
        self.frame_at(self.frame)
    }

    /// The frame plan in effect at frame `k` of this plan: the steady one once the
    /// introductory frames are run.
    pub fn frame_at(&self, k: usize) -> Option<&FramePlan> {
        self.frames.get(k.min(self.frames.len().saturating_sub(1)))
    }

    /// The barriers before and after pass `i` this frame.
    pub fn groups(&self, i: usize) -> (BarrierGroupRef<'_, Entity>, BarrierGroupRef<'_, Entity>) {
        match self.current() {
            Some(f) => (f.barriers.before(i), f.barriers.after(i)),
            None => (BarrierGroupRef::EMPTY, BarrierGroupRef::EMPTY),
        }
    }

    /// Where this frame leaves each texture.
    pub fn finals(&self) -> &[(Entity, Layout, Access)] {
        self.current().map_or(&[], |f| f.end.as_slice())
    }

    /// Where the next frame of this plan assumes each texture starts.
    pub fn starts_next(&self) -> &[(Entity, Layout, Access)] {
        let next = (self.frame + 1).min(self.frames.len().saturating_sub(1));
        self.frames.get(next).map_or(&[], |f| f.start.as_slice())
    }
}

/// Set when the graph changed and compile must run again.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphDirty(pub bool);

impl Default for GraphDirty {
    fn default() -> Self {
        GraphDirty(true)
    }
}
