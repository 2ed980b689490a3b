//! Renaming the set-type tokens of fast resource binding (RB-1, RB-2), the one walk of
//! `script_map.rs` applied to them: an SRV or UAV token names views, the others buffers, so a
//! scene's names are checked, saved and resolved in the slots the legacy binding calls use.

use super::Rename;
use super::script::Slot;
use crate::device::{FastSet, ReferenceType};

/// A fast binding token renamed by `to`: views in its SRV and UAV tokens, buffers in the
/// others (RB-1).
pub fn fast_set<'a, R: ReferenceType + 'a, S: ReferenceType, E>(
    set: &'a FastSet<R>,
    to: &mut impl Rename<'a, R, S, Error = E>,
) -> Result<FastSet<S>, E> {
    let mut all = |slot: Slot, list: &'a [R]| -> Result<Vec<S>, E> {
        list.iter().map(|r| to.object(slot, r)).collect()
    };
    Ok(match set {
        FastSet::Srv { stage, slot, views } => FastSet::Srv {
            stage: *stage,
            slot: *slot,
            views: all(Slot::View, views)?,
        },
        FastSet::Uav { stage, slot, views } => FastSet::Uav {
            stage: *stage,
            slot: *slot,
            views: all(Slot::View, views)?,
        },
        FastSet::ConstantBuffers {
            stage,
            slot,
            buffers,
        } => FastSet::ConstantBuffers {
            stage: *stage,
            slot: *slot,
            buffers: all(Slot::Buffer, buffers)?,
        },
        FastSet::VertexBuffersWithOffset { slot, buffers } => FastSet::VertexBuffersWithOffset {
            slot: *slot,
            buffers: all(Slot::Buffer, buffers)?,
        },
        FastSet::VertexBuffers { slot, buffers } => FastSet::VertexBuffers {
            slot: *slot,
            buffers: all(Slot::Buffer, buffers)?,
        },
        FastSet::Samplers {
            stage,
            slot,
            samplers,
        } => FastSet::Samplers {
            stage: *stage,
            slot: *slot,
            samplers: samplers.clone(),
        },
    })
}
