//! One copy of the frame, one resource: the barrier decisions at each use.

use bevy_ecs::prelude::*;

use super::phases::ResUse;
use super::track::{Acc, Q, Track};
use super::{Walk, barrier};
use crate::barrier::*;
use crate::plan::barriers::WholeTexture;
use crate::plan::{CompiledGraph, PlanError};

/// A barrier at the end of `after`'s pass on its queue: it completes that queue's accesses
/// (writing back its caches, EB-3) with nothing following it on that queue (SyncAfter NONE,
/// AccessAfter NO_ACCESS), and moves the layout to `to` when it differs (barrier-spec A5: the
/// other queue may not be able to).
fn release<const TEXTURE: bool>(w: &mut Walk, e: Entity, t: &mut Track, after: Acc, to: Layout) {
    let (sb, ab) = t.before(after.queue(), after.stages());
    let from = t.layout;
    let b = barrier(e, TEXTURE, sb, Sync::NONE, ab, Access::NO_ACCESS, from, to);
    w.push(after.pass() as usize, true, b);
    t.issued(after.queue(), Sync::NONE, Access::NO_ACCESS);
    if to != from {
        t.transitioned(
            after.pass() as usize,
            after.queue(),
            sb,
            Sync::NONE,
            Access::NO_ACCESS,
        );
    }
    t.layout = to;
}

/// A back buffer last used this frame on a queue other than graphics goes to PRESENT at the
/// end of that use, on that queue, which may make the move (A5): the graphics queue presents
/// it after a fence on that pass (`plan::present`), and the barrier writes the queue's caches
/// back before the fence (RL-1, FS-1, FS-2).
pub(super) fn release_chain(w: &mut Walk, e: Entity, t: &mut Track) {
    let Some(last) = t.pending.last().copied() else {
        return;
    };
    let q = last.queue();
    if q.kind() != QueueType::Direct && q.can_transition(t.layout, Layout::PRESENT) {
        release::<true>(w, e, t, last, Layout::PRESENT);
    }
}

/// A transient's next activation discards its contents, but a write that another queue
/// made last must still be written back before the fence that orders the activation, or its
/// dirty lines could land on the new contents (FS-2, EB-5): the writer releases it at the end
/// of its pass, in the layout it is in.
pub(super) fn release_transient(w: &mut Walk, e: Entity, t: &mut Track, next: Q) {
    if let Some(wr) = t
        .last_write
        .filter(|wr| wr.queue() != next && !t.written_back)
    {
        let layout = t.layout;
        release::<true>(w, e, t, wr, layout);
        t.written_back = true;
    }
}

