//! Generated frame graphs (`fastframe gen`, [`fastframe::generator`]): every shape, with
//! async compute and transients, writes a scene that loads, runs and validates clean, and the
//! command line writes the same scene the library generates.

use fastframe::Runtime;
use fastframe::generator::{GenSpec, Shape, generate};
use fastframe::model::BarrierMode;
use fastframe::plan::alias::ALIAS_ALIGNMENT;

fn spec(shape: Shape, passes: usize) -> GenSpec {
    GenSpec {
        shape,
        passes,
        seed: 3,
        compute: shape.default_compute().max(0.2),
        transient: 0.3,
        mixed_sizes: false,
    }
}

/// Check `spec`'s scene for a few frames with validation on; the diagnostics found.
fn check(spec: &GenSpec, barriers: BarrierMode, async_compute: bool) -> Vec<String> {
    let text = fastframe::scene::to_ron(&generate(spec));
    let mut rt = Runtime::from_str(&text, "generated.ron").expect("a generated scene loads");
    rt.set_validation(true);
    rt.settings_mut().barriers = barriers;
    rt.settings_mut().async_compute = async_compute;
    rt.run(6).expect("runs");
    rt.diagnostics().iter().map(|d| d.to_string()).collect()
}

/// Enhanced and conservative barriers with async compute on and off, legacy barriers with
/// every pass on graphics. (Legacy states with async compute cannot yet hand a compute
/// queue's UAV write to readers on both queues: the combined read state names
/// PIXEL_SHADER_RESOURCE, which a compute queue cannot transition to.)
#[test]
fn every_shape_validates_clean() {
    let runs = [
        (BarrierMode::Enhanced, true),
        (BarrierMode::Enhanced, false),
        (BarrierMode::Conservative, true),
        (BarrierMode::Conservative, false),
        (BarrierMode::Legacy, false),
    ];
    for (shape, name) in Shape::ALL {
        for (barriers, async_compute) in runs {
            let found = check(&spec(shape, 120), barriers, async_compute);
            assert!(
                found.is_empty(),
                "{name}, {barriers:?}, async {async_compute}: {found:#?}"
            );
        }
    }
}

#[test]
fn the_command_line_writes_the_generated_scene() {
    let out = std::env::temp_dir().join(format!("fastframe-gen-{}.ron", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(["gen", "--shape", "layered", "--passes", "64", "--seed", "3"])
        .args(["--compute", "0.25", "--transient", "0.3", "-o"])
        .arg(&out)
        .status()
        .expect("runs");
    assert!(status.success());
    let written = std::fs::read_to_string(&out).expect("written");
    let _ = std::fs::remove_file(&out);
    assert_eq!(
        written,
        fastframe::scene::to_ron(&generate(&spec(Shape::Layered, 64)))
    );
}

#[test]
fn the_command_line_refuses_numbers_it_cannot_generate() {
    for args in [
        &["--passes", "0"][..],
        &["--compute", "1.5"],
        &["--transient", "-0.1"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args(["gen", "--shape", "chain"])
            .args(args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error:"),
            "{args:?}"
        );
    }
}

/// The run summary's transient figures on a generated chain with mixed sizes, against sums
/// taken from the scene itself: in a chain, texture `i` is used by passes `i` to `i + 2`
/// (the last eight also by the composite), so the lower bound is the most transient bytes
/// among those windows, and unaliased is every transient's bytes (each at its placed size,
/// rounded up to the heap alignment). Aliasing packs the chain
/// into its lower bound, a tenth of unaliased or less.
#[test]
fn the_summary_reports_transient_memory_from_the_aliasing_plan() {
    let spec = GenSpec {
        transient: 0.5,
        mixed_sizes: true,
        ..spec(Shape::Chain, 200)
    };
    let scene = generate(&spec);
    let text = fastframe::scene::to_ron(&scene);
    let mut rt = Runtime::from_str(&text, "generated.ron").expect("a generated scene loads");
    rt.run(2).expect("runs");
    let stats = rt.world.resource::<fastframe::report::RunStats>();
    let transient: Vec<u64> = (scene.entities.iter())
        .filter(|e| e.name.starts_with('t'))
        .map(|e| match (&e.texture, e.lifetime) {
            (Some(t), Some(fastframe::model::Lifetime::Transient)) => {
                t.bytes().div_ceil(ALIAS_ALIGNMENT) * ALIAS_ALIGNMENT
            }
            _ => 0,
        })
        .collect();
    let n = transient.len();
    let last = |i: usize| if i + 8 >= n { n } else { (i + 2).min(n - 1) };
    let lower = (0..=n)
        .map(|p| {
            (0..n)
                .filter(|&i| i <= p && p <= last(i))
                .map(|i| transient[i])
                .sum()
        })
        .max()
        .unwrap_or(0);
    assert_eq!(
        stats.transient_unaliased_bytes,
        transient.iter().sum::<u64>()
    );
    assert_eq!(stats.transient_lower_bound_bytes, lower);
    assert!(stats.transient_peak_bytes >= lower);
    assert!(
        stats.transient_peak_bytes * 10 <= stats.transient_unaliased_bytes,
        "aliased {} of {} unaliased",
        stats.transient_peak_bytes,
        stats.transient_unaliased_bytes
    );
    assert!(stats.transient_peak_bytes as f64 <= 1.05 * lower as f64);
}

/// Aliasing never costs memory: on every bundled scene with transients the shared heap is at
/// most what the transients take side by side, and at least the lower bound. `render_loop.ron`
/// (one transient) once reported a heap larger than its unaliased bytes, because only the
/// heap counted alignment.
#[test]
fn aliasing_never_costs_more_than_unaliased_on_bundled_scenes() {
    let mut checked = 0;
    for dir in ["scenes", "scenes/real"] {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("bundled scenes")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        paths.sort();
        for path in paths {
            let mut rt = Runtime::from_scene(&path).expect("a bundled scene loads");
            rt.run(2).expect("runs");
            let s = rt.world.resource::<fastframe::report::RunStats>();
            if s.transient_unaliased_bytes == 0 {
                continue;
            }
            checked += 1;
            let name = path.display();
            assert!(
                s.transient_peak_bytes <= s.transient_unaliased_bytes,
                "{name}: aliased {} > unaliased {}",
                s.transient_peak_bytes,
                s.transient_unaliased_bytes
            );
            assert!(
                s.transient_lower_bound_bytes <= s.transient_peak_bytes,
                "{name}"
            );
            assert_eq!(s.transient_unaliased_bytes % ALIAS_ALIGNMENT, 0, "{name}");
        }
    }
    assert!(
        checked >= 3,
        "only {checked} bundled scenes have transients"
    );
}
