//! The summary as a table for people: what ran, then the frame, then where each queue's
//! frame went (busy, or idle by cause, adding up to the frame).

use super::{Cause, FAMILIES, Summary};

impl Summary {
    /// A human-readable table.
    pub fn to_table(&self) -> String {
        let s = &self.stats;
        let frame = s.frame_us();
        let g = self.gpu_frames();
        let tick = s.cpu_tick_us();
        let f = s.frames.max(1) as f64;
        let per_frame = |ns: u64| ns as f64 / 1000.0 / f;
        let busy = s.busy_ns();
        let elapsed = s.elapsed_ns().max(1) as f64;
        let mut out = String::new();
        let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<26} {v}\n"));
        row("scene", self.scene.clone());
        row("frames", s.frames.to_string());
        row("settings", self.settings.line());
        row(
            "device",
            format!(
                "{} (async compute {}, {} semantics)",
                s.profile,
                if s.async_compute { "on" } else { "off" },
                self.settings.semantics
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
                "{:.1} ({:.1} barriers)  lower bound {:.1}  barriers alone {:.1}  efficiency {:.1}%",
                g.critical_path_us,
                g.critical_path_barrier_us,
                g.lower_bound_us,
                g.barrier_us,
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
        for (q, t) in self.queue_time_us() {
            let mut idle: Vec<String> = (Cause::ALL.iter())
                .filter(|&&c| t.idle(c) >= 0.05)
                .map(|&c| format!("{} {:.1}", c.key(), t.idle(c)))
                .collect();
            if idle.is_empty() {
                idle.push("none".to_owned());
            }
            row(
                &format!("{q} frame (us)"),
                format!(
                    "busy {:.1} (barriers alone {:.1})  idle: {}",
                    t.busy_us,
                    t.barrier_us,
                    idle.join("  ")
                ),
            );
        }
        row(
            "cpu tick (us)",
            format!(
                "mean {:.2}  p50 {:.2}  p99 {:.2}",
                tick.mean, tick.p50, tick.p99
            ),
        );
        row(
            "cpu per frame (us)",
            format!(
                "recording {:.2} ({:.2} on {} threads)  submission {:.2}",
                per_frame(s.cpu_record_ns),
                per_frame(s.cpu_record_span_ns),
                self.settings.record_threads,
                per_frame(s.cpu_submit_ns)
            ),
        );
        row(
            "binding per frame",
            format!(
                "{:.1} calls  {:.1} dwords  {:.2} us front end ({})",
                s.binding.calls as f64 / f,
                s.binding.dwords as f64 / f,
                per_frame(s.binding_front_ns),
                self.settings.binding
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
        if s.transient_unaliased_bytes > 0 {
            let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
            row(
                "transient memory",
                format!(
                    "{:.2} MiB aliased{} ({:.2} lower bound, {:.2} unaliased)",
                    mib(s.transient_peak_bytes),
                    if s.transients_placed {
                        ", placed"
                    } else {
                        ", not placed"
                    },
                    mib(s.transient_lower_bound_bytes),
                    mib(s.transient_unaliased_bytes)
                ),
            );
        }
        if s.queries_resolved > 0 {
            row(
                "queries",
                format!(
                    "{} resolved, {} read back",
                    s.queries_resolved, s.queries_read
                ),
            );
        }
        row(
            "validation",
            if self.settings.validation == "on" {
                format!(
                    "{} errors, {} warnings",
                    self.validation_errors, self.validation_warnings
                )
            } else {
                "off".to_owned()
            },
        );
        out
    }
}
