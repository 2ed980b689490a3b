//! One subresource's barrier history and the rules that read it (barrier-spec A3.4, A4, A9,
//! EB-7).
//!
//! Pure functions over a small value: given what is known of a subresource and the next valid
//! barrier on it, either the state it leaves behind or the rules the barrier breaks. Keeping
//! this apart from the map in `tracker.rs` lets each history rule be tested on its own.

use super::states::ResourceStates;
use super::triple::Halves;
use super::{Access, BarrierError, Layout, Sync};

/// What the tracker knows about one subresource (a buffer is subresource 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubState {
    /// Known or assumed layout; `None` for buffers and unseen textures.
    pub layout: Option<Layout>,
    /// AccessAfter of the last barrier; `None` when unknown.
    pub access_after: Option<Access>,
    /// SyncAfter of the last barrier; `None` when unknown.
    pub sync_after: Option<Sync>,
    /// The begin half of a split still waiting for its end (A4).
    pub open_split: Option<Halves>,
    /// Legacy state, while a legacy barrier was the last to move the subresource (EB-7).
    pub legacy: Option<ResourceStates>,
}

/// The next state of one subresource after barrier `h`, or why `h` does not fit its history.
pub fn transition(
    s: SubState,
    h: &Halves,
    texture: bool,
    i: u64,
) -> Result<SubState, Vec<BarrierError>> {
    let mut errors = Vec::new();
    if let (true, Some(state)) = (texture, s.legacy)
        && state != ResourceStates::COMMON
    {
        errors.push(BarrierError::LegacyStateNotCommon {
            subresource: i,
            state: state.bits(),
        });
    }
    let layout_after = h.layouts.map(|(_, a)| a);
    let mut next = SubState { legacy: None, ..s };
    match (s.open_split, h.is_split_end()) {
        (Some(open), true) => {
            if (open.access_before, open.access_after, open.layouts)
                != (h.access_before, h.access_after, h.layouts)
            {
                errors.push(BarrierError::SplitHalvesDiffer { subresource: i });
            }
            next.open_split = None;
            next.layout = layout_after;
            next.access_after = Some(h.access_after);
            next.sync_after = Some(h.sync_after);
        }
        (Some(_), false) => errors.push(BarrierError::SplitInterrupted { subresource: i }),
        (None, true) => errors.push(BarrierError::SplitEndWithoutBegin { subresource: i }),
        (None, false) => {
            check_history(&s, h, i, &mut errors);
            if h.is_split_begin() {
                next.open_split = Some(*h);
            } else {
                next.layout = layout_after;
                next.access_after = Some(h.access_after);
                next.sync_after = Some(h.sync_after);
            }
        }
    }
    if errors.is_empty() {
        Ok(next)
    } else {
        Err(errors)
    }
}

