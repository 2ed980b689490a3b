//! Tracy: a frame mark per tick and plots of synchronisation per frame. Spans per system are
//! opened in each system with `tracy_client::span!`. Without the `tracy` feature every call
//! compiles to nothing.

/// What one frame did, for the plots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FramePlot {
    pub barriers: u64,
    pub fences: u64,
    pub fence_waits: u64,
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
    }
    #[cfg(not(feature = "tracy"))]
    let _ = plot;
}
