//! Checks on a barrier's own values: its Before and After triples and its queue type
//! (barrier-spec A2-A7, EB-11 "the Before triple and the After triple are each compatible").
//!
//! Global, buffer and texture barriers share these rules; only textures carry layouts. The
//! checks need no knowledge of the resource or of earlier barriers, so they are the first,
//! stateless layer: `call.rs` adds the resource-dependent rules and `tracker.rs` the ones
//! that need history. Each finding is reported once, with the offending bits only, so a
//! message says precisely what to remove.

use super::compat::{layout_allows, unserved_access};
use super::{Access, BarrierError, Layout, QueueType, Side, Sync};

/// The values of one barrier, whatever its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Halves {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    /// `(LayoutBefore, LayoutAfter)` for texture barriers.
    pub layouts: Option<(Layout, Layout)>,
    pub discard: bool,
}

impl Halves {
    /// True when this is the begin half of a split (SyncAfter = SPLIT, A4).
    pub fn is_split_begin(&self) -> bool {
        self.sync_after == Sync::SPLIT
    }

    /// True when this is the end half of a split (SyncBefore = SPLIT, A4).
    pub fn is_split_end(&self) -> bool {
        self.sync_before == Sync::SPLIT
    }

    fn side(&self, side: Side) -> (Sync, Access, Option<Layout>, Option<Layout>) {
        let (before, after) = match self.layouts {
            Some((b, a)) => (Some(b), Some(a)),
            None => (None, None),
        };
        match side {
            Side::Before => (self.sync_before, self.access_before, before, after),
            Side::After => (self.sync_after, self.access_after, after, before),
        }
    }
}

/// Every stateless finding for `h` on `queue` (A1-A7).
pub fn check_halves(h: &Halves, queue: QueueType) -> Vec<BarrierError> {
    let mut out = Vec::new();
    for (what, bits, known) in [
        ("SyncBefore", h.sync_before.bits(), Sync::all().bits()),
        ("SyncAfter", h.sync_after.bits(), Sync::all().bits()),
        ("AccessBefore", h.access_before.bits(), Access::all().bits()),
        ("AccessAfter", h.access_after.bits(), Access::all().bits()),
    ] {
        if bits & !known != 0 {
            out.push(BarrierError::UnknownFlagBits {
                what,
                bits: bits & !known,
            });
        }
    }
    let split_before = h.sync_before.contains(Sync::SPLIT);
    let split_after = h.sync_after.contains(Sync::SPLIT);
    if (split_before && (split_after || h.sync_before != Sync::SPLIT))
        || (split_after && h.sync_after != Sync::SPLIT)
    {
        out.push(BarrierError::MalformedSplit {
            sync_before: h.sync_before,
            sync_after: h.sync_after,
        });
    }
    for side in [Side::Before, Side::After] {
        check_side(h, side, queue, &mut out);
    }
    if let Some((before, after)) = h.layouts {
        if queue == QueueType::Copy && (before != Layout::Common || after != Layout::Common) {
            out.push(BarrierError::CopyQueueNotCommon { before, after });
        }
        if h.discard && before != Layout::Undefined {
            out.push(BarrierError::DiscardWithoutUndefined {
                layout_before: before,
            });
        }
    }
    out
}

