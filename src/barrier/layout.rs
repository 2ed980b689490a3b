//! Texture layouts (barrier-spec A1): how a texture's memory and compression metadata are
//! arranged. Layout changes are where compression work happens (EB-4).

use serde::{Deserialize, Serialize};

/// `D3D12_BARRIER_LAYOUT`, with the specification's numeric values (barrier-spec A1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u32)]
pub enum Layout {
    /// Previous contents irrelevant; activation and aliasing start here (EB-5).
    Undefined = 0xffff_ffff,
    /// Also PRESENT: required for presentation, readable on any queue.
    Common = 0,
    GenericRead = 1,
    RenderTarget = 2,
    UnorderedAccess = 3,
    DepthStencilWrite = 4,
    DepthStencilRead = 5,
    ShaderResource = 6,
    CopySource = 7,
    CopyDest = 8,
    ResolveSource = 9,
    ResolveDest = 10,
    ShadingRateSource = 11,
    DirectQueueCommon = 18,
    DirectQueueGenericRead = 19,
    DirectQueueUnorderedAccess = 20,
    DirectQueueShaderResource = 21,
    DirectQueueCopySource = 22,
    DirectQueueCopyDest = 23,
    ComputeQueueCommon = 24,
    ComputeQueueGenericRead = 25,
    ComputeQueueUnorderedAccess = 26,
    ComputeQueueShaderResource = 27,
    ComputeQueueCopySource = 28,
    ComputeQueueCopyDest = 29,
    /// Readable by direct and compute lists at once; only direct queues transition it.
    DirectQueueGenericReadComputeQueueAccessible = 31,
}

impl Layout {
    /// `LAYOUT_PRESENT` is `LAYOUT_COMMON` (barrier-spec A1).
    pub const PRESENT: Layout = Layout::Common;

    /// Every layout, UNDEFINED first (table-driven tests walk them all).
    pub const ALL: [Layout; 26] = [
        Layout::Undefined,
        Layout::Common,
        Layout::GenericRead,
        Layout::RenderTarget,
        Layout::UnorderedAccess,
        Layout::DepthStencilWrite,
        Layout::DepthStencilRead,
        Layout::ShaderResource,
        Layout::CopySource,
        Layout::CopyDest,
        Layout::ResolveSource,
        Layout::ResolveDest,
        Layout::ShadingRateSource,
        Layout::DirectQueueCommon,
        Layout::DirectQueueGenericRead,
        Layout::DirectQueueUnorderedAccess,
        Layout::DirectQueueShaderResource,
        Layout::DirectQueueCopySource,
        Layout::DirectQueueCopyDest,
        Layout::ComputeQueueCommon,
        Layout::ComputeQueueGenericRead,
        Layout::ComputeQueueUnorderedAccess,
        Layout::ComputeQueueShaderResource,
        Layout::ComputeQueueCopySource,
        Layout::ComputeQueueCopyDest,
        Layout::DirectQueueGenericReadComputeQueueAccessible,
    ];

    /// The specification's name, for diagnostics and traces.
    pub fn spec_name(self) -> &'static str {
        match self {
            Layout::Undefined => "UNDEFINED",
            Layout::Common => "COMMON",
            Layout::GenericRead => "GENERIC_READ",
            Layout::RenderTarget => "RENDER_TARGET",
            Layout::UnorderedAccess => "UNORDERED_ACCESS",
            Layout::DepthStencilWrite => "DEPTH_STENCIL_WRITE",
            Layout::DepthStencilRead => "DEPTH_STENCIL_READ",
            Layout::ShaderResource => "SHADER_RESOURCE",
            Layout::CopySource => "COPY_SOURCE",
            Layout::CopyDest => "COPY_DEST",
            Layout::ResolveSource => "RESOLVE_SOURCE",
            Layout::ResolveDest => "RESOLVE_DEST",
            Layout::ShadingRateSource => "SHADING_RATE_SOURCE",
            Layout::DirectQueueCommon => "DIRECT_QUEUE_COMMON",
            Layout::DirectQueueGenericRead => "DIRECT_QUEUE_GENERIC_READ",
            Layout::DirectQueueUnorderedAccess => "DIRECT_QUEUE_UNORDERED_ACCESS",
            Layout::DirectQueueShaderResource => "DIRECT_QUEUE_SHADER_RESOURCE",
            Layout::DirectQueueCopySource => "DIRECT_QUEUE_COPY_SOURCE",
            Layout::DirectQueueCopyDest => "DIRECT_QUEUE_COPY_DEST",
            Layout::ComputeQueueCommon => "COMPUTE_QUEUE_COMMON",
            Layout::ComputeQueueGenericRead => "COMPUTE_QUEUE_GENERIC_READ",
            Layout::ComputeQueueUnorderedAccess => "COMPUTE_QUEUE_UNORDERED_ACCESS",
            Layout::ComputeQueueShaderResource => "COMPUTE_QUEUE_SHADER_RESOURCE",
            Layout::ComputeQueueCopySource => "COMPUTE_QUEUE_COPY_SOURCE",
            Layout::ComputeQueueCopyDest => "COMPUTE_QUEUE_COPY_DEST",
            Layout::DirectQueueGenericReadComputeQueueAccessible => {
                "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE"
            }
        }
    }

    /// Layouts in which the GPU may keep a render target or depth buffer compressed (EB-4).
    pub fn may_be_compressed(self) -> bool {
        matches!(
            self,
            Layout::RenderTarget
                | Layout::DepthStencilWrite
                | Layout::DepthStencilRead
                | Layout::UnorderedAccess
                | Layout::DirectQueueShaderResource
                | Layout::DirectQueueGenericRead
        )
    }
}
