//! Tracy: a frame mark per tick, plots per frame, and the simulated GPU as GPU zones. Spans
//! per system are opened in each system with `tracy_client::span!`; the GPU zones
//! ([`zones`]) are plain data computed from the simulation's timeline and sent by
//! [`GpuZones`]. Without the `tracy` feature every call compiles to nothing.

#[cfg(feature = "tracy")]
mod gpu;
#[cfg(feature = "tracy")]
pub use gpu::contexts;
pub mod zones;

use bevy_ecs::prelude::Resource;

use crate::device::Executed;
pub use zones::{Zone, ZoneBuilder, ZoneKind, ZoneTree};

/// The GPU zones of a run, sent to Tracy as the simulation finishes commands.
#[derive(Resource, Debug, Default)]
pub struct GpuZones {
    #[cfg(feature = "tracy")]
    builder: ZoneBuilder,
    #[cfg(feature = "tracy")]
    sink: gpu::Sink,
}

impl GpuZones {
    /// Fold finished commands in and send the zones no later record can change (records
    /// still to come start at `watermark` or later; `u64::MAX` sends everything). `label`
    /// names a pass.
    #[cfg_attr(not(feature = "tracy"), inline(always))]
    pub fn absorb<'a>(
        &mut self,
        executed: &[Executed],
        watermark: u64,
        label: impl Fn(u32) -> &'a str,
    ) {
        #[cfg(feature = "tracy")]
        if tracy_client::Client::running().is_some() {
            self.builder.add(executed);
            let trees = self.builder.take(watermark);
            self.sink.send(&trees, label);
        }
        #[cfg(not(feature = "tracy"))]
        let _ = (executed, watermark, label);
    }
}

/// Wait until a Tracy profiler connects (`run --wait-for-profiler`): with on-demand
/// profiling nothing is collected before, and a short run would be over. Returns false when
/// built without the `tracy` feature.
pub fn wait_for_profiler() -> bool {
    #[cfg(feature = "tracy")]
    {
        tracy_client::Client::start();
        while !tracy_client::Client::is_connected() {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        true
    }
    #[cfg(not(feature = "tracy"))]
    false
}

/// What one frame did, for the plots.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FramePlot {
    pub barriers: u64,
    pub fences: u64,
    pub fence_waits: u64,
    /// Partial flushes and full idles the barriers lowered to (EB-2).
    pub partial_flushes: u64,
    /// Device memory held, bytes (transients included).
    pub memory_bytes: u64,
    /// Busy time of the newest complete frame per queue family (graphics, compute, DMA).
    pub busy_us: [f64; 3],
}

/// Mark the end of a frame and plot what it did.
pub fn frame_end(plot: FramePlot) {
    #[cfg(feature = "tracy")]
    if let Some(client) = tracy_client::Client::running() {
        client.frame_mark();
        client.plot(
            tracy_client::plot_name!("barriers per frame"),
            plot.barriers as f64,
        );
        client.plot(
            tracy_client::plot_name!("fences per frame"),
            plot.fences as f64,
        );
        client.plot(
            tracy_client::plot_name!("fence waits per frame"),
            plot.fence_waits as f64,
        );
        client.plot(
            tracy_client::plot_name!("partial flushes per frame"),
            plot.partial_flushes as f64,
        );
        client.plot(
            tracy_client::plot_name!("device memory (MiB)"),
            plot.memory_bytes as f64 / (1024.0 * 1024.0),
        );
        let [g, c, d] = plot.busy_us;
        client.plot(tracy_client::plot_name!("GPU graphics busy (us)"), g);
        client.plot(tracy_client::plot_name!("GPU compute busy (us)"), c);
        client.plot(tracy_client::plot_name!("GPU DMA busy (us)"), d);
    }
    #[cfg(not(feature = "tracy"))]
    let _ = plot;
}
