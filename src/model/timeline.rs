//! Scripted changes over a run: the scene's timeline, applied at the start of a frame.

use bevy_ecs::prelude::*;
use glam::UVec2;

/// Something that happens at the start of a frame.
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineEvent {
    /// Resize a swap chain's buffers (old buffers go through deferred release, FS-6).
    Resize { chain: Entity, extent: UVec2 },
    /// Enable a disabled pass.
    Enable(Entity),
    /// Disable a pass (its resources stay alive).
    Disable(Entity),
    /// Bring a dormant entity (declared under the event) to life.
    Add(Entity),
    /// Request the release of a resource or view (FS-6: deferred until its fence passes).
    Release(Entity),
    /// The system suspends the title for `frames` display refreshes before this frame: the
    /// runtime submits Suspend, which locks compute and DMA once their work drains, then
    /// Resume, after which all state must be set again (CC-8, FS-11).
    Suspend { frames: u32 },
}

/// The events of a run, sorted by frame (stable, so same-frame events keep scene order).
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    pub events: Vec<(u64, TimelineEvent)>,
    /// Index of the next event to apply.
    pub cursor: usize,
}

/// An entity declared by a timeline `Add` event that does not exist on the GPU yet.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dormant;
