//! The `legacy` strategy: the planner thinks in legacy resource states (barrier-spec B) and
//! issues legacy transitions, UAV barriers and aliasing barriers; the driver translates them
//! into enhanced barriers when the lists are recorded (EB-10), and the device prices them as
//! legacy barriers, which hold the whole front end.
//!
//! Per resource, in compiled order: a transition wherever the state changes (on the queue of
//! the use, or at the end of the producer's pass when the consumer's queue cannot name the
//! state), and a hand-over through COMMON when a write crosses queues in one state, whose
//! caches only a barrier writes back and invalidates (FS-2); a UAV barrier between
//! consecutive unordered-access uses on one queue, across the frame boundary too, and an
//! aliasing barrier between copies of one resource no state change orders (FS-3); an aliasing
//! barrier to activate a transient at its first use each frame. A pass's uses of one resource
//! give it one state, its read states combined. A read phase several queues share is entered by its
//! writer, in the phase's combined read state, before the fences that order the readers, so
//! no reader transitions it under another queue's read (FS-1). A compute writer cannot name
//! PIXEL_SHADER_RESOURCE (barrier-spec A5): it enters the part of the state it can name, and a
//! graphics reader that needs more widens it after its fence wait within the same layout
//! (NON_PIXEL_ and PIXEL_SHADER_RESOURCE are both SHADER_RESOURCE, barrier-spec B), which no
//! other queue's read can race, and gives it back if another queue reads on, or if the frame
//! ends in the phase and the next frame's first use cannot leave the wider state; where the
//! widening would change the layout (a pixel shader's read beside a compute queue's copy), the
//! phase is COMMON, which serves every read on every queue (barrier-spec A6). Resources
//! shared between queues go back to COMMON after their last use in the frame, the state every
//! queue may start from, unless the frame ends in such a shared read phase that the next
//! frame's first use can leave; a transient stays as its last use left it where the queue of
//! its next activation can leave that state, since the activation discards it (EB-5). A read
//! phase a DMA engine shares, or that several queues share before a DMA engine's write, is
//! COMMON, the one state a copy engine may use (barrier-spec A5), which serves shader reads
//! too. A handover from a copy engine, which writes in COMMON, is flushed with an aliasing
//! barrier, also when the next frame's first use takes it, and a reader on another queue that
//! makes no transition after it flushes its own caches with one (FS-2). The back buffer is
//! left to the present stage.

use bevy_ecs::prelude::*;

use super::TextureStart;
use crate::barrier::{Access, Layout, LegacyBarrier, ResourceStates as S};
use crate::device::QueueId;
use crate::model::UseAccess;
use crate::plan::{CompiledGraph, FramePlan, PlanError};

mod phases;
mod plan;
mod states;

use phases::shared_phases;
pub use plan::plan_legacy;
use states::{may_move, pass_state, transition};

