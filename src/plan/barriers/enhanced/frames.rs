//! One resource over the three walked frames: where each starts and ends, and when the
//! steady frame can repeat the second instead of being walked.

use bevy_ecs::prelude::*;

use super::Builder;
use super::phases::{ResUse, resource_uses};
use super::track::{Q, Track};
use super::walk::{release_chain, release_transient, walk_copy};
use super::{COPIES, Walk};
use crate::barrier::{Access, Layout};
use crate::plan::CompiledGraph;
use crate::plan::barriers::Mark;
use crate::plan::barriers::TextureStart;

/// The steady frame's own barriers while every resource so far repeated the second copy,
/// copied only once some resource's steady copy must be walked. When none must, the steady
/// frame is the second and the plan has two frames.
///
/// Until then every resource walked repeated, and each pushed its second copy's barriers
/// right after the one before it: the repeats are the second frame from its start to one
/// mark.
#[derive(Default)]
pub(super) struct Steady {
    /// Where the repeated barriers end in the second frame (while none was walked).
    deferred: Mark,
    walked: bool,
}

impl Steady {
    pub(super) fn reset(&mut self) {
        self.deferred = Mark::default();
        self.walked = false;
    }

    /// True once some resource's steady copy was walked.
    pub(super) fn walked(&self) -> bool {
        self.walked
    }

    /// Defer `later`'s repeats too, its second frame appended to this one's at `at` (both
    /// unwalked: all of this one's second frame repeats, and `later`'s follows).
    pub(super) fn defer_after(&mut self, later: &Steady, at: Mark) {
        self.deferred = later.deferred.after(at);
    }

    /// A resource's steady copy repeats what its second pushed between two marks.
    fn repeat(&mut self, frames: &mut [Builder; COPIES], marks: (Mark, Mark)) {
        if self.walked {
            let [_, second, steady] = frames;
            steady.repeat(second, marks.0, marks.1);
        } else {
            debug_assert_eq!(marks.0, self.deferred, "repeats follow each other");
            self.deferred = marks.1;
        }
    }

    /// A resource's steady copy is about to be walked: the repeats before it go first.
    pub(super) fn walking(&mut self, frames: &mut [Builder; COPIES]) {
        if !self.walked {
            self.walked = true;
            let [_, second, steady] = frames;
            steady.repeat(second, Mark::default(), self.deferred);
        }
    }

    /// True when every steady copy repeated the second; otherwise the steady frame is
    /// complete.
    pub(super) fn finish(&mut self, frames: &mut [Builder; COPIES]) -> bool {
        if !self.walked {
            return true;
        }
        self.walking(frames);
        false
    }
}

/// The steady copy repeats the second: its own barriers go to the steady frame (see
/// [`Steady`]), its hand-overs to the second frame's end (see [`Walk::push`]).
fn repeat_second(w: &mut Walk, own: (Mark, Mark), handovers: std::ops::Range<usize>) {
    w.steady.repeat(w.frames, own);
    let [first, second] = &mut *w.handovers;
    second.extend_from_slice(&first[handovers]);
}

/// The queue of a frame's first use when it is a write that queue can make without another
/// queue moving the layout first (see [`Track::is_shifted`]).
#[inline]
fn opening_write(t: &Track, uses: &[ResUse]) -> Option<Q> {
    let u = uses.first().filter(|u| u.write)?;
    let q = u.queue;
    let want = u.layout.unwrap_or(Layout::Common);
    let moved_elsewhere = t.texture && !q.can_transition(t.layout, want);
    (!moved_elsewhere).then_some(q)
}

/// True when the second copy of a texture that one queue uses, writing it first (`first`),
/// will make the first copy's decisions after that write: its walk may stop there and
/// repeat the first copy's barriers, and the steady copy repeats the second.
///
/// The first copy's first use always has a barrier (EB-8a); the second's has one when it
/// moves the layout, which its queue can do here. That barrier, on the only queue, and then
/// the write leave a track that owes nothing to what came before: one pending access (the
/// write), nothing acquired, the write's layout, and that queue's barrier history (no other
/// queue has any). Both copies go on from the same track, one frame apart, and end alike.
/// The first copy's unknown history stops mattering once its queue has had a barrier, so the
/// steady copy, starting where the second ended, repeats the second.
#[inline]
fn converges(t: &Track, first: &ResUse) -> bool {
    let want = first.layout.unwrap_or(Layout::Common);
    t.layout != want && first.queue.can_transition(t.layout, want)
}

