//! The timing model's analytic cases, with exact expected times: one dispatch alone;
//! dispatches on pipe 0 and pipe 1 beside a graphics draw (CC-2 priority and the 4-CU limit);
//! drains with and without in-flight work (EB-2, EB-9); cache latencies (EB-3); a
//! decompression of a known size (EB-4, EB-8b); DMA and graphics-engine copies (EB-8d); a
//! fence wait across queues (FN-2); timestamps (CC-7); a work item past the hang timeout and
//! Suspend/Resume (CC-8). The model at scale (async compute on `scenes/deferred.ron`, scene
//! timelines, profiles, determinism) is tested in `simulation.rs`.
//!
//! The cases run on a profile with round numbers: 10 CUs at 1 GHz, where a thread or a pixel
//! costs one CU-nanosecond, a vertex four, a vertex or pixel takes one clock of fixed-function
//! time, memory moves a byte per nanosecond and a DMA engine half that.

use crate::common::{fence, global};
use fastframe::barrier::{
    Access, BarrierGroup, Layout, SubresourceRange, Sync, TextureBarrier, TextureBarrierFlags,
};
use fastframe::device::*;
use fastframe::model::{Buffer, BufferUsage, Format, Texture, TextureFlags};
use glam::UVec2;

const GFX: QueueId = QueueId::Graphics;
const PIPE0: QueueId = QueueId::Compute { pipe: 0, index: 0 };
const PIPE1: QueueId = QueueId::Compute { pipe: 1, index: 0 };
const DMA: QueueId = QueueId::Dma { engine: 0 };
/// Front-end slot of the analytic profile.
const SLOT: u64 = 10;

fn analytic() -> Profile {
    Profile {
        name: "analytic".into(),
        compute_units: 10,
        lanes_per_cu: 64,
        clock_mhz: 1000,
        memory_bytes_per_us: 1000,
        dma_bytes_per_us: 500,
        command_ns: SLOT,
        draw_ns: 100,
        dispatch_ns: 100,
        vertex_cycles: 256,
        pixel_cycles: 64,
        thread_cycles: 64,
        vertices_per_clock: 1,
        pixels_per_clock: 1,
        caches: CacheCosts::default(),
        ..Profile::default()
    }
}

fn device() -> Device {
    Device::new(analytic())
}

/// `threads` threads: `threads` CU-ns of work, 100 ns of launch.
fn dispatch(threads: u64) -> Command {
    Command::Dispatch {
        dispatches: 1,
        threads,
    }
}

/// A draw of `vertices` vertices: 4 CU-ns each, spread over one clock each: 4 CUs wide.
fn draw(vertices: u64) -> Command {
    Command::Draw {
        draws: 1,
        vertices,
        pixels: 0,
    }
}

const NO_ACCESS: (Access, Access) = (Access::NO_ACCESS, Access::NO_ACCESS);

/// Run everything; the records named `name`, in start order.
fn records(d: &mut Device, name: &str) -> Vec<Executed> {
    d.run_until_idle();
    let mut v: Vec<Executed> = (d.drain_executed().into_iter())
        .filter(|x| x.name == name)
        .collect();
    v.sort_by_key(|x| (x.start_ns, x.queue));
    v
}

#[test]
fn one_dispatch_alone_takes_its_work_over_every_cu() {
    for (queue, expected) in [(GFX, 10_000), (PIPE1, 10_000), (PIPE0, 25_000)] {
        let mut d = device();
        let (f, insert) = fence(&mut d, queue);
        d.submit(queue, 0, 0, [dispatch(100_000), insert], 0)
            .unwrap();
        let x = records(&mut d, "Dispatch");
        // 100 000 CU-ns on 10 CUs; a pipe-0 queue has only 4 of them (CC-2).
        assert_eq!((x[0].start_ns, x[0].end_ns), (0, expected), "{queue}");
        // The fence is a bottom-of-pipe event: it passes when the dispatch ends (FN-2).
        assert_eq!(d.fence_signal_ns(f), Some(expected));
    }
}

