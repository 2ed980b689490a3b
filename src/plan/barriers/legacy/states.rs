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

/// States a compute queue may transition (no render-target, depth or index states).
fn compute_may(s: S) -> bool {
    !s.intersects(
        S::RENDER_TARGET
            | S::DEPTH_WRITE
            | S::DEPTH_READ
            | S::INDEX_BUFFER
            | S::PIXEL_SHADER_RESOURCE,
    )
}

pub(super) fn may(queue: QueueId, from: S, to: S) -> bool {
    match queue {
        QueueId::Graphics => true,
        QueueId::Compute { .. } => compute_may(from) && compute_may(to),
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
