//! The whole scheduling pipeline on generated graphs ([`fastframe::generator`]), beside a
//! peer measured in the same run: fastframe's compile (order, cull, queues, fences) plus its
//! enhanced barrier plan on one thread, against kael_render_graph 0.2 building and compiling
//! the same graph (one queue, read-after-write barriers only: less work than fastframe does,
//! which is what makes it a hard baseline).
//!
//! Groups `pipeline_chain`, `pipeline_mixed`, `pipeline_layered`, `pipeline_fan_in`; functions
//! `fastframe` and `kael`, and `alias` and `hand_over`: transient placement (`plan::alias`)
//! and the barriers that hand the placed bytes over (`plan::alias::hand_over`), on the same
//! shape compiled with half its textures transient, of mixed sizes, to hold them to the
//! compiler's cost per use; the pass count is the parameter (100 to 100,000). Throughput is in
//! resource uses, so criterion reports time per use. One shape alone:
//! `cargo bench --bench pipeline -- pipeline_chain/`.

use bevy_ecs::entity::Entity;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fastframe::barrier::Layout;
use fastframe::generator::{GenGraph, GenSpec, Shape, graph};
use fastframe::model::{Lifetime, Pass, Settings, TextureState};
use fastframe::plan::alias::HandOver;
use fastframe::plan::barriers::EnhancedPlanner;
use fastframe::plan::{AliasPlan, Aliaser, BarrierPlan, CompiledGraph, Compiler, TextureStart};
use kael_render_graph::{PassDesc, RenderGraph, ResourceDesc};
use std::hint::black_box;

/// kael's graph of the same passes, built and compiled.
fn kael(g: &GenGraph) -> kael_render_graph::CompiledGraph {
    let mut graph = RenderGraph::new();
    let textures: Vec<_> = (0..g.reads.len())
        .map(|i| {
            let desc = match g.transient[i] {
                true => ResourceDesc::transient_texture(format!("t{i}")),
                false => ResourceDesc::imported_texture(format!("t{i}")),
            };
            graph.add_resource(desc)
        })
        .collect();
    for (i, reads) in g.reads.iter().enumerate() {
        let mut pass = PassDesc::new(format!("p{i}")).write(textures[i]);
        for &j in reads {
            pass = pass.read(textures[j]);
        }
        graph.add_pass(pass);
    }
    graph.compile().expect("kael compiles the graph")
}

fn pipeline(c: &mut Criterion) {
    let settings = Settings::default();
    let shapes = [
        (Shape::Chain, "pipeline_chain"),
        (Shape::Mixed, "pipeline_mixed"),
        (Shape::Layered, "pipeline_layered"),
        (Shape::FanIn, "pipeline_fan_in"),
    ];
    for (shape, group_name) in shapes {
        let mut group = c.benchmark_group(group_name);
        for n in [100usize, 1_000, 10_000, 100_000] {
            if n >= 10_000 {
                group.sample_size(10);
            }
            let spec = GenSpec {
                shape,
                passes: n,
                seed: 1,
                compute: shape.default_compute(),
                transient: 0.0,
                mixed_sizes: false,
            };
            let g = graph(&spec);
            group.throughput(Throughput::Elements(g.uses() as u64));
            let owned = g.passes();
            let refs: Vec<(Entity, &str, &Pass)> =
                owned.iter().map(|(e, s, p)| (*e, s.as_str(), p)).collect();
            let target = |e: Entity| g.target(e);
            let start = |e: Entity| TextureStart {
                state: TextureState::new(Layout::Common),
                transient: g.lifetime(e) == Lifetime::Transient,
                chain: false,
                compressible: false,
            };
            // As the runtime does: one compiler and one planner, their working memory and the
            // graph and plan they replace reused.
            let mut planner = EnhancedPlanner::on_one_thread();
            let mut plan = BarrierPlan::default();
            let (mut compiler, mut compiled) = (Compiler::default(), CompiledGraph::default());
            group.bench_with_input(BenchmarkId::new("fastframe", n), &refs, |b, refs| {
                b.iter(|| {
                    (compiler.compile_into(refs, target, &settings, &mut compiled))
                        .expect("compiles");
                    planner
                        .plan_into(&compiled, start, &mut plan)
                        .expect("plans");
                    black_box(&plan);
                })
            });
            group.bench_with_input(BenchmarkId::new("kael", n), &g, |b, g| {
                b.iter(|| black_box(kael(g)))
            });
            alias(&mut group, &spec, &settings);
        }
        group.finish();
    }
}

/// Transient memory on `spec`'s shape with half its textures transient and of mixed sizes,
/// warm, throughput in that graph's uses: `alias`, the placement alone, and `hand_over`, the
/// activations and deactivations it adds to every frame of the graph's barrier plan, as the
/// runtime adds them after each plan (to a copy of the plan made outside the measurement).
fn alias(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    spec: &GenSpec,
    settings: &Settings,
) {
    let spec = GenSpec {
        transient: 0.5,
        mixed_sizes: true,
        ..*spec
    };
    let g = graph(&spec);
    let owned = g.passes();
    let refs: Vec<(Entity, &str, &Pass)> =
        owned.iter().map(|(e, s, p)| (*e, s.as_str(), p)).collect();
    let mut compiled = CompiledGraph::default();
    (Compiler::default().compile_into(&refs, |e| g.target(e), settings, &mut compiled))
        .expect("compiles");
    let bytes = |e: Entity| g.transient_bytes(e);
    let (mut aliaser, mut plan) = (Aliaser::default(), AliasPlan::default());
    group.throughput(Throughput::Elements(compiled.resources.uses() as u64));
    group.bench_function(BenchmarkId::new("alias", spec.passes), |b| {
        b.iter(|| {
            aliaser.place_into(&compiled, bytes, &mut plan);
            black_box(&plan);
        })
    });
    let start = |e: Entity| TextureStart {
        state: TextureState::new(Layout::Common),
        transient: g.lifetime(e) == Lifetime::Transient,
        chain: false,
        compressible: false,
    };
    // Placed here too: a filter may skip `alias` above, which would leave the plan empty.
    aliaser.place_into(&compiled, bytes, &mut plan);
    assert!(
        plan.peak_bytes < plan.unaliased_bytes,
        "transients share bytes"
    );
    let mut barriers = BarrierPlan::default();
    (EnhancedPlanner::on_one_thread().plan_into(&compiled, start, &mut barriers)).expect("plans");
    // Warm, as the runtime keeps it.
    let mut hand_over = HandOver::default();
    group.bench_function(BenchmarkId::new("hand_over", spec.passes), |b| {
        b.iter_batched_ref(
            || barriers.clone(),
            |frames| {
                hand_over.prepare(&compiled, &plan);
                for f in &mut frames.frames {
                    hand_over.apply(&compiled, &plan, f);
                }
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
