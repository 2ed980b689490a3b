//! Barriers: the `conservative` strategy, correct first and minimal never.
//!
//! Between dependent passes on one queue, after every cross-queue wait, before every fence
//! and at the start of each queue's frame, a global ALL -> ALL barrier writes back and
//! invalidates every cache (FS-2, FS-3). Textures additionally get the layout transitions
//! their uses need (EB-1, EB-4), issued on a queue that may perform them (barrier-spec A5):
//! the consumer's if it can, the producer's otherwise, through COMMON if neither can alone.
//! Transients are activated from UNDEFINED with DISCARD at their first use each frame (EB-5).
//! Textures shared between queues are parked in COMMON at the end of the frame so that any
//! queue can pick them up next frame. A read phase several queues share is entered by its
//! writer, before its fence, and each reading queue declares its own access (EB-11) without
//! changing the layout under another queue's read (FS-1); one a DMA engine shares is read in
//! COMMON, the only layout a copy engine may use (barrier-spec A5). A shared read phase that
//! opens the frame of a texture that keeps its contents has no writer in the frame: it is read
//! in the layout the texture starts the frame in where that serves every reader; otherwise the
//! frame's last writer moves the texture into it for the next frame, and a plan's first frame
//! in a prologue on the graphics queue that the other queues wait for. A queue whose
//! last barrier on a texture handed it over (NO_ACCESS), in this frame or at the end of the
//! last, declares its access again before it uses it, in the same layout too (EB-11). No
//! access is ever barrier-free (EB-8a).

use bevy_ecs::prelude::*;
use hashbrown::HashMap;

use super::read_phases::{keep_opening_layout, phase_layouts, shared_read};
use super::{BarrierPlan, FramePlan, PassBarriersBuilder};
use super::{TextureStart, can_transition};
use crate::barrier::*;
use crate::device::QueueId;
use crate::plan::{CompiledGraph, PlanError};

/// The full flush of the conservative strategy, in the sync and access a queue supports.
pub fn full_flush(queue: QueueId) -> GlobalBarrier {
    let (before, after) = match queue {
        QueueId::Graphics => (
            Access::WRITES,
            Access::WRITES
                | Access::VERTEX_BUFFER
                | Access::CONSTANT_BUFFER
                | Access::INDEX_BUFFER
                | Access::DEPTH_STENCIL_READ
                | Access::SHADER_RESOURCE
                | Access::INDIRECT_ARGUMENT
                | Access::COPY_SOURCE
                | Access::RESOLVE_SOURCE,
        ),
        QueueId::Compute { .. } => (
            Access::UNORDERED_ACCESS | Access::COPY_DEST,
            Access::UNORDERED_ACCESS
                | Access::COPY_DEST
                | Access::CONSTANT_BUFFER
                | Access::SHADER_RESOURCE
                | Access::INDIRECT_ARGUMENT
                | Access::COPY_SOURCE,
        ),
        QueueId::Dma { .. } => (Access::COPY_DEST, Access::COPY_DEST | Access::COPY_SOURCE),
    };
    GlobalBarrier {
        sync_before: Sync::ALL,
        sync_after: Sync::ALL,
        access_before: before,
        access_after: after,
    }
}

fn transition(
    resource: Entity,
    from: (Layout, Access),
    to: (Layout, Access),
    discard: bool,
) -> TextureBarrier<Entity> {
    TextureBarrier {
        sync_before: Sync::ALL,
        sync_after: Sync::ALL,
        access_before: from.1,
        access_after: to.1,
        layout_before: from.0,
        layout_after: to.0,
        resource,
        range: SubresourceRange::ALL,
        flags: TextureBarrierFlags { discard },
    }
}

/// Per texture, the access the last barrier on each queue declared for it (EB-11).
type Declared = HashMap<Entity, Vec<(QueueId, Access)>>;