/// A draw needing 4 CUs for 20 us beside a dispatch of 100 000 CU-ns on `queue`.
fn beside_a_draw(queue: QueueId, pipe0_limit: Option<u32>) -> (u64, u64) {
    let mut d = device();
    if let Some(cus) = pipe0_limit {
        d.set_compute_unit_limit(queue, cus).unwrap();
    }
    d.submit(GFX, 0, 0, [draw(20_000), Command::Kickoff], 0)
        .unwrap();
    d.submit(queue, 0, 0, [dispatch(100_000), Command::Kickoff], 0)
        .unwrap();
    d.run_until_idle();
    let x = d.drain_executed();
    let end = |name| x.iter().find(|x| x.name == name).map(|x| x.end_ns).unwrap();
    (end("Draw"), end("Dispatch"))
}

#[test]
fn pipe_one_preempts_graphics_and_pipe_zero_fills_what_it_leaves() {
    // Pipe 1 is above graphics (CC-2): the dispatch takes all 10 CUs; the draw gets none
    // until it ends, then needs its 80 000 CU-ns at its 4-CU width.
    assert_eq!(beside_a_draw(PIPE1, None), (30_000, 10_000));
    // Pipe 0 is below graphics: the draw keeps its 4 CUs and ends on its fixed-function floor;
    // the dispatch gets what is left, but at most 4 CUs: 80 000 CU-ns by 20 us, the rest at 4.
    assert_eq!(beside_a_draw(PIPE0, None), (20_000, 25_000));
    // With the limit raised it takes all 6 idle CUs: 100 000 / 6 = 16 666.7 ns.
    assert_eq!(beside_a_draw(PIPE0, Some(10)), (20_000, 16_667));
    // The limit only exists on compute queues.
    assert!(device().set_compute_unit_limit(GFX, 4).is_err());
}

#[test]
fn a_drain_costs_the_in_flight_work_it_waits_for() {
    // Nothing in flight: the barrier costs its command slot and nothing else (EB-9).
    let mut d = device();
    let (f, insert) = fence(&mut d, GFX);
    let compute = Sync::COMPUTE_SHADING;
    let b = global(compute, compute, NO_ACCESS);
    d.submit(GFX, 0, 0, [b.clone(), insert], 0).unwrap();
    let x = records(&mut d, "Barrier");
    assert_eq!((x[0].end_ns, x[0].stall_ns), (SLOT, 0));
    assert_eq!(d.fence_signal_ns(f), Some(2 * SLOT));

    // A dispatch in flight: the barrier ends when it does, and the dispatch after the
    // barrier is blocked until then (EB-2).
    let mut d = device();
    let (f, insert) = fence(&mut d, GFX);
    let cmds = [dispatch(100_000), b, dispatch(100_000), insert];
    d.submit(GFX, 0, 0, cmds, 0).unwrap();
    d.run_until_idle();
    let x = d.drain_executed();
    let barrier = x.iter().find(|x| x.name == "Barrier").unwrap();
    assert_eq!(barrier.end_ns, 10_000);
    assert_eq!(
        (barrier.stall, barrier.stall_ns),
        (Stall::Drain, 10_000 - 2 * SLOT)
    );
    let second = x.iter().filter(|x| x.name == "Dispatch").nth(1).unwrap();
    assert_eq!((second.start_ns, second.end_ns), (10_000, 20_000));
    assert_eq!(
        (second.stall, second.stall_ns),
        (Stall::Block, 10_000 - 2 * SLOT)
    );
    assert_eq!(d.fence_signal_ns(f), Some(20_000));

    // A drain of the pixel stage does not wait for compute work in flight.
    let mut d = device();
    let pixel = Sync::PIXEL_SHADING;
    let cmds = [
        dispatch(100_000),
        global(pixel, pixel, NO_ACCESS),
        Command::Kickoff,
    ];
    d.submit(GFX, 0, 0, cmds, 0).unwrap();
    let x = records(&mut d, "Barrier");
    assert_eq!(x[0].end_ns, 2 * SLOT);
}

