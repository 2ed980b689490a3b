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
//! - a barrier after a pass whose queue has not touched the resource since is extended rather
//!   than followed by another one (SyncAfter gains the next use's stages).
//!
//! All barriers at one pass boundary go out as one call, one group per barrier type. The
//! frame repeats, so the walk runs twice: the second copy, whose start is the first copy's
//! end, is the steady-state plan; the first copy, from where textures really are, is the plan's
//! first frame, which also starts every queue with a full flush (nothing from before the plan
//! is known). No access is ever barrier-free (EB-8a).

use bevy_ecs::prelude::*;

use super::{TextureStart, can_transition, full_flush};
use crate::barrier::*;
use crate::device::QueueId;
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, PlannedUse};

#[derive(Clone, Copy, Debug)]
struct Acc {
    /// Virtual pass index: copy * n + pass.
    pass: usize,
    queue: QueueId,
    stages: Sync,
    write: bool,
    /// A layout transition (a barrier), not output-merger work.
    barrier: bool,
}

/// Frames walked: the plan's first frame, its second, and the steady one, each starting
/// where the one before ended.
const COPIES: usize = 3;

/// One resource's use in one pass (several uses of a resource by one pass are merged).
#[derive(Clone, Copy, Debug)]
struct ResUse {
    pass: usize,
    queue: QueueId,
    stages: Sync,
    access: Access,
    write: bool,
    layout: Option<Layout>,
    /// A read in a read phase that spans several queues.
    shared: bool,
}

struct Walk {
    n: usize,
    before: Vec<BarrierGroup<Entity>>,
    after: Vec<BarrierGroup<Entity>>,
    /// The copy being walked.
    copy: usize,
    wrap: Vec<(usize, Barrier)>,
    /// The layout and access a wrap-around barrier leaves the current resource in at the
    /// end of the frame.
    wrap_end: Option<(Layout, Access)>,
}

#[derive(Clone, Copy, Debug)]
enum Barrier {
    Buffer(BufferBarrier<Entity>),
    Texture(TextureBarrier<Entity>),
}

