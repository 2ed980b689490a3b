//! The `enhanced` strategy: for every resource, from its uses in compiled order, the minimal
//! enhanced barriers (EB-1..EB-5, barrier-spec A).
//!
//! Per resource the walk keeps the accesses made since the last barrier that covers them,
//! and the layout. At each use:
//!
//! - same-queue accesses that conflict with it (any write involved) are ordered by a barrier
//!   whose SyncBefore is exactly their stages and AccessBefore exactly their accesses, and
//!   whose SyncAfter and AccessAfter are exactly the use's;
//! - writes from another queue were ordered by a fence (compile plans those); the producer
//!   writes its caches back in a barrier at the end of its pass (SyncAfter NONE, AccessAfter
//!   NO_ACCESS) and the consumer invalidates in one before its use (SyncBefore NONE);
//! - layouts change on the consumer's queue when it may, else on the producer's; read phases
//!   that span graphics and compute use one layout both can read, the compute-accessible
//!   generic read if depth is involved; a render target read only on the graphics engine goes
//!   to DIRECT_QUEUE_SHADER_RESOURCE so it stays compressed (EB-4); DMA sees only COMMON;
//! - transients are activated from UNDEFINED with DISCARD (EB-5);
//!
//! All barriers at one pass boundary go out as one call, one group per barrier type. The
//! frame repeats, so the walk runs over three copies of it, each starting where the previous
//! one ended: the first, from where textures really are, is the plan's first frame (which also
//! starts every queue with a full flush, nothing from before the plan being known); the second
//! follows it; the third is the steady state that repeats. A barrier a copy places at the end
//! of the previous one hands a resource over the frame boundary. No access is ever barrier-free
//! (EB-8a).

mod phases;
mod track;
mod walk;

use bevy_ecs::prelude::*;

use super::{TextureStart, full_flush};
use crate::barrier::*;
use crate::device::QueueId;
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, PlannedUse};
use phases::resource_uses;
use track::Track;
use walk::walk_copy;

/// Frames walked: the plan's first frame, its second, and the steady one, each starting
/// where the one before ended.
pub(super) const COPIES: usize = 3;

