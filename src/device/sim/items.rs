//! Work items: issued by the front end, launched once nothing holds them, running on their
//! share of the compute units, done when both their shading work and their fixed-function
//! floor are.
//!
//! An item is held at issue by an earlier barrier that blocks one of its stages (EB-2) until
//! that barrier is done, and, if it belongs to a serialised stream (copies and clears, EB-8d;
//! anything on a DMA engine; draws, which share one fixed-function pipe), by the item before it
//! in that stream. Once launched it is "in flight" for every later drain. An item still
//! running when the system has waited the profile's hang timeout (seconds) at a Suspend is a
//! hang with the item named as the culprit (CC-8): the GPU stops there, as a real one would be
//! reset. Outside a suspension an item may run as long as its work takes.
//!
//! Progress is lazy: an item keeps the work it had left when its share last changed and the
//! time it will finish at that share. Shares only change at events, so between two events
//! nothing needs updating, and an event costs only the queues it touches.

use super::super::compute::GRAPHICS_REFILL_NS;
use super::super::cost::WorkItem;
use super::super::{Profile, QueueId};
use super::diagnose::Hang;
use super::record::{Path, Stall, longer};
use super::{Gpu, Meta, RecordTimes};

/// One work item in flight.
#[derive(Clone, Debug, Default)]
pub(crate) struct Item {
    pub w: WorkItem,
    pub meta: Meta,
    pub queue: u8,
    pub seq: u64,
    pub issue: u64,
    /// Front-end wait before the item was issued.
    pub pre: (Stall, u64),
    pub path_in: Path,
    /// Launch waits until this many actions of the queue are done.
    pub gate: u64,
    /// Launch waits until this many items of its serialised stream are done.
    pub ticket: Option<(usize, u64)>,
    /// What held it at issue, if anything.
    pub held_by: Stall,
    pub launched: bool,
    pub launch: u64,
    /// Shading work left at `t_at`, milli-CU ns.
    pub rem_at: u64,
    /// From when `rem_at` counts down: later than now while the item refills its caches
    /// after a whole-cache flush (CC-4).
    pub t_at: u64,
    /// Current share, milli-CUs.
    pub rate: u32,
    /// When its shading work is done at the current share (`u64::MAX`: starved).
    pub work_done: u64,
    pub floor_end: u64,
    /// How long it takes alone on the GPU, at the widest share its queue allows: what it adds
    /// to the critical path (the path ignores contention, so efficiency shows it).
    pub solo_ns: u64,
    pub path_start: Path,
}

impl Item {
    /// Shading work left at `now`.
    pub fn rem(&self, now: u64) -> u64 {
        let done = (self.rate as u64).saturating_mul(now.saturating_sub(self.t_at));
        self.rem_at.saturating_sub(done)
    }

    /// Its next event: work done, floor reached, the early-out flag raised (for work with an
    /// early-out path, `early_out` is when), or the hang deadline (`u64::MAX`: none).
    fn next_event(&self, deadline: u64, early_out: u64) -> u64 {
        let own = if self.rem_at > 0 {
            let out = if self.w.early_out {
                early_out
            } else {
                u64::MAX
            };
            self.work_done.min(out)
        } else {
            self.floor_end
        };
        own.min(deadline)
    }
}

impl Gpu {
    /// The front end of queue `qi` issues a work item at `now`.
    pub(super) fn issue_item(
        &mut self,
        qi: usize,
        w: WorkItem,
        meta: Meta,
        pre: (Stall, u64),
        path_in: Path,
        profile: &Profile,
    ) {
        let seq = self.next_seq();
        let q = &mut self.queues[qi];
        let gate = (q.actions.iter())
            .filter(|a| a.blocks().intersects(w.stages))
            .map(|a| a.ordinal)
            .max()
            .unwrap_or(0);
        let ticket = w.serial.stream().map(|k| {
            q.serial_issued[k] += 1;
            (k, q.serial_issued[k] - 1)
        });
        let held_by = if gate > q.actions_done {
            Stall::Block
        } else if let Some((k, t)) = ticket
            && t != q.serial_done[k]
        {
            // EB-8d: the driver syncs copies; draws wait for the fixed-function pipe.
            if k == 0 { Stall::Drain } else { Stall::Busy }
        } else {
            Stall::None
        };
        let item = Item {
            w,
            meta,
            queue: qi as u8,
            seq,
            issue: self.now,
            pre,
            path_in,
            gate,
            ticket,
            held_by,
            ..Item::default()
        };
        let slot = match self.free_items.pop() {
            Some(s) => {
                self.items[s as usize] = item;
                s
            }
            None => {
                self.items.push(item);
                (self.items.len() - 1) as u32
            }
        };
        self.queues[qi].in_flight.push(slot);
        if !self.try_launch(slot, profile) {
            self.queues[qi].held.push(slot);
        }
    }

