//! What the simulation reports per command: the timeline the statistics, the trace exporter
//! and the validator read.
//!
//! Every command yields one [`Executed`] record when it is finished: front-end commands when
//! the front end has read them, work items when they complete, barriers, fences, presents and
//! timestamps when their bottom-of-pipe action is done. Records come in completion order, so
//! per queue they are in order for everything but concurrent work items.
//!
//! A record also carries the length of the frame's critical path up to its end: the longest
//! chain of commands, each waiting for the one before (front-end order, a drain, a block, a
//! fence, a serialised stream), counting only what each command does itself (a work item as
//! long as it would take alone on the GPU, a barrier's cache and compression work, a
//! front-end slot), never time spent waiting or slowed down by other queues. Chains start
//! fresh at a frame boundary. The longest path over a frame's records is that frame's
//! critical path: no schedule of the same command streams on the same GPU finishes sooner.

use super::super::QueueId;

/// Why a command started later than its queue was ready for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stall {
    #[default]
    None,
    /// Waiting on a fence from another queue (FN-2).
    Fence,
    /// Waiting for a buffer to leave presentation (FS-5).
    Present,
    /// Waiting for the CPU to submit or kick off the work (FN-3).
    Submit,
    /// A barrier waiting for in-flight work on the stages it drains, or a serialised copy
    /// waiting for the copy before it (EB-2, EB-8d).
    Drain,
    /// A work item held because an earlier barrier blocks one of its stages (EB-2).
    Block,
    /// A compute or DMA queue locked by Suspend (CC-8).
    Suspend,
    /// The queue already had as many work items in flight as it can hold.
    Busy,
}

/// One executed command on the GPU timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Executed {
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub name: &'static str,
    /// When the front end reached the command.
    pub issue_ns: u64,
    /// When it began its own work (a work item's launch; a barrier's or bottom-of-pipe event's
    /// issue) and when it was done.
    pub start_ns: u64,
    pub end_ns: u64,
    /// Time it waited, and why (the longer wait if it waited twice).
    pub stall_ns: u64,
    pub stall: Stall,
    /// Part of its duration spent writing back and invalidating caches (EB-3).
    pub cache_ns: u64,
    /// Part of its duration spent decompressing or initialising metadata (EB-4, EB-5).
    pub decompress_ns: u64,
    /// The frame's critical path up to this command's end, ns.
    pub path_ns: u64,
    /// The part of `path_ns` that Barrier commands' own work took (cache write-backs and
    /// invalidations, compression: EB-3..EB-5): what barriers add to the critical path.
    pub path_barrier_ns: u64,
    /// Commands submitted to the queue before this one (the n-th submitted has `seq` n).
    pub seq: u64,
}

/// A critical-path length, tagged with the frame it belongs to: a predecessor from an earlier
/// frame starts the chain afresh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Path {
    pub frame: u64,
    pub ns: u64,
    /// The part of `ns` spent in Barrier commands' own work.
    pub barrier_ns: u64,
}

impl Path {
    /// The length this path contributes to a command of `frame`.
    pub fn within(self, frame: u64) -> u64 {
        if self.frame == frame { self.ns } else { 0 }
    }

    /// Its barrier part, seen from `frame`.
    pub fn barrier_within(self, frame: u64) -> u64 {
        if self.frame == frame {
            self.barrier_ns
        } else {
            0
        }
    }

    /// The longest of the predecessors, seen from `frame`, plus `own` work (not a barrier's).
    pub fn after(frame: u64, preds: &[Path], own: u64) -> Path {
        let longest =
            (preds.iter().copied()).max_by_key(|p| (p.within(frame), p.barrier_within(frame)));
        Path {
            frame,
            ns: longest.map_or(0, |p| p.within(frame)) + own,
            barrier_ns: longest.map_or(0, |p| p.barrier_within(frame)),
        }
    }

    /// Fold another predecessor into this one (same frame as `self`).
    pub fn absorb(&mut self, other: Path) {
        let theirs = (other.within(self.frame), other.barrier_within(self.frame));
        if theirs > (self.ns, self.barrier_ns) {
            (self.ns, self.barrier_ns) = theirs;
        }
    }
}

/// The longer of two waits, with its reason.
pub(crate) fn longer(a: (Stall, u64), b: (Stall, u64)) -> (Stall, u64) {
    if b.1 > a.1 { b } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The barrier part follows the longest predecessor, and a predecessor from an earlier
    /// frame contributes nothing.
    #[test]
    fn a_path_carries_the_barrier_work_of_its_longest_predecessor() {
        let work = Path {
            frame: 3,
            ns: 900,
            barrier_ns: 0,
        };
        let barriers = Path {
            frame: 3,
            ns: 500,
            barrier_ns: 400,
        };
        let old = Path {
            frame: 2,
            ns: 5_000,
            barrier_ns: 5_000,
        };
        let p = Path::after(3, &[barriers, work, old], 10);
        assert_eq!((p.ns, p.barrier_ns), (910, 0));
        let mut q = barriers;
        q.absorb(old);
        assert_eq!((q.ns, q.barrier_ns), (500, 400));
        q.absorb(work);
        assert_eq!((q.ns, q.barrier_ns), (900, 0));
    }
}
