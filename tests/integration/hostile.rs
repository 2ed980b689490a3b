//! Thousands of valid-but-hostile scenes (`hostile/generate.rs`) with a fixed seed: each one
//! either fails to load with a located error, or runs frames with validation off and on
//! without a panic (a device error, deadlock or hang is a verdict, not a failure). The
//! cargo-fuzz target in `fuzz/` runs the same generator without end; a scene it or this test
//! ever found crashing is kept in `hostile/crashers/` and run by `crashers_stay_fixed`.

mod generate;

use std::panic::{AssertUnwindSafe, catch_unwind};

use fastframe::Runtime;
use generate::{Rng, scene};

/// Scenes per run of the test; a few seconds on two cores.
const SCENES: u64 = 3000;
/// Frames each loaded scene runs, once without validation and once with it.
const FRAMES: u64 = 6;

/// Loads `text` and runs it both ways. `Ok` with the load error if it did not load, `Err`
/// with what went wrong if anything panicked.
fn survive(text: &str, file: &str) -> Result<Option<String>, String> {
    let run = |validate: bool| {
        catch_unwind(AssertUnwindSafe(|| {
            let mut rt = match Runtime::from_str(text, file) {
                Ok(rt) => rt,
                Err(e) => return Some(e.to_string()),
            };
            rt.set_validation(validate);
            let _ = rt.run(FRAMES);
            None
        }))
        .map_err(|panic| {
            let what = (panic.downcast_ref::<String>().cloned())
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            format!("{file} (validation {validate}) panicked: {what}\n{text}")
        })
    };
    let refused = run(false)?;
    if refused.is_none() {
        run(true)?;
    }
    Ok(refused)
}

#[test]
fn hostile_scenes_load_or_fail_cleanly_and_run_without_panics() {
    let mut loaded = 0;
    let mut refusals = Vec::new();
    for seed in 0..SCENES {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let text = scene(&mut rng);
        match survive(&text, &format!("hostile-{seed}.ron")) {
            Ok(None) => loaded += 1,
            Ok(Some(refusal)) => refusals.push(refusal),
            Err(failure) => panic!("seed {seed}: {failure}"),
        }
    }
    // Every refusal is located, and the generator is only worth its time if a good share of
    // its scenes get past the loader into the runtime.
    for refusal in &refusals {
        let at = refusal.split(": ").next().unwrap_or_default();
        assert!(at.split(':').count() == 3, "not located: {refusal}");
    }
    assert!(
        loaded * 4 >= SCENES,
        "only {loaded} of {SCENES} scenes loaded; refusals such as:\n{}",
        refusals[..refusals.len().min(15)].join("\n")
    );
}

#[test]
fn crashers_stay_fixed() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/integration/hostile/crashers"
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    assert!(
        !files.is_empty(),
        "the crashers found so far are kept in {dir}"
    );
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if let Err(failure) = survive(&text, &path.display().to_string()) {
            panic!("{failure}");
        }
    }
}
