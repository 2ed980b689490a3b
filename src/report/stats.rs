//! Run statistics: counters the systems bump and GPU timings absorbed from the device's
//! per-command timeline (see [`super::frames`] for what a frame's GPU numbers mean).

use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

use super::frames::{FrameBook, FrameGpu};
use super::sample::Sample;
use crate::device::{Command, Device, Executed, QueueId, Stall};

/// Queue families in report order.
pub const FAMILIES: [&str; 3] = ["graphics", "compute", "dma"];

/// Frames kept open for late records; the GPU runs at most `frames_in_flight` (8) frames
/// behind the CPU, so older frames are complete.
const OPEN_FRAMES: u64 = 16;

/// Stall time by reason over the run, ns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StallTotals {
    /// Fence waits across queues (FN-2).
    pub fence: u64,
    /// Barrier drains and serialised copies waiting for in-flight work (EB-2, EB-8d).
    pub drain: u64,
    /// Work held by a barrier blocking its stages (EB-2).
    pub block: u64,
    /// Waits on present (FS-5).
    pub present: u64,
    /// Cache write-backs and invalidations (EB-3).
    pub cache: u64,
    /// Decompressions and metadata initialisation (EB-4, EB-5, FS-4).
    pub decompress: u64,
    /// Waiting for the CPU to submit or kick off (FN-3).
    pub submit: u64,
    /// Compute and DMA locked by Suspend (CC-8).
    pub suspend: u64,
    /// Front ends waiting for room in a full queue.
    pub busy: u64,
}

/// Everything a run counts. Totals over the run unless a name says otherwise.
#[derive(Resource, Clone, Debug, Default)]
pub struct RunStats {
    /// What the submitted barriers asked of the hardware (EB-2..EB-5).
    pub hardware: super::SyncCounts,
    pub frames: u64,
    /// Barrier calls and individual barriers in them.
    pub barrier_calls: u64,
    pub barriers: u64,
    pub fences_inserted: u64,
    pub fence_waits: u64,
    pub kickoffs: u64,
    pub waits_on_present: u64,
    pub presents: u64,
    pub rotations: u64,
    /// RL-6 ring slots whose fence was still pending when reused.
    pub ring_waits: u64,
    pub releases_requested: u64,
    pub releases_completed: u64,
    pub releases_pending: u64,
    /// Largest number of frames between a release request and the destruction.
    pub release_latency_frames_max: u64,
    /// The same for swap-chain buffers replaced by a resize: they also wait for the display
    /// to stop scanning them out, which a queue of flips can delay by a few vsyncs.
    pub buffer_retire_latency_frames_max: u64,
    pub memory_live_bytes: u64,
    pub memory_peak_bytes: u64,
    /// Simulated time the CPU spent waiting on frame fences (frames in flight).
    pub cpu_wait_ns: u64,
    /// Measured wall-clock time of each tick, us.
    pub ticks_us: Sample,
    /// The device profile and whether compute passes ran on an asynchronous queue.
    pub profile: String,
    pub async_compute: bool,
    /// Frames no more records will arrive for, summarised in fixed memory.
    closed: FrameTotals,
    /// Frames that may still receive records, with their spans (first command start, last
    /// command end on any queue).
    open: BTreeMap<u64, (FrameBook, (u64, u64))>,
    /// Records of a frame already closed (none while frames in flight stay below
    /// `OPEN_FRAMES`): counted in the totals, not in that frame's numbers.
    pub late_records: u64,
    pub stalls: StallTotals,
    pub executed_commands: u64,
    /// When set, every executed command is kept (queue, start, end, what) for trace export
    /// and tools.
    pub keep_timeline: bool,
    pub timeline: Vec<Executed>,
}

impl RunStats {
    /// Count what a stream does to synchronisation: barriers and the hardware work they ask
    /// for, fences, kickoffs, waits. A list played back in place counts as what it contains
    /// (CTX-1).
    pub fn count_sync(&mut self, device: &Device, queue: QueueId, commands: &[Command]) {
        for c in commands {
            match c {
                Command::Barrier(g) => {
                    self.hardware.absorb(device, queue, g);
                    self.barrier_calls += 1;
                    self.barriers += g.len() as u64;
                }
                Command::InsertFence { kickoff, .. } => {
                    self.fences_inserted += 1;
                    self.kickoffs += *kickoff as u64;
                }
                Command::Kickoff | Command::Present(_) => self.kickoffs += 1,
                Command::WaitFence(_) => self.fence_waits += 1,
                Command::WaitOnPresent(_) => self.waits_on_present += 1,
                Command::ExecuteCommandList { commands, .. } => {
                    self.count_sync(device, queue, commands)
                }
                _ => {}
            }
        }
    }

