//! Reports: run statistics, the JSON summary and table, the pass graph as Graphviz, Tracy.

mod graphviz;
mod stats;
mod summary;
pub mod tracy;

pub use graphviz::to_dot;
pub use stats::{Distribution, FAMILIES, RunStats};
pub use summary::Summary;
