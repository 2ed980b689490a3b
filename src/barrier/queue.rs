//! Queue types and what each may name in a barrier (barrier-spec A5).
//!
//! A barrier is recorded on a command list of one queue type, and that type bounds what the
//! barrier may say: a compute queue has no rasteriser, so it cannot synchronise render-target
//! work or move a texture into a render-target layout, and a copy (DMA) queue can only copy, so
//! it sees resources in `COMMON` and never transitions them. These tables are the whole rule;
//! validation (`call.rs`) reports a violation and lowering (`lower.rs`) uses the same type
//! to decide which engine stages exist.

use super::{Access, Layout, Sync};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The type of command queue a barrier is recorded for (`D3D12_COMMAND_LIST_TYPE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum QueueType {
    /// The graphics engine: every layout, access and sync (barrier-spec A5).
    #[default]
    Direct,
    /// An asynchronous compute engine.
    Compute,
    /// A DMA engine: `COMMON` only, no transitions (barrier-spec A5).
    Copy,
}

impl fmt::Display for QueueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QueueType::Direct => "direct",
            QueueType::Compute => "compute",
            QueueType::Copy => "copy",
        })
    }
}

impl QueueType {
    /// True when a barrier on this queue type may name `layout` (barrier-spec A5).
    ///
    /// `UNDEFINED` is allowed on direct and compute queues (it names no layout, only "the
    /// contents are irrelevant"); a copy queue allows `COMMON` alone because it cannot
    /// transition layouts at all.
    pub const fn allows_layout(self, layout: Layout) -> bool {
        use Layout as L;
        match self {
            QueueType::Direct => !matches!(
                layout,
                L::ComputeQueueCommon
                    | L::ComputeQueueGenericRead
                    | L::ComputeQueueUnorderedAccess
                    | L::ComputeQueueShaderResource
                    | L::ComputeQueueCopySource
                    | L::ComputeQueueCopyDest
            ),
            QueueType::Compute => matches!(
                layout,
                L::Undefined
                    | L::Common
                    | L::GenericRead
                    | L::UnorderedAccess
                    | L::ShaderResource
                    | L::CopySource
                    | L::CopyDest
                    | L::ComputeQueueCommon
                    | L::ComputeQueueGenericRead
                    | L::ComputeQueueUnorderedAccess
                    | L::ComputeQueueShaderResource
                    | L::ComputeQueueCopySource
                    | L::ComputeQueueCopyDest
                    | L::DirectQueueGenericReadComputeQueueAccessible
            ),
            QueueType::Copy => matches!(layout, L::Common),
        }
    }

    /// True when this queue type may move a texture into or out of `layout`.
    ///
    /// The compute-accessible generic-read layout is usable by compute lists, but only direct
    /// queues may transition into or out of it (barrier-spec A1).
    pub const fn may_transition(self, layout: Layout) -> bool {
        match self {
            QueueType::Direct => true,
            QueueType::Compute => {
                !matches!(layout, Layout::DirectQueueGenericReadComputeQueueAccessible)
            }
            QueueType::Copy => false,
        }
    }

    /// Every access bit a barrier on this queue type may name (barrier-spec A5). `COMMON` (no
    /// bits) and `NO_ACCESS` are always allowed and are not part of the set.
    pub fn allowed_access(self) -> Access {
        match self {
            QueueType::Direct => Access::all().difference(Access::NO_ACCESS),
            QueueType::Compute => {
                Access::CONSTANT_BUFFER
                    | Access::UNORDERED_ACCESS
                    | Access::SHADER_RESOURCE
                    | Access::INDIRECT_ARGUMENT
                    | Access::COPY_DEST
                    | Access::COPY_SOURCE
            }
            QueueType::Copy => Access::COPY_DEST | Access::COPY_SOURCE,
        }
    }

    /// Every sync bit a barrier on this queue type may name (barrier-spec A5). Ray tracing is
    /// accepted on compute queues: the table omits the ray-tracing bits, and DispatchRays is a
    /// compute-engine command.
    pub fn allowed_sync(self) -> Sync {
        match self {
            QueueType::Direct => Sync::all(),
            QueueType::Compute => {
                Sync::ALL
                    | Sync::COMPUTE_SHADING
                    | Sync::RAYTRACING
                    | Sync::COPY
                    | Sync::EXECUTE_INDIRECT
                    | Sync::ALL_SHADING
                    | Sync::NON_PIXEL_SHADING
                    | Sync::CLEAR_UNORDERED_ACCESS_VIEW
                    | Sync::SPLIT
            }
            QueueType::Copy => Sync::ALL | Sync::COPY | Sync::SPLIT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_queue_refuses_compute_queue_layouts() {
        assert!(QueueType::Direct.allows_layout(Layout::RenderTarget));
        assert!(QueueType::Direct.allows_layout(Layout::DirectQueueShaderResource));
        assert!(!QueueType::Direct.allows_layout(Layout::ComputeQueueShaderResource));
    }

    #[test]
    fn compute_queue_has_no_raster_layouts_or_syncs() {
        let q = QueueType::Compute;
        assert!(!q.allows_layout(Layout::RenderTarget));
        assert!(!q.allows_layout(Layout::DepthStencilWrite));
        assert!(!q.allows_layout(Layout::DirectQueueShaderResource));
        assert!(q.allows_layout(Layout::ComputeQueueUnorderedAccess));
        assert!(q.allows_layout(Layout::DirectQueueGenericReadComputeQueueAccessible));
        assert!(!q.may_transition(Layout::DirectQueueGenericReadComputeQueueAccessible));
        assert!(!q.allowed_sync().contains(Sync::PIXEL_SHADING));
        assert!(q.allowed_sync().contains(Sync::NON_PIXEL_SHADING));
        assert!(!q.allowed_access().contains(Access::RENDER_TARGET));
    }

    #[test]
    fn copy_queue_is_common_copy_only() {
        let q = QueueType::Copy;
        assert!(q.allows_layout(Layout::Common));
        assert!(!q.allows_layout(Layout::Undefined));
        assert!(!q.allows_layout(Layout::CopyDest));
        assert_eq!(q.allowed_access(), Access::COPY_DEST | Access::COPY_SOURCE);
        assert_eq!(q.allowed_sync(), Sync::ALL | Sync::COPY | Sync::SPLIT);
        assert!(!q.may_transition(Layout::Common));
    }
}
