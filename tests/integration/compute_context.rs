//! The asynchronous compute context's own calls on the device (seed 002): dispatch flags
//! (CC-4). What the validator makes of them is in the mistake scenes (cc4_*).

use crate::common::fence;
use fastframe::device::*;

const GFX: QueueId = QueueId::Graphics;
const PIPE0: QueueId = QueueId::Compute { pipe: 0, index: 0 };

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
