//! Legacy resource states of uses (barrier-spec B), which a queue may move between which
//! (A5), and the transition that moves one.

use bevy_ecs::prelude::*;

use crate::barrier::{LegacyBarrier, LegacySplit, ResourceStates as S};
use crate::device::QueueId;
use crate::model::UseAccess;

/// The legacy state a use needs on a queue, given the stages that perform it (barrier-spec B:
/// shader reads outside the pixel shader are NON_PIXEL_SHADER_RESOURCE).
pub fn legacy_state(access: UseAccess, queue: QueueId, stages: crate::barrier::Sync) -> S {
    use crate::barrier::Sync;
    if matches!(queue, QueueId::Dma { .. }) {
        return S::COMMON;
    }
    let stages = stages.expand();
    let mut shader = S::empty();
    if stages.contains(Sync::PIXEL_SHADING) {
        shader |= S::PIXEL_SHADER_RESOURCE;
    }
    if stages.intersects(Sync::VERTEX_SHADING | Sync::COMPUTE_SHADING) || shader.is_empty() {
        shader |= S::NON_PIXEL_SHADER_RESOURCE;
    }
    match access {
        UseAccess::RenderTarget => S::RENDER_TARGET,
        UseAccess::DepthWrite => S::DEPTH_WRITE,
        UseAccess::DepthRead => S::DEPTH_READ,
        UseAccess::ShaderRead => shader,
        UseAccess::UnorderedAccess => S::UNORDERED_ACCESS,
        UseAccess::CopySource => S::COPY_SOURCE,
        UseAccess::CopyDest => S::COPY_DEST,
        UseAccess::VertexBuffer | UseAccess::ConstantBuffer => S::VERTEX_AND_CONSTANT_BUFFER,
        UseAccess::IndexBuffer => S::INDEX_BUFFER,
        UseAccess::IndirectArgument => S::INDIRECT_ARGUMENT,
    }
}

/// The state one pass needs a resource in, from all its uses of it, and the access that
/// stands for them (a write if there is one): read states combine (barrier-spec B: a
/// resource may be in several read states at once, as an index buffer that is also the
/// indirect arguments of the draw), a write's state stands alone.
pub(super) fn pass_state<'a>(
    mut uses: impl Iterator<Item = &'a crate::plan::PlannedUse>,
    queue: QueueId,
) -> Option<(UseAccess, S)> {
    let first = uses.next()?;
    let mut out = (
        first.access,
        legacy_state(first.access, queue, first.stages),
    );
    for u in uses {
        let state = legacy_state(u.access, queue, u.stages);
        if u.access.is_write() {
            out = (u.access, state);
        } else if !out.0.is_write() {
            out.1 |= state;
        }
    }
    Some(out)
}

/// States a compute queue may transition (no render-target, depth or index states). For a
/// texture, not NON_PIXEL_SHADER_RESOURCE combined with another read either: that is the
/// LEGACY_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE layout (barrier-spec B), which a
/// compute list may read in but only a direct queue may move into or out of (A5). A buffer
/// has no layout, so its read states combine on a compute queue too.
fn compute_may(s: S, texture: bool) -> bool {
    let direct_only = texture
        && s.contains(S::NON_PIXEL_SHADER_RESOURCE)
        && s != S::NON_PIXEL_SHADER_RESOURCE
        && S::GENERIC_READ.contains(s);
    !direct_only
        && !s.intersects(
            S::RENDER_TARGET
                | S::DEPTH_WRITE
                | S::DEPTH_READ
                | S::INDEX_BUFFER
                | S::PIXEL_SHADER_RESOURCE,
        )
}

/// Whether `queue` may transition a resource (a texture when `texture`) from `from` to `to`
/// (barrier-spec A5): graphics any state, compute those of [`compute_may`], a copy engine
/// none (it stays in COMMON).
pub(super) fn may_move(queue: QueueId, from: S, to: S, texture: bool) -> bool {
    match queue {
        QueueId::Graphics => true,
        QueueId::Compute { .. } => compute_may(from, texture) && compute_may(to, texture),
        QueueId::Dma { .. } => from == to,
    }
}

pub(super) fn transition(resource: Entity, before: S, after: S) -> LegacyBarrier<Entity> {
    LegacyBarrier::Transition {
        resource,
        subresource: crate::barrier::ALL_SUBRESOURCES,
        before,
        after,
        split: LegacySplit::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Barrier-spec A5, B: a compute queue moves a texture into a single shader-resource state
    /// but not into one combined with a copy read (a direct-queue layout), while a buffer,
    /// which has no layout, may take the combination.
    #[test]
    fn compute_moves_no_texture_into_a_direct_queue_read_layout() {
        let compute = QueueId::Compute { pipe: 0, index: 0 };
        let both = S::NON_PIXEL_SHADER_RESOURCE | S::COPY_SOURCE;
        assert!(may_move(
            compute,
            S::UNORDERED_ACCESS,
            S::NON_PIXEL_SHADER_RESOURCE,
            true
        ));
        assert!(!may_move(compute, S::UNORDERED_ACCESS, both, true));
        assert!(!may_move(compute, both, S::UNORDERED_ACCESS, true));
        assert!(may_move(compute, S::UNORDERED_ACCESS, both, false));
        assert!(may_move(QueueId::Graphics, S::UNORDERED_ACCESS, both, true));
    }
}