#[test]
fn cache_operations_cost_their_latencies() {
    let mut p = analytic();
    p.caches.color.writeback_ns = 700;
    p.caches.vector.invalidate_ns = 300;
    p.caches.scalar.invalidate_ns = 200;
    let mut d = Device::new(p);
    let rt_to_srv = (
        Access::RENDER_TARGET,
        Access::SHADER_RESOURCE | Access::CONSTANT_BUFFER,
    );
    let b = global(Sync::RENDER_TARGET, Sync::PIXEL_SHADING, rt_to_srv);
    d.submit(GFX, 0, 0, [b, Command::Kickoff], 0).unwrap();
    let x = records(&mut d, "Barrier");
    // Write back the colour cache, then invalidate L0/L1 and K$ in parallel (EB-3): the
    // slower invalidation counts.
    assert_eq!(x[0].cache_ns, 700 + 300);
    assert_eq!(x[0].end_ns, SLOT + 1000);
}

fn texture(d: &mut Device, flags: TextureFlags) -> ObjectKey {
    let t = Texture {
        format: Format::Rgba8Unorm,
        extent: UVec2::new(1024, 1024),
        depth: 1,
        mips: 1,
        array_size: 1,
        samples: 1,
        flags,
    };
    d.create("t", ObjectDesc::Texture(t)).unwrap()
}

fn to_srv(t: ObjectKey, range: SubresourceRange) -> Command {
    let mut g = BarrierGroup::default();
    g.textures.push(TextureBarrier {
        sync_before: Sync::RENDER_TARGET,
        sync_after: Sync::PIXEL_SHADING,
        access_before: Access::RENDER_TARGET,
        access_after: Access::SHADER_RESOURCE,
        layout_before: Layout::RenderTarget,
        layout_after: Layout::ShaderResource,
        resource: t,
        range,
        flags: TextureBarrierFlags::default(),
    });
    Command::Barrier(g)
}

#[test]
fn a_decompression_costs_its_bytes_over_the_bandwidth() {
    let dcc = TextureFlags {
        render_target: true,
        dcc: true,
        ..TextureFlags::default()
    };
    let mut d = device();
    let t = texture(&mut d, dcc);
    assert_eq!(d.memory.get(t).unwrap().bytes, 4 << 20);
    // 4 MiB read and written at a byte per ns (EB-4); a range of one mip decompresses the
    // whole resource all the same (EB-8b).
    let one_mip = SubresourceRange {
        mip_count: 1,
        ..SubresourceRange::ALL
    };
    d.submit(GFX, 0, 0, [to_srv(t, one_mip), Command::Kickoff], 0)
        .unwrap();
    let x = records(&mut d, "Barrier");
    assert_eq!(x[0].decompress_ns, 2 * (4 << 20));
    assert_eq!(x[0].end_ns, SLOT + 2 * (4 << 20));
    // The explicit call costs the same (FS-4) on a surface that still holds its metadata,
    // and nothing on one the barrier already decompressed.
    let fresh = texture(&mut d, dcc);
    let calls = [
        Command::Decompress(fresh),
        Command::Decompress(t),
        Command::Kickoff,
    ];
    d.submit(GFX, 1, 0, calls, 0).unwrap();
    let x = records(&mut d, "Decompress");
    assert_eq!(x[0].end_ns - x[0].start_ns, 2 * (4 << 20));
    assert_eq!(x[1].end_ns - x[1].start_ns, 0);
    // A texture-compatible surface is read compressed: no decompression (EB-4).
    let mut d = device();
    let t = texture(
        &mut d,
        TextureFlags {
            texture_compatible: true,
            ..dcc
        },
    );
    let cmds = [to_srv(t, SubresourceRange::ALL), Command::Kickoff];
    d.submit(GFX, 0, 0, cmds, 0).unwrap();
    let x = records(&mut d, "Barrier");
    assert_eq!((x[0].decompress_ns, x[0].end_ns), (0, SLOT));
}

fn buffer(d: &mut Device, name: &str) -> ObjectKey {
    let b = Buffer {
        size: 1 << 20,
        usage: BufferUsage::Default,
        unordered_access: false,
    };
    d.create(name, ObjectDesc::Buffer(b)).unwrap()
}

