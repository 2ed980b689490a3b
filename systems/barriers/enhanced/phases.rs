//! Read phases: a texture's consecutive reads share one layout, chosen so every reader's
//! queue can use it and compression survives where it can (barrier-spec A5, A6, EB-4).

use bevy_ecs::prelude::*;

use super::track::Q;
use crate::barrier::*;

use crate::plan::CompiledGraph;

/// One resource's use in one pass (several uses of a resource by one pass are merged), with
/// what the walk needs of the pass copied in: the walk reads a resource's uses in a row.
#[derive(Clone, Copy, Debug)]
pub(super) struct ResUse {
    /// The pass (u32s keep a use at 32 bytes: the planner copies each twice).
    pub(super) pass: u32,
    pub(super) queue: Q,
    pub(super) stages: Sync,
    pub(super) access: Access,
    pub(super) write: bool,
    pub(super) layout: Option<Layout>,
    /// A read in a read phase that spans several queues.
    pub(super) shared: bool,
    /// The pass's [`own_complete`](crate::plan::CompiledPass::own_complete).
    pub(super) own_complete: Option<i32>,
}

/// What choosing a read phase's layout needs to know of its reads, gathered in one pass.
struct Phase {
    /// Every access the phase makes.
    access: Access,
    dma: bool,
    compute: bool,
    graphics: bool,
    /// Read on more than one queue.
    shared: bool,
}

impl Phase {
    fn of(uses: &[ResUse]) -> Phase {
        let mut p = Phase {
            access: Access::empty(),
            dma: false,
            compute: false,
            graphics: false,
            shared: false,
        };
        let first = uses.first().map(|u| u.queue);
        for u in uses {
            p.access |= u.access;
            match u.queue.kind() {
                QueueType::Direct => p.graphics = true,
                QueueType::Compute => p.compute = true,
                QueueType::Copy => p.dma = true,
            }
            p.shared |= Some(u.queue) != first;
        }
        p
    }

    /// True when every reader's queue type allows `layout` (barrier-spec A5).
    fn allowed_everywhere(&self, layout: Layout) -> bool {
        (!self.graphics || QueueType::Direct.allows_layout(layout))
            && (!self.compute || QueueType::Compute.allows_layout(layout))
            && (!self.dma || QueueType::Copy.allows_layout(layout))
    }
}

/// The layout a read phase (consecutive reads of a texture) uses: one every reader's queue
/// can use and whose accesses cover the phase (barrier-spec A5, A6), preferring layouts that
/// keep compression on the graphics engine (EB-4).
fn read_layout(phase: &Phase, compressible: bool) -> Option<Layout> {
    let Phase {
        access,
        dma,
        compute,
        graphics,
        ..
    } = *phase;
    use Layout as L;
    let candidates: &[Layout] = if dma {
        &[L::Common]
    } else if compute && graphics {
        &[
            L::ShaderResource,
            L::CopySource,
            L::GenericRead,
            L::DirectQueueGenericReadComputeQueueAccessible,
            L::Common,
        ]
    } else if compute {
        &[L::ShaderResource, L::CopySource, L::GenericRead, L::Common]
    } else if compressible {
        &[
            L::DepthStencilRead,
            L::DirectQueueShaderResource,
            L::CopySource,
            L::DirectQueueGenericRead,
            L::GenericRead,
            L::Common,
        ]
    } else {
        &[
            L::DepthStencilRead,
            L::ShaderResource,
            L::CopySource,
            L::GenericRead,
            L::DirectQueueGenericRead,
            L::Common,
        ]
    };
    candidates
        .iter()
        .copied()
        .find(|l| layout_allows(*l).contains(access))
}

/// Merge a resource's uses per pass, in place, and give texture reads their read-phase
/// layout; the merged uses are the front of `planned`, which is returned, with whether
/// they are all on one queue.
pub(super) fn resource_uses<'a>(
    graph: &CompiledGraph,
    planned: &'a mut [ResUse],
    texture: bool,
    compressible: bool,
) -> Result<(&'a [ResUse], bool), String> {
    let mut len: usize = 0;
    let mut one_queue = true;
    for i in 0..planned.len() {
        let u = planned[i];
        one_queue &= u.queue == planned[0].queue;
        match len.checked_sub(1).filter(|&j| planned[j].pass == u.pass) {
            Some(j) => {
                let x = &mut planned[j];
                x.stages |= u.stages;
                x.access |= u.access;
                x.write |= u.write;
                if u.write {
                    x.layout = u.layout;
                }
            }
            None => {
                if len != i {
                    planned[len] = u;
                }
                len += 1;
            }
        }
    }
    let out = &mut planned[..len];
    if texture {
        let mut start = 0;
        while start < out.len() {
            if out[start].write {
                start += 1;
                continue;
            }
            let end = (start..out.len())
                .find(|&j| out[j].write)
                .unwrap_or(out.len());
            let phase = Phase::of(&out[start..end]);
            // Keep the writer's layout when it already serves every read of the phase on the
            // writer's queue (depth read through a read-only view in DEPTH_STENCIL_WRITE):
            // no transition at all. Also when several queues read it: no transition means
            // none to order among them (a DMA writer's COMMON serves shader reads on every
            // queue).
            let keep = start.checked_sub(1).map(|w| out[w]).and_then(|w| {
                let l = w.layout?;
                let here = !phase.shared && out[start].queue == w.queue;
                (layout_allows(l).contains(phase.access)
                    && (here || (phase.shared && phase.allowed_everywhere(l))))
                .then_some(l)
            });
            let layout = keep.or_else(|| read_layout(&phase, compressible)).ok_or_else(|| {
                let names: Vec<&str> = out[start..end].iter().map(|u| graph.passes[u.pass as usize].name.as_str()).collect();
                format!("passes {} read one texture in ways no single layout allows at once (barrier-spec A6)", names.join(", "))
            })?;
            let shared = phase.shared;
            for u in &mut out[start..end] {
                u.layout = Some(layout);
                u.shared = shared;
            }
            start = end;
        }
    }
    Ok((out, one_queue))
}
const _: () = assert!(std::mem::size_of::<ResUse>() == 32);
const _: () = assert!(std::mem::size_of::<super::track::Acc>() == 16);
