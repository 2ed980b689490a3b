//! Simulate: let the device run everything submitted up to the CPU's present. Fences signal,
//! the present engine flips, and every finished command lands in the run's statistics (and
//! Tracy's GPU zones). A work
//! item still running when the wait at a Suspend timed out stops the run (CC-8).

use bevy_ecs::prelude::*;

use crate::device::{Device, Executed};
use crate::error::RuntimeError;
use crate::model::{FrameIndex, Settings};
use crate::report::tracy::GpuZones;
use crate::report::{GpuTrace, RunStats};

/// Advance the GPU.
pub fn simulate_gpu(
    mut device: ResMut<Device>,
    mut stats: ResMut<RunStats>,
    mut trace: ResMut<GpuTrace>,
    mut zones: ResMut<GpuZones>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut executed: Local<Vec<Executed>>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("simulate");
    device.simulate();
    device.drain_executed_into(&mut executed);
    stats.absorb(&executed);
    let watermark = stats.watermark();
    trace.absorb(&mut device, &executed, watermark);
    if trace.recording() {
        let h = &stats.hardware;
        let flushes = h.vs_partial_flushes + h.ps_partial_flushes + h.cs_partial_flushes + h.idles;
        trace.counters(device.gpu_time_ns(), device.memory.bytes().0, flushes);
    }
    zones.absorb(&executed, watermark, |l| device.label_name(l));
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
