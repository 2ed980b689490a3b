//! Heaps and placed resources: memory shared by resources that alias (EB-5, EB-9d).
//!
//! A heap is a block of device memory of a given size; a placed texture or buffer lives at
//! an offset inside one, for as many bytes as it needs. Resources whose ranges overlap alias:
//! only one of them holds meaningful contents at a time. Handing the memory from one to the
//! next takes a deactivation of the old one (a barrier with AccessAfter NO_ACCESS) and, in a
//! later barrier, an activation of the new one (a texture barrier from LayoutBefore UNDEFINED
//! with DISCARD; a buffer barrier with AccessBefore NO_ACCESS) before it is used; the
//! validation layer checks that (V0811). The loader checks that every placed resource fits
//! its heap; the device refuses one that does not.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// A heap: `(name: "transient", heap: (size: 16777216))`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Heap {
    /// Bytes of memory the heap holds.
    pub size: u64,
}

/// On a texture or buffer: it is placed in `heap` at byte `offset`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    pub heap: Entity,
    pub offset: u64,
}

/// On a heap entity: the device heap the runtime made for it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GpuHeap(pub u32);
