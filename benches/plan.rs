//! Frame-graph scheduling at scale: compile (order, cull, queues, fences) and barrier planning
//! for generated graphs of 100, 1,000 and 10,000 passes. Reported per resource use.

use bevy_ecs::entity::Entity;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fastframe::barrier::{Layout, Sync};
use fastframe::model::TextureState;
use fastframe::model::{Lifetime, Pass, QueueKind, Settings, Use, UseAccess};
use fastframe::plan::barriers::EnhancedPlanner;
use fastframe::plan::{CompiledGraph, Compiler, TargetInfo, TextureStart, compile_graph};
use std::hint::black_box;

/// A chain of passes: each writes its own resource and reads the two written just before it,
/// on graphics mostly and on compute every fourth pass (so fences and handovers appear).
fn graph(passes: usize) -> (Vec<(Entity, String, Pass)>, usize) {
    let resources = passes + 2;
    let res = |i: usize| Entity::from_raw_u32((1_000_000 + i) as u32).expect("valid index");
    let mut out = Vec::with_capacity(passes);
    let mut uses = 0;
    for p in 0..passes {
        let queue = if p % 4 == 3 {
            QueueKind::Compute
        } else {
            QueueKind::Graphics
        };
        // Graphics passes shade in pixel shaders, as the draws these stand for would (a
        // dispatch's uses default to compute shading on any queue).
        let stages = (queue == QueueKind::Graphics).then_some(Sync::PIXEL_SHADING);
        let write = p % resources;
        let mut u = vec![Use {
            target: res(write),
            access: UseAccess::UnorderedAccess,
            stages,
            clear: false,
            range: None,
        }];
        for k in [1, 2] {
            if p >= k {
                let r = (p - k) % resources;
                if r != write {
                    u.push(Use {
                        target: res(r),
                        access: UseAccess::ShaderRead,
                        stages,
                        clear: false,
                        range: None,
                    });
                }
            }
        }
        uses += u.len();
        out.push((
            Entity::from_raw_u32(p as u32 + 1).expect("valid index"),
            format!("p{p}"),
            Pass::dispatch(queue, u, p as u32),
        ));
    }
    (out, uses)
}

fn plan(c: &mut Criterion) {
    let settings = Settings::default();
    let target = |_: Entity| TargetInfo::texture(Lifetime::Imported);
    let start = |_: Entity| TextureStart {
        state: TextureState::new(Layout::Common),
        transient: false,
        chain: false,
        compressible: false,
    };
    let mut group = c.benchmark_group("plan");
    for n in [100usize, 1_000, 10_000] {
        let (passes, uses) = graph(n);
        let refs: Vec<(Entity, &str, &Pass)> =
            passes.iter().map(|(e, s, p)| (*e, s.as_str(), p)).collect();
        group.throughput(Throughput::Elements(uses as u64));
        // As the runtime does: one compiler, its working memory and the graph it replaces
        // reused.
        group.bench_with_input(BenchmarkId::new("compile", n), &refs, |b, refs| {
            let (mut compiler, mut out) = (Compiler::default(), CompiledGraph::default());
            b.iter(|| {
                (compiler.compile_into(refs, target, &settings, &mut out)).expect("compiles");
                black_box(&out);
            })
        });
        let compiled = compile_graph(&refs, target, &settings).expect("compiles");
        // As the runtime does: one planner, its working memory and the plan it replaces
        // reused; as shipped (two threads from 3,200 uses) and on the calling thread alone.
        let planners = [
            ("enhanced_barriers", EnhancedPlanner::default()),
            (
                "enhanced_barriers_one_thread",
                EnhancedPlanner::on_one_thread(),
            ),
        ];
        for (name, mut planner) in planners {
            group.bench_with_input(BenchmarkId::new(name, n), &compiled, |b, compiled| {
                let mut out = Default::default();
                b.iter(|| {
                    planner.plan_into(compiled, start, &mut out).expect("plans");
                    black_box(&out);
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, plan);
criterion_main!(benches);
