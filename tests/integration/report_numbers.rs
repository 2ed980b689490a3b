//! The summary's numbers rank choices right: idle time per queue by cause adds up to the
//! frame, no stall figure exceeds it, efficiency shows barrier waste on one queue, and the
//! summary says what ran.

use fastframe::Runtime;
use fastframe::model::BarrierMode;
use fastframe::report::{Cause, Summary};

const STRATEGIES: [BarrierMode; 3] = [
    BarrierMode::Enhanced,
    BarrierMode::Conservative,
    BarrierMode::Legacy,
];

fn run(scene: &str, barriers: BarrierMode, async_compute: bool, frames: u64) -> Summary {
    let mut rt = Runtime::from_scene(scene).expect("scene loads");
    rt.settings_mut().barriers = barriers;
    rt.settings_mut().async_compute = async_compute;
    // A strategy that is not clean on a scene still runs: its numbers are what is checked.
    let _ = rt.run(frames);
    rt.summary()
}

fn bundled() -> Vec<String> {
    let mut scenes: Vec<String> = std::fs::read_dir("scenes")
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.display().to_string())
        .collect();
    scenes.sort();
    scenes
}

/// Every queue's busy time and idle causes add up to the mean frame, and every stall figure
/// is at most the frame, for every bundled scene and strategy (summed per command, the fence
/// stall of deferred.ron was 25 times its frame).
#[test]
fn idle_by_cause_adds_up_to_the_frame_and_no_stall_exceeds_it() {
    for scene in bundled() {
        for barriers in STRATEGIES {
            let s = run(&scene, barriers, true, 12);
            if s.stats.frames == 0 {
                // A strategy that cannot plan the scene at all (legacy and a texture copied
                // onto itself, EB-9c) submits no frame: nothing to add up.
                continue;
            }
            let v = s.to_json();
            let frame = v["gpu"]["frame_us"]["mean"].as_f64().unwrap();
            let times = s.queue_time_us();
            assert!(!times.is_empty(), "{scene} {barriers:?}: no queue ran");
            for (q, t) in &times {
                let total = t.total_us();
                assert!(
                    (total - frame).abs() <= 1e-6 * frame.max(1.0),
                    "{scene} {barriers:?} {q}: busy {} + idle = {total}, frame {frame}",
                    t.busy_us
                );
                assert!(t.barrier_us <= t.busy_us + 1e-9);
                let json = &v["gpu"]["queue_time"][q.to_string()];
                let idle: f64 = Cause::ALL
                    .iter()
                    .map(|c| json["idle_us"][c.key()].as_f64().unwrap())
                    .sum();
                let busy = json["busy_us"].as_f64().unwrap();
                assert!(
                    (busy + idle - frame).abs() < 0.01,
                    "{scene} {q}: JSON adds up"
                );
            }
            for (key, stall) in v["gpu"]["stalls_us"].as_object().unwrap() {
                let stall = stall.as_f64().unwrap();
                assert!(
                    stall <= frame + 0.001,
                    "{scene} {barriers:?}: stall {key} {stall} us > frame {frame} us"
                );
            }
        }
    }
}

/// On one queue the lower bound is the frame whatever the barriers do; efficiency still
/// shows what the conservative and legacy barriers cost over enhanced ones (it was 0.9986
/// for all three).
#[test]
fn efficiency_shows_barrier_waste_on_one_queue() {
    let eff = |b| {
        let s = run("scenes/deferred.ron", b, false, 20);
        (s.gpu_frames().efficiency, s.gpu_frames().barrier_us)
    };
    let (enhanced, conservative, legacy) = (
        eff(BarrierMode::Enhanced),
        eff(BarrierMode::Conservative),
        eff(BarrierMode::Legacy),
    );
    assert!(
        enhanced.1 > 0.0,
        "deferred.ron has barriers with cache work"
    );
    assert!(
        conservative.0 < enhanced.0 && legacy.0 < enhanced.0,
        "efficiency: enhanced {enhanced:?}, conservative {conservative:?}, legacy {legacy:?}"
    );
    assert!(
        conservative.1 > enhanced.1,
        "conservative barriers do more work alone"
    );
}