    /// Launch `slot` at `now` if nothing holds it. True when it launched.
    fn try_launch(&mut self, slot: u32, profile: &Profile) -> bool {
        let now = self.now;
        let it = &self.items[slot as usize];
        let q = &self.queues[it.queue as usize];
        let behind = it.ticket.is_some_and(|(k, t)| t != q.serial_done[k]);
        if it.launched || q.actions_done < it.gate || behind {
            return false;
        }
        let release = q.release_path;
        let width = (q.cu_limit.min(profile.capacity_mcu()) as u64).max(1);
        let deadline = self.hang_deadline(profile);
        let it = &mut self.items[slot as usize];
        let widest = (it.w.cap as u64).min(width).max(1);
        it.solo_ns = it.w.floor_ns.max(it.w.work.div_ceil(widest));
        it.launched = true;
        it.launch = now;
        it.rem_at = it.w.work;
        it.t_at = now;
        it.rate = 0;
        it.work_done = if it.rem_at > 0 { u64::MAX } else { now };
        it.floor_end = now.saturating_add(it.w.floor_ns);
        it.path_start = if now > it.issue {
            Path::after(it.meta.frame, &[it.path_in, release], 0)
        } else {
            it.path_in
        };
        if it.rem_at > 0 && it.w.cap > 0 {
            self.shares_dirty = true;
        }
        let next = it.next_event(deadline, self.early_out.raised_from(now));
        let q = &mut self.queues[it.queue as usize];
        q.launched.push(slot);
        q.items_next = q.items_next.min(next);
        true
    }

    /// Launch every held item of queue `qi` whose holder is gone. True when any launched.
    pub(super) fn launch_gated(&mut self, qi: usize, profile: &Profile) -> bool {
        self.queues[qi].gate_dirty = false;
        let mut moved = false;
        let mut i = 0;
        while i < self.queues[qi].held.len() {
            let q = &self.queues[qi];
            let slot = q.held[i];
            let it = &self.items[slot as usize];
            let behind = it.ticket.is_some_and(|(k, t)| t != q.serial_done[k]);
            if it.gate > q.actions_done || behind {
                i += 1;
                continue;
            }
            if self.try_launch(slot, profile) {
                self.queues[qi].held.remove(i);
                moved = true;
            } else {
                i += 1;
            }
        }
        moved
    }

    /// When work still running is a hang: the profile's timeout after a Suspend began waiting
    /// for it (CC-8); `u64::MAX` when no Suspend is pending (a long work item is no hang).
    fn hang_deadline(&self, profile: &Profile) -> u64 {
        match self.suspend_at {
            Some(at) if profile.hang_timeout_ns > 0 => at.saturating_add(profile.hang_timeout_ns),
            _ => u64::MAX,
        }
    }

    /// Finish queue `qi`'s items that are done at `now`; stop the GPU if one is still running
    /// when the system's wait at Suspend times out (CC-8). True when any finished.
    pub(super) fn complete_items(&mut self, qi: usize, profile: &Profile) -> bool {
        let now = self.now;
        let timeout = profile.hang_timeout_ns;
        let deadline = self.hang_deadline(profile);
        let early_out = self.early_out.raised_from(now) <= now;
        let mut moved = false;
        let mut i = 0;
        while i < self.queues[qi].launched.len() {
            let slot = self.queues[qi].launched[i];
            let it = &mut self.items[slot as usize];
            // The CPU raised the early-out flag: work that polls it stops shading (CC-8).
            let out = early_out && it.w.early_out;
            if out && it.rem_at > 0 {
                it.floor_end = it.floor_end.min(now);
            }
            if it.rem_at > 0 && (it.work_done <= now || out) {
                // Its shading is done: it gives its compute units back (CC-2).
                it.rem_at = 0;
                it.t_at = now;
                it.rate = 0;
                self.shares_dirty = true;
            }
            if it.rem_at == 0 && it.floor_end <= now {
                self.queues[qi].launched.remove(i);
                let q = &mut self.queues[qi];
                if let Some(pos) = q.in_flight.iter().position(|&s| s == slot) {
                    q.in_flight.remove(pos);
                }
                self.complete(slot);
                moved = true;
                continue;
            }
            if now >= deadline && self.fault.is_none() {
                self.fault = Some(Hang {
                    queue: QueueId::from_index(qi).unwrap_or_default(),
                    frame: it.meta.frame,
                    label: it.meta.label,
                    name: it.meta.name,
                    timeout_ns: timeout,
                });
            }
            i += 1;
        }
        self.refresh_items_next(qi, profile);
        moved
    }

