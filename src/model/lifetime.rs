//! Object lifetime under fast semantics (FS-6): nothing is reference counted, so the runtime
//! tracks the fence covering each object's last GPU use and defers destruction until it passes.

use bevy_ecs::prelude::*;

use crate::device::ObjectKey;

/// The device object behind a resource, view or swap-chain buffer entity.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GpuObject(pub ObjectKey);

/// The last frame whose GPU work referenced this entity, and the fences that cover it: the
/// end-of-frame fence of every queue that used it in that frame (FS-6).
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct LastUse {
    pub frame: u64,
    /// Raw fence IDs (FN-1); empty when never used.
    pub fences: Vec<u64>,
}

/// A release was asked for; the object dies once `gate` has passed (FS-6).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReleaseRequest {
    /// Frame at which the release was requested.
    pub requested: u64,
}

/// A fence timeline entity: one per queue the runtime submits to. It remembers the newest
/// fence inserted on that queue and the newest one known to have passed (FN-1, FN-2).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FenceTimeline {
    pub queue: crate::device::QueueId,
    pub last_inserted: u64,
    pub last_passed: u64,
}
