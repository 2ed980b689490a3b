//! The asynchronous compute context's own calls on the device (seed 002): dispatch flags
//! (CC-4). What the validator makes of them is in the mistake scenes (cc4_*).

use crate::common::fence;
use fastframe::device::*;

const GFX: QueueId = QueueId::Graphics;
const PIPE0: QueueId = QueueId::Compute { pipe: 0, index: 0 };
const PIPE1: QueueId = QueueId::Compute { pipe: 1, index: 0 };

fn dispatch(threads: u64) -> Command {
    Command::Dispatch {
        dispatches: 1,
        threads,
    }
}

fn flags(bypass_l1: bool, debug: bool) -> Command {
    Command::SetDispatchFlags {
        bypass_l1,
        debug_partial_flush: debug,
        debug_invalidate_l1: debug,
        debug_flush_l2: debug,
    }
}

/// When two independent dispatches on a pipe-0 queue finish, after `first`.
fn two_dispatches(first: Vec<Command>) -> u64 {
    let mut d = Device::default();
    let (f, insert) = fence(&mut d, PIPE0);
    let mut commands = first;
    commands.extend([dispatch(1 << 20), dispatch(1 << 20), insert]);
    d.submit(PIPE0, 0, 0, commands, 0).expect("compute runs");
    d.wait_fence_cpu(f).expect("the fence passes")
}

#[test]
fn l1_bypass_lengthens_dispatches_and_debug_flags_flush_after_each() {
    let plain = two_dispatches(vec![]);
    // Every load of a dispatch with L1 bypassed goes to L2 (CC-4): longer shading work.
    let bypass = two_dispatches(vec![flags(true, false)]);
    assert!(bypass > plain, "bypass {bypass} ns, plain {plain} ns");
    // The debug flags flush after each dispatch: the two no longer overlap, and the caches'
    // write-back and invalidation are paid after each.
    let debug = two_dispatches(vec![flags(false, true)]);
    assert!(debug > plain, "debug {debug} ns, plain {plain} ns");
    // Setting the flags again to none gives the plain timing back (two calls either way:
    // each takes a command slot).
    let reset = two_dispatches(vec![flags(true, true), flags(false, false)]);
    let none = two_dispatches(vec![flags(false, false), flags(false, false)]);
    assert_eq!(reset, none);
    assert!(none < bypass.min(debug), "{none} ns");
    // The flags are the compute context's: the graphics queue refuses the call.
    let mut d = Device::default();
    let refused = d.submit(GFX, 0, 0, [flags(true, false)], 0);
    assert!(
        matches!(refused, Err(DeviceError::WrongQueue { .. })),
        "{refused:?}"
    );
}

#[test]
fn resume_resets_the_dispatch_flags() {
    // Resume leaves every context as ClearState would (FS-11), the dispatch flags included.
    let plain = two_dispatches(vec![]);
    let mut d = Device::default();
    d.submit(PIPE0, 0, 0, [flags(true, true), Command::Kickoff], 0)
        .unwrap();
    let (g, resumed) = fence(&mut d, GFX);
    d.submit(GFX, 0, 0, [Command::Suspend, Command::Resume, resumed], 10)
        .unwrap();
    let start = d.wait_fence_cpu(g).unwrap();
    let (f, insert) = fence(&mut d, PIPE0);
    d.submit(
        PIPE0,
        0,
        0,
        [dispatch(1 << 20), dispatch(1 << 20), insert],
        start,
    )
    .unwrap();
    let after = d.wait_fence_cpu(f).unwrap() - start;
    assert_eq!(after, plain);
}

/// A pipe-0 dispatch of 20 s, with or without an early-out path, kicked off at 0; at 1 ms the
/// CPU raises the early-out flag (or not) and the graphics context suspends. When the wait
/// at Suspend ends, or how the device fails.
fn suspend_during_long_work(early_out_path: bool, raise: bool) -> Result<u64, DeviceError> {
    let mut d = Device::default();
    let mut compute = vec![Command::SetEarlyOutPath(early_out_path)];
    compute.extend([dispatch(1 << 40), Command::Kickoff]);
    d.submit(PIPE0, 0, 0, compute, 0).unwrap();
    let (g, suspended) = fence(&mut d, GFX);
    let mut gfx = Vec::new();
    if raise {
        gfx.push(Command::SignalEarlyOut(true));
    }
    gfx.extend([Command::Suspend, suspended]);
    d.submit(GFX, 0, 0, gfx, 1_000_000).unwrap();
    d.wait_fence_cpu(g)
}

