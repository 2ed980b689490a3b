//! The simulated GPU on its own: frames of 100, 1,000 and 10,000 work items submitted to a
//! device and simulated to the end (submission, the discrete-event simulation, and draining
//! the per-command records), frame after frame on the same device as the runtime does; building
//! the command lists is not timed. Throughput is in simulated commands; the target is at least
//! 5 million per second on one core, with cost linear in commands.
//!
//! The frame mixes what the runtime emits: on graphics, a barrier and a pipeline state before
//! every draw; two compute queues (one per pipe) whose dispatches wait on graphics fences; a
//! DMA engine copying; a fence every sixteen work items on each queue.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fastframe::barrier::{Access, BarrierGroup, GlobalBarrier, Sync};
use fastframe::device::{Command, Device, ObjectDesc, ObjectKey, QueueId};
use fastframe::model::{Buffer, BufferUsage};
use std::hint::black_box;
use std::time::{Duration, Instant};

const GFX: QueueId = QueueId::Graphics;
const QUEUES: [QueueId; 4] = [
    GFX,
    QueueId::Compute { pipe: 0, index: 0 },
    QueueId::Compute { pipe: 1, index: 0 },
    QueueId::Dma { engine: 0 },
];

/// Two buffers for the DMA copies.
fn buffers(d: &mut Device) -> (ObjectKey, ObjectKey) {
    let buf = || {
        ObjectDesc::Buffer(Buffer {
            size: 1 << 16,
            usage: BufferUsage::Default,
            unordered_access: false,
        })
    };
    (d.create("a", buf()).unwrap(), d.create("b", buf()).unwrap())
}

/// Per queue, the commands of one frame of `items` work items on `d`; and their count.
fn frame(
    d: &mut Device,
    (a, b): (ObjectKey, ObjectKey),
    items: usize,
) -> (Vec<(QueueId, Vec<Command>)>, usize) {
    let barrier = |sync: Sync| {
        let mut g = BarrierGroup::default();
        g.global.push(GlobalBarrier {
            sync_before: sync,
            sync_after: sync,
            access_before: Access::UNORDERED_ACCESS,
            access_after: Access::SHADER_RESOURCE,
        });
        Command::Barrier(g)
    };
    let mut streams: Vec<(QueueId, Vec<Command>)> =
        QUEUES.iter().map(|&q| (q, Vec::new())).collect();
    let mut last_gfx_fence = None;
    for i in 0..items {
        // Six in ten items on graphics, three on compute, one on DMA.
        let slot = match i % 10 {
            0..=5 => 0,
            6 | 7 => 1,
            8 => 2,
            _ => 3,
        };
        let q = QUEUES[slot];
        let mut cmds = Vec::with_capacity(4);
        match q {
            QueueId::Graphics => {
                cmds.push(barrier(Sync::DRAW));
                cmds.push(Command::SetPipelineState(i as u32));
                cmds.push(Command::Draw {
                    draws: 4,
                    vertices: 20_000,
                    pixels: 100_000,
                });
            }
            QueueId::Compute { .. } => {
                if let Some(f) = last_gfx_fence.filter(|_| i % 16 < 10) {
                    cmds.push(Command::WaitFence(f));
                }
                cmds.push(barrier(Sync::COMPUTE_SHADING));
                cmds.push(Command::Dispatch {
                    dispatches: 1,
                    threads: 65_536,
                });
            }
            QueueId::Dma { .. } => cmds.push(Command::CopyResource {
                src: a,
                dst: b,
                bytes: 1 << 16,
            }),
        }
        if i % 16 == 15 || i + 1 == items {
            let fence = d.next_fence(q);
            cmds.push(Command::InsertFence {
                fence,
                kickoff: true,
            });
            if q == GFX {
                last_gfx_fence = Some(fence);
            }
        }
        streams[slot].1.extend(cmds);
    }
    for (q, s) in &mut streams {
        let fence = d.next_fence(*q);
        s.push(Command::InsertFence {
            fence,
            kickoff: true,
        });
    }
    let commands = streams.iter().map(|(_, s)| s.len()).sum();
    (streams, commands)
}

fn simulate(c: &mut Criterion) {
    let mut group = c.benchmark_group("simulate");
    for items in [100, 1_000, 10_000] {
        let mut d = Device::default();
        let bufs = buffers(&mut d);
        let commands = frame(&mut d, bufs, items).1;
        let mut cpu_ns = d.run_until_idle();
        group.throughput(Throughput::Elements(commands as u64));
        group.bench_function(
            format!("{items} work items ({commands} commands)"),
            |bench| {
                bench.iter_custom(|iters| {
                    let mut timed = Duration::ZERO;
                    for frame_index in 0..iters {
                        let (streams, _) = frame(&mut d, bufs, items);
                        let start = Instant::now();
                        for (q, s) in streams {
                            d.submit(q, frame_index, 0, s, cpu_ns)
                                .expect("valid stream");
                        }
                        cpu_ns = d.run_until_idle();
                        black_box(d.drain_executed().len());
                        timed += start.elapsed();
                    }
                    timed
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, simulate);
criterion_main!(benches);
