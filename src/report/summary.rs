//! The run summary: one JSON object (stable keys, documented in the README) or a table.

use serde_json::{Value, json};

use super::{Distribution, FAMILIES, RunStats};

/// Everything `fastframe run` reports.
#[derive(Clone, Debug)]
pub struct Summary {
    pub scene: String,
    pub stats: RunStats,
    pub live_entities: u64,
    pub validation_errors: u64,
    pub validation_warnings: u64,
    pub by_rule: Vec<(String, u64)>,
    /// The runtime's own memory (`host`: not simulated).
    pub host: super::HostMemory,
}

impl Summary {
    /// Validation errors and warnings.
    pub fn validation_errors_warnings(&self) -> (u64, u64) {
        (self.validation_errors, self.validation_warnings)
    }

    /// Per-frame GPU numbers summarised: frame time (work), critical path, lower bound and
    /// efficiency, overlap (see `report::frames`).
    pub fn gpu_frames(&self) -> GpuFrames {
        let f = self.stats.frames();
        let us = |ns: u64| ns as f64 / 1000.0;
        let n = f.frames.max(1) as f64;
        GpuFrames {
            work_us: f.work_us.distribution(),
            critical_path_us: us(f.critical_ns) / n,
            lower_bound_us: us(f.lower_bound_ns) / n,
            efficiency: if f.work_ns == 0 {
                0.0
            } else {
                f.lower_bound_ns as f64 / f.work_ns as f64
            },
            overlap_us: us(f.overlap_ns),
        }
    }

    /// The JSON object. Everything but the `cpu` section is simulated and deterministic.
    pub fn to_json(&self) -> Value {
        let s = &self.stats;
        let frames = s.frames();
        let frame = frames.frame_us.distribution();
        let span = frames.frame_span_us.distribution();
        let g = self.gpu_frames();
        let work = g.work_us;
        let tick = s.ticks_us.distribution();
        let us = |ns: u64| ns as f64 / 1000.0;
        let busy = s.busy_ns();
        let elapsed = s.elapsed_ns().max(1) as f64;
        let mut queues = serde_json::Map::new();
        for (i, f) in FAMILIES.iter().enumerate() {
            queues.insert(
                (*f).to_owned(),
                json!({ "busy_us": us(busy[i]), "utilisation": busy[i] as f64 / elapsed }),
            );
        }
        let by_rule: serde_json::Map<String, Value> = self
            .by_rule
            .iter()
            .map(|(r, n)| (r.clone(), json!(n)))
            .collect();
        let st = &s.stalls;
        json!({
            "scene": self.scene,
            "frames": s.frames,
            "gpu": {
                "profile": s.profile,
                "async_compute": s.async_compute,
                "frame_us": { "mean": frame.mean, "p50": frame.p50, "p99": frame.p99, "max": frame.max },
                "frame_span_us": { "mean": span.mean, "p50": span.p50, "p99": span.p99, "max": span.max },
                "frame_work_us": { "mean": work.mean, "p50": work.p50, "p99": work.p99, "max": work.max },
                "critical_path_us": g.critical_path_us,
                "lower_bound_us": g.lower_bound_us,
                "efficiency": g.efficiency,
                "overlap_us": g.overlap_us,
                "queues": queues,
                "stalls_us": {
                    "fence": us(st.fence),
                    "drain": us(st.drain),
                    "block": us(st.block),
                    "present": us(st.present),
                    "cache": us(st.cache),
                    "decompress": us(st.decompress),
                    "submit": us(st.submit),
                    "suspend": us(st.suspend),
                    "busy": us(st.busy),
                },
                "commands": s.executed_commands,
            },
            "cpu": {
                "tick_us": { "mean": tick.mean, "p50": tick.p50, "p99": tick.p99 },
                "wait_us": us(s.cpu_wait_ns),
            },
            "sync": {
                "barriers": s.barriers,
                "barrier_calls": s.barrier_calls,
                "fences_inserted": s.fences_inserted,
                "fence_waits": s.fence_waits,
                                "kickoffs": s.kickoffs,
                "waits_on_present": s.waits_on_present,
                "partial_flushes": {
                    "vs": s.hardware.vs_partial_flushes,
                    "ps": s.hardware.ps_partial_flushes,
                    "cs": s.hardware.cs_partial_flushes,
                    "idle": s.hardware.idles,
                },
                "cache_writebacks": s.hardware.cache_writebacks,
                "cache_invalidations": s.hardware.cache_invalidations,
                "decompressions": s.hardware.decompressions,
                "discards": s.hardware.discards,
                "split_barriers": s.hardware.split_barriers,
            },
            "swap_chain": {
                "presents": s.presents,
                "rotations": s.rotations,
                "ring_waits": s.ring_waits,
            },
            "lifetime": {
                "releases_requested": s.releases_requested,
                "releases_completed": s.releases_completed,
                "releases_pending": s.releases_pending,
                "release_latency_frames_max": s.release_latency_frames_max,
                "buffer_retire_latency_frames_max": s.buffer_retire_latency_frames_max,
                "live_entities": self.live_entities,
            },
            "memory": {
                "live_bytes": s.memory_live_bytes,
                "peak_bytes": s.memory_peak_bytes,
            },
            "validation": {
                "errors": self.validation_errors,
                "warnings": self.validation_warnings,
                "by_rule": by_rule,
            },
            "host": self.host.to_json(),
        })
    }

