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
//!
//! The walk is the planner's cost, so it is kept lean: uses are gathered per resource once
//! (`gather`), per-queue facts are arrays (`track`), a resource that starts the steady copy
//! as it started the second has the second's decisions repeated rather than walked
//! (`frames`), and barriers go to flat per-frame builders that sort them by pass once. When
//! every resource repeats, the steady frame is the second and the plan has two frames. The
//! planner keeps its working memory, and re-plans into the plan it replaces, between plans.

mod frames;
mod gather;
mod phases;
#[cfg(test)]
mod tests;
mod track;
mod walk;

use bevy_ecs::prelude::*;

use super::{TextureStart, full_flush};
use crate::barrier::*;
use crate::device::QueueId;
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, PassBarriersBuilder};
use frames::{Steady, walk_resource};
use gather::ByResource;

use track::Track;

/// Frames walked: the plan's first frame, its second, and the steady one, each starting
/// where the one before ended.
pub(super) const COPIES: usize = 3;

pub(super) struct Walk<'a> {
    pub(super) n: usize,
    /// Each copy's own barriers, by pass.
    pub(super) frames: &'a mut [PassBarriersBuilder; COPIES],
    /// The copy being walked.
    pub(super) copy: usize,
    /// Hand-overs: barriers a copy places at the end of a pass of the copy before it, by
    /// that frame and pass. They join their frame after every resource's own barriers; those
    /// the steady copy places (in the second frame) end the steady frame too.
    pub(super) handovers: &'a mut [Vec<(usize, Barrier)>; COPIES - 1],
    /// The layout and access a wrap-around barrier leaves the current resource in at the
    /// end of the frame.
    pub(super) wrap_end: Option<(Layout, Access)>,
    pub(super) walk_steady: bool,
    steady: &'a mut Steady,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Barrier {
    Buffer(BufferBarrier<Entity>),
    Texture(TextureBarrier<Entity>),
}

impl Barrier {
    #[inline(always)]
    fn push_to(self, frame: &mut PassBarriersBuilder, pass: usize, after: bool) {
        match self {
            Barrier::Buffer(b) => frame.buffer(pass, after, b),
            Barrier::Texture(t) => frame.texture(pass, after, t),
        }
    }
}

