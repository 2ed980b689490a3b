//! One hardware queue as the simulation sees it: the stream its front end reads in order,
//! what halts the front end, the work items and bottom-of-pipe actions in flight, and the
//! counters the drains and serialised streams compare (CC-2, FN-3, CC-8).

use std::collections::VecDeque;

use super::actions::Action;
use super::{Meta, Path};
use crate::device::cost::Op;
use crate::device::{FenceId, ObjectKey};

/// A submitted command waiting for its queue's front end.
pub(crate) struct Pending {
    pub op: Op,
    pub meta: Meta,
    pub submit_ns: u64,
}

/// What a halted front end waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum FrontWait {
    #[default]
    None,
    Fence(FenceId),
    Present(ObjectKey),
    /// A barrier that holds the front end, or Suspend.
    Action,
    /// As many work items in flight as the queue holds.
    Full,
    /// Compute and DMA while suspended (CC-8).
    Locked,
}

/// A queue's state between events.
#[derive(Default)]
pub(crate) struct QueueState {
    pub stream: VecDeque<Pending>,
    /// Commands at the front of `stream` that have been kicked off (FN-3).
    pub kicked: usize,
    /// The front end finished its last command at this time.
    pub fe_free: u64,
    pub fe_path: Path,
    pub wait: FrontWait,
    /// Work items issued and not finished, in issue order (slots into `Gpu::items`).
    pub in_flight: Vec<u32>,
    /// The launched ones among them, and the ones still held (issue order).
    pub launched: Vec<u32>,
    pub held: Vec<u32>,
    /// Earliest event of a launched item: its work or floor done, or its hang deadline.
    pub items_next: u64,
    /// Held items may have become launchable (an action or serialised item finished).
    pub gate_dirty: bool,
    /// The front action's drain may be satisfied (an item finished, an action arrived).
    pub drain_check: bool,
    /// Something on another queue may have released this one: look at it at `now`.
    pub dirty: bool,
    /// When it next has something to do (cached [`Gpu::queue_next`]).
    pub next: u64,
    /// Bottom-of-pipe actions not finished, in order.
    pub actions: VecDeque<Action>,
    pub actions_issued: u64,
    pub actions_done: u64,
    /// Items issued and finished per serialised stream (copies and clears; draws).
    pub serial_issued: [u64; 2],
    pub serial_done: [u64; 2],
    /// Path of the latest action or serialised item to finish (what releases gated items).
    pub release_path: Path,
    /// CUs this queue may use, milli-CUs (CC-2).
    pub cu_limit: u32,
    /// End of the last command finished.
    pub last_end: u64,
    /// Commands submitted so far.
    pub submitted: u64,
}
