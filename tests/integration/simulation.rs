//! The simulation at scale: asynchronous compute on `scenes/deferred.ron` (the frame
//! is shorter with it on, and the gain is reported), Suspend and Resume from a scene's
//! timeline (CC-8, FS-11), device profiles chosen by name, and determinism of the simulation
//! against a committed snapshot of every record of a fixed workload
//! (`tests/data/snapshots/`), checked by every build profile. The analytic cases are in
//! `timing.rs`.

use crate::common::snapshot::assert_snapshot;
use crate::common::{fence, global};
use fastframe::barrier::{Access, Sync};
use fastframe::device::*;
use fastframe::model::{Buffer, BufferUsage};
use fastframe::prelude::Runtime;

const GFX: QueueId = QueueId::Graphics;
const PIPE0: QueueId = QueueId::Compute { pipe: 0, index: 0 };
const PIPE1: QueueId = QueueId::Compute { pipe: 1, index: 0 };
const DMA: QueueId = QueueId::Dma { engine: 0 };

fn dispatch(threads: u64) -> Command {
    Command::Dispatch {
        dispatches: 1,
        threads,
    }
}

fn buffer(d: &mut Device, name: &str) -> ObjectKey {
    let b = Buffer {
        size: 1 << 20,
        usage: BufferUsage::Default,
        unordered_access: false,
    };
    d.create(name, ObjectDesc::Buffer(b)).unwrap()
}

fn deferred(async_compute: bool) -> fastframe::report::Summary {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("scene loads");
    rt.settings_mut().async_compute = async_compute;
    rt.run(40).expect("runs");
    rt.summary()
}

#[test]
fn async_compute_shortens_the_deferred_frame() {
    let (on, off) = (deferred(true), deferred(false));
    let gain = on.compare(&off);
    println!("async compute on deferred.ron: {gain}");
    let gain_us = gain["gain_us"].as_f64().unwrap();
    assert!(gain_us > 0.0, "{gain}");
    // The gain comes from SSAO overlapping graphics.
    assert!(on.gpu_frames().overlap_us > 0.0);
    assert_eq!(off.gpu_frames().overlap_us, 0.0);
}

/// Every record of a fixed workload, a line each, in a canonical order (records finishing at
/// the same instant on different queues may be emitted in any order): a changed line means
/// the simulation computed a different time somewhere, and says which and where.
fn table(records: &[Executed]) -> String {
    let mut sorted: Vec<&Executed> = records.iter().collect();
    sorted.sort_by_key(|x| (x.queue, x.frame, x.issue_ns, x.start_ns, x.end_ns, x.name));
    let mut out = String::from(
        "# Every command the simulated device executed for the fixed workload of\n\
         # tests/integration/simulation.rs, ordered by queue, frame, issue, start, end and name.\n\
         # Times in ns; stall: why it started late, for stall_ns.\n",
    );
    // Text to the left, numbers to the right. (`QueueId` and `Stall` print unpadded: they
    // are made strings first.)
    macro_rules! row {
        ($($cell:expr),* $(,)?) => {
            format!(
                "{:<10} {:>5} {:>5} {:<12} {:>10} {:>10} {:>10} {:<7} {:>8} {:>8} {:>10} {:>8}\n",
                $($cell),*
            )
        };
    }
    out += &row!(
        "queue",
        "frame",
        "label",
        "name",
        "issue",
        "start",
        "end",
        "stall",
        "stall_ns",
        "cache",
        "decompress",
        "path",
    );
    for x in sorted {
        out += &row!(
            x.queue.to_string(),
            x.frame,
            x.label,
            x.name,
            x.issue_ns,
            x.start_ns,
            x.end_ns,
            format!("{:?}", x.stall),
            x.stall_ns,
            x.cache_ns,
            x.decompress_ns,
            x.path_ns,
        );
    }
    out
}