#[test]
fn a_cpu_raised_early_out_ends_long_compute_work_before_the_wait_at_suspend_times_out() {
    // CC-8: the work outlasts the system's wait at Suspend (seconds) unless it stops early.
    let hang =
        |r: &Result<u64, DeviceError>| matches!(r, Err(DeviceError::Hang { rule: "CC-8", .. }));
    let no_path = suspend_during_long_work(false, true);
    assert!(hang(&no_path), "no early-out path: {no_path:?}");
    let not_raised = suspend_during_long_work(true, false);
    assert!(hang(&not_raised), "the flag never raised: {not_raised:?}");
    // With the path and the flag raised in the suspend handler, the work ends when the CPU
    // writes the flag and the Suspend's wait passes within microseconds of it.
    let done = suspend_during_long_work(true, true).expect("no hang");
    assert!((1_000_000..2_000_000).contains(&done), "{done} ns");
}

#[test]
fn work_launched_while_the_flag_is_raised_exits_at_once_and_runs_whole_once_it_is_lowered() {
    // The CPU writes the flag at the times given, before the dispatch is submitted at 1 us.
    let run = |signals: Vec<(bool, u64)>| {
        let mut d = Device::default();
        for (raised, at) in signals {
            d.submit(GFX, 0, 0, [Command::SignalEarlyOut(raised)], at)
                .unwrap();
        }
        let (f, insert) = fence(&mut d, PIPE0);
        let work = [Command::SetEarlyOutPath(true), dispatch(1 << 24), insert];
        d.submit(PIPE0, 0, 0, work, 1_000).unwrap();
        d.wait_fence_cpu(f).unwrap() - 1_000
    };
    let whole = run(vec![]);
    let raised = run(vec![(true, 0)]);
    let lowered = run(vec![(true, 0), (false, 500)]);
    assert!(raised * 10 < whole, "raised {raised} ns, whole {whole} ns");
    assert_eq!(lowered, whole);
}

/// When a long draw on the graphics queue ends, and how many graphics items refilled their
/// caches, with `compute` submitted on a pipe-1 queue (above graphics, CC-2) 1 us after the draw.
fn draw_beside(compute: Vec<Command>) -> (u64, u64) {
    let mut d = Device::default();
    let (g, drawn) = fence(&mut d, GFX);
    let draw = Command::Draw {
        draws: 1,
        vertices: 3,
        pixels: 1 << 26,
    };
    d.submit(GFX, 0, 0, [draw, drawn], 0).unwrap();
    let (c, computed) = fence(&mut d, PIPE1);
    let mut commands = compute;
    commands.push(computed);
    d.submit(PIPE1, 0, 0, commands, 1_000).unwrap();
    d.wait_fence_cpu(c).unwrap();
    let end = d.wait_fence_cpu(g).unwrap();
    (end, d.graphics_refills())
}

#[test]
fn a_whole_cache_flush_on_compute_stalls_the_graphics_work_running_beside_it() {
    // CC-4: cache flushes take the whole cache, so a compute context's flush disturbs the
    // graphics work in flight. The debug flags flush L2 and L1 after the dispatch, while the
    // draw runs: the draw refills its caches and ends GRAPHICS_REFILL_NS later (a model
    // assumption) than beside the same dispatch without the flush.
    let (alone, none) = draw_beside(vec![]);
    assert_eq!(none, 0);
    let (plain, plain_refills) = draw_beside(vec![dispatch(1 << 10)]);
    assert_eq!(plain_refills, 0, "no flush, no refill");
    let (flushed, refills) = draw_beside(vec![flags(false, true), dispatch(1 << 10)]);
    assert_eq!(refills, 1, "one flush while one draw runs");
    assert_eq!(
        flushed - plain,
        compute::GRAPHICS_REFILL_NS,
        "{flushed} vs {plain}"
    );
    // Two dispatches, two flushes, two refills.
    let two = vec![flags(false, true), dispatch(1 << 10), dispatch(1 << 10)];
    let (twice, refills) = draw_beside(two);
    let (two_plain, _) = draw_beside(vec![dispatch(1 << 10), dispatch(1 << 10)]);
    assert_eq!(refills, 2);
    assert_eq!(twice - two_plain, 2 * compute::GRAPHICS_REFILL_NS);
    // A compute barrier that flushes no shared cache (a compute partial flush only) leaves
    // the draw alone, and the draw alone is no slower for it.
    let drain = crate::common::global(
        fastframe::barrier::Sync::COMPUTE_SHADING,
        fastframe::barrier::Sync::COMPUTE_SHADING,
        (
            fastframe::barrier::Access::NO_ACCESS,
            fastframe::barrier::Access::NO_ACCESS,
        ),
    );
    let (drained, refills) = draw_beside(vec![dispatch(1 << 10), drain]);
    assert_eq!((drained, refills), (plain, 0));
    assert!(alone > 0);
}
