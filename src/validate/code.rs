//! Diagnostic codes: one variant per finding the validation layer can raise.
//!
//! A code is stable: its string (`V0101`) is what the human and JSON outputs print, what
//! `check --json` consumers match on, and what the README's table lists. The hundreds digit
//! groups codes by area: swap chain (V01), state and bindings (V02), memory (V03), compression
//! and layouts (V04), hazards (V05), fences (V06), lifetime (V07), barriers and aliasing
//! (V08), command lists and queries (V09), fast resource binding (V10). Each code cites one catalogue rule
//! (`shared/reference/rules.md`) with a fixed severity, except V0801: a barrier call's finding
//! comes from the barrier vocabulary's own checker, which names its rule and severity.

use serde::{Serialize, Serializer};
use std::fmt;

use super::Severity;

/// Declares [`Code`] and its table at once: each variant with its doc line, its stable
/// string, its rule and its severity, so that adding a code is one row.
macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident = ($code:literal, $rule:expr, $severity:expr),)*) => {
        /// What the validation layer found; [`Code::as_str`] is its stable string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order of their strings.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            fn describe(self) -> (&'static str, Option<&'static str>, Option<Severity>) {
                use Severity::*;
                match self {
                    $(Code::$variant => ($code, $rule, $severity),)*
                }
            }
        }
    };
}

