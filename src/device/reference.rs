//! How a command refers to what it works on, in the manner of wgpu-core's
//! `Command<R: ReferenceType>`: one command set, generic over the references.
//!
//! The device names objects by [`ObjectKey`], swap chains by [`SwapChainKey`], fences by
//! [`FenceId`] (FN-1), queries by number and copy regions as boxes in a subresource. A scene
//! script names all of them by the names the scene gives them (see `model::ScriptRef`), and
//! once loaded by targets resolved from those names. [`super::Command<R>`] is the command set
//! once for all of them: `R` is how a command names an *object*, which is also what a
//! barrier group names its resources by ([`crate::barrier::BarrierGroup<R>`]), and the
//! associated types say how the same side names everything else a command refers to.
//!
//! The trait is implemented by the object reference itself (not by a marker type), so that a
//! command and the barrier group inside it are generic over the same `R`, and so that the
//! device's commands are plain `Command` (`R` defaults to [`ObjectKey`]).

use std::fmt::Debug;

use super::{FenceId, ObjectKey, SwapChainKey};
use crate::barrier::CopyRegion;

/// How a command names an object (`Self`) and everything else it refers to.
pub trait ReferenceType: Clone + Debug + PartialEq {
    /// What a Present shows: a swap chain (RL-5).
    type Chain: Clone + Debug + PartialEq;
    /// What InsertFence makes and WaitFence waits on (FN-1).
    type Fence: Clone + Debug + PartialEq;
    /// What Begin/EndQuery start and end (CTX-6).
    type Query: Clone + Debug + PartialEq;
    /// A region of a texture subresource that a copy reads or writes (EB-9c).
    type Region: Clone + Debug + PartialEq;
}

/// The device's references: handles into its arenas, fence ids, query slots.
impl ReferenceType for ObjectKey {
    type Chain = SwapChainKey;
    type Fence = FenceId;
    type Query = u32;
    type Region = CopyRegion;
}
