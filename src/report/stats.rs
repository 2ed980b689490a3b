//! Run statistics: counters the systems bump and GPU timings absorbed from the device's
//! per-command timeline (see [`super::frames`] for what a frame's GPU numbers mean).

use bevy_ecs::prelude::*;

use super::frame_log::{FrameLog, GpuTotals};
use super::queue_time::{QueueClock, QueueTime};
use super::sample::LogHistogram;
use crate::device::{Command, Device, Executed, QueueId};

/// Queue families in report order.
pub const FAMILIES: [&str; 3] = ["graphics", "compute", "dma"];

/// The commands `record.binding_*` counts, by name (RB-1, RB-2).
const BINDING_CALLS: [&str; 5] = [
    "SetResources",
    "SetVertexBuffers",
    "SetConstantBuffers",
    "SetFastResources",
    "SetFastResourcesFromBatch",
];

/// Frames kept open for late records; the GPU runs at most `frames_in_flight` (8) frames
/// behind the CPU, so older frames are complete. Closed frames are folded into totals and
/// distributions in fixed memory ([`super::frame_log`]).
const OPEN_FRAMES: u64 = 16;

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
    /// Queries passes resolved into readback buffers, and those the CPU read back (CTX-6).
    pub queries_resolved: u64,
    pub queries_read: u64,
    pub releases_pending: u64,
    /// Largest number of frames between a release request and the destruction.
    pub release_latency_frames_max: u64,
    /// The same for swap-chain buffers replaced by a resize: they also wait for the display
    /// to stop scanning them out, which a queue of flips can delay by a few vsyncs.
    pub buffer_retire_latency_frames_max: u64,
    pub memory_live_bytes: u64,
    pub memory_peak_bytes: u64,
    /// The transient aliasing plan of the last compile (`plan::alias`): heap size, the most
    /// transient bytes in use at once, and the bytes without aliasing.
    pub transient_peak_bytes: u64,
    pub transient_lower_bound_bytes: u64,
    pub transient_unaliased_bytes: u64,
    /// True when the runtime placed the transients in that heap (aliasing ran and some share
    /// bytes); false when the plan is a figure and each transient has its own memory.
    pub transients_placed: bool,
    /// Simulated time the CPU spent waiting on frame fences (frames in flight).
    pub cpu_wait_ns: u64,
    /// Measured wall-clock time of the ticks.
    pub cpu_tick: LogHistogram,
    /// The device profile and whether compute passes ran on an asynchronous queue.
    pub profile: String,
    pub async_compute: bool,
    /// Frames that may still receive records, and what the others added up to.
    pub frames_log: FrameLog,
    /// Each queue's time, busy or idle by cause, on the timeline.
    pub queue_clock: QueueClock,
    pub executed_commands: u64,
    /// Bytes the draws' and dispatches' samplers may read: the mips at or coarser than the
    /// MinLOD in effect of each texture view bound to them (FS-13).
    pub sampled_bytes: u64,
    /// Graphics work items stalled refilling their caches after a compute queue's
    /// whole-cache flush (CC-4).
    pub graphics_refills: u64,
    /// Binding calls submitted and the constant-engine dwords they write (RB-1, RB-2).
    pub binding: crate::device::BindingCount,
    /// Front-end time the executed binding calls took, ns.
    pub binding_front_ns: u64,
    /// Simulated CPU time of recording the passes' lists, summed over contexts, and the wall
    /// time it took on the recording threads (CTX-2, CTX-7).
    pub cpu_record_ns: u64,
    pub cpu_record_span_ns: u64,
    /// Simulated CPU time the immediate, compute and DMA contexts spent queuing commands and
    /// playing lists back (CTX-7).
    pub cpu_submit_ns: u64,
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
                Command::ExecuteCommandList { commands, .. }
                | Command::ExecuteBundle { commands, .. } => {
                    self.count_sync(device, queue, commands)
                }
                _ => crate::device::count_binding(&mut self.binding, c),
            }
        }
    }

    /// Fold executed commands into the frames' books and the queues' time.
    pub fn absorb(&mut self, executed: &[Executed]) {
        let mut newest = 0;
        for x in executed {
            self.frames_log.add(x);
            newest = newest.max(x.frame);
            self.executed_commands += 1;
            if BINDING_CALLS.contains(&x.name) {
                self.binding_front_ns += x.end_ns - x.start_ns;
            }
        }
        self.frames_log.close_before(newest, OPEN_FRAMES);
        self.queue_clock.add(executed);
        self.queue_clock.sweep(self.watermark());
        if self.keep_timeline {
            self.timeline.extend_from_slice(executed);
        }
    }

    /// The earliest start a record still to come can have: records still to come belong to
    /// open frames, which started no earlier than this.
    pub fn watermark(&self) -> u64 {
        self.frames_log.watermark()
    }

    /// Every frame's GPU numbers added up, open frames included.
    pub fn gpu_totals(&self) -> GpuTotals {
        self.frames_log.gpu()
    }

    /// Each queue's time from the first frame's start to the last frame's end (the span
    /// the frame times divide into frames), busy or idle by cause.
    pub fn queue_time(&self) -> Vec<(QueueId, QueueTime)> {
        match self.frames_log.run_span() {
            Some((origin, end)) => self.queue_clock.finish(origin, end),
            None => Vec::new(),
        }
    }

    /// Busy time per queue family over the run, ns.
    pub fn busy_ns(&self) -> [u64; 3] {
        self.gpu_totals().busy_ns
    }

    /// First frame's start to last frame's end, ns.
    pub fn elapsed_ns(&self) -> u64 {
        self.frames_log
            .run_span()
            .map_or(0, |(s, e)| e.saturating_sub(s))
    }

    /// Entries the statistics hold, and bytes allocated for them (for a soak run's memory
    /// report): frames still open and the distinct values of the closed ones' samples.
    pub fn footprint(&self) -> (usize, usize) {
        let entries = self.frames_log.held() + self.timeline.len();
        let bytes = entries * std::mem::size_of::<u64>() * 4
            + self.timeline.capacity() * std::mem::size_of::<Executed>();
        (entries, bytes)
    }

    /// GPU frame time: how much later each frame finished than the ones before it (the
    /// first frame: its span). Bound by vsync when presents wait for it. Microseconds.
    pub fn frame_us(&self) -> Distribution {
        self.frames_log.frame_time().0
    }

    /// Frames with a frame time (frames in which a command executed).
    pub fn timed_frames(&self) -> u64 {
        self.frames_log.frame_time().1
    }

    /// Frame latency on the GPU: first command start to last command end of each frame,
    /// stalls included. Microseconds.
    pub fn frame_span_us(&self) -> Distribution {
        self.frames_log.frame_span()
    }

    /// Measured wall-clock tick time, microseconds.
    pub fn cpu_tick_us(&self) -> Distribution {
        self.cpu_tick.distribution_us()
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