codes! {
    /// V0101 (FS-5): a back buffer written with no wait on present since it was last presented.
    BackBufferWriteWithoutWait = ("V0101", Some("FS-5"), Some(Error)),
    /// V0102 (RL-2): a wait on present for a buffer already presented this frame (hangs the GPU).
    WaitOnPresentAfterPresent = ("V0102", Some("RL-2"), Some(Error)),
    /// V0103 (FS-9): a swap-chain buffer written that is not at index 0 (view not rotated).
    SwapChainViewNotRotated = ("V0103", Some("FS-9"), Some(Error)),
    /// V0201 (FS-11): a draw or dispatch with state not set since the last present or clear-state.
    StateNotSet = ("V0201", Some("FS-11"), Some(Error)),
    /// V0202 (FS-8): a draw or dispatch through a view not set again after a clear, map or
    /// decompression.
    ViewNotSetAgain = ("V0202", Some("FS-8"), Some(Error)),
    /// V0203 (FS-7): a Get* call (GetState) on a fast context.
    GetOnFastContext = ("V0203", Some("FS-7"), Some(Error)),
    /// V0204 (FS-14): UpdateSubresource on a fast context.
    UpdateSubresourceOnFastContext = ("V0204", Some("FS-14"), Some(Error)),
    /// V0205 (FS-14): the primitive-reset index 0xFFFF set on a legacy context.
    ResetIndexOnLegacyContext = ("V0205", Some("FS-14"), Some(Error)),
    /// V0206 (FS-12, warning): a draw relying on immediate-context state a fast list changed.
    StateChangedByFastList = ("V0206", Some("FS-12"), Some(Warning)),
    /// V0207 (FS-14, warning): a 16-bit indexed strip without primitive-reset index 0xFFFF.
    StripWithoutResetIndex = ("V0207", Some("FS-14"), Some(Warning)),
    /// V0208 (FS-3): CSEnableAutomaticGpuFlush on a fast context (the call fails).
    AutomaticFlushOnFastContext = ("V0208", Some("FS-3"), Some(Error)),
    /// V0209 (FS-7): a device context state created or swapped on a fast context.
    ContextStateOnFastContext = ("V0209", Some("FS-7"), Some(Error)),
    /// V0210 (FS-14): stream-output append (SOSetTargets offset -1) on a fast context.
    StreamOutputAppendOnFastContext = ("V0210", Some("FS-14"), Some(Error)),
    /// V0211 (FS-13): a draw or dispatch through a view whose MinLOD changed after it was
    /// bound, not set again since (the change takes effect only on rebind).
    MinLodNotRebound = ("V0211", Some("FS-13"), Some(Error)),
    /// V0212 (FS-14): an append or counter UAV of a buffer bound on a fast context.
    CounterUavOnFastContext = ("V0212", Some("FS-14"), Some(Error)),
    /// V0213 (CC-3): a placement binding whose view does not fit its base buffer at its byte
    /// offset, or whose offset is not 4-byte aligned.
    PlacementOutsideBase = ("V0213", Some("CC-3"), Some(Error)),
    /// V0301 (FS-10): a dynamic buffer bound without a write-discard map this frame.
    DynamicBufferNotMapped = ("V0301", Some("FS-10"), Some(Error)),
    /// V0302 (CTX-5): the first map of a resource in a list is not write-discard.
    FirstMapNotDiscard = ("V0302", Some("CTX-5"), Some(Error)),
    /// V0303 (CC-1): a dynamic resource bound on a compute context.
    DynamicOnCompute = ("V0303", Some("CC-1"), Some(Error)),
    /// V0305 (CC-6): a raw memory copy or fill whose size is not a multiple of 4.
    RawSizeNotMultipleOf4 = ("V0305", Some("CC-6"), Some(Error)),
    /// V0306 (CC-6): a raw memory copy or fill of non-graphics memory (a dynamic buffer).
    RawOnDynamicMemory = ("V0306", Some("CC-6"), Some(Error)),
    /// V0307 (CTX-5): Map in a command list (a deferred context) of a resource not dynamic.
    MapNotDynamicInList = ("V0307", Some("CTX-5"), Some(Error)),
    /// V0308 (FS-10): a dynamic buffer bound by a context (list or immediate) that did not map it.
    DynamicNotMappedInContext = ("V0308", Some("FS-10"), Some(Error)),
    /// V0309 (FS-10): a dynamic buffer a fast list mapped write-discard, used by another context.
    DynamicSharedAcrossContexts = ("V0309", Some("FS-10"), Some(Error)),
    /// V0310 (FS-15): the CPU reads a write-combined dynamic buffer (slow, uncached).
    ReadWriteCombined = ("V0310", Some("FS-15"), Some(Warning)),
    /// V0401 (FS-4): a buffer presented without a decompression since it was last written.
    PresentCompressed = ("V0401", Some("FS-4"), Some(Error)),
    /// V0402 (RL-1): a buffer presented while not in the PRESENT/COMMON layout.
    PresentInWrongLayout = ("V0402", Some("RL-1"), Some(Error)),
    /// V0403 (EB-1): a texture accessed in a layout that does not allow the access.
    LayoutDisallowsAccess = ("V0403", Some("EB-1"), Some(Error)),
    /// V0404 (FS-4): a surface read or copied on a fast context while still compressed.
    ReadCompressed = ("V0404", Some("FS-4"), Some(Error)),
    /// V0501 (FS-3): a read after a write on one queue with no barrier ordering them.
    ReadAfterWrite = ("V0501", Some("FS-3"), Some(Error)),
    /// V0502 (FS-3): a write after a read on one queue with no barrier ordering them.
    WriteAfterRead = ("V0502", Some("FS-3"), Some(Error)),
    /// V0503 (FS-3): a write after a write on one queue with no barrier ordering them.
    WriteAfterWrite = ("V0503", Some("FS-3"), Some(Error)),
    /// V0504 (CC-4): a DispatchIndirect on a compute context fetching its argument buffer after
    /// a write on the same queue with no barrier ordering them.
    IndirectArgumentsUnordered = ("V0504", Some("CC-4"), Some(Error)),
    /// V0505 (CC-4): a hazard on a compute context that only the debug dispatch flags'
    /// automatic flushes order (a retail driver ignores them).
    DebugFlushReliedOn = ("V0505", Some("CC-4"), Some(Error)),
    /// V0511 (FS-1): a read racing a write on another queue (no fence).
    ReadRacingWrite = ("V0511", Some("FS-1"), Some(Error)),
    /// V0512 (FS-1): a write racing a read on another queue (no fence).
    WriteRacingRead = ("V0512", Some("FS-1"), Some(Error)),
    /// V0513 (FS-1): a write racing a write on another queue (no fence).
    WriteRacingWrite = ("V0513", Some("FS-1"), Some(Error)),
    /// V0514 (FS-1): a CPU write of a mapped buffer racing a GPU use no passed fence covers.
    CpuWriteRacingGpu = ("V0514", Some("FS-1"), Some(Error)),
    /// V0521 (FS-2): an ordered read of a write never written back and made visible.
    WriteNotVisible = ("V0521", Some("FS-2"), Some(Error)),
    /// V0531 (RL-1): a present of a buffer written on another queue with no fence before it.
    PresentAfterWrite = ("V0531", Some("RL-1"), Some(Error)),
    /// V0601 (FN-3): a wait on a fence that was never inserted.
    WaitOnUninsertedFence = ("V0601", Some("FN-3"), Some(Error)),
    /// V0602 (CC-8): a compute or DMA context called between Suspend and Resume.
    CallWhileSuspended = ("V0602", Some("CC-8"), Some(Error)),
    /// V0701 (RL-3): an object released while still bound.
    ReleasedWhileBound = ("V0701", Some("RL-3"), Some(Error)),
    /// V0702 (FS-6): an object released before a fence covering its GPU use has passed.
    ReleasedBeforeFence = ("V0702", Some("FS-6"), Some(Error)),
    /// V0801 (EB-6, EB-7, EB-9 or EB-11, by finding): a barrier call the stream's barrier
    /// history does not admit.
    BarrierCall = ("V0801", None, None),
    /// V0804 (EB-11): an access the last barrier on its queue did not declare in AccessAfter.
    AccessNotDeclared = ("V0804", Some("EB-11"), Some(Error)),
    /// V0805 (EB-11): a Barrier call recorded into a bundle ("the list is not a bundle").
    BarrierInBundle = ("V0805", Some("EB-11"), Some(Error)),
    /// V0811 (EB-5): a placed resource used without activation after an overlapping one's use
    /// and deactivation.
    AliasNotActivated = ("V0811", Some("EB-5"), Some(Error)),
    /// V0812 (EB-9d, warning): a placed resource read after activation before any write.
    AliasReadBeforeWrite = ("V0812", Some("EB-9d"), Some(Warning)),
    /// V0813 (EB-9c): a resource copied onto itself whole or between intersecting regions.
    SelfCopyOverlap = ("V0813", Some("EB-9c"), Some(Error)),
    /// V0814 (EB-5): an aliased hand-over between queues with no fence ordering it.
    AliasHandOverUnfenced = ("V0814", Some("EB-5"), Some(Error)),
    /// V0815 (EB-5): an access of placed memory that no barrier on its queue orders after an
    /// earlier access through an overlapping resource.
    AliasNotOrdered = ("V0815", Some("EB-5"), Some(Error)),
    /// V0901 (CTX-3): a second command-list playback begun while one is in progress.
    TwoPlaybacks = ("V0901", Some("CTX-3"), Some(Error)),
    /// V0902 (CTX-4): fast and legacy lists inside one Begin/EndCommandListExecution scope.
    MixedListsInScope = ("V0902", Some("CTX-4"), Some(Error)),
    /// V0903 (CTX-6): query data read on a deferred context.
    QueryReadOnDeferred = ("V0903", Some("CTX-6"), Some(Error)),
    /// V0904 (CTX-6): query data read before the list ending the query was played back.
    QueryReadBeforePlayback = ("V0904", Some("CTX-6"), Some(Error)),
    /// V0905 (CTX-6): query data read before the GPU processed the query's end.
    QueryReadBeforeProcessed = ("V0905", Some("CTX-6"), Some(Error)),
    /// V0906 (CTX-3): EndCommandListExecution with no playback scope open on its queue.
    EndWithoutScope = ("V0906", Some("CTX-3"), Some(Error)),
    /// V0907 (CTX-3): a playback scope still open at Present on its queue.
    ScopeOpenAtPresent = ("V0907", Some("CTX-3"), Some(Error)),
    /// V0908 (CTX-6, D3D12 APIs): BeginQuery of a query already running, or EndQuery of one
    /// not running.
    QueryStateMismatch = ("V0908", Some("CTX-6"), Some(Error)),
    /// V1001 (RB-1): a SetFastResources call or batch that sets more than eight resources.
    TooManyFastResources = ("V1001", Some("RB-1"), Some(Error)),
    /// V1002 (RB-1): a vertex buffer set with the IA_VB form, which has no offset or stride.
    FastVertexBufferWithoutOffset = ("V1002", Some("RB-1"), Some(Error)),
    /// V1003 (RB-2): SetFastResourcesFromBatch with a batch naming an object since released.
    BatchNamesReleasedObject = ("V1003", Some("RB-2"), Some(Error)),
}

