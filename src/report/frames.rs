//! Per-frame GPU accounting: busy time per queue, the frame's GPU time, the overlap of
//! graphics and compute, the critical path and the lower bound.
//!
//! Busy time is a union of intervals, not a sum of durations: work items on one queue run
//! concurrently, and summing them would count the same nanosecond twice. A frame's GPU time
//! (`work`) is the union over all queues of the intervals in which one of the frame's commands
//! was executing: time the GPU spent waiting for the display or the CPU, or with every queue
//! waiting on another, is not part of it, which is what makes it comparable between runs that
//! vsync hides (the interval between frame completions is 16.7 ms whenever presents wait for
//! the display). The lower bound is the longer of the critical path and the busiest queue's
//! busy time: no schedule of the same commands on the same GPU could make the frame shorter
//! than either. Books stay open while records may still arrive, then shrink to a few numbers.
//!
//! The critical path is the frame's longest chain at each command's uncontended duration, as
//! the timing model rounds it per command; a chain of the frame's commands runs inside the
//! frame's executing intervals, so a path longer than `work` is the rounding's, not time a
//! schedule could save, and a frame's critical path is counted at most its `work`. The lower
//! bound is then at most `work` in every frame.
//!
//! The lower bound cannot show what barriers waste on one queue: there the busiest queue is
//! the frame, and a conservative strategy's drains are on the critical path as if they were
//! dependencies. So a frame's *ideal* time is the lower bound or the frame without the time
//! in which only Barrier commands ran on the GPU (cache and compression work, EB-3..EB-5, that
//! free barriers would not have), whichever is less, and `gpu.efficiency` is total ideal time
//! over total `work`: at most 1, lower for a strategy whose barriers do more.

use crate::device::{Executed, QUEUE_COUNT, QueueId};

/// Sorted, disjoint, non-empty `[start, end)` intervals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Intervals(Vec<(u64, u64)>);

impl Intervals {
    /// Add `[start, end)`, merging with what it touches.
    pub fn insert(&mut self, start: u64, end: u64) {
        if end <= start {
            return;
        }
        let v = &mut self.0;
        // Records mostly arrive in order: extend the last interval when possible.
        if let Some(last) = v.last_mut() {
            if start >= last.0 && start <= last.1 {
                last.1 = last.1.max(end);
                return;
            }
            if start > last.1 {
                v.push((start, end));
                return;
            }
        }
        let first = v.partition_point(|&(_, e)| e < start);
        let last = v.partition_point(|&(s, _)| s <= end);
        if first == last {
            v.insert(first, (start, end));
            return;
        }
        let merged = (v[first].0.min(start), v[last - 1].1.max(end));
        v.splice(first..last, [merged]);
    }

    /// Total length.
    pub fn len_ns(&self) -> u64 {
        self.0.iter().map(|(s, e)| e - s).sum()
    }

    /// Union with another set.
    pub fn union(&self, other: &Intervals) -> Intervals {
        let mut out = self.clone();
        for &(s, e) in &other.0 {
            out.insert(s, e);
        }
        out
    }

    /// Length of the intersection with another set.
    pub fn overlap_ns(&self, other: &Intervals) -> u64 {
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j, mut total) = (0, 0, 0);
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            let hi = a[i].1.min(b[j].1);
            total += hi.saturating_sub(lo);
            if a[i].1 < b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        total
    }
}

/// One frame's GPU numbers, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameGpu {
    /// Union over all queues of the frame's executing intervals.
    pub work_ns: u64,
    /// Longest chain of dependent commands (their own work only).
    pub critical_ns: u64,
    /// The part of the critical path that Barrier commands' own work took: what barriers add
    /// to it (cache and compression work, EB-3..EB-5).
    pub critical_barrier_ns: u64,
    /// Busy time of the busiest queue.
    pub busiest_ns: u64,
    /// Time graphics and some compute queue were both busy with the frame.
    pub overlap_ns: u64,
    /// Busy time per queue family (graphics, compute, dma): sums of per-queue unions.
    pub busy_ns: [u64; 3],
    /// Part of `work_ns` in which only Barrier commands executed, on any queue.
    pub barrier_ns: u64,
}

impl FrameGpu {
    /// Fold in more of the same frame (a book closed twice): times add up, the critical path
    /// is the longer one.
    pub fn merge(&mut self, g: &FrameGpu) {
        self.work_ns += g.work_ns;
        if (g.critical_ns, g.critical_barrier_ns) > (self.critical_ns, self.critical_barrier_ns) {
            (self.critical_ns, self.critical_barrier_ns) = (g.critical_ns, g.critical_barrier_ns);
        }
        self.busiest_ns += g.busiest_ns;
        self.overlap_ns += g.overlap_ns;
        self.barrier_ns += g.barrier_ns;
        for (a, b) in self.busy_ns.iter_mut().zip(g.busy_ns) {
            *a += b;
        }
    }

