//! Accesses become cache write-backs and invalidations (EB-3, EB-8d).
//!
//! AccessBefore says which caches may hold data written before the barrier; AccessAfter which
//! caches later work will read through. Render targets and resolves use the colour cache (CB),
//! depth the depth cache (DB), shader reads, UAVs and vertex fetch the vector path L0-L1-L2,
//! and constant buffers the scalar path K$-L2 or, when the compiler emits vector loads, the
//! vector path, so both are invalidated. Driver texture copies on the graphics engine are
//! blits through CB or DB, hence the extra write-backs and invalidations around them (EB-8d);
//! other copies, index and indirect fetch are L2 clients and need nothing.
//!
//! L0 is write-through, so shader writes (UAV, stream-out) already sit in L2, the coherence
//! point of every GPU engine: only CB and DB need a write-back within the GPU. L2 itself is
//! written back when the data may leave the GPU's view: COMMON as AccessBefore (the
//! specification's "all writes") or a texture moving to LAYOUT_COMMON (presentable, readable
//! by any queue). A read-only AccessBefore with no layout change makes no cache stale, so
//! nothing is invalidated: a flush with nothing named costs nothing.

use super::hardware::Caches;
use super::{Access, Layout, QueueType, ResourceInfo};

/// What the barrier targets, as far as caches care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// All memory (a global barrier).
    Global,
    Buffer,
    /// A texture; `depth` when its copies and targets go through DB.
    Texture {
        depth: bool,
    },
}

impl Target {
    /// The target of a barrier on `info` (`None` for global barriers).
    pub fn of(info: Option<&ResourceInfo>) -> Target {
        match info {
            None => Target::Global,
            Some(ResourceInfo::Buffer) => Target::Buffer,
            Some(ResourceInfo::Texture(t)) => Target::Texture {
                depth: t.depth_stencil,
            },
        }
    }

    /// The back-end cache a driver texture copy uses on the graphics engine (EB-8d); a global
    /// barrier may cover textures of both kinds.
    fn copy_cache(self, queue: QueueType) -> Caches {
        match (queue, self) {
            (QueueType::Direct, Target::Texture { depth: true }) => Caches::DB,
            (QueueType::Direct, Target::Texture { depth: false }) => Caches::CB,
            (QueueType::Direct, Target::Global) => Caches::CB | Caches::DB,
            _ => Caches::empty(),
        }
    }
}

/// The caches a queue's engine has.
pub fn queue_caches(queue: QueueType) -> Caches {
    match queue {
        QueueType::Direct => Caches::all(),
        QueueType::Compute => Caches::L0_L1 | Caches::SCALAR_K | Caches::L2,
        QueueType::Copy => Caches::empty(),
    }
}

/// Caches to write back after `before` (EB-3); `to_common` when a texture moves to COMMON.
pub fn write_backs(before: Access, target: Target, queue: QueueType, to_common: bool) -> Caches {
    let any = queue_caches(queue) & (Caches::CB | Caches::DB | Caches::L2);
    if before == Access::COMMON {
        return any;
    }
    if before.contains(Access::NO_ACCESS) || !before.is_write() {
        return Caches::empty();
    }
    let mut c = Caches::empty();
    if before.intersects(Access::RENDER_TARGET | Access::RESOLVE_DEST) {
        c |= Caches::CB;
    }
    if before.contains(Access::DEPTH_STENCIL_WRITE) {
        c |= Caches::DB;
    }
    if before.contains(Access::COPY_DEST) {
        c |= target.copy_cache(queue);
    }
    if to_common {
        c |= Caches::L2;
    }
    c & any
}

/// Caches to invalidate so `after` reads fresh data (EB-3). `changed` says whether the
/// barrier may have changed memory behind the caches: a write before, an activation
/// (NO_ACCESS before), or a layout change (compression work rewrites memory).
pub fn invalidations(
    before: Access,
    after: Access,
    target: Target,
    queue: QueueType,
    layout_changes: bool,
) -> Caches {
    let changed = before.is_write() || before.contains(Access::NO_ACCESS) || layout_changes;
    if !changed || after.contains(Access::NO_ACCESS) {
        return Caches::empty();
    }
    if after == Access::COMMON {
        return queue_caches(queue);
    }
    let mut c = Caches::empty();
    if after.intersects(Access::SHADER_RESOURCE | Access::UNORDERED_ACCESS | Access::VERTEX_BUFFER)
    {
        c |= Caches::L0_L1;
    }
    if after.contains(Access::CONSTANT_BUFFER) {
        c |= Caches::SCALAR_K | Caches::L0_L1;
    }
    if after.intersects(Access::RENDER_TARGET | Access::RESOLVE_DEST | Access::RESOLVE_SOURCE) {
        c |= Caches::CB;
    }
    if after.intersects(Access::DEPTH_STENCIL_READ | Access::DEPTH_STENCIL_WRITE) {
        c |= Caches::DB;
    }
    if after.intersects(Access::COPY_SOURCE | Access::COPY_DEST) {
        c |= target.copy_cache(queue);
    }
    c & queue_caches(queue)
}

