//! The run summary: one JSON object (serde structs in `summary/json.rs`, the schema in
//! `docs/summary.schema.json`, keys in the README) or a table.

mod json;
mod settings;
mod table;

pub use json::{AsyncGain, CheckJson, Ratio, SCHEMA_VERSION, SummaryJson, Us};
pub use settings::RunSettings;

use serde_json::Value;
use std::collections::BTreeMap;

use super::{Cause, Distribution, FAMILIES, QueueTime, RunStats};
use crate::device::QueueId;
use json::*;

/// Everything `fastframe run` reports.
#[derive(Clone, Debug)]
pub struct Summary {
    pub scene: String,
    pub settings: RunSettings,
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

    /// Per-frame GPU numbers summarised: frame time (work), critical path, lower bound,
    /// barrier-only time, ideal time and efficiency, overlap (see `report::frames`).
    pub fn gpu_frames(&self) -> GpuFrames {
        let t = self.stats.gpu_totals();
        let us = |ns: u64| ns as f64 / 1000.0;
        let n = t.frames.max(1) as f64;
        GpuFrames {
            work_us: t.work.distribution_us(),
            critical_path_us: us(t.critical_ns) / n,
            critical_path_barrier_us: us(t.critical_barrier_ns) / n,
            lower_bound_us: us(t.lower_bound_ns) / n,
            barrier_us: us(t.barrier_ns) / n,
            ideal_us: us(t.ideal_ns) / n,
            efficiency: if t.work_ns == 0 {
                0.0
            } else {
                t.ideal_ns as f64 / t.work_ns as f64
            },
            overlap_us: us(t.overlap_ns),
        }
    }

    /// Each queue's mean frame, busy or idle by cause (see `report::queue_time`): the parts
    /// add up to `gpu.frame_us.mean`.
    pub fn queue_time_us(&self) -> Vec<(QueueId, QueueFrame)> {
        let n = self.stats.timed_frames().max(1) as f64;
        let per_frame = |ns: u64| ns as f64 / 1000.0 / n;
        (self.stats.queue_time().into_iter())
            .map(|(q, t): (QueueId, QueueTime)| {
                let idle = Cause::ALL.map(|c| (c, per_frame(t.idle(c))));
                let frame = QueueFrame {
                    busy_us: per_frame(t.busy_ns),
                    barrier_us: per_frame(t.barrier_ns),
                    idle_us: idle,
                    cache_us: per_frame(t.cache_ns),
                    decompress_us: per_frame(t.decompress_ns),
                };
                (q, frame)
            })
            .collect()
    }

    /// The summary as serde structs.
    pub fn document(&self) -> SummaryJson {
        let s = &self.stats;
        let dist = |d: Distribution| DistJson {
            mean: Us(d.mean),
            p50: Us(d.p50),
            p99: Us(d.p99),
            max: Us(d.max),
        };
        let g = self.gpu_frames();
        let tick = s.cpu_tick_us();
        let us = |ns: u64| Us(ns as f64 / 1000.0);
        let per_frame = |ns: u64| Us(ns as f64 / 1000.0 / s.frames.max(1) as f64);
        let busy = s.busy_ns();
        let elapsed = s.elapsed_ns().max(1) as f64;
        let queues = (FAMILIES.iter().enumerate())
            .map(|(i, f)| {
                let family = FamilyJson {
                    busy_us: us(busy[i]),
                    utilisation: Ratio(busy[i] as f64 / elapsed),
                };
                (*f, family)
            })
            .collect();
        let times = self.queue_time_us();
        let queue_time = (times.iter())
            .map(|(q, t)| {
                let idle = t.idle_us.iter().map(|&(c, v)| (c.key(), Us(v))).collect();
                let json = QueueTimeJson {
                    busy_us: Us(t.busy_us),
                    barrier_us: Us(t.barrier_us),
                    idle_us: idle,
                };
                (q.to_string(), json)
            })
            .collect();
        let most = |f: &dyn Fn(&QueueFrame) -> f64| {
            Us(times.iter().map(|(_, t)| f(t)).fold(0.0, f64::max))
        };
        let idle = |c: Cause| most(&|t: &QueueFrame| t.idle(c));
        let h = &s.hardware;
        SummaryJson {
            schema_version: SCHEMA_VERSION,
            scene: self.scene.clone(),
            frames: s.frames,
            settings: self.settings.clone(),
            gpu: GpuJson {
                profile: s.profile.clone(),
                async_compute: s.async_compute,
                frame_us: dist(s.frame_us()),
                frame_span_us: dist(s.frame_span_us()),
                frame_work_us: dist(g.work_us),
                critical_path_us: Us(g.critical_path_us),
                critical_path_barrier_us: Us(g.critical_path_barrier_us),
                lower_bound_us: Us(g.lower_bound_us),
                barrier_us: Us(g.barrier_us),
                ideal_us: Us(g.ideal_us),
                efficiency: Ratio(g.efficiency),
                overlap_us: Us(g.overlap_us),
                queues,
                queue_time,
                stalls_us: StallsJson {
                    fence: idle(Cause::Fence),
                    present: idle(Cause::Present),
                    submit: idle(Cause::Submit),
                    drain: idle(Cause::Drain),
                    block: idle(Cause::Block),
                    suspend: idle(Cause::Suspend),
                    busy: idle(Cause::Full),
                    cache: most(&|t| t.cache_us),
                    decompress: most(&|t| t.decompress_us),
                },
                commands: s.executed_commands,
                sampled_bytes: s.sampled_bytes,
                graphics_refills: s.graphics_refills,
            },
            cpu: CpuJson {
                tick_us: TickJson {
                    mean: Us(tick.mean),
                    p50: Us(tick.p50),
                    p99: Us(tick.p99),
                },
                wait_us: us(s.cpu_wait_ns),
                record_us: per_frame(s.cpu_record_ns),
                record_wall_us: per_frame(s.cpu_record_span_ns),
                submit_us: per_frame(s.cpu_submit_ns),
            },
            record: RecordJson {
                binding_calls: s.binding.calls,
                binding_dwords: s.binding.dwords,
                binding_front_us: us(s.binding_front_ns),
            },
            sync: SyncJson {
                barriers: s.barriers,
                barrier_calls: s.barrier_calls,
                fences_inserted: s.fences_inserted,
                fence_waits: s.fence_waits,
                kickoffs: s.kickoffs,
                waits_on_present: s.waits_on_present,
                partial_flushes: FlushesJson {
                    vs: h.vs_partial_flushes,
                    ps: h.ps_partial_flushes,
                    cs: h.cs_partial_flushes,
                    idle: h.idles,
                },
                cache_writebacks: h.cache_writebacks,
                cache_invalidations: h.cache_invalidations,
                decompressions: h.decompressions,
                discards: h.discards,
                split_barriers: h.split_barriers,
            },
            swap_chain: SwapChainJson {
                presents: s.presents,
                rotations: s.rotations,
                ring_waits: s.ring_waits,
            },
            lifetime: LifetimeJson {
                releases_requested: s.releases_requested,
                releases_completed: s.releases_completed,
                releases_pending: s.releases_pending,
                release_latency_frames_max: s.release_latency_frames_max,
                buffer_retire_latency_frames_max: s.buffer_retire_latency_frames_max,
                live_entities: self.live_entities,
            },
            queries: QueriesJson {
                resolved: s.queries_resolved,
                read: s.queries_read,
            },
            memory: MemoryJson {
                live_bytes: s.memory_live_bytes,
                peak_bytes: s.memory_peak_bytes,
                transient_peak_bytes: s.transient_peak_bytes,
                transient_lower_bound_bytes: s.transient_lower_bound_bytes,
                transient_unaliased_bytes: s.transient_unaliased_bytes,
            },
            validation: ValidationJson {
                enabled: self.settings.validation == "on",
                errors: self.validation_errors,
                warnings: self.validation_warnings,
                by_rule: self.by_rule.iter().cloned().collect::<BTreeMap<_, _>>(),
            },
            async_compute_gain: None,
            host: self.host.to_json(),
        }
    }

