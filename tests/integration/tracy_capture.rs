//! A Tracy capture of `fastframe run scenes/deferred.ron --json --wait-for-profiler` built
//! with `--features tracy`, read by the minimal server of `common::tracy_reader` on a free
//! loopback port (`TRACY_PORT`): the GPU contexts and zones a viewer would draw, checked
//! against the run's JSON summary and the plain-data zones (`report::tracy::zones`) of the
//! same run in this process (deterministic: same scene and frames, same timeline).
//!
//! One context per queue that ran something (the summary's `gpu.queue_time` keys), named
//! `GPU <queue>`, on the device's 100 MHz clock (a 10 ns period, CC-7); on each, the zones of
//! its passes (named after them, the queue's name as their function), barriers and waits,
//! nested and timed tick for tick as the plain data says; and per queue, the pass zones add
//! up to the summary's busy time and the wait zones stay within its idle time per cause.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fastframe::Runtime;
use fastframe::device::Device;
use fastframe::report::tracy::{ZoneBuilder, ZoneKind};
use fastframe::report::{Cause, RunStats};
use serde_json::Value;

use crate::common::tracy_reader::{self, Capture};

const SCENE: &str = "scenes/deferred.ron";
const FRAMES: u64 = 12;
/// The device clock's period, ns (100 MHz, CC-7).
const PERIOD_NS: f64 = 10.0;

/// The child, killed if the test fails before it exits.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn drain(mut from: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        let _ = from.read_to_string(&mut s);
        s
    })
}

