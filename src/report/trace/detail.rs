//! What a trace says about a command beyond its times: a Barrier's barriers with their sync,
//! access and layout before and after and the hardware actions they lower to (EB-12), and the
//! fence a signal or wait names (for the flow arrows, FN-2).
//!
//! The details come from the device's submission log, read in the tick that submitted the
//! commands (while the resources they name still exist), and wait there for the command's
//! record; a record finds its details by queue and submission index (`Executed::seq`).

use hashbrown::HashMap;
use serde::Serialize;
use serde_json::{Value, json};

use crate::barrier::{BarrierGroup, LowerOptions, lower};
use crate::device::{Command, Device, FenceId, ObjectKey, QUEUE_COUNT, QueueId, Submitted};
use crate::validate::resource_info;

/// A command's details.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    /// A Barrier call's barriers and hardware actions, as trace arguments.
    Barrier(Value),
    /// InsertFence: signals this fence.
    Signal(FenceId),
    /// WaitFence: waits for this fence.
    Wait(FenceId),
}

/// Details waiting for their records.
#[derive(Debug, Default)]
pub struct Details {
    submitted: [u64; QUEUE_COUNT],
    waiting: HashMap<(usize, u64), Detail>,
}

impl Details {
    /// Read submitted commands (in submission order).
    pub fn read(&mut self, device: &Device, log: &[Submitted]) {
        for s in log {
            let q = s.queue.index();
            let seq = self.submitted[q];
            self.submitted[q] += 1;
            let detail = match &s.command {
                Command::Barrier(g) => Detail::Barrier(barrier_args(device, s.queue, g)),
                Command::InsertFence { fence, .. } => Detail::Signal(*fence),
                Command::WaitFence(fence) => Detail::Wait(*fence),
                _ => continue,
            };
            self.waiting.insert((q, seq), detail);
        }
    }

    /// The details of the command submitted `seq`-th to `queue`, once.
    pub fn take(&mut self, queue: QueueId, seq: u64) -> Option<Detail> {
        self.waiting.remove(&(queue.index(), seq))
    }

    /// Details held.
    pub fn held(&self) -> usize {
        self.waiting.len()
    }
}

/// A resource as a trace names it.
#[derive(Clone, Debug, PartialEq)]
struct Named {
    key: ObjectKey,
    name: String,
}

impl Serialize for Named {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

/// Every barrier of a call with its before and after (EB-12), and what the call lowers to.
pub fn barrier_args(device: &Device, queue: QueueId, g: &BarrierGroup<ObjectKey>) -> Value {
    let named = g.map(|&key| Named {
        key,
        name: device.memory.name(key),
    });
    let mut barriers = Vec::with_capacity(g.len());
    for b in &named.global {
        barriers.push(json!({
            "type": "global",
            "sync": [b.sync_before, b.sync_after],
            "access": [b.access_before, b.access_after],
        }));
    }
    for b in &named.buffers {
        barriers.push(json!({
            "type": "buffer", "resource": b.resource,
            "sync": [b.sync_before, b.sync_after],
            "access": [b.access_before, b.access_after],
        }));
    }
    for b in &named.textures {
        let mut t = json!({
            "type": "texture", "resource": b.resource,
            "sync": [b.sync_before, b.sync_after],
            "access": [b.access_before, b.access_after],
            "layout": [b.layout_before, b.layout_after],
            "discard": b.flags.discard,
        });
        // The subresources it names when not all (EB-6): barriers on parts of one texture
        // read apart only with their ranges.
        if !b.range.is_all() {
            t["range"] = json!(b.range);
        }
        barriers.push(t);
    }
    let actions = lower(
        &named,
        queue.queue_type(),
        |n| resource_info(device, n.key),
        LowerOptions::default(),
    );
    json!({ "barriers": barriers, "hardware": actions })
}
