//! Passes: units of GPU work that declare what they read and write. The frame graph is
//! nothing but these declarations; ordering, queues, fences and barriers are derived.

use crate::barrier::{Access, CopyRegion, Layout, Sync};
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// The kind of queue a pass asks for. Compute passes run on an asynchronous compute queue
/// when async compute is on (CC-1), on the graphics queue otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QueueKind {
    #[default]
    Graphics,
    Compute,
    /// A DMA engine: copies only, COMMON layout only (barrier-spec A5).
    Copy,
}

/// What a pass does to one target. Each maps to the enhanced-barrier access, the layout a
/// texture must be in, and the stages that perform it (barrier-spec A6, A7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UseAccess {
    RenderTarget,
    DepthWrite,
    DepthRead,
    ShaderRead,
    /// Read-write through a UAV.
    UnorderedAccess,
    CopySource,
    CopyDest,
    VertexBuffer,
    IndexBuffer,
    ConstantBuffer,
    IndirectArgument,
}

impl UseAccess {
    /// The barrier access bit of this use.
    pub fn access(self) -> Access {
        match self {
            UseAccess::RenderTarget => Access::RENDER_TARGET,
            UseAccess::DepthWrite => Access::DEPTH_STENCIL_WRITE,
            UseAccess::DepthRead => Access::DEPTH_STENCIL_READ,
            UseAccess::ShaderRead => Access::SHADER_RESOURCE,
            UseAccess::UnorderedAccess => Access::UNORDERED_ACCESS,
            UseAccess::CopySource => Access::COPY_SOURCE,
            UseAccess::CopyDest => Access::COPY_DEST,
            UseAccess::VertexBuffer => Access::VERTEX_BUFFER,
            UseAccess::IndexBuffer => Access::INDEX_BUFFER,
            UseAccess::ConstantBuffer => Access::CONSTANT_BUFFER,
            UseAccess::IndirectArgument => Access::INDIRECT_ARGUMENT,
        }
    }

    /// True when the use modifies the target.
    pub fn is_write(self) -> bool {
        matches!(
            self,
            UseAccess::RenderTarget
                | UseAccess::DepthWrite
                | UseAccess::UnorderedAccess
                | UseAccess::CopyDest
        )
    }

    /// True when the use is only legal on textures.
    pub fn texture_only(self) -> bool {
        matches!(
            self,
            UseAccess::RenderTarget | UseAccess::DepthWrite | UseAccess::DepthRead
        )
    }

    /// True when the use is only legal on buffers.
    pub fn buffer_only(self) -> bool {
        matches!(
            self,
            UseAccess::VertexBuffer
                | UseAccess::IndexBuffer
                | UseAccess::ConstantBuffer
                | UseAccess::IndirectArgument
        )
    }

    /// The layout a texture must be in for this use on a queue of `kind`. DMA queues see only
    /// COMMON (barrier-spec A5).
    pub fn layout(self, kind: QueueKind) -> Layout {
        if kind == QueueKind::Copy {
            return Layout::Common;
        }
        match self {
            UseAccess::RenderTarget => Layout::RenderTarget,
            UseAccess::DepthWrite => Layout::DepthStencilWrite,
            UseAccess::DepthRead => Layout::DepthStencilRead,
            UseAccess::ShaderRead => Layout::ShaderResource,
            UseAccess::UnorderedAccess => Layout::UnorderedAccess,
            UseAccess::CopySource => Layout::CopySource,
            UseAccess::CopyDest => Layout::CopyDest,
            _ => Layout::Common,
        }
    }

    /// The stages that perform this use when the pass does not say (barrier-spec A7), given
    /// the stage that runs the pass's shaders ([`Pass::shading`]).
    pub fn default_stages(self, shading: Sync) -> Sync {
        match self {
            UseAccess::RenderTarget => Sync::RENDER_TARGET,
            UseAccess::DepthWrite | UseAccess::DepthRead => Sync::DEPTH_STENCIL,
            UseAccess::ShaderRead | UseAccess::UnorderedAccess | UseAccess::ConstantBuffer => {
                shading
            }
            UseAccess::CopySource | UseAccess::CopyDest => Sync::COPY,
            UseAccess::VertexBuffer => Sync::VERTEX_SHADING,
            UseAccess::IndexBuffer => Sync::INDEX_INPUT,
            UseAccess::IndirectArgument => Sync::EXECUTE_INDIRECT,
        }
    }