/// Run the scene under the Tracy server; the capture and the JSON summary.
fn captured_run() -> (Capture, Value) {
    // A port nobody listens on now; the client binds it on 127.0.0.1 (`only-localhost`).
    let port = (TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()))
        .expect("a free loopback port")
        .port();
    let frames = FRAMES.to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(["run", SCENE, "--frames", &frames, "--json"])
        .arg("--wait-for-profiler")
        .env("TRACY_PORT", port.to_string())
        .env_remove("TRACY_NO_EXIT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fastframe starts");
    let out = drain(child.stdout.take().expect("stdout"));
    let err = drain(child.stderr.take().expect("stderr"));
    let mut child = Running(child);
    let deadline = Instant::now() + Duration::from_secs(240);
    let capture = tracy_reader::capture(port, deadline);
    // Once the server let it go the client exits; after a failed capture it may not.
    let status = capture.is_ok().then(|| {
        loop {
            match child.0.try_wait().expect("the child's status") {
                Some(status) => break Some(status),
                None if Instant::now() >= deadline => break None,
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
    drop(child);
    let (out, err) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let capture = capture.unwrap_or_else(|e| panic!("capture: {e}\nstderr:\n{err}"));
    let status =
        (status.flatten()).unwrap_or_else(|| panic!("the run did not exit\nstderr:\n{err}"));
    assert!(status.success(), "{status}\nstderr:\n{err}");
    let json = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (capture, json)
}

/// A zone as the reader or the plain data has it: name, depth, start and end ns.
type Row = (String, usize, f64, f64);

/// The plain-data zones of the same run, by context name, times in ns.
fn expected() -> BTreeMap<String, Vec<Row>> {
    let mut rt = Runtime::from_scene(SCENE).expect("scene loads");
    rt.world.resource_mut::<RunStats>().keep_timeline = true;
    rt.run(FRAMES).expect("runs");
    let stats = rt.world.resource::<RunStats>();
    assert_eq!(
        stats.timed_frames(),
        FRAMES,
        "the summary's means are per run frame"
    );
    let mut builder = ZoneBuilder::default();
    builder.add(&stats.timeline);
    let device = rt.world.resource::<Device>();
    let name = |k: ZoneKind| match k {
        ZoneKind::Pass { label } => device.label_name(label).to_owned(),
        other => other.static_name().expect("named").to_owned(),
    };
    let mut rows: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for t in builder.take(u64::MAX) {
        let row = rows.entry(format!("GPU {}", t.queue)).or_default();
        for (z, depth) in std::iter::once((&t.zone, 0)).chain(t.children.iter().map(|c| (c, 1))) {
            row.push((name(z.kind), depth, z.start_ns as f64, z.end_ns as f64));
        }
    }
    rows
}

/// A pass's zone, not a Barrier's nor a wait's.
fn is_pass(name: &str) -> bool {
    let other = |k: ZoneKind| k.static_name() == Some(name);
    !other(ZoneKind::Barrier) && !Cause::ALL.iter().any(|&c| other(ZoneKind::Wait(c)))
}

#[test]
fn a_tracy_capture_of_deferred_has_its_gpu_zones_as_the_summary_says() {
    let (capture, json) = captured_run();
    assert!(capture.terminated, "the client ended its stream");
    assert!(capture.items > 100, "{} items", capture.items);

    // One context per queue that ran something, named after it, on the 100 MHz clock.
    let queue_time = json["gpu"]["queue_time"].as_object().expect("queue_time");
    let queues: BTreeSet<String> = queue_time.keys().map(|q| format!("GPU {q}")).collect();
    assert!(
        queues.len() >= 3,
        "deferred uses graphics, compute and DMA: {queues:?}"
    );
    let mut by_id = BTreeMap::new();
    for (&id, c) in &capture.contexts {
        let name = c
            .name
            .clone()
            .unwrap_or_else(|| panic!("context {id} has no name"));
        assert_eq!(
            c.period_ns, PERIOD_NS as f32,
            "{name}: the device clock (CC-7)"
        );
        assert_eq!(
            c.kind, 0,
            "{name}: GpuContextType::Invalid (a simulated device)"
        );
        assert!(by_id.insert(id, name).is_none());
    }
    let names: BTreeSet<String> = by_id.values().cloned().collect();
    assert_eq!(names.len(), by_id.len(), "one context per queue: {by_id:?}");
    assert_eq!(names, queues, "a context for exactly the queues that ran");

    // The zones per context, converted to ns with the context's period.
    let mut got: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    for z in &capture.zones {
        let ctx = &by_id[&z.context];
        assert_eq!(Some(z.function.as_str()), ctx.strip_prefix("GPU "), "{z:?}");
        let ns = |t: Option<i64>| t.expect("both times") as f64 * PERIOD_NS;
        let row = (z.name.clone(), z.depth, ns(z.start), ns(z.end));
        got.entry(ctx.clone()).or_default().push(row);
    }
    for (q, pass) in [
        ("GPU graphics", "gbuffer"),
        ("GPU graphics", "depth_prepass"),
        ("GPU compute0.0", "ssao"),
        ("GPU compute0.0", "lighting"),
        ("GPU dma0", "upload_lights"),
    ] {
        let zones = got.get(q).unwrap_or_else(|| panic!("no zones on {q}"));
        assert!(zones.iter().any(|z| z.0 == pass), "{pass} on {q}");
    }

    // Zone for zone as the plain data of the same run: names, nesting and times (each
    // timestamp is the simulated ns cut to the clock's tick).
    let want = expected();
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (ctx, rows) in &want {
        let have = &got[ctx];
        assert_eq!(have.len(), rows.len(), "{ctx}: zone count");
        for (h, w) in have.iter().zip(rows) {
            let same_tick = |a: f64, b: f64| a <= b && b < a + PERIOD_NS;
            assert!(
                h.0 == w.0 && h.1 == w.1 && same_tick(h.2, w.2) && same_tick(h.3, w.3),
                "{ctx}: captured {h:?}, plain data {w:?}"
            );
        }
    }

    // Per queue, against the summary (means per frame, us, to 3 decimals): the pass zones
    // cover the busy time (and no more than the busy time and the front end's gaps), the
    // waits at most the idle time charged to their cause.
    let frames = json["frames"].as_u64().expect("frames");
    assert_eq!(frames, FRAMES);
    for (q, t) in queue_time {
        let rows = &got[&format!("GPU {q}")];
        let total_ns = |us: &Value| us.as_f64().expect("a number") * 1000.0 * frames as f64;
        // Each zone's two timestamps lose under a tick; the summary rounds to 1 ns a frame.
        let slack = rows.len() as f64 * PERIOD_NS + frames as f64;
        let sum = |keep: &dyn Fn(&str) -> bool| -> f64 {
            (rows.iter())
                .filter(|r| r.1 == 0 && keep(&r.0))
                .map(|r| r.3 - r.2)
                .sum()
        };
        let passes = sum(&is_pass);
        let busy = total_ns(&t["busy_us"]);
        let front_end = total_ns(&t["idle_us"]["front_end"]);
        assert!(
            busy - slack <= passes && passes <= busy + front_end + slack,
            "{q}: pass zones {passes} ns, busy {busy} ns (+ front end {front_end})"
        );
        assert!(passes > 0.0, "{q}");
        for cause in Cause::ALL {
            let zone = ZoneKind::Wait(cause).static_name();
            let waits = sum(&|n: &str| Some(n) == zone);
            let idle = total_ns(&t["idle_us"][cause.key()]);
            assert!(
                waits <= idle + slack,
                "{q} {cause:?}: wait zones {waits} ns, idle {idle} ns"
            );
        }
    }
    let fence_waits = (got.values().flatten())
        .filter(|r| r.0 == "wait: fence")
        .count();
    assert!(
        fence_waits > 0,
        "deferred's compute waits on graphics' fences"
    );
}
