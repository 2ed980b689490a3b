//! The GPU timeline as a trace file, streamed as the simulation runs: for Perfetto
//! (ui.perfetto.dev) or `chrome://tracing`.
//!
//! Tracy shows where the CPU spends a tick; this shows what the simulated GPU did with the
//! frame. The format is the Chrome trace event format (JSON), one process, and per hardware
//! queue:
//!
//! - a thread named after the queue with a slice per pass holding a slice per Barrier
//!   command, and between them a slice per wait named by its cause with its length
//!   (`wait: fence`, ...): the zones Tracy gets (`report::tracy::zones`). A flow arrow runs
//!   from each fence's signal to each wait on it (FN-2);
//! - `<queue> commands`: every executed command, with its pass, frame, stall and the time it
//!   spent on caches and decompression; a Barrier's slice lists every barrier with its sync,
//!   access and layout before and after and the hardware actions the call lowers to (EB-12).
//!   Commands of a queue that really overlap (concurrent work items) take extra lanes
//!   (`+1`), chosen greedily in start order;
//! - `<queue> front end`: state and binding commands the front end read while work ran;
//!
//! and counters, sampled each tick at the GPU's time: device memory held and the partial
//! flushes submitted.
//!
//! Nothing is kept but what a later record can still change: records wait behind the same
//! watermark as the statistics (the earliest start a record still to come can have), then
//! are written. Memory stays flat however long the run.

mod detail;
mod event;
mod lanes;
pub mod read;
mod write;

use bevy_ecs::prelude::*;
use std::io::Write;

use crate::device::{Device, Executed};
pub use detail::barrier_args;
pub use write::TraceWriter;

/// Most commands a trace writes; later ones are counted and dropped, so a long run cannot
/// fill a disk (about 300 bytes each).
pub const TRACE_CAP: usize = 2_000_000;

/// The trace being written, when one is.
#[derive(Resource, Default)]
pub struct GpuTrace {
    writer: Option<TraceWriter>,
}

impl GpuTrace {
    /// Write the trace of `scene` to `out` from now on, at most [`TRACE_CAP`] commands.
    pub fn record_to(&mut self, scene: &str, out: impl Write + Send + Sync + 'static) {
        self.record_at_most(scene, out, TRACE_CAP);
    }

    /// Write at most `cap` commands.
    pub fn record_at_most(
        &mut self,
        scene: &str,
        out: impl Write + Send + Sync + 'static,
        cap: usize,
    ) {
        self.writer = Some(TraceWriter::new(scene, Box::new(out), cap));
    }

    /// Whether a trace is being written.
    pub fn recording(&self) -> bool {
        self.writer.is_some()
    }

    /// Take the commands `device` submitted and finished since the last call; write what no
    /// later record can change (records still to come start at `watermark` or later;
    /// `u64::MAX` writes everything).
    pub fn absorb(&mut self, device: &mut Device, executed: &[Executed], watermark: u64) {
        let Some(w) = self.writer.as_mut() else {
            return;
        };
        let log = device
            .trace
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        w.read_submissions(device, &log);
        w.absorb(executed, watermark, |l| device.label_name(l));
    }

    /// Sample the counters at GPU time `ts_ns`: device memory held (transients included) and
    /// the partial flushes and idles submitted so far (EB-2).
    pub fn counters(&mut self, ts_ns: u64, memory_bytes: u64, flushes: u64) {
        if let Some(w) = self.writer.as_mut() {
            w.counters(ts_ns, memory_bytes, flushes);
        }
    }

    /// Close the trace: write the thread names and the end of the file, and flush.
    pub fn finish(&mut self) -> std::io::Result<()> {
        match self.writer.take() {
            Some(w) => w.finish(),
            None => Ok(()),
        }
    }

    /// What the writer holds in memory (records, details, open zones): bounded, not growing
    /// with frames.
    pub fn held(&self) -> usize {
        self.writer.as_ref().map_or(0, |w| w.held())
    }
}
