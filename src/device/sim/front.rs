//! The front end of each queue: it reads its command stream in order, one command slot at a
//! time, and hands work to the rest of the pipeline.
//!
//! It reads only what has been kicked off (FN-3) and submitted (never earlier than the CPU
//! submitted it). It halts on a fence wait until the fence signals (FN-2), on a wait on present
//! until the buffer leaves the screen (FS-5), on a barrier that holds the front end (legacy,
//! split, or blocking every stage, EB-8c), on Suspend until its drain is done, when its queue
//! already holds as many work items as it can, and, on compute and DMA queues, while the GPU is
//! suspended (CC-8). Everything else costs one command slot and lets the front end move on:
//! work items run concurrently with what came before unless a barrier orders them.

use super::super::cost::Op;
use super::super::{Profile, QueueId};
use super::actions::{Action, ActionKind};
use super::record::{Path, Stall};
use super::{FrontWait, Gpu, RecordTimes};
use crate::barrier::Stages;

impl Gpu {
    /// Let queue `qi`'s front end read one command at `now`. False when it cannot; then it
    /// either waits for a future time or has recorded what it waits for in `wait`.
    pub(super) fn front_step(&mut self, qi: usize, profile: &Profile) -> bool {
        let now = self.now;
        let queue = QueueId::from_index(qi).unwrap_or_default();
        let suspended = self.suspended;
        let depth = profile.queue_depth.max(1) as usize;
        let q = &mut self.queues[qi];
        if q.kicked == 0 {
            return false;
        }
        let Some(p) = q.stream.front() else {
            return false;
        };
        if q.fe_free.max(p.submit_ns) > now {
            return false;
        }
        let reason = match q.wait {
            FrontWait::None => Stall::Submit,
            FrontWait::Fence(_) => Stall::Fence,
            FrontWait::Present(_) => Stall::Present,
            FrontWait::Action => return false,
            FrontWait::Full => Stall::Busy,
            FrontWait::Locked => Stall::Suspend,
        };
        let locked = suspended && !matches!(queue, QueueId::Graphics);
        let full = matches!(p.op, Op::Work(_)) && q.in_flight.len() >= depth;
        let blocked = match p.op {
            _ if locked => Some(FrontWait::Locked),
            _ if full => Some(FrontWait::Full),
            Op::Wait(f) if self.fences.signal(f).is_none() => Some(FrontWait::Fence(f)),
            Op::WaitPresent(b) if self.scanout.free_at(b).is_none() => Some(FrontWait::Present(b)),
            _ => None,
        };
        if let Some(w) = blocked {
            q.wait = w;
            return false;
        }
        q.wait = FrontWait::None;
        let Some(p) = q.stream.pop_front() else {
            return false;
        };
        q.kicked -= 1;
        let pre = (reason, now - q.fe_free);
        let pre = if pre.1 == 0 { (Stall::None, 0) } else { pre };
        let frame = p.meta.frame;
        let path_in = q.fe_path;
        let slot = profile.command_ns;
        let front_only = |gpu: &mut Gpu, meta, start: u64, end: u64, stall, own: u64| {
            let path = Path::after(frame, &[path_in], own);
            let q = &mut gpu.queues[qi];
            q.fe_free = end;
            q.fe_path = path;
            let rec = RecordTimes {
                issue: now,
                start,
                end,
                stall,
                path,
                ..RecordTimes::default()
            };
            gpu.emit(queue, meta, rec);
        };
        match p.op {
            Op::Front | Op::Bind(_) => {
                let ns = p.op.front_ns(slot).unwrap_or(slot);
                front_only(self, p.meta, now, now + ns, pre, ns)
            }
            Op::Resume => {
                self.suspended = false;
                self.suspend_at = None;
                self.wake_all();
                front_only(self, p.meta, now, now + slot, pre, slot);
            }
            Op::Wait(f) => {
                let path = Path::after(frame, &[path_in, self.fences.path(f)], 0);
                let q = &mut self.queues[qi];
                q.fe_free = now;
                q.fe_path = path;
                let rec = RecordTimes {
                    issue: now,
                    start: now,
                    end: now,
                    stall: pre,
                    path,
                    ..RecordTimes::default()
                };
                self.emit(queue, p.meta, rec);
            }
            Op::WaitPresent(b) => {
                let free = self.scanout.free_at(b).unwrap_or(now).max(now);
                let stall = if free > now {
                    (Stall::Present, free - self.queues[qi].fe_free)
                } else {
                    pre
                };
                front_only(self, p.meta, free, free, stall, 0);
            }
            Op::Work(w) => {
                self.issue_item(qi, w, p.meta, pre, path_in, profile);
                let q = &mut self.queues[qi];
                q.fe_free = now + slot;
                q.fe_path = Path::after(frame, &[path_in], slot);
            }
            op => {
                if let Op::Present { buffer, .. } = op {
                    self.scanout.queue(buffer);
                }
                let (kind, drain, global) = match op {
                    Op::Barrier(b) => (ActionKind::Barrier(b), b.drains, false),
                    Op::Fence(f) => (ActionKind::Fence(f), Stages::all(), false),
                    Op::Present {
                        chain,
                        buffer,
                        period_ns,
                    } => (
                        ActionKind::Present {
                            chain,
                            buffer,
                            period_ns,
                        },
                        Stages::all(),
                        false,
                    ),
                    Op::Timestamp(slot) => (ActionKind::Timestamp(slot), Stages::all(), false),
                    _ => {
                        // Suspend: lock compute and DMA now, then drain every queue (CC-8);
                        // work still running when the system's timeout runs out is a hang.
                        self.suspended = true;
                        self.suspend_at = Some(now);
                        for i in 0..self.queues.len() {
                            self.refresh_items_next(i, profile);
                        }
                        self.wake_all();
                        (ActionKind::Suspend, Stages::all(), true)
                    }
                };
                let seq = self.next_seq();
                let action = Action::new(kind, p.meta, seq, now, now + slot, drain, global, pre);
                let holds = action.holds_front_end();
                let q = &mut self.queues[qi];
                q.actions_issued += 1;
                let mut action = action;
                action.ordinal = q.actions_issued;
                action.path = Path::after(frame, &[path_in], 0);
                q.actions.push_back(action);
                q.drain_check = true;
                q.fe_free = now + slot;
                q.fe_path = Path::after(frame, &[path_in], slot);
                if holds {
                    q.wait = FrontWait::Action;
                }
            }
        }
        true
    }
}

