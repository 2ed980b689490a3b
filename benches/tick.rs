//! Steady-state tick of each bundled scene: the whole frame schedule (timeline, retire,
//! acquire, rotation, cached compile and barriers, recording, submission, present, release,
//! GPU simulation, report), with validation off and on. And the first and steady ticks of
//! generated chains of 1,000 and 10,000 passes, which must grow linearly with the passes
//! (issue 22: the first tick was quadratic). A chain of 100,000 passes is measured by hand:
//! `fastframe run chain.ron --frames 1 --json`, key `cpu.tick_us`.

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

/// A chain of `n` passes: pass `i` renders into texture `i` and samples texture `i - 1`; the
/// last renders into the back buffer.
fn chain(n: usize) -> String {
    let mut text = String::from(
        "Scene(entities: [(name: \"sc\", swap_chain: (buffers: 2, format: Bgra8Unorm, \
         extent: (64, 64))),\n",
    );
    for i in 0..n {
        text += &format!(
            "(name: \"t{i}\", texture: (format: Rgba8Unorm, extent: (64, 64), \
             flags: (render_target: true))),\n"
        );
    }
    for i in 0..n {
        let target = if i + 1 == n {
            "sc".to_owned()
        } else {
            format!("t{i}")
        };
        let read = match i {
            0 => String::new(),
            _ => format!(", (target: \"t{}\", access: ShaderRead)", i - 1),
        };
        text += &format!(
            "(name: \"p{i}\", pass: (uses: [(target: \"{target}\", access: RenderTarget){read}], \
             work: Draw(draws: 1, vertices: 3, pixels: 4096))),\n"
        );
    }
    text + "])"
}

fn chains(c: &mut Criterion) {
    let mut group = c.benchmark_group("chain");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let text = chain(n);
        let load = || Runtime::from_str(&text, "chain.ron").expect("the chain loads");
        group.bench_function(format!("first_tick/{n}"), |b| {
            b.iter_batched(
                load,
                |mut rt| black_box(rt.tick()).expect("tick"),
                criterion::BatchSize::PerIteration,
            )
        });
        let mut rt = load();
        for _ in 0..4 {
            rt.tick().expect("tick");
        }
        group.bench_function(format!("steady_tick/{n}"), |b| {
            b.iter(|| black_box(rt.tick()).expect("tick"))
        });
    }
    group.finish();
}

/// Validation overhead of a tick, validated against not, in the same run: each scene's two
/// runtimes tick in alternating batches (so drift on a shared machine hits both alike), and
/// the best batch of each is compared. The validated tick must stay under 3x the plain one
/// (issue 17); the bench fails otherwise. The criterion entries measure the same ticks.
fn validation_overhead(c: &mut Criterion) {
    const LIMIT: f64 = 3.0;
    let mut group = c.benchmark_group("validation_overhead");
    for (name, path) in [
        ("deferred", "scenes/deferred.ron"),
        ("nbody_port", "scenes/ports/d3d12_nbody_gravity.ron"),
        (
            "execute_indirect_port",
            "scenes/ports/d3d12_execute_indirect.ron",
        ),
    ] {
        let mut plain = warmed(path, false);
        let mut checked = warmed(path, true);
        let mut best = [f64::MAX; 2];
        for _ in 0..20 {
            for (i, rt) in [&mut plain, &mut checked].into_iter().enumerate() {
                let start = std::time::Instant::now();
                for _ in 0..50 {
                    black_box(rt.tick()).expect("tick");
                }
                best[i] = best[i].min(start.elapsed().as_secs_f64());
            }
        }
        let ratio = best[1] / best[0];
        println!("validation_overhead/{name}: {ratio:.2}x (limit {LIMIT}x)");
        assert!(ratio < LIMIT, "{name}: validation costs {ratio:.2}x a tick");
        group.bench_function(format!("{name}/plain"), |b| {
            b.iter(|| black_box(plain.tick()).expect("tick"))
        });
        group.bench_function(format!("{name}/validated"), |b| {
            b.iter(|| black_box(checked.tick()).expect("tick"))
        });
    }
    group.finish();
}

criterion_group!(benches, tick, chains, validation_overhead);
criterion_main!(benches);