/// The second copy of a texture that converges (see [`converges`]): its first use walked,
/// then the first copy's barriers after that use (`tail`, marks in the first frame) pushed
/// again, and the steady copy repeating it all. Returns where the second copy's hand-overs
/// left the texture at the end of the first frame (see [`Walk::wrap_end`]).
#[inline(never)]
fn converge(
    w: &mut Walk,
    e: Entity,
    uses: &[ResUse],
    t: &mut Track,
    graph: &CompiledGraph,
    tail: (Mark, Mark),
) -> Result<Option<(Layout, Access)>, crate::plan::PlanError> {
    let before = (w.frames[1].mark(), w.handovers[0].len());
    (w.copy, w.first) = (1, w.n);
    w.wrap_end = None;
    walk_copy::<true>(w, e, &uses[..1], 1, t, graph)?;
    debug_assert_ne!(before.0, w.frames[1].mark(), "a transition was issued");
    let [first, second, _] = &mut *w.frames;
    second.repeat(first, tail.0, tail.1);
    let own = (before.0, w.frames[1].mark());
    repeat_second(w, own, before.1..w.handovers[0].len());
    Ok(w.wrap_end)
}

/// Where each texture starts and ends each copy of the frame, in resource order. Walks
/// record only the first copy's starts; [`follow`](Self::follow) adds the others.
#[derive(Default)]
pub(super) struct Bounds {
    pub(super) start: [Vec<(Entity, Layout, Access)>; COPIES],
    pub(super) end: [Vec<(Entity, Layout, Access)>; COPIES],
}

impl Bounds {
    pub(super) fn clear(&mut self) {
        self.start
            .iter_mut()
            .chain(&mut self.end)
            .for_each(Vec::clear);
    }

    /// Each copy after the first starts where the one before ended: copied once, not
    /// pushed texture by texture.
    pub(super) fn follow(&mut self) {
        for k in 1..COPIES {
            self.start[k].clear();
            self.start[k].extend_from_slice(&self.end[k - 1]);
        }
    }

    /// `later`'s textures after these.
    pub(super) fn append(&mut self, later: &Bounds) {
        let mine = self.start.iter_mut().chain(&mut self.end);
        for (mine, theirs) in mine.zip(later.start.iter().chain(&later.end)) {
            mine.extend_from_slice(theirs);
        }
    }
}

/// How a resource's second and steady copies were had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Later {
    /// Both walked.
    Walked,
    /// The second walked, the steady one repeating it.
    Repeated,
    /// The second walked to its first use and then repeating the first (see [`converges`]),
    /// the steady one repeating it.
    Converged,
}

/// What a texture owes at the end of a copy of the frame: a back buffer's hand-over to the
/// present, a transient's write-back before another queue activates it next frame.
fn end_of_frame(w: &mut Walk, e: Entity, t: &mut Track, s: &TextureStart, uses: &[ResUse]) {
    if s.chain {
        release_chain(w, e, t);
    } else if s.transient
        && let Some(first) = uses.first()
    {
        release_transient(w, e, t, first.queue);
    }
}