impl Walk<'_> {
    /// A barrier at virtual pass `pass` (copy * n + pass) of the copy being walked.
    #[inline(always)]
    pub(super) fn push(&mut self, pass: usize, after: bool, b: Barrier) {
        let first = self.copy * self.n;
        if pass >= first {
            b.push_to(&mut self.frames[self.copy], pass - first, after);
            return;
        }
        // In an earlier copy's passes: it hands the resource over the frame boundary.
        debug_assert!(after, "hand-overs end a pass of the frame before");
        if let Barrier::Texture(tb) = b {
            self.wrap_end = Some((tb.layout_after, tb.access_after));
        }
        self.handovers[pass / self.n].push((pass % self.n, b));
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
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

/// The enhanced planner with its working memory, kept between plans: the runtime re-plans
/// on every graph change and keeps one, so a plan costs its walk, not its allocations.
#[derive(Default)]
pub struct EnhancedPlanner {
    by: ByResource,
    frames: [PassBarriersBuilder; COPIES],
    handovers: [Vec<(usize, Barrier)>; COPIES - 1],
    /// Steady-copy repeats not yet copied into the steady frame (see [`Steady`]).
    steady: Steady,
    /// The third frame of the last plan when that plan needed two.
    spare: Option<FramePlan>,
    track: Option<Track>,
    /// The track as the second copy started, to tell when the steady copy repeats it.
    snap: Option<Track>,

    /// Walk the steady copy even when it repeats the second (tests compare both ways).
    walk_steady: bool,
    /// Resources whose steady copy repeated the second, in the last plan.
    repeated: usize,
}

impl EnhancedPlanner {
    /// Plan minimal enhanced barriers for a compiled graph.
    pub fn plan(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart,
    ) -> Result<BarrierPlan, String> {
        let mut out = BarrierPlan::default();
        self.plan_into(graph, start, &mut out)?;
        Ok(out)
    }

    /// [`plan`](Self::plan) into `out`, reusing the memory of the plan it replaces (a plan
    /// of thousands of barriers would otherwise fault fresh pages in every time). `out`
    /// starts at its first frame and keeps its generation; on an error it is left empty.
    pub fn plan_into(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart,
        out: &mut BarrierPlan,
    ) -> Result<(), String> {
        out.frame = 0;
        if out.frames.len() < COPIES {
            out.frames.extend(self.spare.take());
        }
        out.frames.resize_with(COPIES, FramePlan::default);
        for f in &mut out.frames {
            f.start.clear();
            f.end.clear();
            f.legacy_before.clear();
            f.legacy_after.clear();
            f.legacy_end.clear();
        }
        match self.walk_into(graph, start, &mut out.frames) {
            Ok(kept) => {
                // Kept aside, not dropped: the next plan may need three frames again.
                if kept < COPIES {
                    self.spare = out.frames.pop();
                }
                Ok(())
            }
            Err(e) => {
                out.frames.clear();
                Err(e)
            }
        }
    }

    fn walk_into(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart,
        frames: &mut [FramePlan],
    ) -> Result<usize, String> {
        let n = graph.passes.len();
        // Passes are numbered in 32 bits across the walked copies.
        if n > i32::MAX as usize / COPIES {
            return Err(format!("a graph of {n} passes is too large to plan"));
        }
        self.by.gather(graph);
        for f in &mut self.frames {
            f.reset(n);
        }
        for h in &mut self.handovers {
            h.clear();
        }
        self.steady.reset();
        let t = self
            .track
            .get_or_insert_with(|| Track::new(false, Layout::Common));
        let snap = self
            .snap
            .get_or_insert_with(|| Track::new(false, Layout::Common));
        let mut w = Walk {
            n,
            frames: &mut self.frames,
            copy: 0,
            handovers: &mut self.handovers,
            wrap_end: None,
            walk_steady: self.walk_steady,
            steady: &mut self.steady,
        };

        self.repeated = 0;
        for r in 0..self.by.order.len() {
            let e = self.by.order[r];
            let planned = self.by.of_mut(r);
            self.repeated +=
                walk_resource(&mut w, graph, frames, e, planned, &start, t, snap)? as usize;
        }
        let repeats = self.steady.finish(&mut self.frames);
        let [first, second, steady] = &mut self.frames;
        for (frame, handovers) in [&mut *first, &mut *second].into_iter().zip(&self.handovers) {
            for &(pass, b) in handovers {
                b.push_to(frame, pass, true);
            }
        }
        // The steady frame is the second when every resource's steady copy repeated it and
        // every texture ends the second frame where it started it.
        let two = repeats && frames[1].start == frames[1].end;
        if !two {
            for &(pass, b) in &self.handovers[1] {
                b.push_to(steady, pass, true);
            }
        }
        // Nothing is known about accesses before the plan's first frame: flush each queue once.
        let mut seen: Vec<QueueId> = Vec::new();
        for (i, p) in graph.passes.iter().enumerate() {
            if !seen.contains(&p.queue) {
                seen.push(p.queue);
                first.global(i, false, full_flush(p.queue));
            }
        }
        let kept = if two { COPIES - 1 } else { COPIES };
        for (f, b) in frames.iter_mut().zip(&mut self.frames).take(kept) {
            b.finish_into(&mut f.barriers);
        }
        Ok(kept)
    }
}

/// Plan minimal enhanced barriers for a compiled graph, with a planner of its own.
pub fn plan_enhanced(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart,
) -> Result<BarrierPlan, String> {
    EnhancedPlanner::default().plan(graph, start)
}
