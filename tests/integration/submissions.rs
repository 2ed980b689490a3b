//! Every stream the runtime gives the device reaches the validation layer first (RL-4): the
//! device counts the submissions and destructions it is asked for, the validator counts what
//! it was shown, and the two must agree on every bundled scene, with validation on and off,
//! including the streams no pass records (Suspend and Resume, presents, end-of-frame fences,
//! releases, scripts).

use fastframe::prelude::Runtime;
use fastframe::validate::Validator;

/// Run `rt` for `frames` frames (an error ends it early, which is fine here) and compare what
/// the device was asked with what the validator saw.
fn assert_all_seen(mut rt: Runtime, frames: u64, what: &str) -> fastframe::device::DeviceCalls {
    let _ = rt.run(frames);
    let asked = rt.device().calls();
    let seen = rt.world.resource::<Validator>().seen();
    assert_eq!(
        asked, seen,
        "{what}: the device got calls the validator never saw"
    );
    asked
}

fn scenes() -> Vec<std::path::PathBuf> {
    let mut all = Vec::new();
    for dir in ["scenes", "scenes/mistakes", "scenes/warnings", "tests/data"] {
        for entry in std::fs::read_dir(dir).expect("scene folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|x| x == "ron") {
                all.push(path);
            }
        }
    }
    all.sort();
    all
}

#[test]
fn every_submission_of_every_bundled_scene_reaches_the_validator() {
    let mut scenes_run = 0;
    for path in scenes() {
        for validate in [true, false] {
            let Ok(mut rt) = Runtime::from_scene(&path) else {
                continue;
            };
            rt.set_validation(validate);
            let calls =
                assert_all_seen(rt, 12, &format!("{} (validate {validate})", path.display()));
            assert!(
                calls.submissions > 0,
                "{}: nothing submitted",
                path.display()
            );
        }
        scenes_run += 1;
    }
    assert!(scenes_run >= 10, "only {scenes_run} scenes ran");
}

fn deferred_with(timeline: &str) -> String {
    let text = std::fs::read_to_string("scenes/deferred.ron").expect("bundled scene");
    text.replace("timeline: [", &format!("timeline: [\n        {timeline}"))
}

/// Suspend and Resume are submitted by the timeline, not by a pass: two more submissions,
/// both shown to the validator. A timeline release reaches it too.
#[test]
fn suspend_resume_and_releases_reach_the_validator() {
    let run = |timeline: &str| {
        // The scene releases splash_logo at frame 101; a second release is a load error, so
        // the early one below replaces it.
        let text =
            deferred_with(timeline).replace("(frame: 101, event: Release(\"splash_logo\")),", "");
        let mut rt = Runtime::from_str(&text, "deferred.ron").expect("loads");
        rt.set_validation(true);
        assert_all_seen(rt, 10, timeline)
    };
    let plain = run("");
    let suspended = run("(frame: 5, event: Suspend(frames: 3)),");
    assert_eq!(suspended.submissions, plain.submissions + 2);
    let released =
        run("(frame: 3, event: Disable(\"splash\")), (frame: 4, event: Release(\"splash_logo\")),");
    assert!(
        released.destructions > plain.destructions,
        "{released:?} vs {plain:?}"
    );
}