/// A few hundred work items across graphics, both compute pipes and DMA, with barriers and
/// fences between them, on the 2020-class profile.
fn workload() -> Vec<Executed> {
    let mut d = Device::default();
    let (a, b) = (buffer(&mut d, "a"), buffer(&mut d, "b"));
    let full = global(Sync::ALL, Sync::ALL, (Access::COMMON, Access::COMMON));
    for frame in 0..20u64 {
        let t = frame * 1_000_000;
        let (fg, ig) = fence(&mut d, GFX);
        let mut g = vec![];
        for i in 0..8 {
            g.push(full.clone());
            g.push(Command::Draw {
                draws: 10 + i,
                vertices: 50_000 * (i as u64 + 1),
                pixels: 200_000,
            });
        }
        g.push(ig);
        d.submit(GFX, frame, 1, g, t).unwrap();
        for (q, n) in [(PIPE0, 3u64), (PIPE1, 2)] {
            let (_, insert) = fence(&mut d, q);
            let mut c = vec![Command::WaitFence(fg)];
            for i in 0..n {
                c.push(dispatch(100_000 * (i + 1)));
            }
            c.push(insert);
            d.submit(q, frame, 2, c, t + 1000).unwrap();
        }
        let (_, insert) = fence(&mut d, DMA);
        let copy = Command::CopyResource {
            src: a,
            dst: b,
            bytes: 1 << 16,
        };
        d.submit(DMA, frame, 3, [copy, insert], t).unwrap();
    }
    d.run_until_idle();
    d.drain_executed()
}

#[test]
fn the_simulation_is_deterministic_across_runs_and_builds() {
    let (x, y) = (workload(), workload());
    assert_eq!(x, y);
    assert!(x.len() > 500);
    // Checked by every build profile (`cargo test` and `cargo test --release`): the model is
    // integer arithmetic only, so any difference between debug and release builds, or
    // between machines, would show here.
    assert_snapshot(SNAPSHOT, &table(&x));
}

/// The workload's records as `table` writes them.
const SNAPSHOT: &str = "tests/data/snapshots/simulation_workload.txt";

fn deferred_with(settings: &str, timeline: &str) -> String {
    let text = std::fs::read_to_string("scenes/deferred.ron").expect("bundled scene");
    text.replace("settings: (", &format!("settings: ({settings}"))
        .replace("timeline: [", &format!("timeline: [\n        {timeline}"))
}

#[test]
fn a_scene_suspends_and_resumes_on_its_timeline() {
    let text = deferred_with("", "(frame: 5, event: Suspend(frames: 30)),");
    // The event survives a save and a load (the scene format round-trips).
    let mut world = bevy_ecs::world::World::new();
    fastframe::scene::load_str(&text, "suspend.ron", &mut world).expect("loads");
    let saved = fastframe::scene::to_ron(&fastframe::scene::save(&world));
    assert!(saved.contains("Suspend(frames: 30)"), "{saved}");
    let mut rt = Runtime::from_str(&text, "suspend.ron").expect("loads");
    rt.world
        .resource_mut::<fastframe::report::RunStats>()
        .keep_timeline = true;
    rt.run(10).expect("runs");
    let s = rt.summary();
    let tl = &s.stats.timeline;
    let suspend = tl.iter().find(|x| x.name == "Suspend").expect("suspended");
    let resume = tl.iter().find(|x| x.name == "Resume").expect("resumed");
    // Resume waited for the CPU, which was away for 30 refreshes (the GPU was a frame or two
    // behind when Suspend reached it).
    let vsync = rt.device().profile.vsync_period_ns;
    assert_eq!(resume.stall, Stall::Submit);
    assert!(resume.start_ns > suspend.end_ns + 25 * vsync);
    // CC-8: nothing was issued on compute or DMA while suspended...
    let locked = |x: &&Executed| {
        !matches!(x.queue, QueueId::Graphics)
            && x.issue_ns > suspend.issue_ns
            && x.issue_ns < resume.start_ns
    };
    assert_eq!(tl.iter().filter(locked).count(), 0);
    // ... and frames went on afterwards, each setting its state again (FS-11, FS-12).
    assert!(tl.iter().any(|x| x.frame == 9 && x.name == "Dispatch"));
}

#[test]
fn profiles_are_chosen_by_name_and_unknown_names_are_refused() {
    let text = deferred_with("profile: \"console-2013\", ", "");
    let mut rt = Runtime::from_str(&text, "old.ron").expect("loads");
    rt.run(2).expect("runs");
    assert_eq!(rt.device().profile.compute_units, 12);
    assert_eq!(rt.summary().to_json()["gpu"]["profile"], "console-2013");
    let text = deferred_with("profile: \"console-2031\", ", "");
    let err = Runtime::from_str(&text, "new.ron")
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("unknown device profile \"console-2031\""),
        "{err}"
    );
    assert!(err.contains("console-2013, console-2020"), "{err}");
    let text = deferred_with("", "").replace("compute_cu_limit: 52", "compute_cu_limit: 0");
    let err = Runtime::from_str(&text, "narrow.ron")
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("compute_cu_limit must be 1 to 256"), "{err}");
}
