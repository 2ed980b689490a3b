//! Why a barrier is refused (EB-11, barrier-spec A2-A9, B, EB-7).
//!
//! One variant per rule, so a test can trigger each one and a report can group findings by
//! rule. Every message starts with the rule ID and, where the D3D12 debug layer has one, the
//! name of its message (barrier-spec A9), so a reader can line a finding up with PIX output.
//! Two findings are warnings rather than errors, as the debug layer treats them: a call with
//! zero barriers, and a buffer or COMMON-layout split crossing a submission boundary.

use super::{Access, Layout, QueueType, Sync};
use std::fmt;
use thiserror::Error;

/// Which half of a barrier a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Before,
    After,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Before => "Before",
            Side::After => "After",
        })
    }
}

/// How bad a [`BarrierError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BarrierSeverity {
    /// Reported, the barrier still executes.
    Warning,
    /// The barrier is refused.
    Error,
}

/// A barrier the validator refuses or warns about.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BarrierError {
    /// Warning: a Barrier call with no barriers at all (EB-11, A9 "zero counts warn").
    #[error("EB-11 (A9): Barrier call with a zero group or barrier count")]
    EmptyBarrierCall,
    /// A barrier names a resource with no description, so nothing about it can be checked.
    #[error("EB-11: barrier names an unknown resource; its type and range cannot be checked")]
    UnknownResource,
    /// The resource description itself is impossible (no mips, three planes, ...).
    #[error("EB-11: resource description is invalid: {detail}")]
    InvalidResourceInfo { detail: &'static str },
    /// A sync, access or legacy-state value carries bits the specification does not define.
    #[error("A1 (INCOMPATIBLE_BARRIER_VALUES): {what} has undefined bits {bits:#x}")]
    UnknownFlagBits { what: &'static str, bits: u32 },
    /// `SYNC_NONE` with an access other than `NO_ACCESS` (A3.1).
    #[error(
        "A3.1 (INCOMPATIBLE_BARRIER_VALUES): Sync{side} NONE requires Access{side} NO_ACCESS, found {access:?}"
    )]
    SyncNoneWithAccess { side: Side, access: Access },
    /// `NO_ACCESS` combined with another access bit (A3.2).
    #[error(
        "A3.2 (INVALID_BARRIER_ACCESS): Access{side} NO_ACCESS combines with no other bit, found {access:?}"
    )]
    NoAccessCombined { side: Side, access: Access },
    /// Exactly one layout is `UNDEFINED` and that side's access is not `NO_ACCESS` (A3.3).
    #[error(
        "A3.3 (INCOMPATIBLE_BARRIER_VALUES): Layout{side} UNDEFINED requires Access{side} NO_ACCESS unless both layouts are UNDEFINED, found {access:?}"
    )]
    UndefinedLayoutWithAccess { side: Side, access: Access },
    /// The access is not one the layout admits (A6).
    #[error("A6 (INCOMPATIBLE_BARRIER_ACCESS): Access{side} {access:?} is not allowed in layout {}", layout.spec_name())]
    LayoutAccessIncompatible {
        side: Side,
        layout: Layout,
        access: Access,
    },
    /// The sync scope names no stage in which the access can happen (A7).
    #[error(
        "A7 (INCOMPATIBLE_BARRIER_SYNC): Sync{side} {sync:?} cannot serve Access{side} {access:?}"
    )]
    AccessSyncIncompatible {
        side: Side,
        sync: Sync,
        access: Access,
    },
    /// The layout may not be named, or transitioned, on this queue type (A5, A1).
    #[error("A5 (UNSUPPORTED_BARRIER_LAYOUT): Layout{side} {} is not allowed in a barrier on a {queue} queue", layout.spec_name())]
    LayoutNotOnQueue {
        side: Side,
        layout: Layout,
        queue: QueueType,
    },
    /// The access is not available on this queue type (A5).
    #[error(
        "A5 (INVALID_BARRIER_ACCESS): Access{side} {access:?} is not available on a {queue} queue"
    )]
    AccessNotOnQueue {
        side: Side,
        access: Access,
        queue: QueueType,
    },
    /// The sync scope is not available on this queue type (A5).
    #[error(
        "A5 (INCOMPATIBLE_BARRIER_SYNC): Sync{side} {sync:?} is not available on a {queue} queue"
    )]
    SyncNotOnQueue {
        side: Side,
        sync: Sync,
        queue: QueueType,
    },
    /// A copy queue sees textures in `COMMON` only and cannot transition them (A5).
    #[error("A5 (NON_COMMON_RESOURCE_IN_COPY_QUEUE): copy queues use COMMON only and cannot transition, found {} -> {}", before.spec_name(), after.spec_name())]
    CopyQueueNotCommon { before: Layout, after: Layout },
    /// `DISCARD` with a `LayoutBefore` other than `UNDEFINED` (A2, EB-5).
    #[error("A2 (TEXTURE_BARRIER_INVALID_FLAGS): DISCARD requires LayoutBefore UNDEFINED, found {}", layout_before.spec_name())]
    DiscardWithoutUndefined { layout_before: Layout },
    /// `SPLIT` combined with other bits, or on both sides of one barrier (A4).
    #[error(
        "A4 (INCOMPATIBLE_BARRIER_SYNC): SPLIT must be the only bit of exactly one of SyncBefore/SyncAfter, found {sync_before:?} -> {sync_after:?}"
    )]
    MalformedSplit { sync_before: Sync, sync_after: Sync },
    /// A global barrier with a `SPLIT` half (A2, A4).
    #[error("A2/A4 (INCOMPATIBLE_BARRIER_VALUES): global barriers cannot be split")]
    GlobalBarrierSplit,
    /// A texture barrier on a buffer or a buffer barrier on a texture (EB-6, A9).
    #[error("EB-6 (INCOMPATIBLE_BARRIER_TYPE): a {barrier} barrier cannot target a {resource}")]
    BarrierTypeMismatch {
        barrier: &'static str,
        resource: &'static str,
    },
    /// The access needs a creation flag the resource lacks (A9 GPU validation, EB-4).
    #[error(
        "A9 (INVALID_BARRIER_ACCESS): Access{side} {access:?} needs a creation flag the resource lacks"
    )]
    AccessNotAllowedByResource { side: Side, access: Access },
    /// The layout needs a creation flag the texture lacks (A9, EB-4).
    #[error("A9 (UNSUPPORTED_BARRIER_LAYOUT): Layout{side} {} needs a creation flag the texture lacks", layout.spec_name())]
    LayoutNotAllowedByResource { side: Side, layout: Layout },
    /// The range names no subresource or its arithmetic overflows (A2).
    #[error("A2 (OUT_OF_BOUNDS_BARRIER_SUBRESOURCE_RANGE): malformed subresource range: {detail}")]
    SubresourceRangeMalformed { detail: &'static str },
    /// The range reaches past the texture's mips, slices or planes (A9).
    #[error(
        "A9 (TEXTURE_BARRIER_SUBRESOURCES_OUT_OF_BOUNDS): {what} {end} exceeds the texture's {total}"
    )]
    SubresourcesOutOfBounds {
        what: &'static str,
        end: u64,
        total: u64,
    },
    /// `LayoutBefore` is not the known or assumed layout of the subresource (A9).
    #[error("A9 (INCOMPATIBLE_BARRIER_LAYOUT): subresource {subresource} is in {} but LayoutBefore is {}", known.spec_name(), found.spec_name())]
    LayoutMismatch {
        subresource: u64,
        known: Layout,
        found: Layout,
    },
    /// `AccessBefore` names accesses the previous barrier did not allow (A9).
    #[error(
        "A9 (INCOMPATIBLE_BARRIER_ACCESS): subresource {subresource} AccessBefore {found:?} is not within the previous AccessAfter {known:?}"
    )]
    AccessMismatch {
        subresource: u64,
        known: Access,
        found: Access,
    },
    /// A later `SyncBefore` does not contain the earlier `SyncAfter` (A3.4, A3.1).
    #[error(
        "A3.4 (INCOMPATIBLE_BARRIER_SYNC): subresource {subresource} SyncBefore {later_before:?} does not contain the previous SyncAfter {earlier_after:?}"
    )]
    SyncNotSequential {
        subresource: u64,
        earlier_after: Sync,
        later_before: Sync,
    },
    /// An end-split barrier with no open begin-split (A4, EB-11).
    #[error("A4/EB-11: end-split barrier on subresource {subresource} matches no begin-split")]
    SplitEndWithoutBegin { subresource: u64 },
    /// The halves of a split disagree on layouts or accesses (A4).
    #[error("A4: split halves on subresource {subresource} differ in layouts or accesses")]
    SplitHalvesDiffer { subresource: u64 },
    /// Another barrier touched the subresource between the halves of a split (A4).
    #[error(
        "A4: subresource {subresource} has an open split; no other barrier may touch it before the end-split"
    )]
    SplitInterrupted { subresource: u64 },
    /// Warning: a buffer or COMMON-layout split is still open at a submission boundary (EB-11).
    #[error(
        "EB-11 (A9): split on subresource {subresource} (buffer or LAYOUT_COMMON) crosses an ExecuteCommandLists boundary"
    )]
    SplitCrossesSubmission { subresource: u64 },
    /// A texture in a legacy state other than COMMON meets an enhanced barrier (EB-7, A8).
    #[error(
        "EB-7 (BARRIER_INTEROP_INVALID_STATE): subresource {subresource} is in legacy state {state:#x}; move it to COMMON before an enhanced barrier"
    )]
    LegacyStateNotCommon { subresource: u64, state: u32 },
    /// A legacy barrier meets a texture left in an enhanced layout other than COMMON (A8).
    #[error("A8 (BARRIER_INTEROP_INVALID_LAYOUT): subresource {subresource} is in layout {}; move it to LAYOUT_COMMON before a legacy barrier", layout.spec_name())]
    LegacyBarrierOnEnhancedLayout { subresource: u64, layout: Layout },
    /// A legacy state that names no valid use of the resource (barrier-spec B).
    #[error("B: legacy state {state:#x} is invalid for a {resource}: {detail}")]
    InvalidLegacyState {
        state: u32,
        resource: &'static str,
        detail: &'static str,
    },
    /// Source and destination regions of a copy to self intersect (A3.8, EB-9c).
    #[error("A3.8 (EB-9c): copy to self with intersecting source and destination regions")]
    SelfCopyOverlap,
    /// A legacy transition's StateBefore is not the state the last transition left the
    /// subresource in: the driver translates it into a LayoutBefore that does not match
    /// either (EB-11, the debug layer's before-state mismatch).
    #[error(
        "EB-11 (A9): a legacy transition names StateBefore {before:#x} for subresource {subresource}, which the last transition left in state {state:#x}; name that state"
    )]
    LegacyStateBeforeMismatch {
        subresource: u64,
        before: u32,
        state: u32,
    },
}