#[test]
fn copies_move_bytes_at_their_engines_bandwidth_and_serialise_unless_hinted() {
    let copy = |src, dst| Command::CopyResource {
        src,
        dst,
        bytes: 1 << 20,
    };
    let mut d = device();
    let (a, b) = (buffer(&mut d, "a"), buffer(&mut d, "b"));
    // 1 MiB at the DMA engine's 500 bytes/us; a second copy on the engine follows the first.
    let (f, insert) = fence(&mut d, DMA);
    d.submit(DMA, 0, 0, [copy(a, b), copy(b, a), insert], 0)
        .unwrap();
    let x = records(&mut d, "CopyResource");
    assert_eq!((x[0].start_ns, x[0].end_ns), (0, 2_097_152));
    assert_eq!((x[1].start_ns, x[1].end_ns), (2_097_152, 4_194_304));
    assert_eq!(d.fence_signal_ns(f), Some(4_194_304));
    // On the graphics engine at memory bandwidth, serialised (EB-8d)...
    let mut d = device();
    let (a, b) = (buffer(&mut d, "a"), buffer(&mut d, "b"));
    d.submit(GFX, 0, 0, [copy(a, b), copy(b, a), Command::Kickoff], 0)
        .unwrap();
    let x = records(&mut d, "CopyResource");
    assert_eq!(x[1].start_ns, 1_048_576);
    assert_eq!(x[1].stall, Stall::Drain);
    // ... unless the list says DONT_SYNC_ON_COPY.
    let cmds = [
        Command::DontSyncOnCopy(true),
        copy(a, b),
        copy(b, a),
        Command::Kickoff,
    ];
    d.submit(GFX, 1, 0, cmds, 0).unwrap();
    let x = records(&mut d, "CopyResource");
    assert_eq!(x[0].start_ns, x[1].start_ns - SLOT);
}

#[test]
fn dont_sync_on_copy_covers_clears_as_well_as_copies() {
    // Seed 004: the DONT_SYNC_ON_COPY hint allows unserialised clears and copies (EB-8d).
    let clears = |d: &mut Device, hint: bool| {
        let (a, b) = (buffer(d, "a"), buffer(d, "b"));
        let mut cmds = vec![Command::DontSyncOnCopy(hint)];
        cmds.extend([a, b].map(Command::ClearUnorderedAccess));
        cmds.push(Command::Kickoff);
        d.submit(GFX, 0, 0, cmds, 0).unwrap();
        records(d, "ClearUnorderedAccess")
    };
    let x = clears(&mut device(), false);
    assert_eq!(x[1].start_ns, x[0].end_ns);
    assert_eq!(x[1].stall, Stall::Drain);
    let x = clears(&mut device(), true);
    assert!(x[1].start_ns < x[0].end_ns, "{x:?}");
}

#[test]
fn a_fence_wait_across_queues_ends_when_the_fence_passes() {
    let mut d = device();
    let (fc, insert_c) = fence(&mut d, PIPE1);
    let (fg, insert_g) = fence(&mut d, GFX);
    d.submit(PIPE1, 0, 0, [dispatch(100_000), insert_c], 0)
        .unwrap();
    let cmds = [
        Command::WaitFence(fc),
        Command::SetPipelineState(1),
        insert_g,
    ];
    d.submit(GFX, 0, 0, cmds, 0).unwrap();
    let x = records(&mut d, "WaitFence");
    assert_eq!(d.fence_signal_ns(fc), Some(10_000));
    assert_eq!(
        (x[0].end_ns, x[0].stall, x[0].stall_ns),
        (10_000, Stall::Fence, 10_000)
    );
    // Two front-end slots after the wait: the state command, then the fence's own.
    assert_eq!(d.fence_signal_ns(fg), Some(10_000 + 2 * SLOT));
    assert_eq!(d.wait_fence_cpu(fg), Ok(10_000 + 2 * SLOT));
}