/// Walk one resource's uses of one copy of the frame (`TEXTURE`: the resource is a texture).
/// Inlined into each of its few callers: it runs once per copy of each resource, and a call
/// there is a measurable part of a plan.
#[inline(always)]
pub(super) fn walk_copy<const TEXTURE: bool>(
    w: &mut Walk,
    e: Entity,
    uses: &[ResUse],
    copy: usize,
    t: &mut Track,
    graph: &CompiledGraph,
) -> Result<(), PlanError> {
    for u in uses {
        let v = copy * w.n + u.pass as usize;
        let q = u.queue;
        let want = if TEXTURE {
            u.layout.unwrap_or(Layout::Common)
        } else {
            Layout::Undefined
        };
        // A read phase shared by several queues with nothing written before it in the plan
        // (a first frame reading history, or a texture no pass writes) has no writer to move
        // the layout before the readers' fences, and a reader's transition would race the
        // other queue's reads (FS-1): the plan's first frame moves it in its prologue, on the
        // graphics queue, which every other queue waits for.
        if TEXTURE
            && copy == 0
            && w.prologue_allowed
            && u.shared
            && t.last_write.is_none()
            && t.layout != want
            && t.layout != Layout::Undefined
            && crate::plan::barriers::can_transition(
                crate::device::QueueId::Graphics,
                t.layout,
                want,
            )
        {
            w.prologue.push(WholeTexture {
                sync_before: Sync::ALL,
                sync_after: Sync::NONE,
                access_before: Access::NO_ACCESS,
                access_after: Access::NO_ACCESS,
                layout_before: t.layout,
                layout_after: want,
                resource: e,
            });
            t.layout = want;
        }
        // Activating a transient discards its contents: nothing to write back or acquire.
        let discard = TEXTURE && t.layout == Layout::Undefined;
        // A read phase shared by several queues changes layout once, at the end of the writer's
        // pass, which every reader is fenced or queued after.
        if let Some(wr) = t.last_write.filter(|wr| {
            u.shared
                && !u.write
                && !wr.barrier()
                && t.layout != want
                && wr.queue().can_transition(t.layout, want)
        }) {
            release::<TEXTURE>(w, e, t, wr, want);
        }
        let mut acquire = false;
        if let Some(wr) = t.last_write.filter(|wr| wr.queue() != q && !discard) {
            if !t.written_back {
                // The producer writes its caches back at the end of its pass (EB-3), and moves
                // the layout if the consumer's queue cannot (barrier-spec A5).
                let to = if TEXTURE
                    && !q.can_transition(t.layout, want)
                    && wr.queue().can_transition(t.layout, want)
                {
                    want
                } else {
                    t.layout
                };
                release::<TEXTURE>(w, e, t, wr, to);
                t.written_back = true;
            }
            // Writes need no invalidation, only the fence compile plans; across queues the
            // fence orders every stage, so one acquire per queue makes the write visible. A
            // DMA engine reads memory through no caches of its own: nothing to invalidate.
            acquire = !u.write && !t.acquired(q) && q.kind() != QueueType::Copy;
        }
        // A read on the writer's own queue needs the write ordered before its stages and
        // visible to its access; an earlier barrier may have covered other stages only.
        let on_target = u.stages == Sync::RENDER_TARGET || u.stages == Sync::DEPTH_STENCIL;
        let uncovered_read = !u.write
            && t.last_write.is_some_and(|wr| {
                wr.queue() == q && !(on_target && wr.stages() == u.stages && !wr.barrier())
            })
            && !t.covers(q, u.stages, u.access);
        if TEXTURE && !q.can_transition(t.layout, want) {
            // Nobody wrote; let the last queue that touched it move it, after its use.
            let last = t
                .pending
                .iter()
                .rev()
                .find(|a| a.queue().can_transition(t.layout, want))
                .copied();
            match last {
                Some(a) => release::<TEXTURE>(w, e, t, a, want),
                None if want == Layout::Common && t.layout == Layout::Undefined => t.layout = want,
                None => {
                    let pass = &graph.passes[u.pass as usize];
                    return Err(PlanError::NoTransition {
                        pass: pass.entity,
                        queue: pass.queue,
                        want,
                        from: t.layout,
                    });
                }
            }
        }
        // Same-queue accesses a round trip of fences already completed need no barrier to be
        // ordered before a write (reads still need their caches made visible below).
        let complete = match u.own_complete {
            Some(k) if u.write => copy as i64 * w.n as i64 + k as i64,
            _ => i64::MIN,
        };
        // The accesses on this queue still to be ordered before this use: their stages, whether
        // one wrote, and whether one is other than output-merger work on one target, which is
        // ordered in API order (clears, draws, resolves) and needs no barrier between them.
        let (mut reach, mut same_write, mut unordered) = (Sync::NONE, false, false);
        for a in t
            .pending
            .iter()
            .filter(|a| a.queue() == q && a.pass() as i64 > complete)
        {
            reach |= a.stages();
            same_write |= a.write();
            unordered |= !(on_target && a.stages() == u.stages);
        }
        let conflict = uncovered_read || (u.write && unordered);
        let relayout = TEXTURE && t.layout != want;
        // The first frame of a plan knows nothing of what came before: every first access on
        // a queue gets a barrier (EB-8a: no barrier-free first access).
        let unknown = t.unknown_on(q);
        // The last barrier on this queue declared which accesses may follow it (AccessAfter);
        // any other access needs a new one (A9).
        let undeclared = t
            .declared
            .get(q)
            .is_some_and(|d| !d.is_empty() && (d == Access::NO_ACCESS || !d.contains(u.access)));
        if conflict || relayout || acquire || unknown || undeclared {
            if uncovered_read && let Some(wr) = t.last_write {
                reach |= wr.stages();
            }
            let (sb, ab) = t.before(q, reach);
            let (lb, la) = if TEXTURE {
                (t.layout, want)
            } else {
                (Layout::Undefined, Layout::Undefined)
            };
            w.push(
                v,
                false,
                barrier(e, TEXTURE, sb, u.stages, ab, u.access, lb, la),
            );
            t.issued(q, u.stages, u.access);
            if lb != la {
                // Orders (and writes back) everything before it, on every queue.
                t.transitioned(v, q, sb, u.stages, u.access);
            } else {
                if same_write {
                    t.written_back = true;
                }
                t.pending.retain(|a| a.queue() != q);
                t.cover(q, u.stages, u.access);
            }
        }
        if TEXTURE {
            t.layout = want;
        }
        let acc = Acc::new(v as u32, q, u.stages, u.write, false);
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