/// True when a texture barrier moves into COMMON from another layout.
pub fn moves_to_common(layouts: Option<(Layout, Layout)>) -> bool {
    matches!(layouts, Some((b, Layout::Common)) if b != Layout::Common)
}

#[cfg(test)]
mod tests {
    use super::*;
    use QueueType::{Compute, Direct};

    const COLOUR: Target = Target::Texture { depth: false };

    #[test]
    fn eb3_each_access_has_its_cache() {
        assert_eq!(
            write_backs(Access::RENDER_TARGET, COLOUR, Direct, false),
            Caches::CB
        );
        assert_eq!(
            write_backs(Access::DEPTH_STENCIL_WRITE, COLOUR, Direct, false),
            Caches::DB
        );
        // Shader writes are already in L2: nothing to write back within the GPU.
        assert!(write_backs(Access::UNORDERED_ACCESS, COLOUR, Direct, false).is_empty());
        assert_eq!(
            write_backs(Access::UNORDERED_ACCESS, COLOUR, Direct, true),
            Caches::L2
        );
        let srv = invalidations(
            Access::RENDER_TARGET,
            Access::SHADER_RESOURCE,
            COLOUR,
            Direct,
            true,
        );
        assert_eq!(srv, Caches::L0_L1);
        let cbv = invalidations(
            Access::COPY_DEST,
            Access::CONSTANT_BUFFER,
            Target::Buffer,
            Direct,
            false,
        );
        assert_eq!(cbv, Caches::SCALAR_K | Caches::L0_L1);
        let idx = invalidations(
            Access::COPY_DEST,
            Access::INDEX_BUFFER,
            Target::Buffer,
            Direct,
            false,
        );
        assert!(idx.is_empty(), "index fetch reads through L2");
    }

    #[test]
    fn eb8d_graphics_texture_copies_use_the_back_ends() {
        let depth = Target::Texture { depth: true };
        assert_eq!(
            write_backs(Access::COPY_DEST, COLOUR, Direct, false),
            Caches::CB
        );
        assert_eq!(
            write_backs(Access::COPY_DEST, depth, Direct, false),
            Caches::DB
        );
        assert!(write_backs(Access::COPY_DEST, Target::Buffer, Direct, false).is_empty());
        assert!(write_backs(Access::COPY_DEST, COLOUR, Compute, false).is_empty());
        let into = invalidations(
            Access::UNORDERED_ACCESS,
            Access::COPY_SOURCE,
            COLOUR,
            Direct,
            false,
        );
        assert_eq!(into, Caches::CB);
    }

    #[test]
    fn common_means_everything_and_reads_mean_nothing() {
        assert_eq!(
            write_backs(Access::COMMON, Target::Global, Direct, false),
            Caches::CB | Caches::DB | Caches::L2
        );
        assert_eq!(
            write_backs(Access::COMMON, Target::Global, Compute, false),
            Caches::L2
        );
        assert_eq!(
            invalidations(
                Access::COMMON,
                Access::COMMON,
                Target::Global,
                Direct,
                false
            ),
            Caches::all()
        );
        let rar = invalidations(
            Access::SHADER_RESOURCE,
            Access::SHADER_RESOURCE,
            COLOUR,
            Direct,
            false,
        );
        assert!(rar.is_empty());
        assert!(write_backs(Access::NO_ACCESS, COLOUR, Direct, true).is_empty());
        assert!(
            invalidations(
                Access::RENDER_TARGET,
                Access::NO_ACCESS,
                COLOUR,
                Direct,
                true
            )
            .is_empty()
        );
        assert!(moves_to_common(Some((
            Layout::RenderTarget,
            Layout::Common
        ))));
    }
}
