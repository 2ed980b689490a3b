//! The data a scene authors: resources, views, passes, swap chains, fences and settings, as
//! bevy_ecs components and resources. No per-tick logic lives here (that is `systems/`).
//!
//! Every entity carries a bevy `Name`; cross-references between entities are `Entity` values
//! resolved from names when the scene loads. Device-side objects are referenced through
//! [`GpuObject`], which holds a key into the device's arena: the ECS world describes the frame,
//! the device owns the memory.

mod fast_rename;
mod fault;
mod format;
mod heap;
mod lifetime;
mod pass;
mod queries;
mod resource;
mod script;
mod script_command;
mod script_map;
mod script_rename;
mod script_serde;
mod settings;
mod swapchain;
mod timeline;
mod view;

pub use fast_rename::fast_set;
pub use fault::{Fault, Injector};
pub use format::BLOCK_SIDE;
pub use heap::{GpuHeap, Heap, Placed};
pub use lifetime::{FenceTimeline, GpuObject, LastUse, ReleaseRequest};
pub use pass::{ComputeQueue, CopyBox, Disabled, Pass, PassCost, QueueKind, Use, UseAccess, Work};
pub use queries::{PASS_QUERY_BASE, PassQueries, QUERY_BYTES, QUERY_RING};
pub use resource::{
    Buffer, BufferUsage, Format, Lifetime, SubresourceStates, Texture, TextureFlags, TextureState,
};
pub use script::{
    BundleDef, ChainBufferIndex, FrameScript, ListDef, PassScript, PassScriptLocations,
    PipelineDef, Script, ScriptLocations, ScriptState, Slot, Submission, Target,
};
pub use script_command::{LegacyScriptBarrier, ScriptCall, ScriptCommand, ScriptRef};
pub use script_map::Rename;
pub use settings::{
    Api, BarrierMode, BindingMode, DeviceFlags, FrameIndex, Order, Semantics, Settings,
};
pub use swapchain::{
    BackBuffer, ChainViews, GpuChain, ResizeRequest, Rotation, SwapChain, SwapChainBuffer,
};
pub use timeline::{Dormant, Timeline, TimelineEvent};
pub use view::{View, ViewKind};
