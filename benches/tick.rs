//! Steady-state tick of each bundled scene: the whole frame schedule (timeline, retire,
//! acquire, rotation, cached compile and barriers, recording, submission, present, release,
//! GPU simulation, report), with validation off and on.

use criterion::{Criterion, criterion_group, criterion_main};
use fastframe::Runtime;
use std::hint::black_box;

fn warmed(scene: &str, validation: bool) -> Runtime {
    let mut rt = Runtime::from_scene(scene).expect("bundled scene loads");
    rt.set_validation(validation);
    // Past the first frames (compile, first barrier plans) into the steady state.
    for _ in 0..16 {
        rt.tick().expect("tick");
    }
    rt
}

fn tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("tick");
    for (name, path) in [
        ("render_loop", "scenes/render_loop.ron"),
        ("deferred", "scenes/deferred.ron"),
    ] {
        for validation in [false, true] {
            let mut rt = warmed(path, validation);
            let id = if validation {
                format!("{name}+validation")
            } else {
                name.to_owned()
            };
            group.bench_function(id, |b| b.iter(|| black_box(rt.tick()).expect("tick")));
        }
    }
    group.finish();
}

criterion_group!(benches, tick);
criterion_main!(benches);
