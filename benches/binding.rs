//! Fast resource binding (RB-1, RB-2) against per-slot binding on `scenes/deferred.ron`, by
//! `settings.binding`: `batches` (a batch per pass, copied inline each frame), `calls`
//! (SetFastResources written each frame) and `per-slot` (the legacy calls).
//!
//! The saving is simulated, so the groups report simulated time per frame through
//! `iter_custom` (deterministic: criterion's spread is zero): `binding/front_end` is the time
//! the GPU front end spent on binding calls, `binding/cpu_record` the CPU time recording the
//! frame's lists took (CTX-7). `binding/tick` is the host's wall-clock tick, for the runtime's
//! own cost of each mode. Binding calls and dwords per frame are printed before the groups.

use criterion::{Criterion, criterion_group, criterion_main};
use fastframe::Runtime;
use fastframe::model::BindingMode;
use fastframe::report::RunStats;
use std::hint::black_box;
use std::time::Duration;

const MODES: [(&str, BindingMode); 3] = [
    ("batches", BindingMode::Batches),
    ("calls", BindingMode::Calls),
    ("per-slot", BindingMode::PerSlot),
];

fn warmed(binding: BindingMode) -> Runtime {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("bundled scene loads");
    rt.settings_mut().binding = binding;
    // Past the first frames (compile, first barrier plans, batches built) into the steady
    // state.
    for _ in 0..16 {
        rt.tick().expect("tick");
    }
    rt
}

/// Simulated time per tick that `of` reads from the statistics, over `iters` ticks.
fn simulated(rt: &mut Runtime, iters: u64, of: fn(&RunStats) -> u64) -> Duration {
    let before = of(rt.world.resource::<RunStats>());
    for _ in 0..iters {
        black_box(rt.tick()).expect("tick");
    }
    Duration::from_nanos(of(rt.world.resource::<RunStats>()) - before)
}

fn binding(c: &mut Criterion) {
    for (name, mode) in MODES {
        let mut rt = warmed(mode);
        let frames = 200;
        let s0 = rt.world.resource::<RunStats>().binding;
        for _ in 0..frames {
            rt.tick().expect("tick");
        }
        let s = rt.world.resource::<RunStats>();
        eprintln!(
            "binding {name:>8}: {:.1} calls, {:.1} dwords per frame",
            (s.binding.calls - s0.calls) as f64 / frames as f64,
            (s.binding.dwords - s0.dwords) as f64 / frames as f64,
        );
    }
    let mut group = c.benchmark_group("binding");
    for (name, mode) in MODES {
        let mut rt = warmed(mode);
        group.bench_function(format!("front_end/{name}"), |b| {
            b.iter_custom(|iters| simulated(&mut rt, iters, |s| s.binding_front_ns))
        });
        group.bench_function(format!("cpu_record/{name}"), |b| {
            b.iter_custom(|iters| simulated(&mut rt, iters, |s| s.cpu_record_ns))
        });
        group.bench_function(format!("tick/{name}"), |b| {
            b.iter(|| black_box(rt.tick()).expect("tick"))
        });
    }
    group.finish();
}

criterion_group!(benches, binding);
criterion_main!(benches);