    /// A compute queue flushed a whole cache the graphics shaders share (CC-4): every graphics
    /// item running now stalls [`GRAPHICS_REFILL_NS`] refilling it. Its shading makes no
    /// progress meanwhile (`t_at` lies ahead; it keeps its compute units, its waves waiting on
    /// memory) and its floor ends that much later.
    pub(super) fn disturb_graphics(&mut self) {
        let now = self.now;
        let refill = GRAPHICS_REFILL_NS;
        let mut disturbed = 0;
        for i in 0..self.queues[0].launched.len() {
            let slot = self.queues[0].launched[i];
            let it = &mut self.items[slot as usize];
            let working = it.rem_at > 0 && it.work_done > now;
            if !working && it.floor_end <= now {
                continue;
            }
            if working {
                // Its shading resumes after the refill, at whatever share it has then.
                it.rem_at = it.rem(now);
                it.t_at = it.t_at.max(now).saturating_add(refill);
                if it.rate > 0 {
                    it.work_done = it.t_at.saturating_add(it.rem_at.div_ceil(it.rate as u64));
                }
            }
            it.floor_end = it.floor_end.max(now).saturating_add(refill);
            disturbed += 1;
        }
        if disturbed > 0 {
            self.refills += disturbed;
            // Its items' events moved later: the next look at the graphics queue finds them.
            self.queues[0].items_next = self.queues[0].items_next.min(now);
            self.wake(0);
        }
    }

    /// Recompute queue `qi`'s earliest item event.
    pub(super) fn refresh_items_next(&mut self, qi: usize, profile: &Profile) {
        let deadline = self.hang_deadline(profile);
        let early_out = self.early_out.raised_from(self.now);
        let q = &self.queues[qi];
        let next = (q.launched.iter())
            .map(|&s| self.items[s as usize].next_event(deadline, early_out))
            .min()
            .unwrap_or(u64::MAX);
        self.queues[qi].items_next = next;
    }

    fn complete(&mut self, slot: u32) {
        let now = self.now;
        let it = std::mem::take(&mut self.items[slot as usize]);
        self.free_items.push(slot);
        let qi = it.queue as usize;
        let frame = it.meta.frame;
        let path = Path {
            frame,
            ns: it.path_start.within(frame) + it.solo_ns,
            barrier_ns: it.path_start.barrier_within(frame),
        };
        let q = &mut self.queues[qi];
        q.drain_check = true;
        if let Some((k, _)) = it.ticket {
            q.serial_done[k] += 1;
            q.release_path = path;
            q.gate_dirty = true;
        }
        for a in q.actions.iter_mut() {
            if a.seq > it.seq && a.drain.intersects(it.w.stages) {
                a.path.absorb(path);
            }
        }
        if qi != 0 && self.queues[0].actions.iter().any(|a| a.global) {
            // A pending Suspend on graphics drains every queue (CC-8).
            let g = &mut self.queues[0];
            for a in g.actions.iter_mut().filter(|a| a.global && a.seq > it.seq) {
                a.path.absorb(path);
            }
            g.drain_check = true;
            self.wake(0);
        }
        let gate_wait = (it.held_by, it.launch - it.issue);
        let rec = RecordTimes {
            issue: it.issue,
            start: it.launch,
            end: now,
            stall: longer(it.pre, gate_wait),
            decompress: if it.w.decompress { now - it.launch } else { 0 },
            path,
            ..RecordTimes::default()
        };
        let queue = QueueId::from_index(qi).unwrap_or_default();
        self.emit(queue, it.meta, rec);
    }
}