impl Code {
    /// The stable string, e.g. `"V0101"`.
    pub fn as_str(self) -> &'static str {
        self.describe().0
    }

    /// The catalogue rule the code cites, e.g. `"FS-5"`; `None` for [`Code::BarrierCall`],
    /// whose rule depends on the finding.
    pub fn rule(self) -> Option<&'static str> {
        self.describe().1
    }

    /// How bad the finding is; `None` for [`Code::BarrierCall`], whose severity depends on the
    /// finding.
    pub fn severity(self) -> Option<Severity> {
        self.describe().2
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialised as its stable string (`"V0101"`), which JSON consumers match on.
impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_unique_and_in_order() {
        let strings: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert!(strings.windows(2).all(|w| w[0] < w[1]), "{strings:?}");
        assert!(strings.iter().all(|s| s.len() == 5 && s.starts_with('V')));
        let mut sorted = Code::ALL.to_vec();
        sorted.sort();
        assert_eq!(sorted, Code::ALL, "variants are declared in string order");
    }

    #[test]
    fn only_barrier_calls_take_their_rule_and_severity_from_the_finding() {
        for &code in Code::ALL {
            let fixed = code.rule().is_some() && code.severity().is_some();
            assert_eq!(fixed, code != Code::BarrierCall, "{code}");
        }
        assert_eq!(Code::BackBufferWriteWithoutWait.rule(), Some("FS-5"));
        assert_eq!(
            Code::AliasReadBeforeWrite.severity(),
            Some(Severity::Warning)
        );
        assert_eq!(Code::BackBufferWriteWithoutWait.to_string(), "V0101");
        assert_eq!(
            serde_json::to_string(&Code::ScopeOpenAtPresent).unwrap(),
            "\"V0907\""
        );
    }
}