fn check_side(h: &Halves, side: Side, queue: QueueType, out: &mut Vec<BarrierError>) {
    let (sync, access, layout, other_layout) = h.side(side);
    let sync_known = sync & Sync::all();
    let access_known = access & Access::all();
    if access_known.contains(Access::NO_ACCESS) && access_known != Access::NO_ACCESS {
        out.push(BarrierError::NoAccessCombined {
            side,
            access: access_known,
        });
    }
    if sync_known == Sync::NONE && access_known != Access::NO_ACCESS {
        out.push(BarrierError::SyncNoneWithAccess {
            side,
            access: access_known,
        });
    } else if sync_known != Sync::SPLIT {
        let unserved = unserved_access(sync_known, access_known);
        if !unserved.is_empty() {
            out.push(BarrierError::AccessSyncIncompatible {
                side,
                sync: sync_known,
                access: unserved,
            });
        }
    }
    let bad_sync = sync_known.difference(queue.allowed_sync());
    if !bad_sync.is_empty() {
        out.push(BarrierError::SyncNotOnQueue {
            side,
            sync: bad_sync,
            queue,
        });
    }
    let bad_access = access_known
        .difference(Access::NO_ACCESS)
        .difference(queue.allowed_access());
    if !bad_access.is_empty() {
        out.push(BarrierError::AccessNotOnQueue {
            side,
            access: bad_access,
            queue,
        });
    }
    let (Some(layout), Some(other)) = (layout, other_layout) else {
        return;
    };
    if layout == Layout::Undefined {
        if other != Layout::Undefined && access_known != Access::NO_ACCESS {
            out.push(BarrierError::UndefinedLayoutWithAccess {
                side,
                access: access_known,
            });
        }
    } else if access_known != Access::NO_ACCESS {
        let bad = access_known
            .difference(Access::NO_ACCESS)
            .difference(layout_allows(layout));
        if !bad.is_empty() {
            out.push(BarrierError::LayoutAccessIncompatible {
                side,
                layout,
                access: bad,
            });
        }
    }
    let transitions = layout != other;
    if queue != QueueType::Copy
        && (!queue.allows_layout(layout) || (transitions && !queue.may_transition(layout)))
    {
        out.push(BarrierError::LayoutNotOnQueue {
            side,
            layout,
            queue,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use QueueType::{Compute, Copy, Direct};

    /// RENDER_TARGET -> SHADER_RESOURCE for pixel shading, edited by `f`.
    fn with(f: impl FnOnce(&mut Halves)) -> Halves {
        let mut h = Halves {
            sync_before: Sync::RENDER_TARGET,
            sync_after: Sync::PIXEL_SHADING,
            access_before: Access::RENDER_TARGET,
            access_after: Access::SHADER_RESOURCE,
            layouts: Some((Layout::RenderTarget, Layout::ShaderResource)),
            discard: false,
        };
        f(&mut h);
        h
    }

    fn names(h: Halves, q: QueueType) -> Vec<&'static str> {
        check_halves(&h, q).iter().map(BarrierError::name).collect()
    }

    const NONE: [&str; 0] = [];

    #[test]
    fn a_valid_transition_passes() {
        assert_eq!(names(with(|_| ()), Direct), NONE);
    }

    #[test]
    fn a3_1_sync_none_requires_no_access() {
        let bad = with(|h| h.sync_after = Sync::NONE);
        assert_eq!(names(bad, Direct), ["SyncNoneWithAccess"]);
        let good = with(|h| {
            h.sync_after = Sync::NONE;
            h.access_after = Access::NO_ACCESS;
        });
        assert_eq!(names(good, Direct), NONE);
    }

    #[test]
    fn a3_2_no_access_stands_alone() {
        let bad = with(|h| h.access_after = Access::NO_ACCESS | Access::SHADER_RESOURCE);
        assert_eq!(names(bad, Direct), ["NoAccessCombined"]);
        let good = with(|h| h.access_after = Access::NO_ACCESS);
        assert_eq!(names(good, Direct), NONE);
    }

    #[test]
    fn a3_3_undefined_side_has_no_access() {
        let bad = with(|h| h.layouts = Some((Layout::Undefined, Layout::ShaderResource)));
        assert_eq!(names(bad, Direct), ["UndefinedLayoutWithAccess"]);
        let good = with(|h| {
            h.layouts = Some((Layout::Undefined, Layout::ShaderResource));
            h.sync_before = Sync::NONE;
            h.access_before = Access::NO_ACCESS;
        });
        assert_eq!(names(good, Direct), NONE);
        // Both sides UNDEFINED: a memory-only barrier, any access.
        let both = with(|h| h.layouts = Some((Layout::Undefined, Layout::Undefined)));
        assert_eq!(names(both, Direct), NONE);
    }

    #[test]
    fn a6_layout_admits_access() {
        let bad = with(|h| {
            h.access_after = Access::UNORDERED_ACCESS;
            h.sync_after = Sync::COMPUTE_SHADING;
        });
        assert_eq!(names(bad, Direct), ["LayoutAccessIncompatible"]);
        let good =
            with(|h| h.layouts = Some((Layout::RenderTarget, Layout::DirectQueueGenericRead)));
        assert_eq!(names(good, Direct), NONE);
    }

    #[test]
    fn a7_sync_serves_access() {
        let bad = with(|h| h.sync_before = Sync::PIXEL_SHADING);
        assert_eq!(names(bad, Direct), ["AccessSyncIncompatible"]);
        let good = with(|h| h.sync_before = Sync::DRAW);
        assert_eq!(names(good, Direct), NONE);
    }

    #[test]
    fn a5_queue_limits_layouts_accesses_and_syncs() {
        let errs = names(with(|_| ()), Compute);
        for n in ["LayoutNotOnQueue", "AccessNotOnQueue", "SyncNotOnQueue"] {
            assert!(errs.contains(&n), "{n} missing from {errs:?}");
        }
        let good = with(|h| {
            h.sync_before = Sync::COMPUTE_SHADING;
            h.sync_after = Sync::COMPUTE_SHADING;
            h.access_before = Access::UNORDERED_ACCESS;
            h.layouts = Some((Layout::UnorderedAccess, Layout::ShaderResource));
        });
        assert_eq!(names(good, Compute), NONE);
        // Compute lists may use, but not transition, the compute-accessible read layout.
        let accessible = Layout::DirectQueueGenericReadComputeQueueAccessible;
        let into = with(|h| {
            *h = Halves {
                layouts: Some((Layout::UnorderedAccess, accessible)),
                ..good
            }
        });
        assert_eq!(names(into, Compute), ["LayoutNotOnQueue"]);
        let stay = with(|h| {
            *h = good;
            h.access_before = Access::SHADER_RESOURCE;
            h.layouts = Some((accessible, accessible));
        });
        assert_eq!(names(stay, Compute), NONE);
    }

    #[test]
    fn a5_copy_queue_is_common_only() {
        let copy = |lb, la| {
            with(|h| {
                h.sync_before = Sync::COPY;
                h.sync_after = Sync::COPY;
                h.access_before = Access::COPY_DEST;
                h.access_after = Access::COPY_SOURCE;
                h.layouts = Some((lb, la));
            })
        };
        let bad = copy(Layout::CopyDest, Layout::CopySource);
        assert_eq!(names(bad, Copy), ["CopyQueueNotCommon"]);
        assert_eq!(names(copy(Layout::Common, Layout::Common), Copy), NONE);
    }

    #[test]
    fn a2_discard_only_from_undefined() {
        let bad = with(|h| h.discard = true);
        assert_eq!(names(bad, Direct), ["DiscardWithoutUndefined"]);
        let good = with(|h| {
            h.discard = true;
            h.sync_before = Sync::NONE;
            h.access_before = Access::NO_ACCESS;
            h.layouts = Some((Layout::Undefined, Layout::ShaderResource));
        });
        assert_eq!(names(good, Direct), NONE);
    }

    #[test]
    fn a4_split_is_alone_and_one_sided() {
        let bad = with(|h| h.sync_after = Sync::SPLIT | Sync::PIXEL_SHADING);
        assert!(names(bad, Direct).contains(&"MalformedSplit"));
        let both = with(|h| {
            h.sync_before = Sync::SPLIT;
            h.sync_after = Sync::SPLIT;
        });
        assert_eq!(names(both, Direct), ["MalformedSplit"]);
        let begin = with(|h| h.sync_after = Sync::SPLIT);
        assert!(begin.is_split_begin() && !begin.is_split_end());
        assert_eq!(names(begin, Direct), NONE);
    }

    #[test]
    fn a1_undefined_bits_are_reported() {
        let bad = with(|h| h.sync_before |= Sync::from_bits_retain(0x4000_0000));
        let errs = check_halves(&bad, Direct);
        assert_eq!(
            errs,
            [BarrierError::UnknownFlagBits {
                what: "SyncBefore",
                bits: 0x4000_0000
            }]
        );
        assert_eq!(names(with(|_| ()), Direct), NONE);
    }
}
