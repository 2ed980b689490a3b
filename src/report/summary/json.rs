//! The JSON summary's shape: one serde struct per object, so the keys are in one place and
//! `docs/summary.schema.json` can be checked against what is written.
//!
//! Derived numbers are rounded where they are made: microseconds to three decimals (the
//! simulation's nanosecond), ratios to four. Integers are counts, exact.

use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

use super::RunSettings;

/// The summary's format; bumped whenever a key changes meaning or goes away.
pub const SCHEMA_VERSION: u32 = 2;

/// Microseconds, written to the nanosecond.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Us(pub f64);

/// A ratio, written to four decimals.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
pub struct Ratio(pub f64);

fn rounded<S: Serializer>(v: f64, scale: f64, s: S) -> Result<S::Ok, S::Error> {
    let r = (v * scale).round() / scale;
    s.serialize_f64(if r.is_finite() { r } else { 0.0 })
}

impl Serialize for Us {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        rounded(self.0, 1000.0, s)
    }
}

impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        rounded(self.0, 10_000.0, s)
    }
}

/// `run --json`.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryJson {
    pub schema_version: u32,
    pub scene: String,
    pub frames: u64,
    pub settings: RunSettings,
    pub gpu: GpuJson,
    pub cpu: CpuJson,
    pub record: RecordJson,
    pub sync: SyncJson,
    pub swap_chain: SwapChainJson,
    pub lifetime: LifetimeJson,
    pub memory: MemoryJson,
    /// Queries passes resolved into readback buffers and the CPU read back (CTX-6).
    pub queries: QueriesJson,
    pub validation: ValidationJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub async_compute_gain: Option<AsyncGain>,
    /// The runtime's own memory (not simulated; see `report::HostMemory`).
    pub host: serde_json::Value,
}

/// Mean and nearest-rank percentiles.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct DistJson {
    pub mean: Us,
    pub p50: Us,
    pub p99: Us,
    pub max: Us,
}

/// Mean and percentiles of the CPU tick.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TickJson {
    pub mean: Us,
    pub p50: Us,
    pub p99: Us,
}

#[derive(Clone, Debug, Serialize)]
pub struct GpuJson {
    pub profile: String,
    pub async_compute: bool,
    pub frame_us: DistJson,
    pub frame_span_us: DistJson,
    pub frame_work_us: DistJson,
    pub critical_path_us: Us,
    /// What barriers add to the critical path: their own cache and compression work on it.
    pub critical_path_barrier_us: Us,
    pub lower_bound_us: Us,
    pub barrier_us: Us,
    pub ideal_us: Us,
    pub efficiency: Ratio,
    pub overlap_us: Us,
    /// Per queue family.
    pub queues: BTreeMap<&'static str, FamilyJson>,
    /// Per queue that ran something, by its name.
    pub queue_time: BTreeMap<String, QueueTimeJson>,
    pub stalls_us: StallsJson,
    pub commands: u64,
    /// Bytes the samplers of the run's draws and dispatches may read (FS-13).
    pub sampled_bytes: u64,
    /// Graphics work items that refilled their caches after a compute queue's whole-cache
    /// flush (CC-4).
    pub graphics_refills: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct FamilyJson {
    pub busy_us: Us,
    pub utilisation: Ratio,
}

/// One queue's mean frame: `busy_us` plus the idle causes is `gpu.frame_us.mean`.
#[derive(Clone, Debug, Serialize)]
pub struct QueueTimeJson {
    pub busy_us: Us,
    pub barrier_us: Us,
    pub idle_us: BTreeMap<&'static str, Us>,
}

/// Per frame, the longest any queue spent on each.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct StallsJson {
    pub fence: Us,
    pub present: Us,
    pub submit: Us,
    pub drain: Us,
    pub block: Us,
    pub suspend: Us,
    pub busy: Us,
    pub cache: Us,
    pub decompress: Us,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct CpuJson {
    pub tick_us: TickJson,
    pub wait_us: Us,
    /// Simulated CPU time per frame recording the passes' lists, summed over the deferred
    /// contexts, and the wall time it took on the recording threads (CTX-7).
    pub record_us: Us,
    pub record_wall_us: Us,
    /// Simulated CPU time per frame queuing commands and playing lists back (CTX-7).
    pub submit_us: Us,
}

/// Binding calls and what they cost (RB-1, RB-2): totals over the run.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RecordJson {
    pub binding_calls: u64,
    pub binding_dwords: u64,
    pub binding_front_us: Us,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct FlushesJson {
    pub vs: u64,
    pub ps: u64,
    pub cs: u64,
    pub idle: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct SyncJson {
    pub barriers: u64,
    pub barrier_calls: u64,
    pub fences_inserted: u64,
    pub fence_waits: u64,
    pub kickoffs: u64,
    pub waits_on_present: u64,
    pub partial_flushes: FlushesJson,
    pub cache_writebacks: u64,
    pub cache_invalidations: u64,
    pub decompressions: u64,
    pub discards: u64,
    pub split_barriers: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct SwapChainJson {
    pub presents: u64,
    pub rotations: u64,
    pub ring_waits: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct LifetimeJson {
    pub releases_requested: u64,
    pub releases_completed: u64,
    pub releases_pending: u64,
    pub release_latency_frames_max: u64,
    pub buffer_retire_latency_frames_max: u64,
    pub live_entities: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct QueriesJson {
    pub resolved: u64,
    pub read: u64,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct MemoryJson {
    pub live_bytes: u64,
    pub peak_bytes: u64,
    /// The transient aliasing plan: shared heap size, lower bound, bytes unaliased.
    pub transient_peak_bytes: u64,
    pub transient_lower_bound_bytes: u64,
    pub transient_unaliased_bytes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ValidationJson {
    /// Whether the validation layer ran: with it off, the counts are zero and say nothing.
    pub enabled: bool,
    pub errors: u64,
    pub warnings: u64,
    pub by_rule: BTreeMap<String, u64>,
}

/// `run --compare-async`: this run against one with asynchronous compute the other way.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct AsyncGain {
    /// The baseline's frame time down to this run's lower bound: what no schedule of this
    /// run's work could beat.
    pub available_us: Us,
    /// The gain's share of what was available.
    pub taken_percent: Ratio,
    pub frame_work_us: Us,
    pub baseline_frame_work_us: Us,
    pub gain_us: Us,
    pub gain_percent: Ratio,
    pub overlap_us: Us,
    pub baseline_overlap_us: Us,
}

/// `check --json`: always one object, for a scene that does not load too (no diagnostics,
/// the load error as `fatal`).
#[derive(Clone, Debug, Serialize)]
pub struct CheckJson<'a> {
    pub schema_version: u32,
    pub diagnostics: &'a [crate::validate::Repeated],
    pub errors: u64,
    pub warnings: u64,
    pub fatal: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_rounded_where_written() {
        let v = serde_json::to_string(&(Us(25.59792999999999), Ratio(0.998593014), Us(f64::NAN)));
        assert_eq!(v.unwrap(), "[25.598,0.9986,0.0]");
    }
}
