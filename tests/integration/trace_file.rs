//! The `--trace` file people read: waits as slices with their length and cause, an arrow
//! from each fence signal to each wait on it, commands on their queue's lane, barriers with
//! their contents (EB-12), counters of memory and flushes, written as the run goes with
//! memory that stays flat.

use fastframe::Runtime;
use fastframe::report::{Cause, GpuTrace};
use serde_json::Value;

use crate::common::Shared;
use std::collections::HashMap;

fn traced(scene: &str, frames: u64) -> (Runtime, Value) {
    let mut rt = Runtime::from_scene(scene).unwrap();
    let out = Shared::default();
    rt.record_gpu_trace_to(out.clone());
    rt.run(frames).unwrap();
    rt.finish_gpu_trace().unwrap();
    let v = out.json();
    (rt, v)
}

fn events(v: &Value) -> &Vec<Value> {
    v["traceEvents"].as_array().unwrap()
}

#[test]
fn every_fence_wait_has_an_arrow_from_its_signal_and_a_slice_with_its_length() {
    let (mut rt, v) = traced("scenes/deferred.ron", 6);
    let summary = rt.summary();
    let ev = events(&v);
    let starts: HashMap<u64, &Value> = (ev.iter())
        .filter(|e| e["ph"] == "s")
        .map(|e| (e["id"].as_u64().unwrap(), e))
        .collect();
    let ends: Vec<&Value> = ev.iter().filter(|e| e["ph"] == "f").collect();
    assert_eq!(ends.len(), starts.len());
    assert_eq!(
        ends.len() as u64,
        summary.stats.fence_waits,
        "an arrow for every wait"
    );
    for f in &ends {
        let s = starts[&f["id"].as_u64().unwrap()];
        assert_eq!(s["name"], f["name"], "one fence");
        assert!(s["ts"].as_f64() <= f["ts"].as_f64(), "{s} -> {f}");
        assert_ne!(s["tid"], f["tid"], "across queues");
    }
    // Waits are slices as long as the queue sat idle for them, no longer than the idle time
    // the summary charges to their cause.
    let waits: Vec<&Value> = ev.iter().filter(|e| e["cat"] == "wait").collect();
    assert!(waits.iter().any(|w| w["args"]["cause"] == "fence"));
    let frames = summary.stats.timed_frames() as f64;
    for (q, t) in summary.queue_time_us() {
        let tid = (q.index() * 1000) as u64;
        for cause in Cause::ALL {
            let len: f64 = (waits.iter())
                .filter(|w| w["tid"] == tid && w["args"]["cause"] == cause.key())
                .map(|w| {
                    let d = w["dur"].as_f64().unwrap();
                    assert!(d > 0.0 && d == w["args"]["length_us"].as_f64().unwrap());
                    d
                })
                .sum();
            assert!(len <= t.idle(cause) * frames + 0.01, "{q} {cause:?}");
        }
    }
}

#[test]
fn commands_keep_their_queue_lane_and_barriers_show_their_contents() {
    let (_, v) = traced("scenes/deferred.ron", 4);
    let ev = events(&v);
    let threads: Vec<&str> = (ev.iter())
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    assert!(
        threads.iter().all(|t| !t.contains('+')),
        "no extra lane where commands only nest: {threads:?}"
    );
    let draws = (ev.iter()).filter(|e| e["name"] == "Draw" && e["cat"] == "command");
    assert!(draws.clone().count() > 0);
    assert!(
        draws.clone().all(|d| d["tid"] == 1),
        "draws on `graphics commands`"
    );
    let barriers: Vec<&Value> = (ev.iter())
        .filter(|e| e["name"] == "Barrier" && e["cat"] == "command")
        .collect();
    assert!(!barriers.is_empty());
    let mut textures = 0;
    for b in &barriers {
        let list = b["args"]["barrier"]["barriers"].as_array().unwrap();
        assert!(!list.is_empty(), "{b}");
        for one in list {
            assert_eq!(one["sync"].as_array().unwrap().len(), 2, "before and after");
            assert_eq!(one["access"].as_array().unwrap().len(), 2);
            if one["type"] == "texture" {
                textures += 1;
                assert_eq!(one["layout"].as_array().unwrap().len(), 2);
                assert!(one["resource"].is_string());
            }
        }
        let hw = &b["args"]["barrier"]["hardware"];
        assert!(
            hw["events"].is_array() && hw["write_back"].is_string(),
            "{hw}"
        );
    }
    assert!(textures > 0, "deferred transitions textures");
    // Counters: memory and flushes, sampled as the run goes.
    let memory: Vec<f64> = (ev.iter())
        .filter(|e| e["ph"] == "C" && e["name"] == "device memory")
        .map(|e| e["args"]["MiB"].as_f64().unwrap())
        .collect();
    assert!(
        memory.len() >= 4 && memory.iter().all(|&m| m > 0.0),
        "{memory:?}"
    );
    let flushes: u64 = (ev.iter())
        .filter(|e| e["ph"] == "C" && e["name"] == "partial flushes")
        .map(|e| e["args"]["submitted"].as_u64().unwrap())
        .sum();
    assert!(flushes > 0);
    // A pass slice holds its barriers on the queue's thread.
    assert!(
        ev.iter()
            .any(|e| e["cat"] == "pass" && e["name"] == "gbuffer")
    );
    assert!(ev.iter().any(|e| e["cat"] == "barrier" && e["tid"] == 0));
}

/// The trace goes to the file as the run goes, and what the writer keeps does not grow with
/// frames (it kept every command, about 270 KB a frame of deferred.ron).
#[test]
fn the_trace_streams_in_flat_memory() {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").unwrap();
    let out = Shared::default();
    rt.record_gpu_trace_to(out.clone());
    let held = |rt: &Runtime| rt.world.resource::<GpuTrace>().held();
    let mut peak_early = 0;
    for _ in 0..100 {
        rt.tick().unwrap();
        peak_early = peak_early.max(held(&rt));
    }
    let written = out.len();
    assert!(written > 100_000, "written while running: {written} bytes");
    let mut peak_late = 0;
    for _ in 0..900 {
        rt.tick().unwrap();
        peak_late = peak_late.max(held(&rt));
    }
    assert!(out.len() > 5 * written);
    assert!(
        peak_late <= peak_early,
        "held {peak_early} in the first 100 frames, {peak_late} in the next 900"
    );
    rt.finish().unwrap();
    rt.finish_gpu_trace().unwrap();
    assert_eq!(held(&rt), 0);
    let v = out.json();
    assert_eq!(v["otherData"]["dropped_commands"], 0);
}

/// A full trace counts what it dropped and is still a JSON file.
#[test]
fn a_capped_trace_counts_what_it_drops() {
    let mut rt = Runtime::from_scene("scenes/render_loop.ron").unwrap();
    let out = Shared::default();
    rt.world.resource_mut::<fastframe::device::Device>().trace = Some(Vec::new());
    (rt.world.resource_mut::<GpuTrace>()).record_at_most("s", out.clone(), 10);
    rt.run(3).unwrap();
    rt.finish_gpu_trace().unwrap();
    let v = out.json();
    let commands = (events(&v).iter())
        .filter(|e| e["cat"] == "command")
        .count();
    assert_eq!(commands, 10);
    let summary = rt.summary();
    assert_eq!(
        v["otherData"]["dropped_commands"].as_u64().unwrap(),
        summary.stats.executed_commands - 10
    );
}
