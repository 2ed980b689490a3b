//! Run statistics: counters the systems bump and GPU timings absorbed from the device's
//! per-command timeline.

use bevy_ecs::prelude::*;

use crate::device::{Executed, QueueId, Stall};

/// Queue families in report order.
pub const FAMILIES: [&str; 3] = ["graphics", "compute", "dma"];

fn family_index(q: QueueId) -> usize {
    match q {
        QueueId::Graphics => 0,
        QueueId::Compute { .. } => 1,
        QueueId::Dma { .. } => 2,
    }
}

/// Everything a run counts. Totals over the run unless a name says otherwise.
#[derive(Resource, Clone, Debug, Default)]
pub struct RunStats {
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
    /// Measured wall-clock time of each tick.
    pub cpu_tick_ns: Vec<u64>,
    /// Per frame: first command start and last command end on any queue.
    pub frame_spans: Vec<(u64, u64)>,
    /// Busy time per queue family (commands' own durations, stalls excluded).
    pub busy_ns: [u64; 3],
    /// Stall time by reason: fence, present, submit.
    pub stall_fence_ns: u64,
    pub stall_present_ns: u64,
    pub stall_submit_ns: u64,
    pub executed_commands: u64,
    /// When set, every executed command is kept for trace export.
    pub keep_timeline: bool,
    pub timeline: Vec<Executed>,
}

impl RunStats {
    /// Fold executed commands into the frame spans and busy times.
    pub fn absorb(&mut self, executed: &[Executed]) {
        for x in executed {
            let f = x.frame as usize;
            if self.frame_spans.len() <= f {
                self.frame_spans.resize(f + 1, (u64::MAX, 0));
            }
            let span = &mut self.frame_spans[f];
            span.0 = span.0.min(x.start_ns);
            span.1 = span.1.max(x.end_ns);
            self.busy_ns[family_index(x.queue)] += x.end_ns - x.start_ns;
            match x.stall {
                Stall::Fence => self.stall_fence_ns += x.stall_ns,
                Stall::Present => self.stall_present_ns += x.stall_ns,
                Stall::Submit => self.stall_submit_ns += x.stall_ns,
                Stall::None => {}
            }
            self.executed_commands += 1;
        }
        if self.keep_timeline {
            self.timeline.extend_from_slice(executed);
        }
    }

    /// GPU frame time: how much later each frame finished than the one before it (the
    /// first frame: its span). Bound by vsync when presents wait for it. Microseconds.
    pub fn frame_us(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.frame_spans.len());
        let mut prev_end: Option<u64> = None;
        for &(s, e) in &self.frame_spans {
            if s == u64::MAX || e < s {
                continue;
            }
            let begin = prev_end.unwrap_or(s);
            out.push(e.saturating_sub(begin) as f64 / 1000.0);
            prev_end = Some(prev_end.map_or(e, |p| p.max(e)));
        }
        out
    }

    /// Frame latency on the GPU: first command start to last command end of each frame,
    /// stalls included. Microseconds.
    pub fn frame_span_us(&self) -> Vec<f64> {
        self.frame_spans
            .iter()
            .filter(|(s, e)| *s != u64::MAX && e >= s)
            .map(|(s, e)| (e - s) as f64 / 1000.0)
            .collect()
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
