//! Helpers the integration tests share: a kicked-off fence and a global barrier for the
//! device-level tests, a trace writer tests can read, snapshots to compare output with, and
//! (with the `tracy` feature) a minimal Tracy server to capture a run with.

pub mod snapshot;
#[cfg(feature = "tracy")]
pub mod tracy_reader;

use std::io::Write;
use std::sync::{Arc, Mutex};

use fastframe::barrier::{Access, BarrierGroup, GlobalBarrier, Sync};
use fastframe::device::{Command, Device, FenceId, QueueId};
use serde_json::Value;

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

/// A writer the test can read while the runtime writes to it.
#[derive(Clone, Default)]
pub struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    pub fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.0.lock().unwrap()).expect("the trace is JSON")
    }
}
