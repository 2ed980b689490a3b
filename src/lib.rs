#![doc = include_str!("../README.md")]

pub mod barrier;
pub mod cli;
pub mod device;
pub mod error;
pub mod frame;
pub mod generator;
pub mod model;
pub mod plan;
pub mod record;
pub mod report;
mod runtime;
pub mod scene;
#[path = "../systems/mod.rs"]
pub mod systems;
pub mod validate;

pub use error::RuntimeError;
pub use runtime::Runtime;

/// The names most users need.
pub mod prelude {
    pub use crate::barrier::{Access, BarrierGroup, Layout, Sync};
    pub use crate::device::{Command, Device, DeviceError, FenceId, QueueId};
    pub use crate::error::RuntimeError;
    pub use crate::model::*;
    pub use crate::plan::{BarrierPlan, CompiledGraph};
    pub use crate::report::{RunStats, Summary};
    pub use crate::runtime::Runtime;
    pub use crate::validate::{Diagnostic, Severity};
}
