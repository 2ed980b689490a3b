//! The barrier inside a pass that clears a UAV and then uses it.
//!
//! A clear through an unordered-access view is a write (barrier-spec A1: ClearUAV runs in
//! CLEAR_UNORDERED_ACCESS_VIEW), and so is the dispatch or draw after it that writes the same
//! resource; a read after it reads what the clear wrote. Nothing orders two accesses on one
//! queue but a barrier (FS-3), and the clear is recorded inside the pass, after the barriers
//! the strategies plan at pass boundaries, so the pass carries one more: from the clear
//! (SyncBefore the use's stages, which hold CLEAR_UNORDERED_ACCESS_VIEW, UNORDERED_ACCESS) to
//! the stages of the use without the clear's (AccessAfter UNORDERED_ACCESS), in the use's
//! layout, which the clear leaves unchanged. The
//! barriers at the boundary cover the clear because compile adds its stage to the use's
//! stages. Render-target and depth clears need nothing: the output merger orders its own
//! writes of one target (barrier-spec A3).
//!
//! That is the `enhanced` strategy's barrier. The `conservative` and `legacy` strategies
//! order the two with the full flush of the queue (a global ALL -> ALL barrier, as
//! conservative puts between dependent passes): their barriers at the pass's start end in
//! SyncAfter ALL or a legacy state's sync (barrier-spec B), which a resource barrier after them
//! would have to contain (A3.4), and a legacy UAV barrier translates to ALL_SHADING, which
//! does not hold the clear's stage. For the same reason a legacy transition into
//! UNORDERED_ACCESS (SyncAfter ALL_SHADING) does not order the clear after it, so the legacy
//! strategy flushes before the clears as well ([`ClearBarriers::before`]).

use bevy_ecs::prelude::*;

use super::full_flush;
use crate::barrier::{Access, BarrierGroup, BufferBarrier, Sync, TextureBarrier};
use crate::device::QueueId;
use crate::model::{BarrierMode, UseAccess};
use crate::plan::PlannedUse;

/// The barriers around a pass's UAV clears.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClearBarriers {
    /// Before the clears (legacy only: after its transitions, before the clear).
    pub before: BarrierGroup<Entity>,
    /// Between the clears and the pass's work.
    pub after: BarrierGroup<Entity>,
}

/// The barriers around the UAV clears of a pass on `queue` whose uses are `uses`, under
/// strategy `mode` (empty when it clears none).
pub fn clear_barriers(queue: QueueId, uses: &[PlannedUse], mode: BarrierMode) -> ClearBarriers {
    let cleared = (uses.iter()).filter(|u| u.clear && u.access == UseAccess::UnorderedAccess);
    let flush = || BarrierGroup {
        global: vec![full_flush(queue)],
        ..Default::default()
    };
    match mode {
        _ if cleared.clone().next().is_none() => ClearBarriers::default(),
        BarrierMode::Enhanced => ClearBarriers {
            before: BarrierGroup::default(),
            after: after_clears(cleared),
        },
        BarrierMode::Conservative => ClearBarriers {
            before: BarrierGroup::default(),
            after: flush(),
        },
        BarrierMode::Legacy => ClearBarriers {
            before: flush(),
            after: flush(),
        },
    }
}

/// The enhanced barrier from each cleared use's clear to its stages.
fn after_clears<'a>(cleared: impl Iterator<Item = &'a PlannedUse>) -> BarrierGroup<Entity> {
    let mut group = BarrierGroup::default();
    for u in cleared {
        // The barrier at the pass's start synchronised the use's stages after it, so this one
        // waits for those (barrier-spec A3.4: a SyncBefore contains the previous SyncAfter);
        // compile put the clear's stage among them.
        let sync_before = u.stages | Sync::CLEAR_UNORDERED_ACCESS_VIEW;
        let sync_after = u.stages - Sync::CLEAR_UNORDERED_ACCESS_VIEW;
        match u.layout {
            Some(layout) => group.textures.push(TextureBarrier {
                resource: u.resource,
                sync_before,
                sync_after,
                access_before: Access::UNORDERED_ACCESS,
                access_after: Access::UNORDERED_ACCESS,
                layout_before: layout,
                layout_after: layout,
                range: u.range,
                flags: Default::default(),
            }),
            None => group.buffers.push(BufferBarrier {
                resource: u.resource,
                sync_before,
                sync_after,
                access_before: Access::UNORDERED_ACCESS,
                access_after: Access::UNORDERED_ACCESS,
            }),
        }
    }
    group
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::Layout;

    fn uav(resource: u32, clear: bool, layout: Option<Layout>) -> PlannedUse {
        let resource = Entity::from_raw_u32(resource).expect("valid index");
        PlannedUse {
            target: resource,
            resource,
            access: UseAccess::UnorderedAccess,
            stages: Sync::COMPUTE_SHADING | Sync::CLEAR_UNORDERED_ACCESS_VIEW,
            layout,
            view_kind: None,
            clear,
            key: resource,
            range: crate::barrier::SubresourceRange::ALL,
            view_range: crate::barrier::SubresourceRange::ALL,
            bound: true,
        }
    }

    /// FS-3: a cleared texture UAV and a cleared buffer UAV each get a barrier from the clear
    /// to the dispatch; an uncleared UAV gets none.
    #[test]
    fn orders_each_uav_clear_before_the_work() {
        let queue = QueueId::Graphics;
        let uses = [
            uav(10, true, Some(Layout::UnorderedAccess)),
            uav(11, true, None),
            uav(12, false, Some(Layout::UnorderedAccess)),
        ];
        let c = clear_barriers(queue, &uses, BarrierMode::Enhanced);
        assert!(c.before.is_empty());
        let g = c.after;
        assert!(g.global.is_empty());
        assert_eq!(g.textures.len(), 1);
        assert_eq!(g.buffers.len(), 1);
        let t = g.textures[0];
        assert_eq!(t.resource, uses[0].resource);
        assert_eq!(
            t.sync_before,
            Sync::COMPUTE_SHADING | Sync::CLEAR_UNORDERED_ACCESS_VIEW
        );
        assert_eq!(t.sync_after, Sync::COMPUTE_SHADING);
        assert_eq!(t.layout_before, Layout::UnorderedAccess);
        assert_eq!(t.layout_after, Layout::UnorderedAccess);
        assert_eq!(g.buffers[0].resource, uses[1].resource);
        assert_eq!(g.buffers[0].sync_after, Sync::COMPUTE_SHADING);
        let legacy = clear_barriers(queue, &uses, BarrierMode::Legacy);
        assert_eq!(legacy.before.global, vec![full_flush(queue)]);
        assert_eq!(legacy.after.global, vec![full_flush(queue)]);
        assert!(legacy.after.buffers.is_empty() && legacy.after.textures.is_empty());
        let conservative = clear_barriers(queue, &uses, BarrierMode::Conservative);
        assert!(conservative.before.is_empty());
        assert_eq!(conservative.after.global, vec![full_flush(queue)]);
        for mode in [
            BarrierMode::Enhanced,
            BarrierMode::Legacy,
            BarrierMode::Conservative,
        ] {
            assert_eq!(clear_barriers(queue, &[], mode), ClearBarriers::default());
        }
    }
}