    /// The JSON object. Everything but the `cpu` section is simulated and deterministic.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.document()).unwrap_or_default()
    }

    /// How much shorter this run's frames are than `baseline`'s (for example async compute
    /// on against off): mean GPU frame time (`frame_work_us`) of both, the gain in
    /// microseconds and percent (positive: this run is faster), and the overlap gained. What
    /// was available is the baseline's frame time down to this run's `lower_bound_us`;
    /// `taken_percent` is the gain's share of it.
    pub fn gain(&self, baseline: &Summary) -> AsyncGain {
        let (a, b) = (self.gpu_frames(), baseline.gpu_frames());
        let gain = b.work_us.mean - a.work_us.mean;
        let available = (b.work_us.mean - a.lower_bound_us).max(0.0);
        AsyncGain {
            available_us: Us(available),
            taken_percent: json::Ratio(if available > 0.0 {
                100.0 * gain / available
            } else {
                0.0
            }),
            frame_work_us: Us(a.work_us.mean),
            baseline_frame_work_us: Us(b.work_us.mean),
            gain_us: Us(gain),
            gain_percent: json::Ratio(if b.work_us.mean > 0.0 {
                100.0 * gain / b.work_us.mean
            } else {
                0.0
            }),
            overlap_us: Us(a.overlap_us),
            baseline_overlap_us: Us(b.overlap_us),
        }
    }

    /// [`Summary::gain`] as JSON.
    pub fn compare(&self, baseline: &Summary) -> Value {
        serde_json::to_value(self.gain(baseline)).unwrap_or_default()
    }
}

/// One queue's mean frame, microseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueFrame {
    pub busy_us: f64,
    pub barrier_us: f64,
    pub idle_us: [(Cause, f64); super::CAUSES],
    pub cache_us: f64,
    pub decompress_us: f64,
}

impl QueueFrame {
    /// Idle time for `cause`.
    pub fn idle(&self, cause: Cause) -> f64 {
        self.idle_us
            .iter()
            .find(|(c, _)| *c == cause)
            .map_or(0.0, |p| p.1)
    }

    /// Busy plus every idle cause: the mean frame.
    pub fn total_us(&self) -> f64 {
        self.busy_us + self.idle_us.iter().map(|p| p.1).sum::<f64>()
    }
}

/// A run's per-frame GPU numbers, summarised.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuFrames {
    /// GPU frame time (union of the frame's executing intervals), per frame.
    pub work_us: Distribution,
    /// Mean critical path per frame.
    pub critical_path_us: f64,
    /// Mean part of the critical path per frame that barriers' own work took.
    pub critical_path_barrier_us: f64,
    /// Mean of max(critical path, busiest queue) per frame.
    pub lower_bound_us: f64,
    /// Mean time per frame in which only barriers ran on the GPU.
    pub barrier_us: f64,
    /// Mean of min(lower bound, work - barrier time) per frame.
    pub ideal_us: f64,
    /// Total ideal time over total frame time.
    pub efficiency: f64,
    /// Graphics and compute both busy, over the run.
    pub overlap_us: f64,
}
