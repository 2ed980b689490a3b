//! The command line end to end: exit codes, the JSON summary's keys, determinism, Graphviz.

use serde_json::Value;
use std::process::{Command, Output};

fn fastframe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// Every key the README documents for `run --json`.
const KEYS: &[&str] = &[
    "scene",
    "frames",
    "gpu.frame_us.mean",
    "gpu.frame_us.p50",
    "gpu.frame_us.p99",
    "gpu.frame_us.max",
    "gpu.frame_span_us.mean",
    "gpu.queues.graphics.busy_us",
    "gpu.queues.compute.busy_us",
    "gpu.queues.dma.busy_us",
    "gpu.stalls_us.fence",
    "gpu.stalls_us.present",
    "gpu.commands",
    "gpu.sampled_bytes",
    "gpu.graphics_refills",
    "cpu.tick_us.mean",
    "cpu.tick_us.p50",
    "cpu.tick_us.p99",
    "sync.barriers",
    "sync.fences_inserted",
    "sync.fence_waits",
    "sync.kickoffs",
    "sync.waits_on_present",
    "sync.partial_flushes.vs",
    "sync.partial_flushes.ps",
    "sync.partial_flushes.cs",
    "sync.partial_flushes.idle",
    "sync.cache_writebacks",
    "sync.cache_invalidations",
    "sync.decompressions",
    "sync.discards",
    "sync.split_barriers",
    "swap_chain.presents",
    "swap_chain.rotations",
    "lifetime.releases_requested",
    "lifetime.releases_completed",
    "lifetime.releases_pending",
    "lifetime.live_entities",
    "memory.peak_bytes",
    "memory.transient_peak_bytes",
    "memory.transient_lower_bound_bytes",
    "memory.transient_unaliased_bytes",
    "validation.errors",
    "validation.warnings",
    "validation.by_rule",
];

fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

