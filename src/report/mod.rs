//! Reports: run statistics, the JSON summary and table, the pass graph as Graphviz, the GPU
//! timeline as a trace file, Tracy.

mod frame_log;
mod frames;
mod graphviz;
mod host;
mod queue_time;
mod sample;
mod stats;
pub mod summary;
pub mod svg;
mod sync_counts;
mod trace;
pub use trace::barrier_args;
pub mod tracy;

pub use frame_log::{FrameLog, GpuTotals};
pub use frames::{FrameBook, FrameGpu, Intervals, family_index};
pub use graphviz::{NodeBarriers, to_dot, to_dot_with};
pub use host::{Footprint, HostMemory};
pub use queue_time::{CAUSES, Cause, QueueClock, QueueTime};
pub use sample::{LogHistogram, Sample};
pub use stats::{Distribution, FAMILIES, RunStats};
pub use summary::{
    AsyncGain, CheckJson, GpuFrames, QueueFrame, Ratio, RunSettings, SCHEMA_VERSION, Summary,
    SummaryJson, Us,
};
pub use sync_counts::SyncCounts;
pub use trace::read::TraceFile;
pub use trace::{GpuTrace, TRACE_CAP};
