//! Simulate: let the device run everything submitted as far as it can. Fences signal, the
//! present engine flips, and every executed command lands in the run's statistics.

use bevy_ecs::prelude::*;

use crate::device::Device;
use crate::report::RunStats;

/// Advance the GPU.
pub fn simulate_gpu(mut device: ResMut<Device>, mut stats: ResMut<RunStats>) {
    let _span = tracy_client::span!("simulate");
    device.simulate();
    let executed = device.drain_executed();
    stats.absorb(&executed);
}