#[test]
fn run_json_has_every_documented_key() {
    let out = fastframe(&["run", "scenes/deferred.ron", "--frames", "30", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    for key in KEYS {
        assert!(lookup(&v, key).is_some(), "missing key {key}");
    }
    assert_eq!(v["frames"], 30);
    assert_eq!(v["swap_chain"]["presents"], 30);
    assert!(
        v["sync"]["fence_waits"].as_u64().unwrap() > 0,
        "deferred waits across queues"
    );
    assert!(v["gpu"]["queues"]["compute"]["busy_us"].as_f64().unwrap() > 0.0);
    assert!(v["gpu"]["queues"]["dma"]["busy_us"].as_f64().unwrap() > 0.0);
}

#[test]
fn runs_are_deterministic_apart_from_cpu() {
    // The measured parts: tick times, the resident set, and the bytes the runtime's tables
    // allocated (hash-table capacities follow the randomly seeded hasher). What the
    // structures hold, their entries, is deterministic and stays in.
    let strip = |mut v: Value| {
        let o = v.as_object_mut().unwrap();
        o.remove("cpu");
        let host = o.get_mut("host").and_then(Value::as_object_mut).unwrap();
        host.remove("rss_kib");
        host.remove("peak_rss_kib");
        let structures = host
            .get_mut("structures")
            .and_then(Value::as_object_mut)
            .unwrap();
        structures.remove("bytes");
        for part in ["stats", "validator", "device"] {
            if let Some(p) = structures.get_mut(part).and_then(Value::as_object_mut) {
                p.remove("bytes");
            }
        }
        v
    };
    for scene in ["scenes/render_loop.ron", "scenes/deferred.ron"] {
        let a = strip(json_of(&fastframe(&[
            "run", scene, "--frames", "120", "--json",
        ])));
        let b = strip(json_of(&fastframe(&[
            "run", scene, "--frames", "120", "--json",
        ])));
        assert_eq!(a, b, "{scene}");
    }
}

#[test]
fn out_writes_the_json_summary() {
    let path = std::env::temp_dir().join(format!("fastframe-cli-{}.json", std::process::id()));
    let out = fastframe(&[
        "run",
        "scenes/render_loop.ron",
        "--frames",
        "5",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["frames"], 5);
    let _ = std::fs::remove_file(path);
}

#[test]
fn check_passes_on_the_bundled_scenes() {
    for scene in ["scenes/render_loop.ron", "scenes/deferred.ron"] {
        let out = fastframe(&["check", scene, "--json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let v = json_of(&out);
        assert_eq!(v["errors"], 0);
        assert!(v["diagnostics"].as_array().unwrap().is_empty());
    }
}

#[test]
fn bad_input_exits_2_with_a_location() {
    let out = fastframe(&["run", "scenes/does_not_exist.ron"]);
    assert_eq!(out.status.code(), Some(2));
    let dir = std::env::temp_dir().join(format!("fastframe-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scene(\n    entities: [\n        (name: \"a\", texture: (format: Rgba8Unorm, extent: (0, 4))),\n    ],\n)\n").unwrap();
    for cmd in ["run", "check", "graph"] {
        let out = fastframe(&[cmd, bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.ron:3:"), "{cmd}: {err}");
    }
    // check --json answers in JSON even when the scene does not load: the load error is
    // the fatal error, located like on stderr.
    let out = fastframe(&["check", bad.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v = json_of(&out);
    assert_eq!(v["errors"], 1, "{v}");
    assert!(
        v["diagnostics"].as_array().is_some_and(|d| d.is_empty()),
        "{v}"
    );
    let fatal = v["fatal"].as_str().unwrap_or_default();
    assert!(fatal.contains("bad.ron:3:"), "{v}");
    let out = fastframe(&["run"]);
    assert_eq!(out.status.code(), Some(2), "usage error");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn graph_prints_dot_with_queues_and_fences() {
    let out = fastframe(&["graph", "scenes/deferred.ron"]);
    assert!(out.status.success());
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(dot.starts_with("digraph"));
    assert!(
        dot.contains("cluster_graphics")
            && dot.contains("cluster_compute0.0")
            && dot.contains("cluster_dma0")
    );
    assert!(dot.contains("lighting"));
    // Exactly the fence waits the runtime inserts are drawn as fences, the previous frame's
    // apart; labels break lines with DOT's `\n`, not a literal backslash.
    let mut rt = fastframe::Runtime::from_scene("scenes/deferred.ron").expect("loads");
    rt.tick().expect("ticks");
    let waits: usize = rt.graph().passes.iter().map(|p| p.waits.len()).sum();
    let previous: usize = (rt.graph().passes.iter())
        .map(|p| p.waits_previous.len())
        .sum();
    assert!(waits > 0 && previous > 0, "deferred.ron waits both ways");
    assert_eq!(dot.matches("label=\"fence\"").count(), waits, "{dot}");
    assert_eq!(dot.matches("previous frame").count(), previous, "{dot}");
    assert!(dot.contains("label=\"lighting\\n#"), "{dot}");
    assert!(!dot.contains("\\\\n"), "a doubly escaped line break: {dot}");
}

#[test]
fn overrides_change_the_run() {
    let on = json_of(&fastframe(&[
        "run",
        "scenes/deferred.ron",
        "--frames",
        "20",
        "--json",
    ]));
    let off = json_of(&fastframe(&[
        "run",
        "scenes/deferred.ron",
        "--frames",
        "20",
        "--json",
        "--async-compute",
        "off",
    ]));
    assert!(on["gpu"]["queues"]["compute"]["busy_us"].as_f64().unwrap() > 0.0);
    assert_eq!(
        off["gpu"]["queues"]["compute"]["busy_us"].as_f64().unwrap(),
        0.0
    );
    for r in ["saved-views", "fenced-ring", "place-view"] {
        let out = fastframe(&[
            "run",
            "scenes/render_loop.ron",
            "--frames",
            "10",
            "--rotation",
            r,
        ]);
        assert!(out.status.success(), "{r}");
    }
}

#[test]
fn enhanced_barriers_flush_less_than_the_conservative_baseline() {
    let run = |mode: &str| {
        json_of(&fastframe(&[
            "run",
            "scenes/deferred.ron",
            "--frames",
            "60",
            "--json",
            "--barriers",
            mode,
        ]))
    };
    let (e, c) = (run("enhanced"), run("conservative"));
    let n = |v: &Value, k: &str| lookup(v, k).and_then(Value::as_u64).unwrap();
    assert!(n(&e, "sync.partial_flushes.idle") < n(&c, "sync.partial_flushes.idle"));
    assert!(n(&e, "sync.cache_invalidations") < n(&c, "sync.cache_invalidations"));
    assert!(n(&e, "sync.cache_writebacks") < n(&c, "sync.cache_writebacks"));
    // Transients are activated with DISCARD in both (EB-5).
    assert!(n(&e, "sync.discards") > 0);
}

#[test]
fn graph_of_a_frame_script_says_there_is_none() {
    let out = fastframe(&["graph", "scenes/script_rl7_place_view.ron"]);
    assert_eq!(out.status.code(), Some(0));
    let dot = String::from_utf8_lossy(&out.stdout);
    assert!(
        dot.starts_with("digraph") && dot.contains("frame script"),
        "{dot}"
    );
}

#[test]
fn trace_writes_the_gpu_timeline_for_perfetto() {
    let trace = |name: &str| {
        let path =
            std::env::temp_dir().join(format!("fastframe-{name}-{}.json", std::process::id()));
        let args = ["run", "scenes/deferred.ron", "--frames", "4", "--trace"];
        let out = fastframe(&[&args[..], &[path.to_str().unwrap()]].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        serde_json::from_str::<Value>(&text).unwrap()
    };
    let v = trace("a");
    let events = v["traceEvents"].as_array().unwrap();
    let threads: Vec<&str> = (events.iter())
        .filter(|e| e["name"] == "thread_name")
        .map(|e| e["args"]["name"].as_str().unwrap())
        .collect();
    for queue in ["graphics", "compute0.0", "dma0"] {
        assert!(threads.contains(&queue), "{threads:?}");
    }
    let slices: Vec<&Value> = events.iter().filter(|e| e["ph"] == "X").collect();
    let commands: Vec<&Value> = (slices.iter().copied())
        .filter(|e| e["cat"] == "command")
        .collect();
    // Every command the summary counts is on the timeline, with its pass and frame.
    let summary = fastframe(&["run", "scenes/deferred.ron", "--frames", "4", "--json"]);
    assert_eq!(
        commands.len() as u64,
        json_of(&summary)["gpu"]["commands"].as_u64().unwrap()
    );
    assert!(
        commands
            .iter()
            .any(|e| e["args"]["pass"] == "ssao" && e["name"] == "Dispatch")
    );
    assert!(
        commands
            .iter()
            .all(|e| e["args"]["frame"].as_u64().is_some_and(|f| f < 4))
    );
    // Slices of one thread nest: two are disjoint or one contains the other (a pass holds
    // its barriers and waits; a short command may nest in a long one).
    let mut by_tid: std::collections::BTreeMap<u64, Vec<(f64, f64)>> = Default::default();
    for e in &slices {
        let ts = e["ts"].as_f64().unwrap();
        let end = ts + e["dur"].as_f64().unwrap();
        by_tid
            .entry(e["tid"].as_u64().unwrap())
            .or_default()
            .push((ts, end));
    }
    for spans in by_tid.values_mut() {
        spans.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let mut open: Vec<f64> = Vec::new();
        for &(s, e) in spans.iter() {
            while open.last().is_some_and(|&end| end <= s + 1e-9) {
                open.pop();
            }
            assert!(
                open.last().is_none_or(|&end| e <= end + 1e-9),
                "({s}, {e}) overlaps a slice ending at {:?}",
                open.last()
            );
            open.push(e);
        }
    }
    assert_eq!(v, trace("b"), "the same run gives the same trace");
}

/// `--out` and `--trace` are opened before the run: a path that cannot be written ends a run
/// of a billion frames at once, with exit code 2 and the path named (the process is killed,
/// and the test fails, if it is still running after a minute).
#[test]
fn unwritable_outputs_fail_before_the_run() {
    for flag in ["--out", "--trace"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args(["run", "scenes/deferred.ron", "--frames", "1000000000"])
            .args([flag, "/nonexistent-dir/summary.json"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("starts");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().expect("waits") {
                break Some(status);
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let status = status.unwrap_or_else(|| panic!("{flag}: the run started anyway"));
        assert_eq!(status.code(), Some(2), "{flag}");
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut stderr)
            .expect("reads");
        assert!(
            stderr.contains("/nonexistent-dir/summary.json"),
            "{flag}: {stderr}"
        );
    }
}

/// `--progress` says how far a run is on standard error and leaves standard output to the
/// summary; without it, and with standard error not a terminal, nothing is said.
#[test]
fn progress_goes_to_standard_error_when_asked() {
    let args = ["run", "scenes/render_loop.ron", "--frames", "40", "--json"];
    let quiet = fastframe(&args);
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    let loud = fastframe(&[&args[..], &["--progress"]].concat());
    let err = String::from_utf8_lossy(&loud.stderr);
    assert!(err.contains("frame 1/40"), "{err}");
    assert!(err.contains("40 of 40 frames in"), "{err}");
    assert_eq!(json_of(&loud)["frames"], 40);
}

#[test]
fn barriers_lists_each_call_with_its_triples_and_packets() {
    // EB-12: the split barrier's two halves and the rest, as the twin scene writes them.
    let scene = "tests/data/scripts/eb11_split_crosses_submission.ron";
    let out = fastframe(&["barriers", scene, "--frame", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("frame 1, 4 Barrier call(s)"), "{text}");
    assert!(text.contains("sync    COPY -> SPLIT"), "{text}");
    assert!(text.contains("sync    SPLIT -> COMPUTE_SHADING"), "{text}");
    assert!(text.contains("access  NO_ACCESS -> COPY_DEST"), "{text}");
    // The last barrier drains compute: a CS partial flush packet.
    assert!(text.contains("CsPartialFlush"), "{text}");

    let out = fastframe(&["barriers", "scenes/deferred.ron", "--frame", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let calls: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(!calls.is_empty());
    for (n, c) in calls.iter().enumerate() {
        assert_eq!(c["call"].as_u64(), Some(n as u64), "{c}");
        assert!(c["hardware"]["events"].is_array(), "{c}");
        assert!(!c["barriers"].as_array().is_none_or(Vec::is_empty), "{c}");
    }
    // Every texture barrier says its layouts, and some activation discards.
    let textures: Vec<&Value> = (calls.iter())
        .flat_map(|c| c["barriers"].as_array().into_iter().flatten())
        .filter(|b| b["type"] == "texture")
        .collect();
    assert!(textures.iter().all(|b| b["layout"].is_array()));
    assert!(textures.iter().any(|b| b["discard"] == true));
}