impl BarrierError {
    /// Warning or error; only warnings let a barrier through.
    pub fn severity(&self) -> BarrierSeverity {
        match self {
            BarrierError::EmptyBarrierCall | BarrierError::SplitCrossesSubmission { .. } => {
                BarrierSeverity::Warning
            }
            _ => BarrierSeverity::Error,
        }
    }

    /// The variant's name: a stable key for reports, tests and the JSON summary.
    pub fn name(&self) -> &'static str {
        use BarrierError as E;
        match self {
            E::EmptyBarrierCall => "EmptyBarrierCall",
            E::UnknownResource => "UnknownResource",
            E::InvalidResourceInfo { .. } => "InvalidResourceInfo",
            E::UnknownFlagBits { .. } => "UnknownFlagBits",
            E::SyncNoneWithAccess { .. } => "SyncNoneWithAccess",
            E::NoAccessCombined { .. } => "NoAccessCombined",
            E::UndefinedLayoutWithAccess { .. } => "UndefinedLayoutWithAccess",
            E::LayoutAccessIncompatible { .. } => "LayoutAccessIncompatible",
            E::AccessSyncIncompatible { .. } => "AccessSyncIncompatible",
            E::LayoutNotOnQueue { .. } => "LayoutNotOnQueue",
            E::AccessNotOnQueue { .. } => "AccessNotOnQueue",
            E::SyncNotOnQueue { .. } => "SyncNotOnQueue",
            E::CopyQueueNotCommon { .. } => "CopyQueueNotCommon",
            E::DiscardWithoutUndefined { .. } => "DiscardWithoutUndefined",
            E::MalformedSplit { .. } => "MalformedSplit",
            E::GlobalBarrierSplit => "GlobalBarrierSplit",
            E::BarrierTypeMismatch { .. } => "BarrierTypeMismatch",
            E::AccessNotAllowedByResource { .. } => "AccessNotAllowedByResource",
            E::LayoutNotAllowedByResource { .. } => "LayoutNotAllowedByResource",
            E::SubresourceRangeMalformed { .. } => "SubresourceRangeMalformed",
            E::SubresourcesOutOfBounds { .. } => "SubresourcesOutOfBounds",
            E::LayoutMismatch { .. } => "LayoutMismatch",
            E::AccessMismatch { .. } => "AccessMismatch",
            E::SyncNotSequential { .. } => "SyncNotSequential",
            E::SplitEndWithoutBegin { .. } => "SplitEndWithoutBegin",
            E::SplitHalvesDiffer { .. } => "SplitHalvesDiffer",
            E::SplitInterrupted { .. } => "SplitInterrupted",
            E::SplitCrossesSubmission { .. } => "SplitCrossesSubmission",
            E::LegacyStateNotCommon { .. } => "LegacyStateNotCommon",
            E::LegacyBarrierOnEnhancedLayout { .. } => "LegacyBarrierOnEnhancedLayout",
            E::InvalidLegacyState { .. } => "InvalidLegacyState",
            E::SelfCopyOverlap => "SelfCopyOverlap",
            E::LegacyStateBeforeMismatch { .. } => "LegacyStateBeforeMismatch",
        }
    }

    /// True for error severity.
    pub fn is_error(&self) -> bool {
        self.severity() == BarrierSeverity::Error
    }
}

