//! The timing model: a deterministic discrete-event simulation of the GPU.
//!
//! Why discrete events: everything the seeds say costs something is a matter of *when*. A
//! drain costs the in-flight work it waits for, asynchronous compute gains what it overlaps
//! and loses what it steals, a fence passes when its queue gets there. A model that adds up
//! per-command costs cannot say any of that; one that advances a clock from event to event,
//! with the state of every engine in between, can, and with integer nanoseconds it gives the
//! same numbers on every machine and build.
//!
//! The state: per queue, a front end reading its stream in order (a command slot each, halted
//! by waits, kickoffs, suspend and a full pipeline); work items in flight, each occupying
//! pipeline stages, holding a share of the compute units, and bounded below by its
//! fixed-function floor; bottom-of-pipe actions (barriers, fences, presents, timestamps)
//! completing in order once what they drain has finished. Events are front ends becoming
//! ready, items finishing their work or floor, actions finishing their cache and compression
//! work, and hang deadlines. Whenever an event changes who wants compute units they are shared
//! again ([`share`]), so rates are piecewise constant in between and every time is exact.
//!
//! Cost: an event only touches the queues it concerns (each caches when it next needs
//! looking at), items keep an absolute finishing time instead of being advanced at every
//! event, and a front end runs ahead through commands that concern nobody else (state,
//! bindings) without an event of its own. The simulation is linear in commands.
//!
//! Time only moves forward to where the CPU has been: [`Gpu::advance`] processes events up to
//! a horizon (the latest CPU time the device was told about), because work submitted later
//! may compete for compute units from then on. Waiting for a fence is a promise that the CPU
//! submits nothing until it passes, so it may run as far as the fence needs. A GPU that can
//! never reach a fence is diagnosed ([`diagnose`]) instead of looped on.

mod actions;
mod diagnose;
mod early_out;
mod fences;
mod front;
mod items;
mod queue;
pub(crate) mod record;
mod scanout;
mod share;

use hashbrown::HashMap;
use slotmap::SecondaryMap;

use super::cost::Op;
use super::{FenceId, ObjectKey, Profile, QUEUE_COUNT, QueueId};
pub(crate) use diagnose::Hang;
use fences::FenceTable;
use items::Item;
pub(crate) use queue::{FrontWait, Pending, QueueState};
pub(crate) use record::Path;
use record::{Executed, Stall};
use scanout::Scanout;

/// Who a command belongs to: for records, diagnostics and lifetime (FS-6).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Meta {
    pub frame: u64,
    pub label: u32,
    pub name: &'static str,
    /// Objects the command references, views resolved to their resources too.
    pub refs: Vec<ObjectKey>,
    /// Commands submitted to the queue before this one: ties a record to its command.
    pub seq: u64,
    /// Issued by a legacy context, whose work updates resource fences (CC-5, FS-1).
    pub tracked: bool,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RefState {
    pub pending: u32,
    pub last_end: u64,
    /// Of `pending`, the commands that update resource fences (legacy contexts, CC-5).
    pub tracked_pending: u32,
    /// End of the last such command finished.
    pub tracked_end: u64,
}

/// The GPU side of the device.
pub(crate) struct Gpu {
    pub now: u64,
    /// Events up to this time may be processed (the CPU's latest known time).
    pub horizon: u64,
    pub queues: [QueueState; QUEUE_COUNT],
    items: Vec<Item>,
    free_items: Vec<u32>,
    shares_dirty: bool,
    /// A queue was woken while settling the current instant.
    woken: bool,
    seq: u64,
    pub fences: FenceTable,
    pub scanout: Scanout,
    pub refs: SecondaryMap<ObjectKey, RefState>,
    pub timestamps: HashMap<u32, u64>,
    pub suspended: bool,
    /// When the pending Suspend began waiting for kicked-off work (CC-8): the hang timeout
    /// runs from here.
    pub suspend_at: Option<u64>,
    /// The title's early-out flag for long compute work, as the CPU writes it (CC-8).
    pub early_out: early_out::EarlyOut,
    pub fault: Option<Hang>,
    pub executed: Vec<Executed>,
    /// Graphics work items a compute queue's whole-cache flush made refill (CC-4).
    pub refills: u64,
    produced: usize,
    scratch: share::Scratch,
}

