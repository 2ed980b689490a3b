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
#[cfg(test)]
mod tests;
mod track;
mod walk;

use bevy_ecs::prelude::*;

use super::{TextureStart, full_flush};
use crate::barrier::*;
use crate::device::QueueId;
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, Mark, PassBarriersBuilder};
use phases::{ResUse, resource_uses};
use track::Track;
use walk::walk_copy;

/// Frames walked: the plan's first frame, its second, and the steady one, each starting
/// where the one before ended.
pub(super) const COPIES: usize = 3;

pub(super) struct Walk<'a> {
    pub(super) n: usize,
    /// Each copy's barriers, by virtual pass (copy * n + pass).
    pub(super) frames: &'a mut [PassBarriersBuilder; COPIES],
    /// The copy being walked.
    pub(super) copy: usize,
    /// Barriers the steady copy places at the end of the frame before it: the steady frame
    /// places them at its own end too.
    pub(super) wrap: &'a mut Vec<(usize, Barrier)>,
    /// The layout and access a wrap-around barrier leaves the current resource in at the
    /// end of the frame.
    pub(super) wrap_end: Option<(Layout, Access)>,
    pub(super) walk_steady: bool,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Barrier {
    Buffer(BufferBarrier<Entity>),
    Texture(TextureBarrier<Entity>),
}

impl Barrier {
    fn push_to(self, frame: &mut PassBarriersBuilder, pass: usize, after: bool) {
        match self {
            Barrier::Buffer(b) => frame.buffer(pass, after, b),
            Barrier::Texture(t) => frame.texture(pass, after, t),
        }
    }
}

impl Walk<'_> {
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
        b.push_to(&mut self.frames[pass / self.n], pass % self.n, after);
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

/// Every resource's uses in compiled order, resources in order of first use: one counting
/// sort, linear in uses. `spans[r]..spans[r + 1]` indexes `uses` for resource `order[r]`.
#[derive(Default)]
struct ByResource {
    index: hashbrown::HashMap<Entity, u32>,
    order: Vec<Entity>,
    ids: Vec<u32>,
    spans: Vec<u32>,
    next: Vec<u32>,
    uses: Vec<ResUse>,
}

impl ByResource {
    fn gather(&mut self, graph: &CompiledGraph) {
        let total: usize = graph.passes.iter().map(|p| p.uses.len()).sum();
        self.index.clear();
        self.index.reserve(total);
        self.order.clear();
        self.ids.clear();
        for p in &graph.passes {
            for u in &p.uses {
                let order = &mut self.order;
                let id = *self.index.entry(u.resource).or_insert_with(|| {
                    order.push(u.resource);
                    order.len() as u32 - 1
                });
                self.ids.push(id);
            }
        }
        self.spans.clear();
        self.spans.resize(self.order.len() + 1, 0);
        for &id in &self.ids {
            self.spans[id as usize + 1] += 1;
        }
        for r in 1..self.spans.len() {
            self.spans[r] += self.spans[r - 1];
        }
        self.next.clear();
        self.next.extend_from_slice(&self.spans);
        self.uses.clear();
        let Some(first) = graph.passes.first() else {
            return;
        };
        let filler = ResUse {
            pass: 0,
            queue: first.queue,
            stages: Sync::NONE,
            access: Access::empty(),
            write: false,
            layout: None,
            shared: false,
            own_complete: None,
        };
        self.uses.resize(total, filler);
        let mut k = 0;
        for (i, p) in graph.passes.iter().enumerate() {
            for u in &p.uses {
                let slot = &mut self.next[self.ids[k] as usize];
                self.uses[*slot as usize] = ResUse {
                    pass: i,
                    queue: p.queue,
                    stages: u.stages.expand(),
                    access: u.access.access(),
                    write: u.access.is_write(),
                    layout: u.layout,
                    shared: false,
                    own_complete: p.own_complete,
                };
                *slot += 1;
                k += 1;
            }
        }
    }

    fn of(&self, r: usize) -> &[ResUse] {
        &self.uses[self.spans[r] as usize..self.spans[r + 1] as usize]
    }
}

/// The enhanced planner with its working memory, kept between plans: the runtime re-plans
/// on every graph change and keeps one, so a plan costs its walk, not its allocations.
#[derive(Default)]
pub struct EnhancedPlanner {
    by: ByResource,
    frames: [PassBarriersBuilder; COPIES],
    wrap: Vec<(usize, Barrier)>,
    track: Option<Track>,
    /// The track as the second copy started, to tell when the steady copy repeats it.
    snap: Option<Track>,
    uses: Vec<ResUse>,
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
        let n = graph.passes.len();
        self.by.gather(graph);
        for f in &mut self.frames {
            f.reset(n);
        }
        self.wrap.clear();
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
            wrap: &mut self.wrap,
            wrap_end: None,
            walk_steady: self.walk_steady,
        };
        let mut frames: Vec<FramePlan> = (0..COPIES).map(|_| FramePlan::default()).collect();
        for f in &mut frames {
            f.start.reserve(self.by.order.len());
            f.end.reserve(self.by.order.len());
        }
        self.repeated = 0;
        for (r, &e) in self.by.order.iter().enumerate() {
            let planned = self.by.of(r);
            self.repeated += walk_resource(
                &mut w,
                graph,
                &mut frames,
                e,
                planned,
                &start,
                t,
                snap,
                &mut self.uses,
            )? as usize;
        }
        let [first, _, steady] = &mut self.frames;
        for &(pass, b) in self.wrap.iter() {
            b.push_to(steady, pass, true);
        }
        // Nothing is known about accesses before the plan's first frame: flush each queue once.
        let mut seen: Vec<QueueId> = Vec::new();
        for (i, p) in graph.passes.iter().enumerate() {
            if !seen.contains(&p.queue) {
                seen.push(p.queue);
                first.global(i, false, full_flush(p.queue));
            }
        }
        for (f, b) in frames.iter_mut().zip(&mut self.frames) {
            f.barriers = b.finish();
        }
        Ok(BarrierPlan {
            frames,
            ..Default::default()
        })
    }
}

