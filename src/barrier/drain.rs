//! Sync scopes become drain and block requirements, then packets (EB-2, EB-8c, EB-8d).
//!
//! SyncBefore names the work to wait for: each stage it covers must drain. SyncAfter names the
//! work to hold: each stage it covers is blocked until the barrier is done. A stage the queue's
//! engine does not have (a pixel shader on a compute queue) has nothing in flight and is
//! dropped. General scopes are refined by access: a driver texture copy on the graphics engine
//! that wrote the resource is a blit through CB or DB, so that back end drains too (EB-8d);
//! indirect arguments are consumed by the front end before the barrier is reached, so they
//! never drain, but holding them holds the prefetch parser.
//!
//! The requirements know nothing of the packets that meet them (seed 004); [`events`] chooses
//! those. Shader stages have their own partial flushes, and PIX shows them one by one (EB-9a,
//! EB-10), but the back ends can only be drained at the end of the pipe, and once an
//! end-of-pipe event is needed it serves every drain at once. Draining every stage is a full
//! idle. An asynchronous bottom-of-pipe event needs a top-of-pipe wait before blocked work may
//! start; a held front end needs one in any case.

use super::hardware::{FrontEnd, Stages, SyncEvent};
use super::{Access, QueueType, Sync};

/// The stages a queue's engine runs.
pub fn queue_stages(queue: QueueType) -> Stages {
    match queue {
        QueueType::Direct => Stages::all(),
        QueueType::Compute => Stages::COMPUTE | Stages::COPY,
        QueueType::Copy => Stages::COPY,
    }
}

/// The stages `sync` covers on `queue` (EB-2): those of [`sync_stages`] the queue's engine
/// runs.
pub fn stages_of(sync: Sync, queue: QueueType) -> Stages {
    sync_stages(sync) & queue_stages(queue)
}

/// The stages `sync` covers on an engine that has them all (EB-2); the device's timing model
/// reads a command's stages through it too. Index input is consumed by vertex work, resolves
/// run on the colour back end, ray tracing and UAV clears on the compute engine. Indirect
/// arguments (EXECUTE_INDIRECT) cover no stage: the front end reads them before the draw or
/// dispatch launches (barrier-spec A7: they need EXECUTE_INDIRECT, which no shading or DRAW
/// scope includes, A1), so a barrier holds the prefetch parser for them instead ([`blocks`]).
pub fn sync_stages(sync: Sync) -> Stages {
    let e = sync.expand();
    let mut s = Stages::empty();
    for (bits, stage) in [
        (Sync::INDEX_INPUT | Sync::VERTEX_SHADING, Stages::VERTEX),
        (Sync::PIXEL_SHADING, Stages::PIXEL),
        (
            Sync::COMPUTE_SHADING | Sync::RAYTRACING | Sync::CLEAR_UNORDERED_ACCESS_VIEW,
            Stages::COMPUTE,
        ),
        (Sync::COPY, Stages::COPY),
        (Sync::RENDER_TARGET | Sync::RESOLVE, Stages::CB),
        (Sync::DEPTH_STENCIL, Stages::DB),
    ] {
        if e.intersects(bits) {
            s |= stage;
        }
    }
    s
}

/// Stages that must drain for SyncBefore `sync` after accesses `before` (EB-2, EB-8d).
/// `copy_back_end` is the back end a driver texture copy writes through on this queue.
pub fn drains(sync: Sync, before: Access, queue: QueueType, copy_back_end: Stages) -> Stages {
    let mut s = stages_of(sync, queue);
    let copy_wrote = before == Access::COMMON || before.contains(Access::COPY_DEST);
    if s.contains(Stages::COPY) && copy_wrote {
        s |= copy_back_end & queue_stages(queue);
    }
    s
}

/// Stages and front-end engines held until the barrier is done, for SyncAfter `sync`.
pub fn blocks(sync: Sync, queue: QueueType) -> (Stages, FrontEnd) {
    let front = if sync.expand().contains(Sync::EXECUTE_INDIRECT) && queue != QueueType::Copy {
        FrontEnd::PREFETCH_PARSER
    } else {
        FrontEnd::empty()
    };
    (stages_of(sync, queue), front)
}