    /// max(critical path, busiest queue).
    pub fn lower_bound_ns(&self) -> u64 {
        self.critical_ns.max(self.busiest_ns)
    }

    /// What the frame could take: the lower bound, or the frame without the time in which
    /// only barriers ran, whichever is less (see the module essay).
    pub fn ideal_ns(&self) -> u64 {
        self.lower_bound_ns()
            .min(self.work_ns.saturating_sub(self.barrier_ns))
    }
}

/// An open frame: intervals per queue and the longest path so far.
#[derive(Clone, Debug, Default)]
pub struct FrameBook {
    queues: [Intervals; QUEUE_COUNT],
    /// Every command but barriers, all queues.
    work: Intervals,
    critical_ns: u64,
    critical_barrier_ns: u64,
}

/// Report family of a queue: 0 graphics, 1 compute, 2 DMA.
pub fn family_index(q: QueueId) -> usize {
    match q {
        QueueId::Graphics => 0,
        QueueId::Compute { .. } => 1,
        QueueId::Dma { .. } => 2,
    }
}

impl FrameBook {
    /// Fold one executed command in.
    pub fn add(&mut self, x: &Executed) {
        self.queues[x.queue.index()].insert(x.start_ns, x.end_ns);
        if x.name != "Barrier" {
            self.work.insert(x.start_ns, x.end_ns);
        }
        if (x.path_ns, x.path_barrier_ns) > (self.critical_ns, self.critical_barrier_ns) {
            (self.critical_ns, self.critical_barrier_ns) = (x.path_ns, x.path_barrier_ns);
        }
    }

    /// The frame's numbers.
    pub fn close(&self) -> FrameGpu {
        let mut out = FrameGpu {
            critical_ns: self.critical_ns,
            critical_barrier_ns: self.critical_barrier_ns,
            ..FrameGpu::default()
        };
        let mut all = Intervals::default();
        let mut compute = Intervals::default();
        for (i, q) in self.queues.iter().enumerate() {
            let Some(queue) = QueueId::from_index(i) else {
                continue;
            };
            let busy = q.len_ns();
            out.busy_ns[family_index(queue)] += busy;
            out.busiest_ns = out.busiest_ns.max(busy);
            all = all.union(q);
            if matches!(queue, QueueId::Compute { .. }) {
                compute = compute.union(q);
            }
        }
        out.work_ns = all.len_ns();
        out.barrier_ns = out.work_ns - self.work.len_ns().min(out.work_ns);
        out.critical_ns = out.critical_ns.min(out.work_ns);
        out.critical_barrier_ns = out.critical_barrier_ns.min(out.critical_ns);
        out.overlap_ns = self.queues[0].overlap_ns(&compute);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn executed(queue: QueueId, start_ns: u64, end_ns: u64, path_ns: u64) -> Executed {
        Executed {
            queue,
            frame: 0,
            label: 0,
            name: "Dispatch",
            issue_ns: start_ns,
            start_ns,
            end_ns,
            stall_ns: 0,
            stall: Default::default(),
            cache_ns: 0,
            decompress_ns: 0,
            path_ns,
            path_barrier_ns: 0,
            seq: 0,
        }
    }

    /// A path the model's per-command rounding made longer than the frame's executing time
    /// (one nanosecond over 100, the excess measured as efficiency 1.0000000777) counts at
    /// most the frame's work: the lower bound never exceeds the time the frame took.
    #[test]
    fn lower_bound_is_at_most_the_frame_work() {
        let mut book = FrameBook::default();
        book.add(&executed(QueueId::Graphics, 0, 60, 60));
        book.add(&executed(QueueId::Graphics, 60, 100, 101));
        let g = book.close();
        assert_eq!(g.work_ns, 100);
        assert_eq!(g.critical_ns, 100);
        assert!(g.lower_bound_ns() <= g.work_ns);
        let mut two = g;
        two.merge(&g);
        assert!(two.lower_bound_ns() <= two.work_ns);
        // A path within the frame is kept as it is.
        let mut short = FrameBook::default();
        short.add(&executed(QueueId::Graphics, 0, 100, 70));
        assert_eq!(short.close().critical_ns, 70);
    }

    #[test]
    fn intervals_merge_and_intersect() {
        let mut a = Intervals::default();
        a.insert(0, 10);
        a.insert(20, 30);
        a.insert(5, 25);
        assert_eq!(a.0, vec![(0, 30)]);
        a.insert(40, 50);
        a.insert(35, 36);
        a.insert(7, 7);
        assert_eq!(a.0, vec![(0, 30), (35, 36), (40, 50)]);
        assert_eq!(a.len_ns(), 41);
        let mut b = Intervals::default();
        b.insert(25, 45);
        assert_eq!(a.overlap_ns(&b), 5 + 1 + 5);
        assert_eq!(a.union(&b).len_ns(), 50);
    }
}
