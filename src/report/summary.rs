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
}

impl Summary {
    /// Validation errors and warnings.
    pub fn validation_errors_warnings(&self) -> (u64, u64) {
        (self.validation_errors, self.validation_warnings)
    }

    /// The JSON object. Everything but the `cpu` section is simulated and deterministic.
    pub fn to_json(&self) -> Value {
        let s = &self.stats;
        let frame = Distribution::of(&s.frame_us());
        let span = Distribution::of(&s.frame_span_us());
        let ticks: Vec<f64> = s.cpu_tick_ns.iter().map(|&n| n as f64 / 1000.0).collect();
        let tick = Distribution::of(&ticks);
        let us = |ns: u64| ns as f64 / 1000.0;
        let mut queues = serde_json::Map::new();
        for (i, f) in FAMILIES.iter().enumerate() {
            queues.insert((*f).to_owned(), json!({ "busy_us": us(s.busy_ns[i]) }));
        }
        let by_rule: serde_json::Map<String, Value> = self
            .by_rule
            .iter()
            .map(|(r, n)| (r.clone(), json!(n)))
            .collect();
        json!({
            "scene": self.scene,
            "frames": s.frames,
            "gpu": {
                "frame_us": { "mean": frame.mean, "p50": frame.p50, "p99": frame.p99, "max": frame.max },
                "frame_span_us": { "mean": span.mean, "p50": span.p50, "p99": span.p99, "max": span.max },
                "queues": queues,
                "stalls_us": {
                    "fence": us(s.stall_fence_ns),
                    "present": us(s.stall_present_ns),
                    "submit": us(s.stall_submit_ns),
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
        })
    }

    /// A human-readable table.
    pub fn to_table(&self) -> String {
        let s = &self.stats;
        let frame = Distribution::of(&s.frame_us());
        let ticks: Vec<f64> = s.cpu_tick_ns.iter().map(|&n| n as f64 / 1000.0).collect();
        let tick = Distribution::of(&ticks);
        let f = s.frames.max(1) as f64;
        let mut out = String::new();
        let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<26} {v}\n"));
        row("scene", self.scene.clone());
        row("frames", s.frames.to_string());
        row(
            "gpu frame (us)",
            format!(
                "mean {:.1}  p50 {:.1}  p99 {:.1}  max {:.1}",
                frame.mean, frame.p50, frame.p99, frame.max
            ),
        );
        for (i, fam) in FAMILIES.iter().enumerate() {
            row(
                &format!("{fam} busy (us/frame)"),
                format!("{:.1}", s.busy_ns[i] as f64 / 1000.0 / f),
            );
        }
        row(
            "stalls (us/frame)",
            format!(
                "fence {:.1}  present {:.1}",
                s.stall_fence_ns as f64 / 1000.0 / f,
                s.stall_present_ns as f64 / 1000.0 / f
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