impl Gpu {
    /// A GPU whose pipe-0 compute queues start limited to `pipe0_cu_limit` CUs (CC-2).
    pub fn new(profile: &Profile) -> Gpu {
        let mut gpu = Gpu {
            now: 0,
            horizon: 0,
            queues: Default::default(),
            items: Vec::new(),
            free_items: Vec::new(),
            shares_dirty: false,
            woken: false,
            seq: 0,
            fences: FenceTable::default(),
            scanout: Scanout::default(),
            refs: SecondaryMap::new(),
            timestamps: HashMap::new(),
            suspended: false,
            suspend_at: None,
            early_out: Default::default(),
            fault: None,
            executed: Vec::new(),
            refills: 0,
            produced: 0,
            scratch: share::Scratch::default(),
        };
        for q in &mut gpu.queues {
            q.items_next = u64::MAX;
            q.next = u64::MAX;
        }
        gpu.reset_limits(profile);
        gpu
    }

    /// Entries in the tables that could grow with a run (fences, work items, streams,
    /// executed records not yet drained, timestamps) and the bytes they have allocated.
    pub fn footprint(&self) -> (usize, usize) {
        let streams: usize = self.queues.iter().map(|q| q.stream.len()).sum();
        let stream_bytes: usize = (self.queues.iter())
            .map(|q| q.stream.capacity() * size_of::<Pending>())
            .sum();
        (
            self.fences.len() + self.items.len() + streams + self.executed.len(),
            self.fences.heap_bytes()
                + self.items.capacity() * size_of::<Item>()
                + stream_bytes
                + self.executed.capacity() * size_of::<Executed>()
                + self.timestamps.capacity() * (size_of::<(u32, u64)>() + 1),
        )
    }

    /// Every queue's CU limit back to the profile's defaults (CC-2).
    pub fn reset_limits(&mut self, profile: &Profile) {
        for (i, q) in self.queues.iter_mut().enumerate() {
            q.cu_limit = match QueueId::from_index(i) {
                Some(QueueId::Compute { pipe: 0, .. }) => {
                    profile.pipe0_cu_limit.saturating_mul(1000)
                }
                _ => u32::MAX,
            };
        }
    }

    /// Room for `n` more commands on `queue` and their records.
    pub fn reserve(&mut self, queue: QueueId, n: usize) {
        self.queues[queue.index()].stream.reserve(n);
        self.executed.reserve(n);
    }

    /// Append a submitted command to `queue`'s stream; `kicks` flushes everything pending.
    pub fn push(&mut self, queue: QueueId, pending: Pending, kicks: bool) {
        for &r in &pending.meta.refs {
            if let Some(state) = self.refs.entry(r) {
                let state = state.or_default();
                state.pending += 1;
                state.tracked_pending += pending.meta.tracked as u32;
            }
        }
        if let Op::Fence(f) = pending.op {
            self.fences.register(f);
        }
        let q = &mut self.queues[queue.index()];
        let mut pending = pending;
        pending.meta.seq = q.submitted;
        q.submitted += 1;
        q.stream.push_back(pending);
        if kicks {
            q.kicked = q.stream.len();
        }
        self.refresh_next(queue.index());
    }

    /// Process every event up to `until`, or until `stop` has signalled. Returns the number
    /// of commands finished.
    pub fn advance(&mut self, until: u64, stop: Option<FenceId>, profile: &Profile) -> usize {
        self.produced = 0;
        loop {
            if self.fault.is_some() {
                break;
            }
            self.settle_now(until, profile);
            if self.fault.is_some() || stop.is_some_and(|f| self.fences.signal(f).is_some()) {
                break;
            }
            match self.next_event() {
                Some(t) if t <= until => self.now = t,
                _ => break,
            }
        }
        self.produced
    }

    /// Everything that happens at `now`, queue by queue, until no queue is woken again; the
    /// compute units are shared again whenever someone's demand changed.
    fn settle_now(&mut self, until: u64, profile: &Profile) {
        loop {
            self.woken = false;
            for qi in 0..QUEUE_COUNT {
                let q = &self.queues[qi];
                if q.dirty || q.next <= self.now {
                    self.process(qi, until, profile);
                    if self.fault.is_some() {
                        return;
                    }
                }
            }
            if self.shares_dirty {
                self.share(profile);
            }
            if !self.woken {
                return;
            }
        }
    }

