//! Barrier planning: the barriers around every pass, by the run's strategy (`barriers`
//! setting):
//!
//! - `enhanced` (default): the minimal enhanced barriers, resource by resource (EB-1..EB-5);
//! - `legacy`: the same decisions expressed as legacy resource-state transitions, UAV and
//!   aliasing barriers, which the device translates (EB-10);
//! - `conservative`: full flushes between dependent passes, the correct-first baseline.
//!
//! A plan assumes where each texture starts the frame ([`TextureStart`]); the first frame of
//! a new plan starts each queue with a full flush so that nothing from before the plan is
//! left unordered. Plans are data ([`BarrierPlan`], [`FramePlan`], stored flat in
//! [`PassBarriers`]); the planners are functions of the compiled graph and the starts.

use crate::barrier::{Layout, QueueType};
use crate::device::QueueId;
use crate::model::TextureState;

mod builder;
mod clears;
mod conservative;
mod enhanced;
mod frame;
mod legacy;
mod read_phases;

pub use builder::{Mark, PassBarriersBuilder};
pub use clears::{ClearBarriers, clear_barriers};
pub use conservative::{full_flush, plan_conservative};
pub use enhanced::{EnhancedPlanner, plan_enhanced};
pub(crate) use frame::SlotEdit;
pub use frame::{BarrierPlan, FramePlan, PassBarriers, PlanFrame, TextureRecord, WholeTexture};
pub use legacy::plan_legacy;

/// What the planner knows about a texture before the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureStart {
    pub state: TextureState,
    pub transient: bool,
    /// A swap chain's back buffer: a different buffer every frame, always PRESENT at start.
    pub chain: bool,
    /// Colour DCC without texture compatibility, or depth: reading it as a plain shader
    /// resource would force a decompression (EB-4).
    pub compressible: bool,
}

/// True when `queue` may transition between the two layouts (barrier-spec A5).
pub fn can_transition(queue: QueueId, from: Layout, to: Layout) -> bool {
    from == to || movable(queue.queue_type()).between(from, to)
}

/// The layouts a queue type may move a texture into or out of, one bit each (barrier-spec
/// A5): the planner asks at every use, so the answer is a mask worked out at compile time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movable(u64);

impl Movable {
    #[inline(always)]
    const fn bit(l: Layout) -> u64 {
        // UNDEFINED (all ones) is bit 0, every other layout its value plus one (at most 32).
        1 << ((l as u32).wrapping_add(1) & 63)
    }

    /// True when a queue of this type may transition from `from` to `to` (unequal).
    #[inline(always)]
    pub fn between(self, from: Layout, to: Layout) -> bool {
        let both = Self::bit(from) | Self::bit(to);
        self.0 & both == both
    }
}

const fn movable_mask(t: QueueType) -> Movable {
    let mut mask = 0;
    if !matches!(t, QueueType::Copy) {
        let mut i = 0;
        while i < Layout::ALL.len() {
            let l = Layout::ALL[i];
            if matches!(l, Layout::Undefined) || (t.allows_layout(l) && t.may_transition(l)) {
                mask |= Movable::bit(l);
            }
            i += 1;
        }
    }
    Movable(mask)
}

const MOVABLE: [Movable; 3] = [
    movable_mask(QueueType::Direct),
    movable_mask(QueueType::Compute),
    movable_mask(QueueType::Copy),
];

/// The layouts a queue of type `t` may move textures between.
#[inline(always)]
pub const fn movable(t: QueueType) -> Movable {
    MOVABLE[t as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time masks say what the queue-type tables say (barrier-spec A5): a queue
    /// moves a texture between two layouts when both are named, transitionable layouts of its
    /// type (UNDEFINED counts), and a copy queue moves nothing.
    #[test]
    fn movable_masks_follow_the_queue_type_tables() {
        for t in [QueueType::Direct, QueueType::Compute, QueueType::Copy] {
            let named =
                |l: Layout| l == Layout::Undefined || (t.allows_layout(l) && t.may_transition(l));
            for from in Layout::ALL {
                for to in Layout::ALL {
                    let spec = from == to || (named(from) && named(to) && t != QueueType::Copy);
                    let fast = from == to || movable(t).between(from, to);
                    assert_eq!(fast, spec, "{t:?}: {from:?} -> {to:?}");
                }
            }
        }
        let compute = QueueId::Compute { pipe: 0, index: 0 };
        assert!(!can_transition(
            compute,
            Layout::Common,
            Layout::DirectQueueGenericReadComputeQueueAccessible
        ));
        assert!(can_transition(
            compute,
            Layout::Undefined,
            Layout::UnorderedAccess
        ));
        assert!(!can_transition(
            QueueId::Dma { engine: 0 },
            Layout::Undefined,
            Layout::Common
        ));
    }
}
