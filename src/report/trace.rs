//! The GPU timeline as a trace file: every executed command on every hardware queue, for
//! Perfetto (ui.perfetto.dev) or `chrome://tracing`.
//!
//! Tracy shows where the CPU spends a tick; this shows what the simulated GPU did with the
//! frame: which queue ran what when, where a queue waited and why (a fence, the display, a
//! drain), what a barrier spent on caches and decompression. The format is the Chrome trace
//! event format (JSON): one process, one thread per queue, a complete event ("X") per command
//! with the pass, frame and stall in its arguments. Commands of one queue may overlap (work
//! items run concurrently until a barrier orders them), and slices on one thread must nest, so
//! overlapping commands go to extra lanes of their queue ("graphics +1"), chosen greedily in
//! start order: deterministic, like the simulation.

use bevy_ecs::prelude::*;
use serde_json::{Value, json};

use crate::device::{Executed, QUEUE_COUNT, QueueId};

/// Most commands a trace keeps; later ones are counted and dropped, so a long run cannot
/// exhaust memory (about 200 bytes each).
pub const TRACE_CAP: usize = 2_000_000;

/// Executed commands kept for a trace file, when recording is on.
#[derive(Resource, Debug, Default)]
pub struct GpuTrace {
    events: Option<Vec<Executed>>,
    dropped: u64,
    cap: usize,
}

impl GpuTrace {
    /// Start (or stop) keeping executed commands, at most [`TRACE_CAP`].
    pub fn record(&mut self, on: bool) {
        self.record_at_most(on, TRACE_CAP);
    }

    /// Start (or stop) keeping at most `cap` executed commands.
    pub fn record_at_most(&mut self, on: bool, cap: usize) {
        self.events = on.then(Vec::new);
        self.dropped = 0;
        self.cap = cap;
    }

    /// Keep these commands, if recording.
    pub fn absorb(&mut self, executed: &[Executed]) {
        let Some(events) = self.events.as_mut() else {
            return;
        };
        let room = self.cap.saturating_sub(events.len()).min(executed.len());
        events.extend_from_slice(&executed[..room]);
        self.dropped += (executed.len() - room) as u64;
    }

    /// The trace as Chrome trace event JSON; `label` names a command's pass.
    pub fn to_json<'a>(&'a self, scene: &str, label: impl Fn(u32) -> &'a str) -> Value {
        let events = self.events.as_deref().unwrap_or_default();
        let mut order: Vec<&Executed> = events.iter().collect();
        order.sort_by_key(|e| (e.queue.index(), e.start_ns, e.end_ns));
        let mut out = vec![json!({
            "name": "process_name", "ph": "M", "pid": 1,
            "args": {"name": format!("fastframe GPU: {scene}")},
        })];
        // Per queue, where each lane is busy until.
        let mut lanes: Vec<Vec<u64>> = vec![Vec::new(); QUEUE_COUNT];
        for e in order {
            let q = e.queue.index();
            let lane = match lanes[q].iter().position(|&end| end <= e.start_ns) {
                Some(l) => l,
                None => {
                    lanes[q].push(0);
                    lanes[q].len() - 1
                }
            };
            lanes[q][lane] = e.end_ns.max(e.start_ns);
            let tid = tid(q, lane);
            let us = |ns: u64| ns as f64 / 1000.0;
            out.push(json!({
                "name": e.name, "cat": "gpu", "ph": "X", "pid": 1, "tid": tid,
                "ts": us(e.start_ns), "dur": us(e.end_ns.saturating_sub(e.start_ns)),
                "args": {
                    "pass": label(e.label), "frame": e.frame,
                    "stall": format!("{:?}", e.stall), "stall_us": us(e.stall_ns),
                    "cache_us": us(e.cache_ns), "decompress_us": us(e.decompress_ns),
                },
            }));
        }
        for (q, lanes) in lanes.iter().enumerate() {
            let name = QueueId::from_index(q).map_or_else(String::new, |q| q.to_string());
            for lane in 0..lanes.len() {
                let thread = if lane == 0 {
                    name.clone()
                } else {
                    format!("{name} +{lane}")
                };
                let tid = tid(q, lane);
                out.push(
                    json!({"name": "thread_name", "ph": "M", "pid": 1, "tid": tid,
                    "args": {"name": thread}}),
                );
                out.push(
                    json!({"name": "thread_sort_index", "ph": "M", "pid": 1, "tid": tid,
                    "args": {"sort_index": tid}}),
                );
            }
        }
        json!({
            "traceEvents": out,
            "displayTimeUnit": "ns",
            "otherData": {"scene": scene, "dropped_commands": self.dropped},
        })
    }
}

/// Thread id of a queue's lane: queues in index order, lanes after their queue.
fn tid(queue: usize, lane: usize) -> u64 {
    (queue * 1000 + lane) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Stall;

    fn cmd(queue: QueueId, start_ns: u64, end_ns: u64) -> Executed {
        Executed {
            queue,
            frame: 0,
            label: 1,
            name: "Draw",
            issue_ns: start_ns,
            start_ns,
            end_ns,
            stall_ns: 0,
            stall: Stall::None,
            cache_ns: 0,
            decompress_ns: 0,
            path_ns: 0,
            seq: 0,
        }
    }

    fn slices(v: &Value) -> Vec<(u64, f64, f64)> {
        (v["traceEvents"].as_array().unwrap().iter())
            .filter(|e| e["ph"] == "X")
            .map(|e| {
                let ts = e["ts"].as_f64().unwrap();
                (
                    e["tid"].as_u64().unwrap(),
                    ts,
                    ts + e["dur"].as_f64().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn overlapping_commands_of_a_queue_get_lanes_and_queues_get_threads() {
        let mut t = GpuTrace::default();
        t.absorb(&[cmd(QueueId::Graphics, 0, 10)]);
        assert!(slices(&t.to_json("s", |_| "p")).is_empty(), "not recording");
        t.record(true);
        let compute = QueueId::Compute { pipe: 0, index: 0 };
        t.absorb(&[
            cmd(QueueId::Graphics, 0, 10_000),
            cmd(QueueId::Graphics, 5_000, 8_000),
            cmd(QueueId::Graphics, 10_000, 12_000),
            cmd(compute, 1_000, 2_000),
        ]);
        let v = t.to_json("s", |_| "gbuffer");
        let s = slices(&v);
        assert_eq!(s.len(), 4);
        assert!(s.contains(&(0, 0.0, 10.0)) && s.contains(&(1, 5.0, 8.0)));
        assert!(
            s.contains(&(0, 10.0, 12.0)),
            "lane 0 is free again at 10 us"
        );
        assert!(s.contains(&(1000, 1.0, 2.0)));
        let names: Vec<&str> = (v["traceEvents"].as_array().unwrap().iter())
            .filter(|e| e["name"] == "thread_name")
            .map(|e| e["args"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["graphics", "graphics +1", "compute0.0"]);
    }

    #[test]
    fn a_full_trace_counts_what_it_drops() {
        let mut t = GpuTrace::default();
        t.record_at_most(true, 2);
        let c = |at| cmd(QueueId::Graphics, at, at + 1);
        t.absorb(&[c(0)]);
        t.absorb(&[c(1), c(2), c(3)]);
        assert_eq!(t.dropped, 2);
        let v = t.to_json("s", |_| "");
        assert_eq!(v["otherData"]["dropped_commands"], 2);
        assert_eq!(slices(&v).len(), 2);
    }
}