impl Gpu {
    /// Let queue `qi`'s front end run ahead through commands that touch nothing but the front
    /// end (state, bindings, maps, kickoffs), each at its own time, while that time is before
    /// `bound`, the next event anywhere else: nothing can happen in between that would change
    /// them, so they need no event of their own.
    pub(super) fn front_run(&mut self, qi: usize, bound: u64, profile: &Profile) {
        if self.suspended && qi != 0 {
            return;
        }
        let queue = QueueId::from_index(qi).unwrap_or_default();
        let slot = profile.command_ns;
        loop {
            let q = &mut self.queues[qi];
            if q.kicked == 0 || q.wait != FrontWait::None {
                return;
            }
            let Some(p) = q.stream.front() else {
                return;
            };
            let t = q.fe_free.max(p.submit_ns);
            let Some(ns) = p.op.front_ns(slot).filter(|_| t < bound) else {
                return;
            };
            let Some(p) = q.stream.pop_front() else {
                return;
            };
            q.kicked -= 1;
            let stall = if t > q.fe_free {
                (Stall::Submit, t - q.fe_free)
            } else {
                (Stall::None, 0)
            };
            let path = Path::after(p.meta.frame, &[q.fe_path], ns);
            q.fe_free = t + ns;
            q.fe_path = path;
            let rec = RecordTimes {
                issue: t,
                start: t,
                end: t + ns,
                stall,
                path,
                ..RecordTimes::default()
            };
            self.emit(queue, p.meta, rec);
        }
    }
}

impl Op {
    /// How long the front end spends on the op when that is all it does (`slot` a command
    /// slot): `None` for work, barriers, fences, waits and the rest.
    pub fn front_ns(&self, slot: u64) -> Option<u64> {
        match self {
            Op::Front => Some(slot),
            Op::Bind(ns) => Some(*ns),
            _ => None,
        }
    }
}
