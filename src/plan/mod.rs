//! The frame-graph compiler and planners, as plain data and functions with no ECS queries
//! (as bevy_ecs keeps its DAG algorithms in `schedule/graph/` and wgpu-core its state in
//! `track/`): the systems in `systems/` gather components, call these, and store the result.
//!
//! - [`order`]: the dependency rules of a frame graph and a topological order;
//! - [`Compiler`]: resolve uses, order, cull, assign queues, over flat arrays it keeps
//!   between compiles (`versions` applies the ordering rules over dense numbers);
//! - `fences`: cross-queue fence waits, minimal (FS-1, FN-2);
//! - [`barriers`]: the enhanced, legacy and conservative barrier planners (EB-1..EB-11);
//! - [`alias`]: transient placement in a shared heap by lifetime (EB-5, EB-9d).
//!
//! Plans are data: what compile and barrier planning decided, as plain structs that tests can
//! inspect, print and compare. Recording and submission only read them.

use bevy_ecs::prelude::*;

use crate::barrier::{Layout, SubresourceRange, Sync};

pub mod alias;
pub mod barriers;
mod compile;
mod compiler;
mod error;
mod estimate;
pub(crate) mod fences;
mod index;
pub mod order;
mod parts;
mod present;
mod schedule;
mod split;
mod versions;

use crate::device::QueueId;
use crate::model::{UseAccess, ViewKind};
pub use alias::{AliasPlacement, AliasPlan, Aliaser};
pub use barriers::{BarrierPlan, FramePlan, PassBarriers, PlanFrame, TextureStart, clear_barriers};
pub use compile::{TargetInfo, assign_queue, compile_dispatches, compile_graph, view_kind};
pub use compiler::Compiler;
pub use error::{CycleEdge, PlanError};
pub use estimate::{estimated_ns, pass_ns};
pub use index::ResourceIndex;
pub use parts::{Cell, Dims, Parts, range_of};

/// One use of a pass, resolved: what it touches and how.
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// What planning tracks for this use: `resource`, or the part of it the use covers when
    /// its texture is split by subresource ranges (see [`Parts`]).
    pub key: Entity,
    /// The subresources `key` covers: every one unless the texture is split.
    pub range: SubresourceRange,
    /// The subresources the use names (through its view, or its own `range`), which it binds.
    pub view_range: SubresourceRange,
    /// False on the further parts of a use split over several: recording binds a use once.
    pub bound: bool,
}

/// A pass that survived culling, in execution order.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledPass {
    pub entity: Entity,
    pub name: String,
    /// Device label of the pass (for command lists and diagnostics).
    pub label: u32,
    pub queue: QueueId,
    /// This pass's uses, a range of [`CompiledGraph::uses`] ([`CompiledGraph::uses_of`]).
    pub uses: std::ops::Range<u32>,
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

impl CompiledPass {
    /// A pass with nothing in it, for compile to fill.
    pub(crate) fn empty() -> CompiledPass {
        CompiledPass {
            entity: Entity::PLACEHOLDER,
            name: String::new(),
            label: 0,
            queue: QueueId::Graphics,
            uses: 0..0,
            waits: Vec::new(),
            waits_previous: Vec::new(),
            signals: false,
            own_complete: None,
        }
    }

    /// This pass's uses in `uses`, the graph's flat array of them (for code that holds the
    /// passes and the uses apart, as a planner updating one while reading the other).
    pub fn uses_in<'a>(&self, uses: &'a [PlannedUse]) -> &'a [PlannedUse] {
        &uses[self.uses.start as usize..self.uses.end as usize]
    }
}

#[cfg(test)]
impl CompiledGraph {
    /// Graphics passes `p{i}` (entity `i + 1`), pass `i` reading `reads[i]` in its pixel
    /// shader, with no fences: what unit tests that group uses by resource build graphs from.
    pub(crate) fn reading(reads: &[&[Entity]]) -> CompiledGraph {
        let mut g = CompiledGraph::default();
        for (i, resources) in reads.iter().enumerate() {
            let start = g.uses.len() as u32;
            g.uses.extend(resources.iter().map(|&e| PlannedUse {
                target: e,
                resource: e,
                access: UseAccess::ShaderRead,
                stages: Sync::PIXEL_SHADING,
                layout: None,
                view_kind: None,
                clear: false,
                key: e,
                range: SubresourceRange::ALL,
                view_range: SubresourceRange::ALL,
                bound: true,
            }));
            g.passes.push(CompiledPass {
                entity: Entity::from_raw_u32(i as u32 + 1).expect("valid index"),
                name: format!("p{i}"),
                uses: start..g.uses.len() as u32,
                ..CompiledPass::empty()
            });
        }
        g
    }
}

/// The result of compile: ordered passes with queues and cross-queue synchronisation.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct CompiledGraph {
    pub passes: Vec<CompiledPass>,
    /// Every pass's uses, pass after pass in execution order, each pass's a range of them:
    /// one array, so that at 100,000 passes the planners read memory in order.
    pub uses: Vec<PlannedUse>,
    /// Passes removed because nothing kept depends on their results.
    pub culled: Vec<String>,
    /// Dependency edges between compiled passes (indices), for the graph printer.
    pub edges: Vec<(usize, usize)>,
    /// Passes of other queues whose fence the graphics queue waits on before it presents:
    /// they use a swap chain after anything graphics waits on (see `present`).
    pub present_waits: Vec<usize>,
    /// The resources the passes use, numbered, with the uses grouped by resource (empty
    /// for a graph not made by compile; see [`ResourceIndex`]).
    pub resources: ResourceIndex,
    /// The textures split into subresource parts, and the parts' keys.
    pub parts: Parts,
    /// Compiles so far (the plan is cached between graph changes).
    pub generation: u64,
}

impl CompiledGraph {
    /// The uses of `pass` (one of [`passes`](Self::passes)).
    pub fn uses_of(&self, pass: &CompiledPass) -> &[PlannedUse] {
        pass.uses_in(&self.uses)
    }

    /// The uses of pass `k`, to change in place.
    pub fn uses_of_mut(&mut self, k: usize) -> &mut [PlannedUse] {
        let r = self.passes[k].uses.clone();
        &mut self.uses[r.start as usize..r.end as usize]
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