#[test]
fn timestamps_tick_at_100_mhz_at_the_bottom_of_the_pipe() {
    let mut d = device();
    d.submit(
        GFX,
        0,
        0,
        [
            dispatch(100_000),
            Command::WriteTimestamp(3),
            Command::Kickoff,
        ],
        0,
    )
    .unwrap();
    d.run_until_idle();
    // Written when the dispatch before it is done: 10 us = 1000 ticks (CC-7).
    assert_eq!(d.timestamp(3), Some(1000));
    assert_eq!(d.timestamp(4), None);
    let pair = d.timestamp_pair(12_345);
    assert_eq!((pair.gpu_ticks, pair.cpu_ns), (1234, 12_345));
}

#[test]
fn a_long_dispatch_is_no_hang_but_work_outlasting_the_wait_at_suspend_is() {
    // 200 ms of work on 4 CUs: longer than the 33.3 ms a compute workload should run for
    // performance (CC-8 guidance), and no hang: it finishes.
    let mut d = device();
    let (f, insert) = fence(&mut d, PIPE0);
    d.submit(PIPE0, 0, 0, [dispatch(800_000_000), insert], 0)
        .unwrap();
    let done = d.wait_fence_cpu(f).unwrap();
    assert!(done > COMPUTE_WORKLOAD_GUIDANCE_NS, "{done}");
    assert!(d.fault().is_none());

    // 20 s of work still running when the system has waited its timeout (seconds) at a
    // Suspend: a hang, naming the work item.
    let mut d = device();
    let label = d.label("endless");
    d.submit(
        PIPE0,
        7,
        label,
        [dispatch(80_000_000_000), Command::Kickoff],
        0,
    )
    .unwrap();
    let (g, insert) = fence(&mut d, GFX);
    let suspend_at = 1_000_000;
    d.submit(GFX, 7, 0, [Command::Suspend, insert], suspend_at)
        .unwrap();
    match d.wait_fence_cpu(g) {
        Err(DeviceError::Hang {
            queue,
            rule,
            culprit,
        }) => {
            assert_eq!((queue, rule), (PIPE0, "CC-8"));
            assert!(
                culprit.contains("Dispatch") && culprit.contains("endless"),
                "{culprit}"
            );
            assert!(culprit.contains("frame 7"), "{culprit}");
        }
        other => panic!("expected a hang, got {other:?}"),
    }
    // The GPU stopped when the wait at Suspend timed out, not when the work would have ended.
    assert!(d.profile.hang_timeout_ns >= 1_000_000_000);
    assert_eq!(d.gpu_time_ns(), suspend_at + d.profile.hang_timeout_ns);
    assert!(d.fault().is_some());
}

#[test]
fn suspend_locks_compute_until_resume() {
    let mut d = device();
    d.submit(PIPE1, 0, 0, [dispatch(100_000), Command::Kickoff], 0)
        .unwrap();
    // Suspend waits for the kicked-off compute work (CC-8)...
    d.submit(GFX, 0, 0, [Command::Suspend], 100).unwrap();
    // ... and locks the compute and DMA contexts on the CPU: a call before Resume fails,
    // and queues nothing.
    let (fc, insert) = fence(&mut d, PIPE1);
    let locked = d.submit(PIPE1, 0, 0, [dispatch(100_000), insert.clone()], 200);
    assert!(
        matches!(locked, Err(DeviceError::LockedBySuspend { queue: PIPE1 })),
        "{locked:?}"
    );
    assert!(d.submit(DMA, 0, 0, [Command::Kickoff], 300).is_err());
    d.submit(GFX, 0, 0, [Command::Resume], 50_000).unwrap();
    // After Resume the context takes calls again, and its work runs then.
    d.submit(PIPE1, 0, 0, [dispatch(100_000), insert], 50_000)
        .unwrap();
    assert_eq!(d.wait_fence_cpu(fc), Ok(60_000));
    let x = d.drain_executed();
    let suspend = x.iter().find(|x| x.name == "Suspend").unwrap();
    assert_eq!((suspend.end_ns, suspend.stall), (10_000, Stall::Drain));
    let dispatches = x.iter().filter(|x| x.name == "Dispatch").count();
    assert_eq!(dispatches, 2, "the refused dispatch never ran");
    // Suspend and Resume belong to the graphics immediate context.
    assert!(d.submit(PIPE1, 0, 0, [Command::Resume], 60_000).is_err());
}
