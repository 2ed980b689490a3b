//! Retire: advance the CPU clock by one frame of recording, wait if the GPU is more than
//! `frames_in_flight` frames behind, and forget frames whose fences have all passed (FN-2:
//! the pending test is free-threaded and costs nothing).

use bevy_ecs::prelude::*;

use crate::device::Device;
use crate::error::RuntimeError;
use crate::frame::{Clock, FramesInFlight};
use crate::model::{FenceTimeline, FrameIndex, Settings};
use crate::report::RunStats;

/// Throttle the CPU and retire finished frames.
pub fn retire_frames(
    mut device: ResMut<Device>,
    mut clock: ResMut<Clock>,
    mut in_flight: ResMut<FramesInFlight>,
    mut stats: ResMut<RunStats>,
    mut timelines: Query<&mut FenceTimeline>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("retire");
    if frame.0 > 0 {
        // Saturating: the loader bounds cpu_frame_us (scene/limits.rs); the clock must not
        // wrap for a world built without it.
        clock.cpu_ns =
            (clock.cpu_ns).saturating_add((settings.cpu_frame_us * 1000.0).round() as u64);
    }
    // The CPU may have `frames_in_flight` frames queued; before building another it waits on
    // the oldest one's fences.
    while in_flight.frames.len() >= settings.frames_in_flight.max(1) as usize {
        let Some((_, fences)) = in_flight.frames.pop_front() else {
            break;
        };
        for fence in fences {
            let t = (device.wait_fence_cpu(fence)).map_err(RuntimeError::device(frame.0))?;
            if t > clock.cpu_ns {
                stats.cpu_wait_ns += t - clock.cpu_ns;
                clock.cpu_ns = t;
            }
        }
    }
    while let Some((_, fences)) = in_flight.frames.front() {
        if fences
            .iter()
            .any(|f| device.is_fence_pending(*f, clock.cpu_ns))
        {
            break;
        }
        in_flight.frames.pop_front();
    }
    for mut timeline in &mut timelines {
        let last = crate::device::FenceId(timeline.last_inserted);
        if timeline.last_inserted != 0 && !device.is_fence_pending(last, clock.cpu_ns) {
            timeline.last_passed = timeline.last_inserted;
        }
    }
    Ok(())
}