/// The packets that meet `drains` and `blocks` on `queue`, in order (EB-2). `back_end_flush`
/// says a CB, DB or L2 write-back must ride on an end-of-pipe event even if nothing drains.
pub fn events(
    drains: Stages,
    blocks: Stages,
    front_end: FrontEnd,
    queue: QueueType,
    back_end_flush: bool,
) -> Vec<SyncEvent> {
    let mut out = Vec::new();
    let all = queue_stages(queue);
    let mut asynchronous = false;
    if queue != QueueType::Copy && !drains.is_empty() && drains.contains(all) {
        out.push(SyncEvent::FullIdle);
        asynchronous = true;
    } else {
        if drains.intersects(Stages::BACK_END) || back_end_flush {
            out.push(SyncEvent::EndOfPipe);
            asynchronous = true;
        } else {
            for (stage, event) in [
                (Stages::VERTEX, SyncEvent::VsPartialFlush),
                (Stages::PIXEL, SyncEvent::PsPartialFlush),
                (Stages::COMPUTE, SyncEvent::CsPartialFlush),
            ] {
                if drains.contains(stage) {
                    out.push(event);
                }
            }
        }
        if drains.contains(Stages::COPY) {
            out.push(SyncEvent::CopyDrain);
        }
    }
    if (asynchronous && !blocks.is_empty()) || !front_end.is_empty() {
        out.push(SyncEvent::TopOfPipeWait {
            prefetch_parser: front_end.contains(FrontEnd::PREFETCH_PARSER),
            constant_engine: front_end.contains(FrontEnd::CONSTANT_ENGINE),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use QueueType::{Compute, Copy, Direct};

    #[test]
    fn eb2_sync_maps_to_stages_per_queue() {
        assert_eq!(
            stages_of(Sync::NON_PIXEL_SHADING, Direct),
            Stages::VERTEX | Stages::COMPUTE
        );
        assert_eq!(stages_of(Sync::ALL_SHADING, Direct), Stages::SHADERS);
        assert_eq!(
            stages_of(Sync::DRAW, Direct),
            Stages::VERTEX | Stages::PIXEL | Stages::CB | Stages::DB
        );
        assert_eq!(stages_of(Sync::ALL, Direct), Stages::all());
        assert_eq!(
            stages_of(Sync::ALL, Compute),
            Stages::COMPUTE | Stages::COPY
        );
        assert_eq!(stages_of(Sync::ALL_SHADING, Copy), Stages::empty());
        assert!(stages_of(Sync::NONE, Direct).is_empty());
        assert!(stages_of(Sync::EXECUTE_INDIRECT, Direct).is_empty());
        assert_eq!(sync_stages(Sync::ALL), Stages::all());
        assert_eq!(
            sync_stages(Sync::DRAW),
            Stages::VERTEX | Stages::PIXEL | Stages::CB | Stages::DB
        );
        assert_eq!(
            sync_stages(Sync::CLEAR_UNORDERED_ACCESS_VIEW),
            Stages::COMPUTE
        );
        assert!(sync_stages(Sync::EXECUTE_INDIRECT).is_empty());
        assert_eq!(
            blocks(Sync::EXECUTE_INDIRECT, Direct).1,
            FrontEnd::PREFETCH_PARSER
        );
    }

    #[test]
    fn eb8d_copy_writes_drain_the_back_end() {
        assert_eq!(
            drains(Sync::COPY, Access::COPY_DEST, Direct, Stages::CB),
            Stages::COPY | Stages::CB
        );
        assert_eq!(
            drains(Sync::COPY, Access::COPY_SOURCE, Direct, Stages::CB),
            Stages::COPY
        );
        assert_eq!(
            drains(Sync::COPY, Access::COPY_DEST, Compute, Stages::CB),
            Stages::COPY
        );
    }

    #[test]
    fn eb2_events_merge_only_at_the_end_of_the_pipe() {
        let none = FrontEnd::empty();
        // Shader drains: one partial flush each, no wait needed.
        let e = events(
            Stages::VERTEX | Stages::COMPUTE,
            Stages::CB,
            none,
            Direct,
            false,
        );
        assert_eq!(e, [SyncEvent::VsPartialFlush, SyncEvent::CsPartialFlush]);
        // A back-end drain: one end-of-pipe event serves all drains, then a top-of-pipe wait.
        let e = events(
            Stages::PIXEL | Stages::CB | Stages::COMPUTE,
            Stages::PIXEL,
            none,
            Direct,
            false,
        );
        let wait = SyncEvent::TopOfPipeWait {
            prefetch_parser: false,
            constant_engine: false,
        };
        assert_eq!(e, [SyncEvent::EndOfPipe, wait]);
        // Everything: a full idle.
        let e = events(
            Stages::all(),
            Stages::all(),
            FrontEnd::PREFETCH_PARSER,
            Direct,
            true,
        );
        let wait = SyncEvent::TopOfPipeWait {
            prefetch_parser: true,
            constant_engine: false,
        };
        assert_eq!(e, [SyncEvent::FullIdle, wait]);
        assert_eq!(
            events(
                Stages::COMPUTE | Stages::COPY,
                Stages::empty(),
                none,
                Compute,
                false
            ),
            [SyncEvent::FullIdle]
        );
        assert_eq!(
            events(Stages::COPY, Stages::COPY, none, Copy, false),
            [SyncEvent::CopyDrain]
        );
        assert!(events(Stages::empty(), Stages::empty(), none, Direct, false).is_empty());
    }
}