/// Plan conservative barriers for a compiled graph, starting from `start` per texture.
///
/// The frame repeats, so what the last barrier on each queue declared for a texture at its
/// start is what the frame's own barriers declared by its end: a queue whose last barrier on
/// a texture handed it over (NO_ACCESS) declares its access again before it next uses it,
/// even in the same layout (EB-11). The frame is walked once to learn that and again from it.
pub fn plan_conservative(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart,
) -> Result<BarrierPlan, PlanError> {
    let (_, end) = walk(graph, &start, &Declared::new())?;
    let (fp, _) = walk(graph, &start, &end)?;
    Ok(BarrierPlan {
        frames: vec![fp],
        ..Default::default()
    })
}

/// One frame's conservative barriers, each queue starting from the accesses `seeds` says its
/// last barrier on a texture declared; with what the frame's barriers leave declared.
fn walk(
    graph: &CompiledGraph,
    start: &impl Fn(Entity) -> TextureStart,
    seeds: &Declared,
) -> Result<(FramePlan, Declared), PlanError> {
    let n = graph.passes.len();
    let mut fp = FramePlan::default();
    let mut bb = PassBarriersBuilder::new(n);
    let mut first_on_queue: HashMap<QueueId, usize> = HashMap::new();
    for (i, p) in graph.passes.iter().enumerate() {
        let first = *first_on_queue.entry(p.queue).or_insert(i) == i;
        let depends = graph
            .edges
            .iter()
            .any(|&(a, b)| b == i && graph.passes[a].queue == p.queue);
        if first || depends || !p.waits.is_empty() || !p.waits_previous.is_empty() {
            bb.global(i, false, full_flush(p.queue));
        }
        if p.signals {
            bb.global(i, true, full_flush(p.queue));
        }
    }

    struct Track {
        layout: Layout,
        access: Access,
        last: Option<usize>,
        queues: Vec<QueueId>,
        transient: bool,
        /// A swap-chain buffer: the present transitions it into PRESENT (RL-1).
        chain: bool,
        /// Per queue, the access the last barrier on it for this texture declared after it
        /// (EB-11: an access must be declared by the last barrier on its queue).
        declared: Vec<(QueueId, Access)>,
    }
    let declare = |t: &mut Track, q: QueueId, access: Access| match t
        .declared
        .iter_mut()
        .find(|d| d.0 == q)
    {
        Some(d) => d.1 = access,
        None => t.declared.push((q, access)),
    };
    let mut tracks: Vec<(Entity, Track)> = Vec::new();
    let mut declared_at_end = Declared::new();
    // A transition declares NO_ACCESS on every queue that used the texture but made it: they
    // declared accesses of the old layout, or none of their own (EB-11).
    let hand_over = |t: &mut Track| {
        for q in t.queues.clone() {
            declare(t, q, Access::NO_ACCESS);
        }
        for d in &mut t.declared {
            d.1 = Access::NO_ACCESS;
        }
    };
    let mut phases: HashMap<Entity, Vec<Option<Layout>>> = HashMap::new();
    for (i, p) in graph.passes.iter().enumerate() {
        for u in graph.uses_of(p) {
            let Some(want) = u.layout else { continue };
            let phase = phases.entry(u.key).or_insert_with(|| {
                let s = start(u.key);
                let keeps = !s.transient && !s.chain;
                let mut phase = phase_layouts(graph, u.key, keeps);
                if keeps {
                    keep_opening_layout(graph, u.key, s.state.layout, &mut phase);
                }
                phase
            });
            let want = phase[i].unwrap_or(want);
            let pos = match tracks.iter().position(|(e, _)| *e == u.key) {
                Some(pos) => pos,
                None => {
                    let s = start(u.key);
                    fp.start.push((u.key, s.state.layout, s.state.access));
                    let (layout, access) = if s.transient {
                        (Layout::Undefined, Access::NO_ACCESS)
                    } else {
                        (s.state.layout, s.state.access)
                    };
                    tracks.push((
                        u.key,
                        Track {
                            layout,
                            access,
                            last: None,
                            queues: Vec::new(),
                            transient: s.transient,
                            chain: s.chain,
                            declared: seeds.get(&u.key).cloned().unwrap_or_default(),
                        },
                    ));
                    tracks.len() - 1
                }
            };
            let t = &mut tracks[pos].1;
            if !t.queues.contains(&p.queue) {
                t.queues.push(p.queue);
            }
            // Every access the pass makes of the resource (a copy onto itself reads and
            // writes it), so the barrier declares them all (barrier-spec A9).
            let access = graph
                .uses_of(p)
                .iter()
                .filter(|x| x.key == u.key)
                .fold(Access::empty(), |a, x| a | x.access.access());
            let to = (want, access);
            if t.layout == want {
                // Another queue moved it into this layout declaring nothing this queue does
                // (a handover's NO_ACCESS): declare this queue's access before it reads.
                let undeclared = (t.declared.iter())
                    .find(|d| d.0 == p.queue)
                    .filter(|d| !d.1.contains(access));
                if let Some(&(_, before)) = undeclared {
                    let e = u.key;
                    bb.texture(i, false, transition(e, (want, before), to, false));
                    declare(t, p.queue, access);
                }
                // A DMA engine issues no barrier on a texture (barrier-spec A5: it cannot
                // transition one), so the next barrier's AccessBefore is still what the last
                // barrier declared (EB-11, A9); the copy's write is written back by the full
                // flush before its fence (FS-2).
                if !matches!(p.queue, QueueId::Dma { .. }) {
                    t.access = to.1;
                }
                t.last = Some(i);
                continue;
            }
            let e = u.key;
            // A read phase several queues share before anything in the plan wrote the texture
            // (a first frame reading history) has no writer to enter its layout before the
            // readers' fences: the plan's first frame moves it in its prologue, on the graphics
            // queue, which every other queue waits for (FS-1); each reader then declares its
            // access (EB-11).
            if !t.transient
                && !t.chain
                && t.last.is_none()
                && t.layout != Layout::Undefined
                && shared_read(graph, phase, i, e)
                && can_transition(QueueId::Graphics, t.layout, want)
            {
                let moved = (want, Access::NO_ACCESS);
                fp.prologue
                    .push(transition(e, (t.layout, Access::NO_ACCESS), moved, false));
                let readers = (graph.passes.iter())
                    .filter(|q| graph.uses_of(q).iter().any(|x| x.key == e))
                    .map(|q| q.queue);
                for q in readers {
                    declare(t, q, Access::NO_ACCESS);
                }
                (t.layout, t.access) = moved;
                bb.texture(i, false, transition(e, moved, to, false));
                declare(t, p.queue, to.1);
                t.access = to.1;
                t.last = Some(i);
                continue;
            }
            let from = (t.layout, t.access);
            let discard = t.layout == Layout::Undefined;
            // Queues other than the ones this transition involves declared accesses of the
            // old layout: they declare again before they use the new one.
            hand_over(t);
            // A read phase several queues share is entered by its writer, at the end of its
            // pass and so before the fences that order the readers after it: a reader's
            // transition would be a write racing another queue's read (FS-1).
            let by_writer = shared_read(graph, phase, i, e)
                .then_some(t.last)
                .flatten()
                .filter(|&l| can_transition(graph.passes[l].queue, from.0, want));
            if by_writer.is_none() && can_transition(p.queue, from.0, want) {
                bb.texture(i, false, transition(e, from, to, discard));
            } else if let Some(prev) = by_writer.or(t
                .last
                .filter(|&l| can_transition(graph.passes[l].queue, from.0, want)))
            {
                bb.texture(
                    prev,
                    true,
                    transition(e, from, (want, Access::NO_ACCESS), discard),
                );
                declare(t, graph.passes[prev].queue, Access::NO_ACCESS);
                bb.texture(
                    i,
                    false,
                    transition(e, (want, Access::NO_ACCESS), to, false),
                );
            } else if let Some(prev) = t
                .last
                .filter(|&l| can_transition(graph.passes[l].queue, from.0, Layout::Common))
            {
                let parked = (Layout::Common, Access::NO_ACCESS);
                bb.texture(prev, true, transition(e, from, parked, discard));
                declare(t, graph.passes[prev].queue, Access::NO_ACCESS);
                if want != Layout::Common {
                    bb.texture(i, false, transition(e, parked, to, false));
                }
            } else if want == Layout::Common && from.0 == Layout::Undefined {
                // A DMA engine cannot activate a texture; it stays undefined-but-common.
            } else {
                return Err(PlanError::NoTransition {
                    pass: p.entity,
                    queue: p.queue,
                    want,
                    from: from.0,
                });
            }
            declare(t, p.queue, to.1);
            t.layout = want;
            // A DMA engine that takes an undefined texture as it is declares its access in no
            // barrier (A5): the next barrier's AccessBefore stays what the last one declared
            // (EB-11, A9).
            if !(matches!(p.queue, QueueId::Dma { .. }) && from.0 == Layout::Undefined) {
                t.access = to.1;
            }
            t.last = Some(i);
        }
    }
    for (e, mut t) in tracks {
        let mut end = (t.layout, t.access);
        // Shared imported textures end the frame in COMMON, which every queue can leave. A
        // back buffer is left to the present, which decompresses it in the layout its last
        // use left it in and then moves it into PRESENT (RL-1, FS-4).
        let last = t
            .last
            .filter(|&l| can_transition(graph.passes[l].queue, t.layout, Layout::Common));
        // One that ends in a read phase several queues share stays in its layout when the
        // frame's first use can take it from there: the last reader's queue does not wait for
        // the other queues' reads, so a transition there would race them (FS-1).
        let first = (graph.passes.iter()).find_map(|p| {
            let u = graph.uses_of(p).iter().find(|u| u.key == e)?;
            Some((p.queue, u.layout?))
        });
        let stays = t
            .last
            .is_some_and(|l| shared_read(graph, &phases[&e], l, e))
            && first.is_some_and(|(q, want)| t.layout == want || can_transition(q, t.layout, want));
        // A texture that keeps its contents and opens the frame with a read phase several
        // queues share is moved into that phase's layout by the frame's last writer, as a
        // phase within the frame is entered by its writer: the next frame's readers on other
        // queues wait for that write, so none reads while the layout changes (FS-1).
        let opening = (graph
            .passes
            .iter()
            .position(|p| graph.uses_of(p).iter().any(|u| u.key == e)))
        .filter(|&f| shared_read(graph, &phases[&e], f, e))
        .and_then(|f| {
            let own = graph
                .uses_of(&graph.passes[f])
                .iter()
                .find(|u| u.key == e)?
                .layout;
            phases[&e][f].or(own)
        });
        let writer = t.last.filter(|&l| {
            (graph.uses_of(&graph.passes[l]).iter()).any(|u| u.key == e && u.access.is_write())
                && can_transition(graph.passes[l].queue, t.layout, opening.unwrap_or(t.layout))
        });
        if !t.transient
            && !t.chain
            && let Some(want) = opening.filter(|&w| w != t.layout)
            && let Some(writer) = writer
        {
            let entered = (want, Access::NO_ACCESS);
            bb.texture(writer, true, transition(e, end, entered, false));
            hand_over(&mut t);
            fp.end.push((e, want, Access::NO_ACCESS));
            declared_at_end.insert(e, t.declared);
            continue;
        }
        // A transient a DMA engine uses first must be in COMMON for it too (A5).
        let dma_first = first.is_some_and(|(q, _)| matches!(q, QueueId::Dma { .. }));
        if (!t.transient || dma_first)
            && !t.chain
            && !stays
            && t.queues.len() > 1
            && t.layout != Layout::Common
            && let Some(last) = last
        {
            let parked = (Layout::Common, Access::NO_ACCESS);
            bb.texture(last, true, transition(e, end, parked, false));
            hand_over(&mut t);
            end = parked;
        }
        fp.end.push((e, end.0, end.1));
        declared_at_end.insert(e, t.declared);
    }
    fp.barriers = bb.finish();
    Ok((fp, declared_at_end))
}
