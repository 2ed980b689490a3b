//! The enhanced-barrier vocabulary as plain data (EB-1, EB-6, barrier-spec A1-A2).
//!
//! Nothing here knows about ECS, passes or the device: a barrier is three pairs (sync, access,
//! layout) and a target. The planner in `systems/` produces these, the device lowers and prices
//! them, and the validator checks the streams that carry them. Keeping the vocabulary free of
//! policy is what lets the validator stay independent of the planner.

mod access;
mod layout;
mod sync;
mod types;

pub use access::Access;
pub use layout::Layout;
pub use sync::Sync;
pub use types::{
    BarrierGroup, BufferBarrier, GlobalBarrier, SubresourceRange, TextureBarrier,
    TextureBarrierFlags,
};