    /// Fold executed commands into frame spans, per-frame books and stall totals.
    pub fn absorb(&mut self, executed: &[Executed]) {
        let mut newest = 0;
        for x in executed {
            if x.frame < self.closed.next_frame {
                self.late_records += 1;
            } else {
                let (book, span) = (self.open.entry(x.frame))
                    .or_insert_with(|| (FrameBook::default(), (u64::MAX, 0)));
                span.0 = span.0.min(x.start_ns);
                span.1 = span.1.max(x.end_ns);
                book.add(x);
            }
            newest = newest.max(x.frame);
            let s = &mut self.stalls;
            match x.stall {
                Stall::Fence => s.fence += x.stall_ns,
                Stall::Present => s.present += x.stall_ns,
                Stall::Submit => s.submit += x.stall_ns,
                Stall::Drain => s.drain += x.stall_ns,
                Stall::Block => s.block += x.stall_ns,
                Stall::Suspend => s.suspend += x.stall_ns,
                Stall::Busy => s.busy += x.stall_ns,
                Stall::None => {}
            }
            s.cache += x.cache_ns;
            s.decompress += x.decompress_ns;
            self.executed_commands += 1;
        }
        while let Some((&f, _)) = self.open.first_key_value() {
            if f + OPEN_FRAMES > newest {
                break;
            }
            if let Some((book, span)) = self.open.remove(&f) {
                self.closed.close(f, &book, span);
            }
        }
        if self.keep_timeline {
            self.timeline.extend_from_slice(executed);
        }
    }

    /// A tick took `ns` of wall-clock time.
    pub fn record_tick(&mut self, ns: u64) {
        self.ticks_us.push(ns as f64 / 1000.0);
    }

    /// Every frame's numbers, open frames included.
    pub fn frames(&self) -> FrameTotals {
        let mut all = self.closed.clone();
        for (&f, (book, span)) in &self.open {
            all.close(f, book, *span);
        }
        all
    }

    /// Frames still open (at most `OPEN_FRAMES` and the frames in flight).
    pub fn open_frames(&self) -> usize {
        self.open.len()
    }

    /// Bytes the statistics have allocated (the trace timeline aside): fixed over a run.
    pub fn heap_bytes(&self) -> usize {
        let open = self.open.len() * size_of::<(u64, (FrameBook, (u64, u64)))>();
        self.ticks_us.heap_bytes() + self.closed.heap_bytes() + open
    }

    /// Busy time per queue family over the run, ns.
    pub fn busy_ns(&self) -> [u64; 3] {
        self.frames().busy_ns
    }

    /// First command start to last command end over the run, ns.
    pub fn elapsed_ns(&self) -> u64 {
        let f = self.frames();
        f.last_end.saturating_sub(f.first_start)
    }
}

/// The run's frames summarised as they close, in frame order: what the report needs of
/// every frame, in memory that does not grow with frames.
#[derive(Clone, Debug, Default)]
pub struct FrameTotals {
    /// The frame after the last one closed.
    next_frame: u64,
    /// GPU frame time: how much later each frame finished than the one before it (the
    /// first frame: its span). Bound by vsync when presents wait for it. Microseconds.
    pub frame_us: Sample,
    /// Frame latency on the GPU: first command start to last command end of each frame,
    /// stalls included. Microseconds.
    pub frame_span_us: Sample,
    /// The union of each frame's executing intervals ([`FrameGpu::work_ns`]), us.
    pub work_us: Sample,
    /// Sums over frames with work of the critical path, lower bound, work and overlap, ns.
    pub critical_ns: u64,
    pub lower_bound_ns: u64,
    pub work_ns: u64,
    pub overlap_ns: u64,
    /// Busy time per queue family over the run, ns.
    pub busy_ns: [u64; 3],
    /// Frames with work.
    pub frames: u64,
    first_start: u64,
    last_end: u64,
    /// Latest end of the frames closed so far.
    prev_end: Option<u64>,
}

impl FrameTotals {
    fn close(&mut self, frame: u64, book: &FrameBook, (start, end): (u64, u64)) {
        self.next_frame = self.next_frame.max(frame + 1);
        if start != u64::MAX && end >= start {
            if self.prev_end.is_none() {
                self.first_start = start;
            }
            self.first_start = self.first_start.min(start);
            self.last_end = self.last_end.max(end);
            let begin = self.prev_end.unwrap_or(start);
            self.frame_us
                .push(end.saturating_sub(begin) as f64 / 1000.0);
            self.prev_end = Some(self.prev_end.map_or(end, |p| p.max(end)));
            self.frame_span_us.push((end - start) as f64 / 1000.0);
        }
        let g: FrameGpu = book.close();
        if g.work_ns == 0 {
            return;
        }
        self.frames += 1;
        self.work_us.push(g.work_ns as f64 / 1000.0);
        self.critical_ns += g.critical_ns;
        self.lower_bound_ns += g.lower_bound_ns();
        self.work_ns += g.work_ns;
        self.overlap_ns += g.overlap_ns;
        for (o, b) in self.busy_ns.iter_mut().zip(g.busy_ns) {
            *o += b;
        }
    }

    fn heap_bytes(&self) -> usize {
        self.frame_us.heap_bytes() + self.frame_span_us.heap_bytes() + self.work_us.heap_bytes()
    }
}

/// Mean and nearest-rank percentiles of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Distribution {
    pub mean: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

impl Distribution {
    /// Summarise `values` (empty gives zeros).
    pub fn of(values: &[f64]) -> Distribution {
        if values.is_empty() {
            return Distribution::default();
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let rank = |p: f64| v[(((p * v.len() as f64).ceil() as usize).max(1) - 1).min(v.len() - 1)];
        Distribution {
            mean: v.iter().sum::<f64>() / v.len() as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            max: v[v.len() - 1],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        let d = Distribution::of(&v);
        assert_eq!(d.p50, 50.0);
        assert_eq!(d.p99, 99.0);
        assert_eq!(d.max, 100.0);
        assert_eq!(d.mean, 50.5);
        assert_eq!(Distribution::of(&[]), Distribution::default());
    }
}
