//! Where each queue's time went: busy, or idle for exactly one reason, on the timeline.
//!
//! Stall times summed per command overcount: a command that waited 700 us for a fence may
//! have waited while the work before it was still running, and five commands waiting for the
//! same fence each count the wait. Here the timeline of each queue is split instead: every
//! nanosecond from the first frame's start to the last frame's end is either *busy* (some
//! command of the queue executing, any frame; concurrent items count once) or *idle*, and an
//! idle gap is charged to the reason the command that ends it waited ([`Stall`]: a fence
//! FN-2, presentation FS-5, the CPU FN-3, a drain or block EB-2, Suspend CC-8, a full queue).
//! The part of a gap its command did not wait for is `front_end` (the front end was reading
//! state commands), and the time after a queue's last command is `done`. So per queue the
//! busy time and the idle causes add up to the run's GPU time, and divided by the frames to
//! `gpu.frame_us.mean`: no figure can exceed the frame.
//!
//! Busy time is further split by what ran: `barrier` is time in which only Barrier commands
//! executed (cache write-backs and invalidations, decompressions, EB-3..EB-5), the time the
//! queue's work waited on its barriers' own work. It is the waste of a barrier strategy that
//! shows even on one queue, where nothing else can hide it.
//!
//! Records arrive in completion order, so each queue keeps those it cannot place yet and
//! sweeps them in start order up to a watermark the caller gives (the earliest start of a
//! frame that may still receive records). A record that arrives after the sweep passed its
//! start counts from where the sweep is: the totals stay a partition of the time.

use crate::device::{Executed, QUEUE_COUNT, QueueId, Stall};

/// Why a queue was idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// Waiting on a fence of another queue (FN-2).
    Fence,
    /// Waiting for a buffer to leave presentation (FS-5).
    Present,
    /// Waiting for the CPU to submit or kick off (FN-3).
    Submit,
    /// A barrier waiting for in-flight work to drain (EB-2, EB-8d).
    Drain,
    /// Work held by a barrier blocking its stages (EB-2).
    Block,
    /// Compute and DMA locked by Suspend (CC-8).
    Suspend,
    /// The front end waiting for room in a full queue.
    Full,
    /// The front end reading state and binding commands.
    FrontEnd,
    /// Nothing left to run: after the queue's last command.
    Done,
}

/// Number of causes.
pub const CAUSES: usize = 9;

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; CAUSES] = [
        Cause::Fence,
        Cause::Present,
        Cause::Submit,
        Cause::Drain,
        Cause::Block,
        Cause::Suspend,
        Cause::Full,
        Cause::FrontEnd,
        Cause::Done,
    ];

    /// The JSON key.
    pub fn key(self) -> &'static str {
        match self {
            Cause::Fence => "fence",
            Cause::Present => "present",
            Cause::Submit => "submit",
            Cause::Drain => "drain",
            Cause::Block => "block",
            Cause::Suspend => "suspend",
            Cause::Full => "full",
            Cause::FrontEnd => "front_end",
            Cause::Done => "done",
        }
    }

    /// The cause a command's stall names (`None` when it did not wait).
    pub fn of(stall: Stall) -> Option<Cause> {
        Some(match stall {
            Stall::None => return None,
            Stall::Fence => Cause::Fence,
            Stall::Present => Cause::Present,
            Stall::Submit => Cause::Submit,
            Stall::Drain => Cause::Drain,
            Stall::Block => Cause::Block,
            Stall::Suspend => Cause::Suspend,
            Stall::Busy => Cause::Full,
        })
    }

    fn index(self) -> usize {
        Cause::ALL.iter().position(|&c| c == self).unwrap_or(0)
    }
}

/// One queue's time over a run, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueTime {
    /// Some command of the queue executing.
    pub busy_ns: u64,
    /// Part of `busy_ns` in which only Barrier commands executed.
    pub barrier_ns: u64,
    /// Idle time per cause, indexed as [`Cause::ALL`].
    pub idle_ns: [u64; CAUSES],
    /// Cache and decompression work of the queue's commands (parts of their durations).
    pub cache_ns: u64,
    pub decompress_ns: u64,
}

impl QueueTime {
    /// Idle time for `cause`.
    pub fn idle(&self, cause: Cause) -> u64 {
        self.idle_ns[cause.index()]
    }

    /// Busy plus every idle cause.
    pub fn total_ns(&self) -> u64 {
        self.busy_ns + self.idle_ns.iter().sum::<u64>()
    }
}

/// What the sweep needs of a record.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u64,
    end: u64,
    stall: Stall,
    stall_ns: u64,
    barrier: bool,
}

/// One queue's sweep.
#[derive(Clone, Debug, Default)]
struct Sweep {
    pending: Vec<Span>,
    /// The first record swept (its start and stall explain the time before it).
    first: Option<Span>,
    /// End of the union of every record swept, and of the non-barrier ones.
    busy_until: u64,
    work_until: u64,
    work_ns: u64,
    time: QueueTime,
}

impl Sweep {
    fn sweep(&mut self, watermark: u64) {
        self.pending.sort_by_key(|s| (s.start, s.end));
        let ready = self.pending.partition_point(|s| s.start < watermark);
        let spans: Vec<Span> = self.pending.drain(..ready).collect();
        for s in spans {
            self.place(s);
        }
    }

