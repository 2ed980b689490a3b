//! The enhanced-barrier vocabulary as plain data (EB-1, EB-6, barrier-spec A1-A2), and the
//! pure-Rust rules over it: validation (EB-11), lowering to hardware actions (EB-2..EB-5,
//! EB-8) and the legacy-barrier translation (EB-7, EB-10).
//!
//! Nothing here knows about ECS, passes or the device: a barrier is three pairs (sync, access,
//! layout) and a target. The planners in `src/plan/` produce these, the device lowers and prices
//! them, and the validator checks the streams that carry them. Keeping the vocabulary free of
//! policy is what lets the validator stay independent of the planner; the rules below take
//! everything they need (queue type, resource facts, history) as arguments.
//!
//! - Vocabulary: `sync`, `access`, `layout`, `types` (the barrier structs), `queue` (queue
//!   types and what each may name, A5), `resource` (what a barrier targets, subresource ranges).
//! - Validation (EB-11): `compat` (the A6/A7 tables), `triple` (stateless checks of a
//!   barrier's values), `call` (one call against its resources), `history` and `tracker` (the
//!   rules that need earlier barriers, EB-7), `copy` (copy to self, A3.8), `error`.
//! - Lowering (EB-2..EB-5, EB-8): `drain` (sync to drains, blocks and packets), `cache`
//!   (access to write-backs and invalidations), `compression` (layout to compression work),
//!   `require` (one barrier plus the driver's split, copy and legacy policies), `lower` (a
//!   whole call), `hardware` (the resulting actions as data).
//! - Legacy (EB-7, EB-10): `states` (resource states and their enhanced equivalents),
//!   `legacy` (legacy barriers and their translation).

mod access;
pub mod cache;
mod call;
pub mod compat;
pub mod compression;
mod copy;
pub mod drain;
#[cfg(test)]
mod eb9;
mod error;
mod hardware;
mod history;
mod layout;
mod legacy;
mod lower;
mod queue;
mod require;
mod resource;
#[cfg(test)]
mod robust;
mod states;
mod sync;
mod tracker;
mod triple;
mod types;

pub use access::Access;
pub use call::{
    buffer_halves, global_halves, texture_halves, validate_buffer, validate_global, validate_group,
    validate_texture,
};
pub use compat::{access_requires, layout_allows, unserved_access};
pub use compression::{CompressionState, Metadata, layout_keeps, metadata_of};
pub use copy::{CopyRegion, check_self_copy};
pub use error::{BarrierError, BarrierSeverity, Side, partition};
pub use hardware::{
    Caches, CompressionKind, CompressionOp, FlushCounts, FrontEnd, HardwareActions, Stages,
    SyncEvent,
};
pub use history::SubState;
pub use layout::Layout;
pub use legacy::{
    ALL_SUBRESOURCES, LegacyBarrier, LegacyPath, LegacySplit, UNTRANSLATED_UAV_SYNC,
    for_compute_list, legacy_subresources, translate, translate_with,
};
pub use lower::{LowerOptions, lower, lower_legacy, lower_tracked};
pub use queue::QueueType;
pub use resource::{ResourceInfo, Subresources, TextureInfo};
pub use states::{EnhancedState, ResourceStates, enhanced_state};
pub use sync::Sync;
pub use tracker::BarrierTracker;
pub use triple::{Halves, check_halves};
pub use types::{
    BarrierGroup, BarrierGroupRef, BufferBarrier, GlobalBarrier, SubresourceRange, TextureBarrier,
    TextureBarrierFlags,
};