    /// One queue at `now`: finished items, finished actions, released items, front end; then
    /// the front end runs ahead through commands that touch nothing else (FN-3 state
    /// commands, bindings), up to the next event anywhere.
    fn process(&mut self, qi: usize, until: u64, profile: &Profile) {
        self.queues[qi].dirty = false;
        loop {
            let mut moved = false;
            if self.queues[qi].items_next <= self.now {
                moved |= self.complete_items(qi, profile);
            }
            moved |= self.complete_actions(qi);
            if self.queues[qi].gate_dirty {
                moved |= self.launch_gated(qi, profile);
            }
            while self.front_step(qi, profile) {
                moved = true;
            }
            if self.fault.is_some() || !moved {
                break;
            }
        }
        let q = &self.queues[qi];
        let runs_ahead = q.kicked > 0
            && q.wait == FrontWait::None
            && q.stream.front().is_some_and(|p| p.op.front_ns(0).is_some());
        if runs_ahead {
            let mut bound = q.items_next;
            if let Some(done) = q.actions.front().and_then(|a| a.done_at) {
                bound = bound.min(done);
            }
            for (i, other) in self.queues.iter().enumerate() {
                if i != qi {
                    bound = bound.min(other.next);
                }
            }
            self.front_run(qi, bound.min(until.saturating_add(1)), profile);
        }
        self.refresh_next(qi);
    }

    /// Mark queue `qi` to be looked at at `now`.
    pub(super) fn wake(&mut self, qi: usize) {
        self.queues[qi].dirty = true;
        self.woken = true;
    }

    /// Look at every queue at `now` (a fence signalled, a buffer's flip was decided, the GPU
    /// was suspended or resumed).
    fn wake_all(&mut self) {
        for q in &mut self.queues {
            q.dirty = true;
        }
        self.woken = true;
    }

    /// Cache when queue `qi` next has something to do.
    pub(super) fn refresh_next(&mut self, qi: usize) {
        self.queues[qi].next = self.queue_next(qi);
    }

    /// When queue `qi` next has something to do (`u64::MAX`: not until woken).
    fn queue_next(&self, qi: usize) -> u64 {
        let q = &self.queues[qi];
        let mut next = q.items_next;
        if q.kicked > 0
            && q.wait == FrontWait::None
            && let Some(p) = q.stream.front()
        {
            next = next.min(q.fe_free.max(p.submit_ns));
        }
        if let Some(a) = q.actions.front()
            && let Some(done) = a.done_at
        {
            next = next.min(done);
        }
        next
    }

    /// The earliest future event, if any.
    fn next_event(&self) -> Option<u64> {
        let next = self.queues.iter().map(|q| q.next).min()?;
        (next != u64::MAX).then_some(next.max(self.now))
    }

    /// Record a finished command.
    fn emit(&mut self, queue: QueueId, meta: Meta, rec: RecordTimes) {
        for &r in &meta.refs {
            if let Some(state) = self.refs.get_mut(r) {
                state.pending = state.pending.saturating_sub(1);
                state.last_end = state.last_end.max(rec.end);
                if meta.tracked {
                    state.tracked_pending = state.tracked_pending.saturating_sub(1);
                    state.tracked_end = state.tracked_end.max(rec.end);
                }
            }
        }
        let q = &mut self.queues[queue.index()];
        q.last_end = q.last_end.max(rec.end);
        self.produced += 1;
        self.executed.push(Executed {
            queue,
            frame: meta.frame,
            label: meta.label,
            name: meta.name,
            issue_ns: rec.issue,
            start_ns: rec.start,
            end_ns: rec.end,
            stall_ns: rec.stall.1,
            stall: rec.stall.0,
            cache_ns: rec.cache,
            decompress_ns: rec.decompress,
            path_ns: rec.path.ns,
            path_barrier_ns: rec.path.barrier_ns,
            seq: meta.seq,
        });
    }

    /// The next global issue number (orders items and actions across queues).
    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }
}

/// The times of a finished command.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RecordTimes {
    pub issue: u64,
    pub start: u64,
    pub end: u64,
    pub stall: (Stall, u64),
    pub cache: u64,
    pub decompress: u64,
    pub path: Path,
}