/// Plan minimal enhanced barriers for a compiled graph, with a planner of its own.
pub fn plan_enhanced(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart,
) -> Result<BarrierPlan, String> {
    EnhancedPlanner::default().plan(graph, start)
}

/// The steady copy repeats the second: its barriers go to the steady frame, its hand-overs
/// to the second frame's end and to the steady frame's (see [`Walk::push`]).
fn repeat_second(w: &mut Walk, marks: [(Mark, Mark); 2]) {
    let [first, second, steady] = &mut *w.frames;
    steady.repeat(second, marks[1].0, marks[1].1);
    second.repeat(first, marks[0].0, marks[0].1);
    let (from, to) = marks[0];
    for (pass, after, b) in first.pushed_buffers(from, to) {
        debug_assert!(after, "hand-overs end the frame before");
        w.wrap.push((pass, Barrier::Buffer(*b)));
    }
    for (pass, after, b) in first.pushed_textures(from, to) {
        debug_assert!(after, "hand-overs end the frame before");
        w.wrap.push((pass, Barrier::Texture(*b)));
    }
}

/// Walk one resource over the three copies of the frame.
#[allow(clippy::too_many_arguments)]
fn walk_resource(
    w: &mut Walk,
    graph: &CompiledGraph,
    frames: &mut [FramePlan],
    e: Entity,
    planned: &[ResUse],
    start: &impl Fn(Entity) -> TextureStart,
    t: &mut Track,
    snap: &mut Track,
    uses: &mut Vec<ResUse>,
) -> Result<bool, String> {
    let s = start(e);
    let mut repeated = false;
    let texture = planned.iter().any(|u| u.layout.is_some());
    resource_uses(graph, planned, s.compressible, uses)?;
    let last_access = uses.last().map_or(Access::NO_ACCESS, |u| u.access);
    let initial = if s.chain {
        Layout::PRESENT
    } else if s.transient {
        Layout::Undefined
    } else {
        s.state.layout
    };
    t.reset(texture, initial);
    // Per copy: where its walk left the texture, and where a later copy's wrap-around
    // barrier (placed at the end of this copy) left it.
    let mut raw_end = [(Layout::Common, Access::NO_ACCESS); COPIES];
    let mut wrap_end: [Option<(Layout, Access)>; COPIES] = [None; COPIES];
    // What the second copy pushed into the first frame (hand-overs) and into its own.
    let mut marks = [(Mark::default(), Mark::default()); 2];
    for copy in 0..COPIES {
        if copy > 0 {
            // The frame boundary: a back buffer is a fresh buffer, out of PRESENT, after a
            // wait on present that orders everything before; a transient's contents are
            // gone. Later copies know what the earlier ones did.
            if s.chain {
                t.reset(texture, Layout::PRESENT);
            } else if s.transient {
                // Contents are discarded by activating from UNDEFINED; a first user that
                // cannot transition (DMA) takes it as it is instead.
                let first_moves = uses.first().is_none_or(|u| {
                    crate::systems::barriers::queue_type(u.queue) != crate::barrier::QueueType::Copy
                });
                if first_moves || t.layout != Layout::Common {
                    t.layout = Layout::Undefined;
                }
            }
            t.history_unknown = false;
        }
        if copy == COPIES - 1 && !w.walk_steady && t.is_shifted(snap, w.n) {
            // The second frame ended where the first did: the steady frame makes its
            // decisions again, one frame later. Copy them instead of walking.
            repeat_second(w, marks);
            wrap_end[copy - 1] = wrap_end[copy - 2];
            raw_end[copy] = raw_end[copy - 1];
            repeated = true;
            break;
        }
        if copy == 1 {
            snap.clone_from(t);
        }
        let before = [w.frames[0].mark(), w.frames[1].mark()];
        w.copy = copy;
        w.wrap_end = None;
        walk_copy(w, e, uses, copy, t, graph)?;
        if copy == 1 {
            marks = [
                (before[0], w.frames[0].mark()),
                (before[1], w.frames[1].mark()),
            ];
        }
        if copy > 0 {
            wrap_end[copy - 1] = w.wrap_end;
        }
        raw_end[copy] = (t.layout, last_access);
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
    Ok(repeated)
}
