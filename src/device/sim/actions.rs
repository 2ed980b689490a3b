//! Bottom-of-pipe actions: barriers, fences, presents, timestamps and Suspend.
//!
//! Each waits for the in-flight work items issued before it on the stages it drains (a
//! barrier: its SyncBefore stages, EB-2; a fence, present or timestamp: everything, since
//! reaching it means everything before it is done, FN-2), then does its own work (a barrier's
//! cache write-backs and invalidations and its decompressions, EB-3, EB-4), then takes effect.
//! A queue's actions finish in the order they were issued, as end-of-pipe events retire in
//! order. With nothing to drain and no cache or compression work, an action costs nothing
//! beyond its command slot (EB-9).
//!
//! A compute queue's barrier that flushes a cache the graphics shaders share flushes all of it
//! (no ranges, CC-4): the graphics items running when its cache work starts stall refilling
//! theirs ([`super::super::compute::GRAPHICS_REFILL_NS`], [`Gpu::disturb_graphics`]).
//!
//! A barrier blocks later work on its SyncAfter stages until it is done; one that holds the
//! front end (legacy, split, or blocking every stage) halts its queue's front end instead.
//! Suspend drains every queue's kicked-off work and holds the graphics front end meanwhile
//! (CC-8); the compute and DMA front ends were locked when it was read.

use super::super::barrier_cost::BarrierWork;
use super::super::{FenceId, ObjectKey, QueueId, SwapChainKey};
use super::record::{Path, Stall, longer};
use super::{FrontWait, Gpu, Meta, RecordTimes};
use crate::barrier::Stages;

/// What an action does when done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ActionKind {
    Barrier(BarrierWork),
    Fence(FenceId),
    Present {
        chain: SwapChainKey,
        buffer: ObjectKey,
        period_ns: u64,
    },
    Timestamp(u32),
    Suspend,
}

/// One pending bottom-of-pipe action.
#[derive(Clone, Debug)]
pub(crate) struct Action {
    pub kind: ActionKind,
    pub meta: Meta,
    pub seq: u64,
    /// Position among its queue's actions, from 1.
    pub ordinal: u64,
    pub issue: u64,
    /// When the front end finished reading it.
    pub parse_end: u64,
    pub drain: Stages,
    /// Drains every queue, not only its own (Suspend).
    pub global: bool,
    pub pre: (Stall, u64),
    pub drained: Option<u64>,
    pub done_at: Option<u64>,
    /// Longest predecessor path so far.
    pub path: Path,
}

impl Action {
    #[expect(
        clippy::too_many_arguments,
        reason = "an action is its timing facts, each from a different stage of submission"
    )]
    pub fn new(
        kind: ActionKind,
        meta: Meta,
        seq: u64,
        issue: u64,
        parse_end: u64,
        drain: Stages,
        global: bool,
        pre: (Stall, u64),
    ) -> Action {
        Action {
            kind,
            meta,
            seq,
            ordinal: 0,
            issue,
            parse_end,
            drain,
            global,
            pre,
            drained: None,
            done_at: None,
            path: Path::default(),
        }
    }

    /// True when the queue's front end waits for this action.
    pub fn holds_front_end(&self) -> bool {
        match self.kind {
            ActionKind::Barrier(b) => b.front_end,
            ActionKind::Suspend => true,
            _ => false,
        }
    }

    /// Stages whose later work waits for this action (EB-2).
    pub fn blocks(&self) -> Stages {
        match self.kind {
            ActionKind::Barrier(b) => b.blocks,
            _ => Stages::empty(),
        }
    }

    /// Its own cache and compression work, ns.
    fn costs(&self) -> (u64, u64) {
        match self.kind {
            ActionKind::Barrier(b) => (b.cache_ns, b.decompress_ns),
            _ => (0, 0),
        }
    }
}

