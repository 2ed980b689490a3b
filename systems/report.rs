//! Report: close the frame's books. Statistics per frame, Tracy's frame mark and plots, and
//! the frame counter moves on.

use bevy_ecs::prelude::*;

use crate::device::Device;
use crate::model::{FrameIndex, ReleaseRequest};
use crate::report::RunStats;

/// Finish the frame.
pub fn report_frame(
    mut frame: ResMut<FrameIndex>,
    mut stats: ResMut<RunStats>,
    device: Res<Device>,
    pending: Query<(), With<ReleaseRequest>>,
    mut last: Local<(u64, u64, u64, u64)>,
) {
    let _span = tracy_client::span!("report");
    stats.frames += 1;
    stats.releases_pending = pending.iter().count() as u64;
    let (live, peak) = device.memory.bytes();
    stats.memory_live_bytes = live;
    stats.memory_peak_bytes = peak;
    let now = (stats.barriers, stats.fences_inserted, stats.fence_waits);
    let h = &stats.hardware;
    let flushes = h.vs_partial_flushes + h.ps_partial_flushes + h.cs_partial_flushes + h.idles;
    let busy = stats.frames_log.newest_closed().busy_ns;
    crate::report::tracy::frame_end(crate::report::tracy::FramePlot {
        barriers: now.0.saturating_sub(last.0),
        fences: now.1.saturating_sub(last.1),
        fence_waits: now.2.saturating_sub(last.2),
        partial_flushes: flushes.saturating_sub(last.3),
        memory_bytes: live,
        busy_us: busy.map(|ns| ns as f64 / 1000.0),
    });
    *last = (now.0, now.1, now.2, flushes);
    frame.0 += 1;
}