    /// How much shorter this run's frames are than `baseline`'s (for example async compute
    /// on against off): mean GPU frame time (`frame_work_us`) of both, the gain in
    /// microseconds and percent (positive: this run is faster), and the overlap gained. What
    /// was available is the baseline's frame time down to this run's `lower_bound_us` (no
    /// schedule of this run's work could beat it); `taken_percent` is the gain's share of it.
    pub fn compare(&self, baseline: &Summary) -> Value {
        let (a, b) = (self.gpu_frames(), baseline.gpu_frames());
        let gain = b.work_us.mean - a.work_us.mean;
        let available = (b.work_us.mean - a.lower_bound_us).max(0.0);
        json!({
            "available_us": available,
            "taken_percent": if available > 0.0 { 100.0 * gain / available } else { 0.0 },
            "frame_work_us": a.work_us.mean,
            "baseline_frame_work_us": b.work_us.mean,
            "gain_us": gain,
            "gain_percent": if b.work_us.mean > 0.0 { 100.0 * gain / b.work_us.mean } else { 0.0 },
            "overlap_us": a.overlap_us,
            "baseline_overlap_us": b.overlap_us,
        })
    }

    /// A human-readable table.
    pub fn to_table(&self) -> String {
        let s = &self.stats;
        let frame = s.frames().frame_us.distribution();
        let g = self.gpu_frames();
        let tick = s.ticks_us.distribution();
        let f = s.frames.max(1) as f64;
        let per_frame = |ns: u64| ns as f64 / 1000.0 / f;
        let busy = s.busy_ns();
        let elapsed = s.elapsed_ns().max(1) as f64;
        let mut out = String::new();
        let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<26} {v}\n"));
        row("scene", self.scene.clone());
        row("frames", s.frames.to_string());
        row(
            "device",
            format!(
                "{} (async compute {})",
                s.profile,
                if s.async_compute { "on" } else { "off" }
            ),
        );
        row(
            "gpu frame (us)",
            format!(
                "mean {:.1}  p50 {:.1}  p99 {:.1}  max {:.1}",
                frame.mean, frame.p50, frame.p99, frame.max
            ),
        );
        row(
            "gpu work per frame (us)",
            format!(
                "mean {:.1}  p50 {:.1}  p99 {:.1}  max {:.1}",
                g.work_us.mean, g.work_us.p50, g.work_us.p99, g.work_us.max
            ),
        );
        row(
            "critical path (us)",
            format!(
                "{:.1}  lower bound {:.1}  efficiency {:.0}%",
                g.critical_path_us,
                g.lower_bound_us,
                100.0 * g.efficiency
            ),
        );
        row(
            "overlap gfx/compute",
            format!("{:.1} us/frame", g.overlap_us / f),
        );
        for (i, fam) in FAMILIES.iter().enumerate() {
            row(
                &format!("{fam} busy (us/frame)"),
                format!(
                    "{:.1}  ({:.0}% utilised)",
                    per_frame(busy[i]),
                    100.0 * busy[i] as f64 / elapsed
                ),
            );
        }
        let st = &s.stalls;
        row(
            "stalls (us/frame)",
            format!(
                "fence {:.1}  drain {:.1}  block {:.1}  present {:.1}  cache {:.1}  decompress {:.1}",
                per_frame(st.fence),
                per_frame(st.drain),
                per_frame(st.block),
                per_frame(st.present),
                per_frame(st.cache),
                per_frame(st.decompress)
            ),
        );
        row(
            "cpu tick (us)",
            format!(
                "mean {:.2}  p50 {:.2}  p99 {:.2}",
                tick.mean, tick.p50, tick.p99
            ),
        );
        row(
            "per frame",
            format!(
                "{:.1} barriers  {:.1} fences  {:.1} waits  {:.1} kickoffs",
                s.barriers as f64 / f,
                s.fences_inserted as f64 / f,
                s.fence_waits as f64 / f,
                s.kickoffs as f64 / f
            ),
        );
        row(
            "presents / rotations",
            format!("{} / {}", s.presents, s.rotations),
        );
        row(
            "releases",
            format!(
                "{} requested, {} completed, {} pending",
                s.releases_requested, s.releases_completed, s.releases_pending
            ),
        );
        row(
            "validation",
            format!(
                "{} errors, {} warnings",
                self.validation_errors, self.validation_warnings
            ),
        );
        out
    }
}

/// A run's per-frame GPU numbers, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuFrames {
    /// GPU frame time (union of the frame's executing intervals), per frame.
    pub work_us: Distribution,
    /// Mean critical path per frame.
    pub critical_path_us: f64,
    /// Mean of max(critical path, busiest queue) per frame.
    pub lower_bound_us: f64,
    /// Total lower bound over total frame time.
    pub efficiency: f64,
    /// Graphics and compute both busy, over the run.
    pub overlap_us: f64,
}