impl Gpu {
    /// True while an item issued before `seq` on a drained stage is unfinished.
    fn drain_pending(&self, qi: usize, seq: u64, mask: Stages, global: bool) -> bool {
        let busy = |q: &super::QueueState| {
            q.in_flight.iter().any(|&s| {
                let it = &self.items[s as usize];
                it.seq < seq && it.w.stages.intersects(mask)
            })
        };
        if global {
            self.queues.iter().any(busy)
        } else {
            busy(&self.queues[qi])
        }
    }

    /// Advance queue `qi`'s front action as far as `now` allows. True when any finished.
    pub(super) fn complete_actions(&mut self, qi: usize) -> bool {
        let now = self.now;
        let mut moved = false;
        while let Some(a) = self.queues[qi].actions.front() {
            if a.drained.is_none() {
                if !self.queues[qi].drain_check {
                    break;
                }
                self.queues[qi].drain_check = false;
                if self.drain_pending(qi, a.seq, a.drain, a.global) {
                    break;
                }
                let q = &mut self.queues[qi];
                let release = q.release_path;
                let Some(a) = q.actions.front_mut() else {
                    break;
                };
                let (cache, decompress) = a.costs();
                a.drained = Some(now);
                a.path.absorb(release);
                a.done_at = Some(now.max(a.parse_end).saturating_add(cache + decompress));
                let whole_cache = matches!(a.kind, ActionKind::Barrier(b) if b.shared_caches);
                let compute = matches!(QueueId::from_index(qi), Some(QueueId::Compute { .. }));
                if whole_cache && compute {
                    self.disturb_graphics();
                }
            }
            let q = &mut self.queues[qi];
            if q.actions
                .front()
                .and_then(|a| a.done_at)
                .is_some_and(|t| t > now)
            {
                break;
            }
            let Some(a) = q.actions.pop_front() else {
                break;
            };
            // The next action may find its drain satisfied; held items may launch.
            q.drain_check = true;
            q.gate_dirty = true;
            self.finish_action(qi, a);
            moved = true;
        }
        moved
    }

    fn finish_action(&mut self, qi: usize, a: Action) {
        let now = self.now;
        let (cache, decompress) = a.costs();
        let frame = a.meta.frame;
        // A barrier's own work lengthens the path by what barriers add (EB-3..EB-5).
        let barrier = matches!(a.kind, ActionKind::Barrier(_));
        let path = Path {
            frame,
            ns: a.path.within(frame) + cache + decompress,
            barrier_ns: a.path.barrier_within(frame) + if barrier { cache + decompress } else { 0 },
        };
        let q = &mut self.queues[qi];
        q.actions_done += 1;
        q.release_path = path;
        if a.holds_front_end() {
            if q.wait == FrontWait::Action {
                q.wait = FrontWait::None;
            }
            q.fe_free = q.fe_free.max(now);
            q.fe_path = Path::after(q.fe_path.frame, &[q.fe_path, path], 0);
        }
        let drained = a.drained.unwrap_or(now);
        let drain_wait = match a.kind {
            ActionKind::Barrier(_) | ActionKind::Suspend => {
                (Stall::Drain, drained.saturating_sub(a.parse_end))
            }
            _ => (Stall::None, 0),
        };
        match a.kind {
            ActionKind::Fence(f) => {
                self.fences.set_signalled(f, now, path);
                self.wake_all();
            }
            ActionKind::Present {
                chain,
                buffer,
                period_ns,
            } => {
                self.scanout.present(chain, buffer, now, period_ns);
                self.wake_all();
            }
            // CC-7: a 100 MHz clock, 10 ns per tick.
            ActionKind::Timestamp(slot) => {
                self.timestamps.insert(slot, now / 10);
            }
            ActionKind::Barrier(_) | ActionKind::Suspend => {}
        }
        // Its own work starts once the drain is done: the work it waited for belongs to the
        // drained commands (maybe of another frame), not to it.
        let rec = RecordTimes {
            issue: a.issue,
            start: a.issue.max(drained),
            end: now,
            stall: longer(a.pre, drain_wait),
            cache,
            decompress,
            path,
        };
        let queue = QueueId::from_index(qi).unwrap_or_default();
        self.emit(queue, a.meta, rec);
    }
}