/// A9 (known layout and access) and A3.4 (sequential sync) for a barrier that is not an
/// end-split.
fn check_history(s: &SubState, h: &Halves, i: u64, errors: &mut Vec<BarrierError>) {
    if let (Some(known), Some((found, _))) = (s.layout, h.layouts)
        && found != Layout::Undefined
        && found != known
    {
        errors.push(BarrierError::LayoutMismatch {
            subresource: i,
            known,
            found,
        });
    }
    if let Some(known) = s.access_after {
        let found = h.access_before;
        let ok = found == Access::COMMON
            || found == Access::NO_ACCESS
            || known == Access::COMMON
            || (known != Access::NO_ACCESS && known.contains(found));
        if !ok {
            errors.push(BarrierError::AccessMismatch {
                subresource: i,
                known,
                found,
            });
        }
    }
    if let Some(earlier_after) = s.sync_after
        && earlier_after != Sync::NONE
        && !h.sync_before.covers(earlier_after)
    {
        errors.push(BarrierError::SyncNotSequential {
            subresource: i,
            earlier_after,
            later_before: h.sync_before,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BarrierError as E;

    fn h(sb: Sync, sa: Sync, ab: Access, aa: Access, lb: Layout, la: Layout) -> Halves {
        Halves {
            sync_before: sb,
            sync_after: sa,
            access_before: ab,
            access_after: aa,
            layouts: Some((lb, la)),
            discard: false,
        }
    }

    /// RENDER_TARGET -> SHADER_RESOURCE for pixel shading.
    fn rt_to_srv() -> Halves {
        h(
            Sync::RENDER_TARGET,
            Sync::PIXEL_SHADING,
            Access::RENDER_TARGET,
            Access::SHADER_RESOURCE,
            Layout::RenderTarget,
            Layout::ShaderResource,
        )
    }

    /// SHADER_RESOURCE -> RENDER_TARGET after pixel shading.
    fn srv_to_rt() -> Halves {
        h(
            Sync::PIXEL_SHADING,
            Sync::RENDER_TARGET,
            Access::SHADER_RESOURCE,
            Access::RENDER_TARGET,
            Layout::ShaderResource,
            Layout::RenderTarget,
        )
    }

    fn after(h: &Halves) -> SubState {
        transition(SubState::default(), h, true, 0).unwrap()
    }

    #[test]
    fn first_barrier_sets_the_assumed_state() {
        let s = after(&rt_to_srv());
        assert_eq!(s.layout, Some(Layout::ShaderResource));
        assert_eq!(s.access_after, Some(Access::SHADER_RESOURCE));
        assert_eq!(s.sync_after, Some(Sync::PIXEL_SHADING));
        assert_eq!(
            transition(s, &srv_to_rt(), true, 0).unwrap().layout,
            Some(Layout::RenderTarget)
        );
    }

    #[test]
    fn a9_layout_before_matches_known_layout() {
        let s = after(&rt_to_srv());
        let wrong = rt_to_srv();
        assert!(matches!(
            transition(s, &wrong, true, 3).unwrap_err()[..],
            [
                E::LayoutMismatch {
                    subresource: 3,
                    known: Layout::ShaderResource,
                    found: Layout::RenderTarget
                },
                ..
            ]
        ));
        // UNDEFINED as LayoutBefore discards, whatever the known layout.
        let discard = h(
            Sync::PIXEL_SHADING,
            Sync::RENDER_TARGET,
            Access::NO_ACCESS,
            Access::RENDER_TARGET,
            Layout::Undefined,
            Layout::RenderTarget,
        );
        assert!(transition(s, &discard, true, 0).is_ok());
    }

    #[test]
    fn a9_access_before_within_previous_access_after() {
        let s = after(&rt_to_srv());
        let wrong = Halves {
            access_before: Access::UNORDERED_ACCESS,
            ..srv_to_rt()
        };
        assert!(matches!(
            transition(s, &wrong, true, 0).unwrap_err()[..],
            [E::AccessMismatch { .. }]
        ));
        // Deactivated (NO_ACCESS) memory cannot have been read since.
        let dead = SubState {
            access_after: Some(Access::NO_ACCESS),
            ..s
        };
        assert!(matches!(
            transition(dead, &srv_to_rt(), true, 0).unwrap_err()[..],
            [E::AccessMismatch { .. }]
        ));
        assert!(transition(s, &srv_to_rt(), true, 0).is_ok());
    }

    #[test]
    fn a3_4_later_sync_before_contains_earlier_sync_after() {
        let s = after(&rt_to_srv());
        let wrong = Halves {
            sync_before: Sync::COMPUTE_SHADING | Sync::VERTEX_SHADING,
            ..srv_to_rt()
        };
        assert!(matches!(
            transition(s, &wrong, true, 0).unwrap_err()[..],
            [E::SyncNotSequential {
                earlier_after: Sync::PIXEL_SHADING,
                ..
            }]
        ));
        let wider = Halves {
            sync_before: Sync::ALL_SHADING,
            ..srv_to_rt()
        };
        assert!(transition(s, &wider, true, 0).is_ok());
        // SyncBefore NONE after something touched the subresource (A3.1).
        let none = h(
            Sync::NONE,
            Sync::RENDER_TARGET,
            Access::NO_ACCESS,
            Access::RENDER_TARGET,
            Layout::Undefined,
            Layout::RenderTarget,
        );
        assert!(matches!(
            transition(s, &none, true, 0).unwrap_err()[..],
            [E::SyncNotSequential { .. }]
        ));
    }

    #[test]
    fn a4_split_pairs() {
        let begin = Halves {
            sync_after: Sync::SPLIT,
            ..rt_to_srv()
        };
        let end = Halves {
            sync_before: Sync::SPLIT,
            ..rt_to_srv()
        };
        let open = after(&begin);
        assert_eq!(open.open_split, Some(begin));
        assert_eq!(open.layout, None, "the layout changes at the end");
        let closed = transition(open, &end, true, 0).unwrap();
        assert_eq!(
            (closed.open_split, closed.layout),
            (None, Some(Layout::ShaderResource))
        );
        // End without begin.
        assert!(matches!(
            transition(SubState::default(), &end, true, 0).unwrap_err()[..],
            [E::SplitEndWithoutBegin { .. }]
        ));
        // Halves disagree.
        let other = Halves {
            access_after: Access::NO_ACCESS,
            ..end
        };
        assert!(matches!(
            transition(open, &other, true, 0).unwrap_err()[..],
            [E::SplitHalvesDiffer { .. }]
        ));
        // Another barrier in between.
        assert!(matches!(
            transition(open, &rt_to_srv(), true, 0).unwrap_err()[..],
            [E::SplitInterrupted { .. }]
        ));
    }

    #[test]
    fn eb7_legacy_state_must_be_common() {
        let legacy = SubState {
            legacy: Some(ResourceStates::PIXEL_SHADER_RESOURCE),
            ..SubState::default()
        };
        assert!(matches!(
            transition(legacy, &srv_to_rt(), true, 0).unwrap_err()[..],
            [E::LegacyStateNotCommon { state: 0x80, .. }]
        ));
        let common = SubState {
            legacy: Some(ResourceStates::COMMON),
            layout: Some(Layout::Common),
            ..SubState::default()
        };
        let from_common = Halves {
            layouts: Some((Layout::Common, Layout::RenderTarget)),
            ..srv_to_rt()
        };
        let s = transition(common, &from_common, true, 0).unwrap();
        assert_eq!(s.legacy, None, "now tracked by layout");
        // Buffers are treated as COMMON whatever their legacy state.
        let buffer = Halves {
            layouts: None,
            ..srv_to_rt()
        };
        assert!(transition(legacy, &buffer, false, 0).is_ok());
    }
}