impl Walk {
    fn push(&mut self, pass: usize, after: bool, b: Barrier) {
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
fn barrier(
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

/// The layout a read phase (consecutive reads of a texture) uses: one every reader's queue
/// can use and whose accesses cover the phase (barrier-spec A5, A6), preferring layouts that
/// keep compression on the graphics engine (EB-4).
fn read_layout(uses: &[&ResUse], compressible: bool) -> Option<Layout> {
    let access = uses.iter().fold(Access::empty(), |a, u| a | u.access);
    let on = |f: fn(&QueueId) -> bool| uses.iter().any(|u| f(&u.queue));
    let dma = on(|q| matches!(q, QueueId::Dma { .. }));
    let compute = on(|q| matches!(q, QueueId::Compute { .. }));
    let graphics = on(|q| *q == QueueId::Graphics);
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

/// Merge a resource's uses per pass and give texture reads their read-phase layout.
fn resource_uses(
    graph: &CompiledGraph,
    resource: Entity,
    compressible: bool,
) -> Result<Vec<ResUse>, String> {
    let mut out: Vec<ResUse> = Vec::new();
    for (i, p) in graph.passes.iter().enumerate() {
        for u in p.uses.iter().filter(|u| u.resource == resource) {
            let (stages, access, write) =
                (u.stages.expand(), u.access.access(), u.access.is_write());
            match out.last_mut().filter(|x| x.pass == i) {
                Some(x) => {
                    x.stages |= stages;
                    x.access |= access;
                    x.write |= write;
                    if write {
                        x.layout = u.layout;
                    }
                }
                None => out.push(ResUse {
                    pass: i,
                    queue: p.queue,
                    stages,
                    access,
                    write,
                    layout: u.layout,
                    shared: false,
                }),
            }
        }
    }
    if out.iter().any(|u| u.layout.is_some()) {
        let mut start = 0;
        while start < out.len() {
            if out[start].write {
                start += 1;
                continue;
            }
            let end = (start..out.len())
                .find(|&j| out[j].write)
                .unwrap_or(out.len());
            let phase: Vec<&ResUse> = out[start..end].iter().collect();
            // Keep the writer's layout when it already serves every read of the phase on the
            // writer's queue (depth read through a read-only view in DEPTH_STENCIL_WRITE):
            // no transition at all.
            let access = phase.iter().fold(Access::empty(), |a, u| a | u.access);
            let writer = start.checked_sub(1).map(|w| out[w]);
            // Also when several queues read it: no transition means none to order among them
            // (a DMA writer's COMMON serves shader reads on every queue).
            let shared = phase.iter().any(|u| u.queue != phase[0].queue);
            let keep = writer.and_then(|w| w.layout).filter(|l| {
                let here = phase
                    .iter()
                    .all(|u| Some(u.queue) == writer.map(|w| w.queue));
                let everywhere = phase
                    .iter()
                    .all(|u| super::queue_type(u.queue).allows_layout(*l));
                layout_allows(*l).contains(access) && (here || (shared && everywhere))
            });
            let layout = keep.or_else(|| read_layout(&phase, compressible)).ok_or_else(|| {
                let names: Vec<&str> = phase.iter().map(|u| graph.passes[u.pass].name.as_str()).collect();
                format!("passes {} read one texture in ways no single layout allows at once (barrier-spec A6)", names.join(", "))
            })?;
            let shared = out[start..end].iter().any(|u| u.queue != out[start].queue);
            for u in &mut out[start..end] {
                u.layout = Some(layout);
                u.shared = shared;
            }
            start = end;
        }
    }
    Ok(out)
}

struct Track {
    texture: bool,
    layout: Layout,
    /// Accesses since the last barrier on their queue that covered them.
    pending: Vec<Acc>,
    /// The latest write, whether its caches were written back, and the other queues that
    /// invalidated theirs for it since (FS-2).
    last_write: Option<Acc>,
    written_back: bool,
    /// Per queue: the stages ordered after, and accesses made visible, of the latest write
    /// (by acquires on other queues, by later barriers on the writer's).
    covered: Vec<(QueueId, Sync, Access)>,
    /// Per queue: accesses since its last barrier on this resource, and that barrier's
    /// SyncAfter and AccessAfter. Sequential barriers on one queue must chain: SyncBefore
    /// contains the previous SyncAfter (barrier-spec A3.4), AccessBefore stays within the
    /// previous AccessAfter (A9).
    since: Vec<(QueueId, Sync, Access)>,
    last_after: Vec<(QueueId, Sync, Access)>,
    /// The queue of the last barrier on the resource: when another queue takes it over
    /// behind a fence, the sequence of barriers starts again there.
    owner: Option<QueueId>,
    /// Per queue: the accesses its last barrier on the resource allowed until the next one.
    declared: Vec<(QueueId, Access)>,
    /// Walking a plan's first frame: earlier barriers are unknown.
    history_unknown: bool,
}

impl Track {
    fn new(texture: bool, layout: Layout) -> Self {
        Track {
            texture,
            layout,
            pending: Vec::new(),
            last_write: None,
            written_back: false,
            covered: Vec::new(),
            since: Vec::new(),
            last_after: Vec::new(),
            owner: None,
            declared: Vec::new(),
            history_unknown: true,
        }
    }

    fn entry(list: &mut Vec<(QueueId, Sync, Access)>, q: QueueId) -> &mut (QueueId, Sync, Access) {
        match list.iter().position(|x| x.0 == q) {
            Some(i) => &mut list[i],
            None => {
                list.push((q, Sync::NONE, Access::empty()));
                list.last_mut().expect("just pushed")
            }
        }
    }

    /// The Before half of a new barrier on `q`, which must also reach `reach` stages.
    fn before(&mut self, q: QueueId, reach: Sync) -> (Sync, Access) {
        // A plan's first frame does not know the barriers before it: wait for everything.
        let unknown = self.history_unknown && !self.last_after.iter().any(|x| x.0 == q);
        let reach = if unknown { reach | Sync::ALL } else { reach };

        let since = *Self::entry(&mut self.since, q);
        let last = *Self::entry(&mut self.last_after, q);
        let access = if !since.2.is_empty() {
            since.2
        } else if last.2.is_empty() {
            Access::NO_ACCESS
        } else {
            last.2
        };
        (since.1 | last.1 | reach, access)
    }

    /// A barrier with this After half was issued on `q`.
    fn issued(&mut self, q: QueueId, after: Sync, access: Access) {
        // The resource changes hands: other queues' barrier sequences start again at their
        // next barrier (as the validator's per-queue history does). Their accesses since still
        // need ordering, unless a layout transition absorbed them (see `transitioned`).
        if self.owner.is_some_and(|o| o != q) {
            self.last_after.retain(|x| x.0 == q);
        }
        self.owner = Some(q);
        self.declared.retain(|x| x.0 != q);
        self.declared.push((q, access));
        *Self::entry(&mut self.since, q) = (q, Sync::NONE, Access::empty());
        *Self::entry(&mut self.last_after, q) = (q, after, access);
    }

    /// A layout transition writes the texture (barrier-spec D): everything before it is
    /// ordered before it, and whatever follows must be ordered after it.
    fn transitioned(&mut self, pass: usize, q: QueueId, before: Sync, after: Sync, access: Access) {
        // Kept as named (not expanded): ALL must stay legal on every queue type (A5).
        let acc = Acc {
            pass,
            queue: q,
            stages: before,
            write: true,
            barrier: true,
        };
        self.pending.clear();
        self.pending.push(acc);
        // Everything before the transition is ordered before it, on every queue.
        self.since.clear();
        self.last_after.retain(|x| x.0 == q);
        self.last_write = Some(acc);
        self.written_back = true;
        self.covered.clear();
        self.cover(q, after.expand(), access);
    }

    fn covers(&self, q: QueueId, stages: Sync, access: Access) -> bool {
        self.covered
            .iter()
            .any(|c| c.0 == q && c.1.contains(stages) && c.2.contains(access))
    }

    fn cover(&mut self, q: QueueId, stages: Sync, access: Access) {
        let c = Self::entry(&mut self.covered, q);
        c.1 |= stages;
        c.2 |= access;
    }

    /// `q` accessed the resource.
    fn accessed(&mut self, q: QueueId, stages: Sync, access: Access) {
        let e = Self::entry(&mut self.since, q);
        e.1 |= stages;
        e.2 |= access;
    }
}

/// Walk one resource's uses of one copy of the frame.
fn walk_copy(
    w: &mut Walk,
    e: Entity,
    uses: &[ResUse],
    copy: usize,
    t: &mut Track,
    graph: &CompiledGraph,
) -> Result<(), String> {
    for u in uses {
        let v = copy * w.n + u.pass;
        let q = u.queue;
        let want = if t.texture {
            u.layout.unwrap_or(Layout::Common)
        } else {
            Layout::Undefined
        };
        // Activating a transient discards its contents: nothing to write back or acquire.
        let discard = t.texture && t.layout == Layout::Undefined;
        // A read phase shared by several queues changes layout once, at the end of the writer's
        // pass, which every reader is fenced or queued after.
        if let Some(wr) = t.last_write.filter(|wr| {
            u.shared
                && !u.write
                && !wr.barrier
                && t.layout != want
                && can_transition(wr.queue, t.layout, want)
        }) {
            let (sb, ab) = t.before(wr.queue, wr.stages);
            w.push(
                wr.pass,
                true,
                barrier(
                    e,
                    t.texture,
                    sb,
                    Sync::NONE,
                    ab,
                    Access::NO_ACCESS,
                    t.layout,
                    want,
                ),
            );
            t.issued(wr.queue, Sync::NONE, Access::NO_ACCESS);
            t.transitioned(wr.pass, wr.queue, sb, Sync::NONE, Access::NO_ACCESS);
            t.layout = want;
        }
        let mut acquire = false;
        if let Some(wr) = t.last_write.filter(|wr| wr.queue != q && !discard) {
            if !t.written_back {
                // The producer writes its caches back at the end of its pass (EB-3), and moves
                // the layout if the consumer's queue cannot (barrier-spec A5).
                let to = if t.texture
                    && !can_transition(q, t.layout, want)
                    && can_transition(wr.queue, t.layout, want)
                {
                    want
                } else {
                    t.layout
                };
                let (sb, ab) = t.before(wr.queue, wr.stages);
                w.push(
                    wr.pass,
                    true,
                    barrier(
                        e,
                        t.texture,
                        sb,
                        Sync::NONE,
                        ab,
                        Access::NO_ACCESS,
                        t.layout,
                        to,
                    ),
                );
                t.issued(wr.queue, Sync::NONE, Access::NO_ACCESS);
                t.written_back = true;
                if to != t.layout {
                    t.transitioned(wr.pass, wr.queue, sb, Sync::NONE, Access::NO_ACCESS);
                }
                t.layout = to;
            }
            // Writes need no invalidation, only the fence compile plans; across queues the
            // fence orders every stage, so one acquire per queue makes the write visible.
            acquire = !u.write && !t.covered.iter().any(|c| c.0 == q && !c.2.is_empty());
        }
        // A read on the writer's own queue needs the write ordered before its stages and
        // visible to its access; an earlier barrier may have covered other stages only.
        let raster = |s: Sync| s == Sync::RENDER_TARGET || s == Sync::DEPTH_STENCIL;
        let uncovered_read = !u.write
            && t.last_write.is_some_and(|wr| {
                wr.queue == q && !(raster(u.stages) && wr.stages == u.stages && !wr.barrier)
            })
            && !t.covers(q, u.stages, u.access);
        if t.texture && t.layout != want && !can_transition(q, t.layout, want) {
            // Nobody wrote; let the last queue that touched it move it, after its use.
            let last = t
                .pending
                .iter()
                .rev()
                .find(|a| can_transition(a.queue, t.layout, want))
                .copied();
            match last {
                Some(a) => {
                    let (sb, ab) = t.before(a.queue, a.stages);
                    w.push(
                        a.pass,
                        true,
                        barrier(
                            e,
                            true,
                            sb,
                            Sync::NONE,
                            ab,
                            Access::NO_ACCESS,
                            t.layout,
                            want,
                        ),
                    );
                    t.issued(a.queue, Sync::NONE, Access::NO_ACCESS);
                    t.transitioned(a.pass, a.queue, sb, Sync::NONE, Access::NO_ACCESS);
                    t.layout = want;
                }
                None if want == Layout::Common && t.layout == Layout::Undefined => t.layout = want,
                None => {
                    return Err(format!(
                        "pass {} on {q} needs {} but the texture is in {} and no queue that touched it can move it (barrier-spec A5)",
                        graph.passes[u.pass].name,
                        want.spec_name(),
                        t.layout.spec_name()
                    ));
                }
            }
        }
        // Same-queue accesses a round trip of fences already completed need no barrier to be
        // ordered before a write (reads still need their caches made visible below).
        let complete = graph.passes[u.pass]
            .own_complete
            .map(|k| copy as i64 * w.n as i64 + k);
        let done = |a: &Acc| complete.is_some_and(|k| (a.pass as i64) <= k);
        let same: Vec<Acc> = t
            .pending
            .iter()
            .copied()
            .filter(|a| a.queue == q && !(u.write && done(a)))
            .collect();
        // Output-merger work on one target is ordered in API order (clears, draws, resolves):
        // consecutive render-target or depth accesses need no barrier between them.
        let conflict = uncovered_read
            || (u.write
                && same
                    .iter()
                    .any(|a| !(raster(u.stages) && a.stages == u.stages)));
        let relayout = t.texture && t.layout != want;
        // The first frame of a plan knows nothing of what came before: every first access on
        // a queue gets a barrier (EB-8a: no barrier-free first access).
        let unknown = t.history_unknown && !t.last_after.iter().any(|x| x.0 == q);
        // The last barrier on this queue declared which accesses may follow it (AccessAfter);
        // any other access needs a new one (A9).
        let undeclared = t.declared.iter().any(|x| {
            x.0 == q && !x.1.is_empty() && (x.1 == Access::NO_ACCESS || !x.1.contains(u.access))
        });
        if conflict || relayout || acquire || unknown || undeclared {
            let mut reach = same.iter().fold(Sync::NONE, |s, x| s | x.stages);
            if uncovered_read && let Some(wr) = t.last_write {
                reach |= wr.stages;
            }
            let (sb, ab) = t.before(q, reach);
            let (lb, la) = if t.texture {
                (t.layout, want)
            } else {
                (Layout::Undefined, Layout::Undefined)
            };
            w.push(
                v,
                false,
                barrier(e, t.texture, sb, u.stages, ab, u.access, lb, la),
            );
            t.issued(q, u.stages, u.access);
            if same.iter().any(|a| a.write) {
                t.written_back = true;
            }
            t.pending.retain(|a| a.queue != q);
            t.cover(q, u.stages, u.access);
            if lb != la {
                t.transitioned(v, q, sb, u.stages, u.access);
            }
        }
        if t.texture {
            t.layout = want;
        }
        let acc = Acc {
            pass: v,
            queue: q,
            stages: u.stages,
            write: u.write,
            barrier: false,
        };
        t.accessed(q, u.stages, u.access);
        if u.write {
            // Everything before is ordered before this write: by the barrier on this queue,
            // by fences on the others (compile plans those).
            t.pending.clear();
            t.last_write = Some(acc);
            t.written_back = false;
            t.covered.clear();
        }
        t.pending.push(acc);
    }
    Ok(())
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
    let mut resources: Vec<Entity> = Vec::new();
    for p in &graph.passes {
        for u in &p.uses {
            if !resources.contains(&u.resource) {
                resources.push(u.resource);
            }
        }
    }
    let mut frames: Vec<FramePlan> = (0..COPIES).map(|_| FramePlan::default()).collect();
    for &e in &resources {
        let s = start(e);
        let texture = graph
            .passes
            .iter()
            .flat_map(|p| &p.uses)
            .any(|u: &PlannedUse| u.resource == e && u.layout.is_some());
        let uses = resource_uses(graph, e, s.compressible)?;
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
                        super::queue_type(u.queue) != crate::barrier::QueueType::Copy
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
    for (copy, f) in frames.iter_mut().enumerate() {
        f.before = w.before[copy * n..(copy + 1) * n].to_vec();
        f.after = w.after[copy * n..(copy + 1) * n].to_vec();
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
