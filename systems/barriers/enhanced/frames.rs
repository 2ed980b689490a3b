//! One resource over the three walked frames: where each starts and ends, and when the
//! steady frame can repeat the second instead of being walked.

use bevy_ecs::prelude::*;

use super::phases::{ResUse, resource_uses};
use super::track::Track;
use super::walk::walk_copy;
use super::{Barrier, COPIES, Walk};
use crate::barrier::{Access, Layout};
use crate::plan::{CompiledGraph, FramePlan, Mark};
use crate::systems::barriers::TextureStart;

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
pub(super) fn walk_resource(
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