    /// Which queue kinds can perform this use at all (barrier-spec A5 accesses).
    pub fn allowed_on(self, kind: QueueKind) -> bool {
        match kind {
            QueueKind::Graphics => true,
            QueueKind::Compute => matches!(
                self,
                UseAccess::ShaderRead
                    | UseAccess::UnorderedAccess
                    | UseAccess::CopySource
                    | UseAccess::CopyDest
                    | UseAccess::ConstantBuffer
                    | UseAccess::IndirectArgument
            ),
            QueueKind::Copy => matches!(self, UseAccess::CopySource | UseAccess::CopyDest),
        }
    }
}

/// One declared use of a target (a resource, a view, or a swap chain's back buffer).
#[derive(Clone, Debug, PartialEq)]
pub struct Use {
    pub target: Entity,
    pub access: UseAccess,
    /// Stages that perform the access; `None` means the access's default on the pass's queue.
    pub stages: Option<Sync>,
    /// Clear the target at the start of the pass (render targets, depth, UAVs). A clear
    /// unbinds, so the target is set again afterwards (FS-8).
    pub clear: bool,
    /// The subresources of a texture target the use names, when not all (EB-6).
    pub range: Option<crate::barrier::SubresourceRange>,
}

/// What the device turns into time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Work {
    /// Draw calls shading `vertices` vertices and `pixels` pixels in total.
    Draw {
        #[serde(default = "one")]
        draws: u32,
        #[serde(default)]
        vertices: u64,
        #[serde(default)]
        pixels: u64,
    },
    /// Dispatches running `threads` threads in total.
    Dispatch {
        #[serde(default = "one")]
        dispatches: u32,
        #[serde(default)]
        threads: u64,
    },
    /// Draws whose arguments and count the GPU reads from the pass's `IndirectArgument`
    /// buffer (ExecuteIndirect with a draw signature), which an earlier pass of the frame may
    /// write: at most `draws`, shading `vertices` and `pixels` in all. The simulation does
    /// not read the buffer, so the amounts are the maxima the scene declares, and the cost
    /// is theirs.
    #[serde(alias = "ExecuteIndirect")]
    DrawIndirect {
        #[serde(default = "one")]
        draws: u32,
        #[serde(default)]
        vertices: u64,
        #[serde(default)]
        pixels: u64,
    },
    /// Dispatches whose thread-group counts the GPU reads from the pass's `IndirectArgument`
    /// buffer (DispatchIndirect): at most `dispatches`, `threads` in all.
    DispatchIndirect {
        #[serde(default = "one")]
        dispatches: u32,
        #[serde(default)]
        threads: u64,
    },
    /// Copies of `bytes` bytes from the pass's copy source to its copy destination, whole
    /// resources unless regions are given. A texture copied onto itself needs both regions,
    /// which must not intersect (barrier-spec A3.8, EB-9c).
    Copy {
        bytes: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<CopyBox>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<CopyBox>,
    },
    /// No work besides clears.
    None,
}

fn one() -> u32 {
    1
}

impl Work {
    /// A dispatch, direct or indirect: compute shading, no output merger.
    pub fn is_dispatch(&self) -> bool {
        matches!(self, Work::Dispatch { .. } | Work::DispatchIndirect { .. })
    }

    /// Work whose arguments the GPU reads from the pass's `IndirectArgument` buffer.
    pub fn is_indirect(&self) -> bool {
        matches!(
            self,
            Work::DrawIndirect { .. } | Work::DispatchIndirect { .. }
        )
    }
}

/// A rectangle of one subresource of a 2D texture, the region a copy reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyBox {
    /// Subresource index: mip + mips * array slice.
    #[serde(default)]
    pub subresource: u32,
    /// Top-left texel.
    #[serde(default)]
    pub origin: glam::UVec2,
    /// Width and height in texels.
    pub extent: glam::UVec2,
}