/// Split findings into (errors, warnings).
pub fn partition(findings: Vec<BarrierError>) -> (Vec<BarrierError>, Vec<BarrierError>) {
    findings.into_iter().partition(BarrierError::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_rule_and_message_id() {
        let e = BarrierError::LayoutAccessIncompatible {
            side: Side::After,
            layout: Layout::RenderTarget,
            access: Access::SHADER_RESOURCE,
        };
        let s = e.to_string();
        assert!(s.starts_with("A6 (INCOMPATIBLE_BARRIER_ACCESS)"), "{s}");
        assert!(s.contains("RENDER_TARGET"), "{s}");
        let s = BarrierError::CopyQueueNotCommon {
            before: Layout::Common,
            after: Layout::CopyDest,
        }
        .to_string();
        assert!(s.contains("NON_COMMON_RESOURCE_IN_COPY_QUEUE"), "{s}");
    }

    #[test]
    fn only_zero_counts_and_crossing_splits_are_warnings() {
        assert_eq!(
            BarrierError::EmptyBarrierCall.severity(),
            BarrierSeverity::Warning
        );
        assert!(!BarrierError::SplitCrossesSubmission { subresource: 0 }.is_error());
        assert!(BarrierError::SelfCopyOverlap.is_error());
        let (errors, warnings) = partition(vec![
            BarrierError::EmptyBarrierCall,
            BarrierError::GlobalBarrierSplit,
        ]);
        assert_eq!(errors, vec![BarrierError::GlobalBarrierSplit]);
        assert_eq!(warnings, vec![BarrierError::EmptyBarrierCall]);
    }
}
