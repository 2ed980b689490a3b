//! Why a fence can never pass, once the GPU has run out of events: a deadlock (a cycle of
//! queues waiting on each other's fences, or a fence inserted without kickoff and never kicked
//! off, FN-3), a hang (a wait on present only a later present on the same queue could satisfy,
//! RL-2; or work still running when the wait at a Suspend timed out, CC-8), or a queue
//! locked by a Suspend no Resume follows (CC-8). Detected from the state the simulation
//! stopped in, never by looping.

use super::super::{DeviceError, FenceId, Memory, QueueId};
use super::{FrontWait, Gpu};

/// A work item still running when the wait at Suspend timed out (CC-8): the GPU stopped there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hang {
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub name: &'static str,
    pub timeout_ns: u64,
}

impl Gpu {
    /// Why `fence` can never signal, given that no event is left.
    pub fn diagnose(&self, fence: FenceId, memory: &Memory) -> DeviceError {
        if !self.fences.is_known(fence) {
            return DeviceError::UnknownFence { fence };
        }
        let mut waits = Vec::new();
        let mut target = fence;
        loop {
            let Some(queue) = target.queue() else {
                return DeviceError::UnknownFence { fence: target };
            };
            let q = &self.queues[queue.index()];
            let stuck = DeviceError::Deadlock {
                waits: waits.clone(),
                not_kicked: Some(target),
            };
            match q.wait {
                FrontWait::Fence(g) => {
                    let cycle = waits.iter().any(|(wq, _)| *wq == queue);
                    waits.push((queue, g));
                    if cycle || !self.fences.is_registered(g) {
                        return DeviceError::Deadlock {
                            waits,
                            not_kicked: None,
                        };
                    }
                    target = g;
                }
                FrontWait::Present(b) => {
                    return DeviceError::Hang {
                        queue,
                        rule: "RL-2",
                        culprit: format!(
                            "it waits on present of {} after presenting it",
                            memory.name(b)
                        ),
                    };
                }
                FrontWait::Locked => {
                    return DeviceError::Suspended {
                        queue,
                        fence: target,
                    };
                }
                _ => return stuck,
            }
        }
    }
}
