//! Simulate: let the device run everything submitted up to the CPU's present. Fences signal,
//! the present engine flips, and every finished command lands in the run's statistics. A work
//! item that overran the hang timeout stops the run (CC-8).

use bevy_ecs::prelude::*;

use crate::device::{Device, Executed};
use crate::error::RuntimeError;
use crate::model::{FrameIndex, Settings};
use crate::report::{GpuTrace, RunStats};

/// Advance the GPU.
pub fn simulate_gpu(
    mut device: ResMut<Device>,
    mut stats: ResMut<RunStats>,
    mut trace: ResMut<GpuTrace>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut executed: Local<Vec<Executed>>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("simulate");
    device.simulate();
    device.drain_executed_into(&mut executed);
    stats.absorb(&executed);
    trace.absorb(&executed);
    if stats.profile != device.profile.name {
        stats.profile = device.profile.name.clone();
    }
    stats.async_compute = settings.async_compute;
    match device.fault() {
        Some(source) => Err(RuntimeError::Device {
            frame: frame.0,
            source,
        }),
        None => Ok(()),
    }
}