impl CopyBox {
    /// The region in the barrier vocabulary (one texel deep).
    pub fn region(&self) -> CopyRegion {
        CopyRegion::new(
            self.subresource,
            [self.origin.x, self.origin.y, 0],
            [self.extent.x, self.extent.y, 1],
        )
    }
}

/// What a pass's draw or dispatch costs, where the scene says so: `cost: (cycles: 900,
/// read_bytes: 120000000, written_bytes: 16588800)` or `cost: (time_us: 1450.0)`. Without
/// it a pass costs the profile's fixed cycles per vertex, pixel or thread. The device prices
/// it as the cost of the pass's pipeline state ([`crate::device::ShaderCost`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Cost", deny_unknown_fields)]
pub struct PassCost {
    /// Shading lane-cycles per pixel (draws) or per thread (dispatches).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u32>,
    /// Bytes the work reads from memory.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub read_bytes: u64,
    /// Bytes the work writes to memory.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub written_bytes: u64,
    /// A measured time, microseconds: the work takes at least that long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_us: Option<f64>,
}

impl PassCost {
    /// The device's form of the cost.
    pub fn shader_cost(&self) -> crate::device::ShaderCost {
        crate::device::ShaderCost::new(
            self.cycles,
            self.read_bytes,
            self.written_bytes,
            self.time_us,
        )
    }
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// The asynchronous compute queue a compute pass asks for: `compute_queue: (pipe: 1, index:
/// 0)`. The pipe is the priority (CC-2): pipe 1 takes compute units before graphics, pipe 0
/// only what graphics leaves, within its CU limit; without `pipe`, the `compute_pipe`
/// setting's. Passes on different queues do not wait behind each other in one in-order
/// stream; the runtime fences between them where they depend on each other (FS-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename = "ComputeQueue", deny_unknown_fields)]
pub struct ComputeQueue {
    /// 0 (six queues, below graphics) or 1 (three queues, above graphics).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipe: Option<u8>,
    /// The queue on its pipe, from 0.
    #[serde(default)]
    pub index: u8,
}

/// A pass entity. Order among passes comes from their uses, each resource's in declaration
/// order (`order`; see [`crate::plan::order`]), plus explicit `after` edges.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Pass {
    pub queue: QueueKind,
    pub uses: Vec<Use>,
    pub work: Work,
    pub after: Vec<Entity>,
    /// Declaration order in the scene, the tie-breaker of every ordering decision.
    pub order: u32,
    /// What the work costs, when the scene says so.
    pub cost: Option<PassCost>,
    /// Which compute queue a compute pass runs on when async compute is on.
    pub compute_queue: Option<ComputeQueue>,
    /// Timestamp and occlusion queries, resolved into a readback buffer (CTX-6, CC-7).
    pub queries: Option<super::PassQueries<Entity>>,
}

impl Pass {
    /// The stage that runs this pass's shaders, which performs its shader reads, UAV and
    /// constant-buffer accesses unless a use says otherwise: compute shading for a dispatch
    /// on any queue (barrier-spec A1: Dispatch is in COMPUTE_SHADING), copy on a DMA engine,
    /// pixel shading for the graphics queue's other work.
    pub fn shading(&self) -> Sync {
        match (self.queue, self.work) {
            (QueueKind::Copy, _) => Sync::COPY,
            (QueueKind::Compute, _)
            | (_, Work::Dispatch { .. } | Work::DispatchIndirect { .. }) => Sync::COMPUTE_SHADING,
            (QueueKind::Graphics, _) => Sync::PIXEL_SHADING,
        }
    }

    /// A pass of one 64-thread dispatch, `order`-th declared, ordered by its uses alone: what
    /// generated graphs (benches, property tests) are built from.
    pub fn dispatch(queue: QueueKind, uses: Vec<Use>, order: u32) -> Pass {
        Pass {
            queue,
            uses,
            work: Work::Dispatch {
                dispatches: 1,
                threads: 64,
            },
            after: Vec::new(),
            order,
            cost: None,
            compute_queue: None,
            queries: None,
        }
    }
}

/// A disabled pass is skipped by compile; timeline events toggle it.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Disabled;
