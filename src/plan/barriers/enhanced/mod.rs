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
//! - transients are activated from UNDEFINED with DISCARD (EB-5) each frame, except one
//!   queue's transient that ends the frame in the layout its first use needs: planned as
//!   owning its memory, it is used on as it is (a transient placed over another's bytes is
//!   activated every frame by `plan::alias::hand_over`);
//! - a texture that keeps its contents and both ends and begins the frame with reads has one
//!   read phase across the boundary; when several queues read it before anything in the plan
//!   wrote it, the plan's first frame moves it in a prologue on the graphics queue that the
//!   other queues wait for, and before a DMA write several queues read it in COMMON (FS-1);
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
//! (`gather`, through the resource index compile built when the graph has one), per-queue facts are arrays and what the walk stores and reloads at every use
//! is kept in whole words, so no load waits on narrower stores (`queues`, `track`), buffers
//! and textures walk in code of their own (`walk`), a resource that starts the steady copy
//! as it started the second has the second's decisions repeated rather than walked, and a
//! texture one queue uses, written first, has its second copy walked only to that write and
//! the first copy's decisions after it repeated (`frames`), and barriers go to flat per-frame builders (textures as 32-byte whole-texture
//! records) that sort them by pass once. When
//! every resource repeats, the steady frame is the second and the plan has two frames. The
//! planner keeps its working memory, and re-plans into the plan it replaces, between plans
//! (`planner`). Resources are independent, so a large graph's are walked in two halves on
//! the compute task pool, each by a `worker` of its own, joined in resource order.

mod frames;
mod gather;
mod pace;
mod phases;
mod planner;
mod queues;

#[cfg(test)]
mod tests;
mod track;
mod walk;
mod worker;

use bevy_ecs::prelude::*;

use crate::barrier::*;
use crate::plan::barriers::{PassBarriersBuilder, WholeTexture};
use frames::Steady;
pub use planner::{EnhancedPlanner, plan_enhanced};

/// Frames walked: the plan's first frame, its second, and the steady one, each starting
/// where the one before ended.
pub(super) const COPIES: usize = 3;

/// A frame's barriers as the walk stages them: textures as 32-byte whole-texture records.
pub(super) type Builder = PassBarriersBuilder<WholeTexture>;

pub(super) struct Walk<'a> {
    pub(super) n: usize,
    /// Each copy's own barriers, by pass.
    pub(super) frames: &'a mut [Builder; COPIES],
    /// The copy being walked, and its first virtual pass (`copy * n`).
    pub(super) copy: usize,
    pub(super) first: usize,
    /// Hand-overs: barriers a copy places at the end of a pass of the copy before it, by
    /// that frame and pass. They join their frame after every resource's own barriers; those
    /// the steady copy places (in the second frame) end the steady frame too.
    pub(super) handovers: &'a mut [Vec<(usize, Barrier)>; COPIES - 1],
    /// The layout and access a wrap-around barrier leaves the current resource in at the
    /// end of the frame.
    pub(super) wrap_end: Option<(Layout, Access)>,
    pub(super) walk_steady: bool,
    steady: &'a mut Steady,
    /// Transitions the plan's first frame makes before any pass (see `walk_copy`).
    pub(super) prologue: &'a mut Vec<WholeTexture>,
    /// The resource being walked may be moved in the prologue: it keeps its contents and
    /// is not a swap chain's buffer.
    pub(super) prologue_allowed: bool,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Barrier {
    Buffer(BufferBarrier<Entity>),
    Texture(WholeTexture),
}

impl Barrier {
    #[inline(always)]
    fn push_to(self, frame: &mut Builder, pass: usize, after: bool) {
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
        let first = self.first;
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

#[expect(
    clippy::too_many_arguments,
    reason = "the three before/after pairs of an enhanced barrier (EB-1), kept as scalars on the hot path"
)]
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
        Barrier::Texture(WholeTexture {
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
