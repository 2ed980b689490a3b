//! Long runs of the bundled scenes under every rotation strategy, checked against the device's
//! own record of what it was asked to do (not against the runtime's intentions):
//! FS-5/RL-2 (wait on present before the first write, never after present), FS-9/RL-5..RL-7
//! (every write of a back buffer goes to the buffer at index 0), FN-1 (fences monotonic per
//! context, context in the top bits), FS-6 (every release completes, within frames in flight
//! + 1, and the device never had to refuse a destruction).

use fastframe::Runtime;
use fastframe::device::{Command, Device, FenceId, ObjectKey, Submitted};
use fastframe::model::{Rotation, Settings};
use fastframe::report::RunStats;
use hashbrown::{HashMap, HashSet};

const SCENES: [&str; 2] = ["scenes/render_loop.ron", "scenes/deferred.ron"];

fn run(scene: &str, rotation: Rotation, frames: u64) -> (Runtime, Vec<Submitted>) {
    let mut rt = Runtime::from_scene(scene).expect("scene loads");
    rt.settings_mut().rotation = Some(rotation);
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(frames)
        .unwrap_or_else(|e| panic!("{scene} with {rotation:?}: {e}"));
    let trace = rt.world.resource_mut::<Device>().trace.take().unwrap();
    (rt, trace)
}

fn check_swap_chain(scene: &str, trace: &[Submitted]) {
    let chain_buffers: HashSet<ObjectKey> = trace
        .iter()
        .flat_map(|s| s.back_buffers.iter().copied())
        .collect();
    // Per frame: buffers waited on so far, buffers presented so far.
    let mut waited: HashMap<u64, HashSet<ObjectKey>> = HashMap::new();
    let mut presented: HashMap<u64, HashSet<ObjectKey>> = HashMap::new();
    let mut writes = 0;
    for s in trace {
        match &s.command {
            Command::WaitOnPresent(b) => {
                assert!(
                    !presented.get(&s.frame).is_some_and(|p| p.contains(b)),
                    "{scene}: frame {} waits on present after presenting the buffer (RL-2)",
                    s.frame
                );
                waited.entry(s.frame).or_default().insert(*b);
            }
            Command::Present(_) => {
                presented
                    .entry(s.frame)
                    .or_default()
                    .extend(s.back_buffers.iter().copied());
            }
            _ => {}
        }
        for w in s.writes.iter().filter(|w| chain_buffers.contains(*w)) {
            writes += 1;
            assert!(
                s.back_buffers.contains(w),
                "{scene}: frame {} writes a swap-chain buffer that is not at index 0 (FS-9)",
                s.frame
            );
            assert!(
                waited.get(&s.frame).is_some_and(|set| set.contains(w)),
                "{scene}: frame {} writes the back buffer before waiting on present (FS-5)",
                s.frame
            );
        }
    }
    assert!(writes > 0, "{scene}: no back-buffer writes were seen");
}

fn check_fences(scene: &str, trace: &[Submitted]) {
    let mut last: HashMap<_, u64> = HashMap::new();
    let mut count = 0;
    for s in trace {
        if let Command::InsertFence { fence, .. } = s.command {
            count += 1;
            assert_eq!(
                fence.queue(),
                Some(s.queue),
                "{scene}: fence {fence} names another context (FN-1)"
            );
            let prev = last.insert(s.queue, fence.sequence()).unwrap_or(0);
            assert!(
                fence.sequence() > prev,
                "{scene}: fences on {} not monotonic (FN-1)",
                s.queue
            );
            assert_eq!(FenceId::new(s.queue, fence.sequence()), fence);
        }
    }
    assert!(count > 0);
}

#[test]
fn every_scene_and_rotation_runs_600_frames_correctly() {
    for scene in SCENES {
        for rotation in Rotation::ALL {
            let (mut rt, trace) = run(scene, rotation, 600);
            check_swap_chain(scene, &trace);
            check_fences(scene, &trace);
            let stats = rt.world.resource::<RunStats>().clone();
            assert_eq!(stats.frames, 600);
            assert_eq!(stats.presents, 600, "{scene}: one present per frame");
            assert_eq!(
                stats.releases_completed, stats.releases_requested,
                "{scene} {rotation:?}: every release completes"
            );
            let fif = rt.world.resource::<Settings>().frames_in_flight as u64;
            assert!(
                stats.release_latency_frames_max <= fif + 1,
                "{scene} {rotation:?}: a release took {} frames (limit {})",
                stats.release_latency_frames_max,
                fif + 1
            );
            // Replaced swap-chain buffers also wait for the display: at most one flip per
            // buffer queued behind them.
            let buffers = 3;
            assert!(stats.buffer_retire_latency_frames_max <= fif + 1 + buffers);
            let summary = rt.summary();
            assert_eq!(summary.validation_errors, 0);
        }
    }
}

#[test]
fn deferred_scene_exercises_the_timeline() {
    let (mut rt, trace) = run("scenes/deferred.ron", Rotation::SavedViews, 300);
    let stats = rt.world.resource::<RunStats>().clone();
    // Two resizes retire 3 buffers each, plus the splash texture.
    assert!(
        stats.releases_requested >= 7,
        "requested {}",
        stats.releases_requested
    );
    assert_eq!(stats.releases_pending, 0);
    // The splash pass stops drawing at frame 100.
    let splash = rt.world.resource_mut::<Device>().label("splash");
    assert!(trace.iter().any(|s| s.label == splash && s.frame == 99));
    assert!(!trace.iter().any(|s| s.label == splash && s.frame >= 100));
    // Three queues are used: graphics, async compute, DMA.
    let queues: HashSet<_> = trace.iter().map(|s| s.queue.family()).collect();
    assert_eq!(queues.len(), 3, "{queues:?}");
    assert!(rt.summary().validation_errors == 0);
}

#[test]
fn saved_views_recover_from_a_drifted_index() {
    use fastframe::model::BackBuffer;
    let mut rt = Runtime::from_scene("scenes/render_loop.ron").unwrap();
    rt.settings_mut().rotation = Some(Rotation::SavedViews);
    for _ in 0..5 {
        rt.tick().unwrap();
    }
    // Knock the title's index out of step, as a skipped frame would (RL-5).
    let mut q = rt.world.query::<&mut BackBuffer>();
    for mut b in q.iter_mut(&mut rt.world) {
        b.saved_index += 1;
    }
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    for _ in 0..5 {
        rt.tick().unwrap();
    }
    let trace = rt.world.resource_mut::<Device>().trace.take().unwrap();
    check_swap_chain("render_loop (drifted)", &trace);
    let recoveries: u64 = rt
        .world
        .query::<&BackBuffer>()
        .iter(&rt.world)
        .map(|b| b.recoveries)
        .sum();
    assert_eq!(recoveries, 1);
}