/// One frame of legacy barriers, starting from `states`, which it leaves as the frame ends.
pub(super) fn walk(
    graph: &CompiledGraph,
    start: &impl Fn(Entity) -> TextureStart,
    resources: &[Entity],
    states: &mut [S],
    first: bool,
) -> Result<FramePlan, PlanError> {
    let n = graph.passes.len();
    let mut fp = FramePlan {
        legacy_before: vec![Vec::new(); n],
        legacy_after: vec![Vec::new(); n],
        ..Default::default()
    };
    for (&e, state) in resources.iter().zip(states.iter_mut()) {
        let s = start(e);
        let mut last: Option<(usize, QueueId, UseAccess)> = None;
        let mut queues: Vec<QueueId> = Vec::new();
        let texture = (graph.passes.iter())
            .flat_map(|p| graph.uses_of(p))
            .any(|u| u.key == e && u.layout.is_some());
        let may = |q: QueueId, from: S, to: S| may_move(q, from, to, texture);
        // The queue and access of the frame's last use, which the next frame's first follows.
        let frame_last = (graph.passes.iter().rev()).find_map(|p| {
            let (access, _) = pass_state(graph.uses_of(p).iter().filter(|u| u.key == e), p.queue)?;
            Some((p.queue, access))
        });
        let phases = shared_phases(graph, e, !s.transient && !s.chain, texture);
        let uses = |k: usize| graph.uses_of(&graph.passes[k]).iter().any(|u| u.key == e);
        // In a shared read phase the writer moved into its state: the writer's queue, and the
        // other queues whose caches were invalidated for it since.
        let mut phase_writer: Option<QueueId> = None;
        let mut invalidated: Vec<QueueId> = Vec::new();
        // The queue of the last write a reader must see: at the frame's start, the previous
        // frame's last write when the resource keeps its contents.
        let mut writer: Option<QueueId> = (!s.transient && !s.chain)
            .then(|| {
                (graph.passes.iter().rev())
                    .find(|p| {
                        graph
                            .uses_of(p)
                            .iter()
                            .any(|u| u.key == e && u.access.is_write())
                    })
                    .map(|p| p.queue)
            })
            .flatten();
        for (i, p) in graph.passes.iter().enumerate() {
            let Some((access, want)) =
                pass_state(graph.uses_of(p).iter().filter(|u| u.key == e), p.queue)
            else {
                continue;
            };
            let (base, want) = phases[i].map_or((want, want), |ph| (ph.base, ph.want));
            let q = p.queue;
            // The first read of a phase several queues share, after a write: the writer moves
            // the resource into the phase's combined read state at the end of its pass, before
            // the fences that order the readers after it, so no reader changes the state while
            // another queue reads (FS-1: a transition is a write).
            if let Some((j, lq, la)) = last
                && la.is_write()
                && phases[i].is_some()
                && *state != base
                && may(lq, *state, base)
            {
                fp.legacy_after[j].push(transition(e, *state, base));
                *state = base;
                phase_writer = Some(lq);
                invalidated.clear();
            }
            if phases[i].is_none() {
                phase_writer = None;
            } else if phase_writer.is_some_and(|w| w != q)
                && !invalidated.contains(&q)
                && *state == want
            {
                // The reader's queue keeps no state change of its own to invalidate its caches
                // with after the fence, so a flush does it (FS-2; legacy barriers cannot name a
                // cache, and an aliasing barrier is the one that flushes them all).
                fp.legacy_before[i].push(LegacyBarrier::Aliasing {
                    before: None,
                    after: None,
                });
                invalidated.push(q);
            }
            if !queues.contains(&q) {
                queues.push(q);
            }
            if last.is_none() && s.transient {
                // Activation: the memory may have held anything (EB-9d).
                fp.legacy_before[i].push(LegacyBarrier::Aliasing {
                    before: None,
                    after: Some(e),
                });
            }
            if last.is_none()
                && !first
                && !s.transient
                && !s.chain
                && *state == want
                && want == S::UNORDERED_ACCESS
                && frame_last
                    .is_some_and(|(lq, la)| lq == q && (la.is_write() || access.is_write()))
            {
                // The frame's first unordered access follows the previous frame's last one on
                // this queue, in the same state: only a UAV barrier orders them (FS-3), as
                // between two passes of one frame.
                fp.legacy_before[i].push(LegacyBarrier::Uav { resource: Some(e) });
            }
            if last.is_none() && s.chain {
                // A back buffer comes out of presentation in COMMON (PRESENT).
                *state = S::COMMON;
            }
            if last.is_none()
                && first
                && !s.chain
                && !s.transient
                && phases[i].is_some()
                && *state != base
            {
                // A read phase several queues share before anything in the plan wrote the
                // resource: no writer moves it before the readers' fences, and a reader's
                // transition would race the other queue's reads (FS-1). The plan's first frame
                // moves it in its prologue on the graphics queue, which the others wait for;
                // their caches are flushed after the wait (FS-2).
                fp.legacy_prologue.push(transition(e, *state, base));
                *state = base;
                phase_writer = Some(QueueId::Graphics);
                if q != QueueId::Graphics {
                    fp.legacy_before[i].push(LegacyBarrier::Aliasing {
                        before: None,
                        after: None,
                    });
                    invalidated.push(q);
                }
            }
            if let Some((j, lq, la)) = last {
                if lq != q && *state == S::COMMON && la.is_write() {
                    // A copy engine writes in COMMON: no state changes, so only the aliasing
                    // barrier (a full flush) writes its data back before the handover.
                    fp.legacy_after[j].push(LegacyBarrier::Aliasing {
                        before: Some(e),
                        after: None,
                    });
                } else if lq != q
                    && *state != S::COMMON
                    && (*state != want || la.is_write())
                    && !(phases[i].is_some() && *state == base)
                    && !(phases[j].is_some()
                        && !la.is_write()
                        && access.is_write()
                        && may(q, *state, want))
                {
                    // Hand over through COMMON, written back by the producer (EB-10), also
                    // when both queues use one state (a UAV written on one queue and then on
                    // the other): the state asks for no transition, but the write must leave
                    // the producer's caches and the consumer's must be invalidated after its
                    // fence wait, which a console makes only in a barrier (FS-2). Not
                    // from the last reader of a phase several queues share to a writer that
                    // can make the move: another queue's read of the phase may still run, and
                    // a transition is a write (FS-1); the writer is ordered after every read
                    // of the phase (on its queue, or by fences), so it moves the state itself.
                    if !may(lq, *state, S::COMMON) {
                        return Err(PlanError::LegacyRelease {
                            pass: graph.passes[j].entity,
                            resource: e,
                            queue: lq,
                            state: *state,
                        });
                    }
                    fp.legacy_after[j].push(transition(e, *state, S::COMMON));
                    *state = S::COMMON;
                } else if lq == q
                    && *state == want
                    && want == S::UNORDERED_ACCESS
                    && (la.is_write() || access.is_write())
                {
                    fp.legacy_before[i].push(LegacyBarrier::Uav { resource: Some(e) });
                } else if lq == q
                    && *state == want
                    && [S::COMMON, S::COPY_DEST].contains(&want)
                    && (la.is_write() || access.is_write())
                {
                    // Two copies of one resource on one queue, one of them writing, in a state
                    // no transition leaves (a copy engine's COMMON, or COPY_DEST twice): the
                    // queue does not order them by itself (FS-3), and a legacy barrier that
                    // names neither a state change nor a UAV is the aliasing barrier, which
                    // waits for the work before it.
                    fp.legacy_before[i].push(LegacyBarrier::Aliasing {
                        before: None,
                        after: None,
                    });
                }
            } else if !first && !s.chain && *state != want && !may(q, *state, want) {
                return Err(PlanError::LegacyTake {
                    pass: p.entity,
                    resource: e,
                    queue: q,
                    state: *state,
                });
            }
            if *state != want {
                if !may(q, *state, want) {
                    return Err(PlanError::LegacyMove {
                        pass: p.entity,
                        resource: e,
                        queue: q,
                        from: *state,
                        to: want,
                    });
                }
                fp.legacy_before[i].push(transition(e, *state, want));
                *state = want;
                invalidated.push(q);
                // A reader that widened a shared phase's state gives it back, in the same
                // layout, when another queue reads on in the phase: that queue may not name the
                // wider state (barrier-spec A5).
                let reads_on = (i + 1..n)
                    .take_while(|&k| phases[k].is_some() || !uses(k))
                    .any(|k| phases[k].is_some() && graph.passes[k].queue != q);
                if want != base && reads_on {
                    fp.legacy_after[i].push(transition(e, want, base));
                    *state = base;
                }
            } else if !access.is_write()
                && writer.is_some_and(|w| w != q)
                && !matches!(q, QueueId::Dma { .. })
                && !invalidated.contains(&q)
            {
                // A read of another queue's write with no transition on this queue, as in a
                // COMMON phase after a copy engine's write: nothing would invalidate this
                // queue's caches after its fence wait, so an aliasing barrier does (FS-2).
                fp.legacy_before[i].push(LegacyBarrier::Aliasing {
                    before: None,
                    after: None,
                });
                invalidated.push(q);
            }
            if access.is_write() {
                writer = Some(q);
                invalidated.clear();
            }
            last = Some((i, q, access));
        }
        if s.chain && *state == S::RENDER_TARGET {
            // The present stage moves the back buffer out of RENDER_TARGET (barrier-spec B).
            fp.end
                .push((e, Layout::RenderTarget, Access::RENDER_TARGET));
        }
        if let Some((j, lq, la)) = last {
            // A copy engine's write in COMMON that the next frame's first use takes on
            // another queue: as within the frame, only the aliasing barrier's flush writes it
            // back before the fence (FS-2); the reader's transition invalidates its caches.
            let next_queue = (graph.passes.iter())
                .find(|p| graph.uses_of(p).iter().any(|u| u.key == e))
                .map(|p| p.queue);
            if la.is_write()
                && !s.transient
                && *state == S::COMMON
                && next_queue.is_some_and(|fq| fq != lq)
            {
                fp.legacy_after[j].push(LegacyBarrier::Aliasing {
                    before: Some(e),
                    after: None,
                });
            }
            // Resources shared between queues go back to COMMON, the state every queue may
            // start from. A transient stays as it is where its next activation can leave its
            // state: the next frame activates it with an aliasing barrier and discards what it
            // held, so a transition now would only decompress what nobody reads (EB-4, EB-5).
            // A frame that ends in a read phase several queues share stays in its read state
            // when the frame's first use can take it from there: the last reader's queue does
            // not wait for the other queues' reads, so a transition there would race them
            // (FS-1); the next frame's writer waits for them before its own transition.
            let first = (graph.passes.iter().enumerate()).find_map(|(i, p)| {
                let (_, want) =
                    pass_state(graph.uses_of(p).iter().filter(|u| u.key == e), p.queue)?;
                Some((p.queue, phases[i].map_or(want, |ph| ph.want)))
            });
            // A reader that widened the phase's state gives it back, in the same layout, when
            // the next frame's first use can leave only the phase's base (a compute writer,
            // which cannot name PIXEL_SHADER_RESOURCE, barrier-spec A5), or when the phase goes
            // on into the next frame with another queue's read, which may not name the wider
            // state either: moving it to COMMON instead would change the layout under the
            // other queues' reads (FS-1).
            let reads_on = (0..n)
                .take_while(|&k| phases[k].is_some() || !uses(k))
                .any(|k| phases[k].is_some() && graph.passes[k].queue != lq);
            if let (Some(ph), Some((fq, fw))) = (phases[j], first)
                && *state != ph.base
                && (!may(fq, *state, fw) || reads_on)
                && (fw == ph.base || may(fq, ph.base, fw))
                && may(lq, *state, ph.base)
            {
                fp.legacy_after[j].push(transition(e, *state, ph.base));
                *state = ph.base;
            }
            let stays = phases[j].is_some()
                && first.is_some_and(|(fq, fw)| *state == fw || may(fq, *state, fw));
            // A transient several queues use stays too when the next frame's first use can
            // leave its state: that use activates it and discards what it held (EB-5), and is
            // ordered after this use as every reuse of its memory is, so the move to COMMON
            // would be one more transition a frame that nobody needs (EB-4).
            let discarded =
                s.transient && first.is_some_and(|(fq, fw)| *state == fw || may(fq, *state, fw));
            let shared = queues.len() > 1 && !stays && !discarded;
            // A frame that begins with a read phase several queues share (history read before
            // the frame rewrites it) is entered by the frame's last writer, as a phase within
            // the frame is, so no reader of the next frame transitions it under another queue's
            // read (FS-1), and a queue that cannot make the transition need not (A5).
            let wrap_base = (graph.passes.iter().enumerate())
                .find(|(_, p)| graph.uses_of(p).iter().any(|u| u.key == e))
                .and_then(|(i, _)| phases[i])
                .map(|ph| ph.base)
                .filter(|&base| la.is_write() && !s.transient && !s.chain && may(lq, *state, base));
            if let Some(base) = wrap_base {
                if *state != base {
                    fp.legacy_after[j].push(transition(e, *state, base));
                    *state = base;
                }
            } else if !s.chain && shared && *state != S::COMMON && may(lq, *state, S::COMMON) {
                fp.legacy_after[j].push(transition(e, *state, S::COMMON));
                *state = S::COMMON;
            } else if s.chain && ![S::RENDER_TARGET, S::COMMON].contains(state) {
                // A back buffer last written otherwise (a compute pass's UAV) goes to PRESENT
                // on the queue that wrote it, which the present waits on (RL-1, FS-1).
                fp.legacy_after[j].push(transition(e, *state, S::COMMON));
                *state = S::COMMON;
            }
        }
    }
    Ok(fp)
}