/// The strategies rank on graphics busy time as they rank on frame work.
#[test]
fn strategies_rank_on_queue_time_as_on_frame_work() {
    let mut rows: Vec<(f64, f64)> = STRATEGIES
        .iter()
        .map(|&b| {
            let s = run("scenes/deferred.ron", b, true, 20);
            let busy = (s.queue_time_us().iter())
                .find(|(q, _)| q.to_string() == "graphics")
                .map(|(_, t)| t.busy_us)
                .unwrap();
            (s.gpu_frames().work_us.mean, busy)
        })
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(
        rows.windows(2).all(|w| w[0].1 <= w[1].1),
        "frame work and graphics busy time rank alike: {rows:?}"
    );
}

/// The summary names what ran, and says validation was off rather than "0 errors".
#[test]
fn the_summary_names_the_settings_that_ran() {
    let mut rt = Runtime::from_scene("scenes/render_loop.ron").unwrap();
    rt.settings_mut().barriers = BarrierMode::Conservative;
    rt.settings_mut().frames_in_flight = 3;
    rt.settings_mut().rotation = Some(fastframe::model::Rotation::FencedRing);
    rt.run(4).unwrap();
    let s = rt.summary();
    let v = s.to_json();
    assert_eq!(v["schema_version"], fastframe::report::SCHEMA_VERSION);
    let set = &v["settings"];
    assert_eq!(set["barriers"], "conservative");
    assert_eq!(set["rotation"], serde_json::json!(["fenced-ring"]));
    assert_eq!(set["frames_in_flight"], 3);
    assert_eq!(set["fault"], serde_json::Value::Null);
    assert_eq!(set["validation"], "off");
    assert_eq!(v["validation"]["enabled"], false);
    let table = s.to_table();
    assert!(table.contains("barriers conservative"), "{table}");
    assert!(table.contains("rotation fenced-ring"), "{table}");
    assert!(table.contains("frames in flight 3"), "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.trim() == "validation                 off"),
        "{table}"
    );
    rt.set_validation(true);
    assert_eq!(rt.summary().to_json()["settings"]["validation"], "on");
}

/// The statistics keep no number per frame: between frame 1,000 and 5,000 of deferred.ron
/// what they hold stays put (frame times and GPU figures repeat; tick times fall in buckets),
/// and the summary still counts every frame.
#[test]
fn statistics_stay_in_fixed_memory() {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").unwrap();
    let held = |rt: &Runtime| {
        let s = rt.world.resource::<fastframe::report::RunStats>();
        (s.frames_log.held(), s.cpu_tick.buckets())
    };
    for _ in 0..1_000 {
        rt.tick().unwrap();
    }
    let early = held(&rt);
    for _ in 0..4_000 {
        rt.tick().unwrap();
    }
    let late = held(&rt);
    assert!(late.0 <= early.0, "frame log: {early:?} then {late:?}");
    assert!(late.1 < 3_000, "tick buckets: {late:?}");
    rt.finish().unwrap();
    assert_eq!(rt.summary().stats.timed_frames(), 5_000);
}

/// What barriers add to the critical path (their own cache and compression work on it, EB-3..
/// EB-5) is part of the path, and ranks the strategies as their frame times do: enhanced adds
/// least, legacy (whose translated barriers flush and decompress most) most.
#[test]
fn barriers_on_the_critical_path_rank_the_strategies() {
    for scene in ["scenes/deferred.ron", "scenes/gpu_driven.ron"] {
        let mut by = Vec::new();
        for b in [
            BarrierMode::Enhanced,
            BarrierMode::Conservative,
            BarrierMode::Legacy,
        ] {
            let v = run(scene, b, true, 20).to_json();
            let gpu = &v["gpu"];
            let on_path = gpu["critical_path_barrier_us"].as_f64().unwrap();
            let path = gpu["critical_path_us"].as_f64().unwrap();
            assert!(
                on_path > 0.0 && on_path <= path,
                "{scene} {b:?}: {on_path} of {path}"
            );
            by.push((on_path, gpu["frame_work_us"]["mean"].as_f64().unwrap()));
        }
        assert!(by[0].0 < by[1].0 && by[1].0 < by[2].0, "{scene}: {by:?}");
        assert!(by[0].1 < by[1].1 && by[1].1 < by[2].1, "{scene}: {by:?}");
    }
}