pub(super) struct Walk {
    pub(super) n: usize,
    pub(super) before: Vec<BarrierGroup<Entity>>,
    pub(super) after: Vec<BarrierGroup<Entity>>,
    /// The copy being walked.
    pub(super) copy: usize,
    pub(super) wrap: Vec<(usize, Barrier)>,
    /// The layout and access a wrap-around barrier leaves the current resource in at the
    /// end of the frame.
    pub(super) wrap_end: Option<(Layout, Access)>,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Barrier {
    Buffer(BufferBarrier<Entity>),
    Texture(TextureBarrier<Entity>),
}

impl Walk {
    pub(super) fn push(&mut self, pass: usize, after: bool, b: Barrier) {
        // A barrier placed in the previous copy's passes hands the resource over the frame
        // boundary. Those the steady copy places belong to the steady plan as well.
        if self.copy > 0 && pass < self.copy * self.n {
            if let Barrier::Texture(tb) = b {
                self.wrap_end = Some((tb.layout_after, tb.access_after));
            }
            if self.copy == COPIES - 1 {
                self.wrap.push((pass - (COPIES - 2) * self.n, b));
            }
        }
        let g = if after {
            &mut self.after[pass]
        } else {
            &mut self.before[pass]
        };
        match b {
            Barrier::Buffer(bb) => g.buffers.push(bb),
            Barrier::Texture(tb) => g.textures.push(tb),
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn barrier(
    resource: Entity,
    texture: bool,
    sb: Sync,
    sa: Sync,
    ab: Access,
    aa: Access,
    lb: Layout,
    la: Layout,
) -> Barrier {
    if texture {
        Barrier::Texture(TextureBarrier {
            sync_before: sb,
            sync_after: sa,
            // An UNDEFINED side carries no access (barrier-spec A3.3).
            access_before: if lb == Layout::Undefined {
                Access::NO_ACCESS
            } else {
                ab
            },
            access_after: aa,
            layout_before: lb,
            layout_after: la,
            resource,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags {
                discard: lb == Layout::Undefined && la != Layout::Undefined,
            },
        })
    } else {
        Barrier::Buffer(BufferBarrier {
            sync_before: sb,
            sync_after: sa,
            access_before: ab,
            access_after: aa,
            resource,
        })
    }
}

/// Plan minimal enhanced barriers for a compiled graph.
pub fn plan_enhanced(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart,
) -> Result<BarrierPlan, String> {
    let n = graph.passes.len();
    let mut w = Walk {
        n,
        before: vec![BarrierGroup::default(); COPIES * n],
        after: vec![BarrierGroup::default(); COPIES * n],
        copy: 0,
        wrap: Vec::new(),
        wrap_end: None,
    };
    // Each resource's uses in compiled order, gathered in one sweep (linear in uses).
    let mut order: Vec<Entity> = Vec::new();
    let mut by_resource: hashbrown::HashMap<Entity, Vec<(usize, &PlannedUse)>> =
        hashbrown::HashMap::new();
    for (i, p) in graph.passes.iter().enumerate() {
        for u in &p.uses {
            let list = by_resource.entry(u.resource).or_insert_with(|| {
                order.push(u.resource);
                Vec::new()
            });
            list.push((i, u));
        }
    }
    let mut frames: Vec<FramePlan> = (0..COPIES).map(|_| FramePlan::default()).collect();
    for &e in &order {
        let s = start(e);
        let planned = &by_resource[&e];
        let texture = planned.iter().any(|(_, u)| u.layout.is_some());
        let uses = resource_uses(graph, planned, s.compressible)?;
        let last_access = uses.last().map_or(Access::NO_ACCESS, |u| u.access);
        let initial = if s.chain {
            Layout::PRESENT
        } else if s.transient {
            Layout::Undefined
        } else {
            s.state.layout
        };
        let mut t = Track::new(texture, initial);
        // Per copy: where its walk left the texture, and where a later copy's wrap-around
        // barrier (placed at the end of this copy) left it.
        let mut raw_end = Vec::with_capacity(COPIES);
        let mut wrap_end: Vec<Option<(Layout, Access)>> = vec![None; COPIES];
        for copy in 0..COPIES {
            if copy > 0 {
                // The frame boundary: a back buffer is a fresh buffer, out of PRESENT, after a
                // wait on present that orders everything before; a transient's contents are
                // gone. Later copies know what the earlier ones did.
                if s.chain {
                    t = Track::new(texture, Layout::PRESENT);
                } else if s.transient {
                    // Contents are discarded by activating from UNDEFINED; a first user that
                    // cannot transition (DMA) takes it as it is instead.
                    let first_moves = uses.first().is_none_or(|u| {
                        crate::systems::barriers::queue_type(u.queue)
                            != crate::barrier::QueueType::Copy
                    });
                    if first_moves || t.layout != Layout::Common {
                        t.layout = Layout::Undefined;
                    }
                }
                t.history_unknown = false;
            }
            w.copy = copy;
            w.wrap_end = None;
            walk_copy(&mut w, e, &uses, copy, &mut t, graph)?;
            if copy > 0 {
                wrap_end[copy - 1] = w.wrap_end;
            }
            raw_end.push((t.layout, last_access));
        }
        if texture {
            // The steady frame is followed by itself: it ends as the frame before it did.
            wrap_end[COPIES - 1] = wrap_end[COPIES - 2];
            let mut begin = (s.state.layout, s.state.access);
            for copy in 0..COPIES {
                let end = wrap_end[copy].unwrap_or(raw_end[copy]);
                frames[copy].start.push((e, begin.0, begin.1));
                frames[copy].end.push((e, end.0, end.1));
                begin = end;
            }
        }
    }
    // Hand each copy's groups to its frame without cloning them.
    for f in frames.iter_mut().rev() {
        f.before = w.before.split_off(w.before.len() - n);
        f.after = w.after.split_off(w.after.len() - n);
    }
    let steady = &mut frames[COPIES - 1];
    for (pass, b) in w.wrap {
        match b {
            Barrier::Buffer(bb) => steady.after[pass].buffers.push(bb),
            Barrier::Texture(tb) => steady.after[pass].textures.push(tb),
        }
    }
    // Nothing is known about accesses before the plan's first frame: flush each queue once.
    let mut seen: Vec<QueueId> = Vec::new();
    for (i, p) in graph.passes.iter().enumerate() {
        if !seen.contains(&p.queue) {
            seen.push(p.queue);
            frames[0].before[i].global.insert(0, full_flush(p.queue));
        }
    }
    Ok(BarrierPlan {
        frames,
        ..Default::default()
    })
}
