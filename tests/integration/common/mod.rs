//! Helpers the integration tests share: a kicked-off fence and a global barrier for the
//! device-level tests, and snapshots to compare output with.

pub mod snapshot;

use fastframe::barrier::{Access, BarrierGroup, GlobalBarrier, Sync};
use fastframe::device::{Command, Device, FenceId, QueueId};

/// A fence for queue `q`, and the command that inserts it with kickoff.
pub fn fence(d: &mut Device, q: QueueId) -> (FenceId, Command) {
    let f = d.next_fence(q);
    (
        f,
        Command::InsertFence {
            fence: f,
            kickoff: true,
        },
    )
}

/// A Barrier call with one global barrier.
pub fn global(before: Sync, after: Sync, access: (Access, Access)) -> Command {
    let mut g = BarrierGroup::default();
    g.global.push(GlobalBarrier {
        sync_before: before,
        sync_after: after,
        access_before: access.0,
        access_after: access.1,
    });
    Command::Barrier(g)
}