    fn place(&mut self, s: Span) {
        let t = &mut self.time;
        match self.first {
            None => {
                self.first = Some(s);
                self.busy_until = s.start;
                self.work_until = s.start;
            }
            Some(_) if s.start > self.busy_until => {
                let gap = (self.busy_until, s.start);
                let waited = Cause::of(s.stall).map_or(0, |_| s.stall_ns.min(gap.1 - gap.0));
                if let Some(c) = Cause::of(s.stall) {
                    t.idle_ns[c.index()] += waited;
                }
                t.idle_ns[Cause::FrontEnd.index()] += gap.1 - gap.0 - waited;
            }
            Some(_) => {}
        }
        let end = s.end.max(s.start);
        t.busy_ns += end.saturating_sub(s.start.max(self.busy_until));
        self.busy_until = self.busy_until.max(end);
        if !s.barrier {
            self.work_ns += end.saturating_sub(s.start.max(self.work_until));
            self.work_until = self.work_until.max(end);
        }
        t.barrier_ns = t.busy_ns - self.work_ns.min(t.busy_ns);
    }

    /// This queue's time from `origin` to `end`, everything swept.
    fn finish(&self, origin: u64, end: u64) -> Option<QueueTime> {
        let mut s = self.clone();
        s.sweep(u64::MAX);
        let first = s.first?;
        let mut t = s.time;
        let lead = first.start.saturating_sub(origin);
        let waited = Cause::of(first.stall).map_or(0, |_| first.stall_ns.min(lead));
        if let Some(c) = Cause::of(first.stall) {
            t.idle_ns[c.index()] += waited;
        }
        t.idle_ns[Cause::FrontEnd.index()] += lead - waited;
        t.idle_ns[Cause::Done.index()] += end.saturating_sub(s.busy_until);
        Some(t)
    }
}

/// Every queue's sweep.
#[derive(Clone, Debug, Default)]
pub struct QueueClock {
    queues: [Sweep; QUEUE_COUNT],
    cache: [(u64, u64); QUEUE_COUNT],
}

impl QueueClock {
    /// Take records in (any order).
    pub fn add(&mut self, executed: &[Executed]) {
        for x in executed {
            let q = x.queue.index();
            self.cache[q].0 += x.cache_ns;
            self.cache[q].1 += x.decompress_ns;
            self.queues[q].pending.push(Span {
                start: x.start_ns,
                end: x.end_ns,
                stall: x.stall,
                stall_ns: x.stall_ns,
                barrier: x.name == "Barrier",
            });
        }
    }

    /// Place every record that starts before `watermark`: no record still to come starts
    /// earlier.
    pub fn sweep(&mut self, watermark: u64) {
        for q in &mut self.queues {
            q.sweep(watermark);
        }
    }

    /// The time of every queue that ran something, from `origin` (the first frame's start)
    /// to `end` (the last frame's end).
    pub fn finish(&self, origin: u64, end: u64) -> Vec<(QueueId, QueueTime)> {
        (self.queues.iter().enumerate())
            .filter_map(|(i, s)| {
                let mut t = s.finish(origin, end)?;
                (t.cache_ns, t.decompress_ns) = self.cache[i];
                Some((QueueId::from_index(i)?, t))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(name: &'static str, start: u64, end: u64, stall: Stall, stall_ns: u64) -> Executed {
        Executed {
            queue: QueueId::Graphics,
            frame: 0,
            label: 0,
            name,
            issue_ns: start,
            start_ns: start,
            end_ns: end,
            stall_ns,
            stall,
            cache_ns: 0,
            decompress_ns: 0,
            path_ns: 0,
            path_barrier_ns: 0,
            seq: 0,
        }
    }

    /// Overlapping work counts once, a wait longer than the gap it ends counts only the gap,
    /// and the causes with the busy time add up to the whole span.
    #[test]
    fn each_nanosecond_is_busy_or_idle_for_one_reason() {
        let mut c = QueueClock::default();
        // Out of completion order: the long draw arrives last.
        c.add(&[
            rec("Barrier", 100, 110, Stall::Drain, 30),
            rec("Draw", 20, 40, Stall::None, 0),
            rec("Draw", 150, 200, Stall::Fence, 500),
            rec("Draw", 10, 100, Stall::Submit, 10),
        ]);
        c.sweep(u64::MAX);
        let all = c.finish(0, 260);
        let (q, t) = all[0];
        assert_eq!(q, QueueId::Graphics);
        assert_eq!(all.len(), 1, "unused queues are left out");
        assert_eq!(t.busy_ns, 90 + 10 + 50);
        assert_eq!(t.barrier_ns, 10);
        assert_eq!(t.idle(Cause::Submit), 10, "before the first command");
        assert_eq!(t.idle(Cause::Fence), 40, "the wait, cut to its gap");
        assert_eq!(t.idle(Cause::Drain), 0, "the drain overlapped busy time");
        assert_eq!(t.idle(Cause::Done), 60);
        assert_eq!(t.total_ns(), 260);
    }

    /// A record arriving after the sweep passed its start still leaves a partition.
    #[test]
    fn a_late_record_keeps_the_partition() {
        let mut c = QueueClock::default();
        c.add(&[
            rec("Draw", 0, 10, Stall::None, 0),
            rec("Draw", 50, 60, Stall::None, 0),
        ]);
        c.sweep(100);
        c.add(&[rec("Draw", 20, 70, Stall::Fence, 20)]);
        let (_, t) = c.finish(0, 100)[0];
        assert_eq!(t.total_ns(), 100);
        assert_eq!(t.busy_ns, 10 + 10 + 10);
        assert_eq!(t.idle(Cause::FrontEnd), 40);
    }
}
