//! Reports: run statistics, the JSON summary and table, the pass graph as Graphviz, the GPU
//! timeline as a trace file, Tracy.

mod frames;
mod graphviz;
mod host;
mod sample;
mod stats;
mod summary;
mod sync_counts;
mod trace;
pub mod tracy;

pub use frames::{FrameBook, FrameGpu, Intervals, family_index};
pub use graphviz::to_dot;
pub use host::{Footprint, HostMemory};
pub use sample::Sample;
pub use stats::{Distribution, FAMILIES, FrameTotals, RunStats, StallTotals};
pub use summary::{GpuFrames, Summary};
pub use sync_counts::SyncCounts;
pub use trace::{GpuTrace, TRACE_CAP};