/// Walk one resource over the three copies of the frame.
#[expect(
    clippy::too_many_arguments,
    reason = "the walk's per-resource state, passed apart so each copy borrows only what it changes"
)]
pub(super) fn walk_resource(
    w: &mut Walk,
    graph: &CompiledGraph,
    bounds: &mut Bounds,
    e: Entity,
    planned: &mut [ResUse],
    start: &impl Fn(Entity) -> TextureStart,
    t: &mut Track,
    snap: &mut Track,
) -> Result<Later, crate::plan::PlanError> {
    let s = start(e);
    let mut later = Later::Walked;
    let texture = planned.iter().any(|u| u.layout.is_some());
    let wraps = !s.transient && !s.chain;
    w.prologue_allowed = wraps;
    let (uses, one_queue) = resource_uses(graph, planned, texture, s.compressible, wraps)?;
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
    // What the second copy pushed: its own barriers, and hand-overs into the first frame.
    let mut own = (Mark::default(), Mark::default());
    let mut handed = 0..0;
    // A texture one queue uses, writing it first, may converge (see `converges`): what the
    // first copy pushed after its first use, which the second would push again.
    let single = texture && one_queue && uses[0].write;
    let mut tail = (Mark::default(), Mark::default());
    for copy in 0..COPIES {
        if copy > 0 {
            // The frame boundary: a back buffer is a fresh buffer, out of PRESENT, after a
            // wait on present that orders everything before; a transient's contents are
            // gone. Later copies know what the earlier ones did.
            if s.chain {
                t.reset(texture, Layout::PRESENT);
            } else if s.transient {
                // Contents are discarded by activating from UNDEFINED; a first user that
                // cannot transition (DMA) takes it as it is instead. The planner plans each
                // transient as owning its memory, so nothing else wrote it (one sharing bytes
                // gets its activation from `plan::alias::hand_over`): one
                // queue's transient that ends the frame in the layout its first use needs
                // is used on as it is, the walk ordering the uses as for any resource, since
                // an activation would only re-initialise metadata the first use (a write)
                // initialises anyway (EB-5, EB-9d: activation is for memory that changed
                // hands, and to change layout without decompressing garbage).
                let first_moves = uses
                    .first()
                    .is_none_or(|u| u.queue.kind() != crate::barrier::QueueType::Copy);
                let kept = one_queue && uses.first().is_some_and(|u| u.layout == Some(t.layout));
                if !kept && (first_moves || t.layout != Layout::Common) {
                    t.layout = Layout::Undefined;
                }
            }
            t.history_unknown = false;
        }
        if copy == 1 && single && !w.walk_steady && converges(t, &uses[0]) {
            // The second copy ends as the first did, and the steady copy repeats it.
            let wrapped = converge(w, e, uses, t, graph, tail)?;
            (wrap_end[0], wrap_end[1]) = (wrapped, wrapped);
            (raw_end[1], raw_end[2]) = (raw_end[0], raw_end[0]);
            later = Later::Converged;
            break;
        }
        if copy == COPIES - 1 && !w.walk_steady && t.is_shifted(snap, w.n, opening_write(t, uses)) {
            // The second frame ended where the first did: the steady frame makes its
            // decisions again, one frame later. Copy them instead of walking.
            repeat_second(w, own, handed);
            wrap_end[copy - 1] = wrap_end[copy - 2];
            raw_end[copy] = raw_end[copy - 1];
            later = Later::Repeated;
            break;
        }
        if copy == 1 {
            snap.copy_from(t);
        }
        if copy == COPIES - 1 {
            w.steady.walking(w.frames);
        }
        let before = (w.frames[1].mark(), w.handovers[0].len());
        (w.copy, w.first) = (copy, copy * w.n);
        w.wrap_end = None;
        // Buffers and textures get a walk each: a buffer's has no layout to track.
        if single && copy == 0 {
            walk_copy::<true>(w, e, &uses[..1], copy, t, graph)?;
            tail.0 = w.frames[0].mark();
            walk_copy::<true>(w, e, &uses[1..], copy, t, graph)?;
            end_of_frame(w, e, t, &s, uses);
            tail.1 = w.frames[0].mark();
        } else if texture {
            walk_copy::<true>(w, e, uses, copy, t, graph)?;
            end_of_frame(w, e, t, &s, uses);
        } else {
            walk_copy::<false>(w, e, uses, copy, t, graph)?;
        }
        if copy == 1 {
            own = (before.0, w.frames[1].mark());
            handed = before.1..w.handovers[0].len();
        }
        if copy > 0 {
            wrap_end[copy - 1] = w.wrap_end;
        }
        raw_end[copy] = (t.layout, last_access);
    }
    if texture {
        // The steady frame is followed by itself: it ends as the frame before it did.
        wrap_end[COPIES - 1] = wrap_end[COPIES - 2];
        // Later copies start where the ones before ended (see `Bounds::follow`).
        bounds.start[0].push((e, s.state.layout, s.state.access));
        for copy in 0..COPIES {
            let end = wrap_end[copy].unwrap_or(raw_end[copy]);
            bounds.end[copy].push((e, end.0, end.1));
        }
    }
    Ok(later)
}
