//! The stateful half of barrier validation (EB-11, EB-7, barrier-spec A3.4, A4, A8, A9).
//!
//! Some rules are about history, not about one barrier: LayoutBefore and AccessBefore must
//! match what the previous barrier left (or what was assumed at the first one), a later
//! SyncBefore must contain the earlier SyncAfter, an end-split must close an open begin-split
//! with identical layouts and accesses and nothing in between, and a texture last moved by a
//! legacy barrier must be back in COMMON before an enhanced barrier names it (and the other way
//! round). The tracker keeps, per resource and subresource, just enough to check those: last
//! layout, last SyncAfter and AccessAfter, an open split, a legacy state. It runs the stateless
//! checks of `call.rs` first, and commits a barrier's effect only if the barrier is valid,
//! so one refusal does not cascade into a stream of follow-on errors.
//!
//! State survives submissions: the Xbox does not flush at an ExecuteCommandLists boundary
//! (EB-8a), so the sequential-sync rule spans them too.

use super::history::{SubState, transition};
use super::legacy::LegacyBarrier;
use super::states::{ResourceStates, enhanced_state};
use super::triple::Halves;
use super::{
    BarrierError, BarrierGroup, Layout, QueueType, ResourceInfo, Subresources, buffer_halves,
    texture_halves, validate_buffer, validate_global, validate_texture,
};
use std::collections::BTreeMap;

/// Per-subresource barrier history, for the checks that need it (A9, A3.4, A4, EB-7).
#[derive(Clone, Debug)]
pub struct BarrierTracker<R> {
    subs: BTreeMap<(R, u64), SubState>,
    warnings: Vec<BarrierError>,
}

impl<R> Default for BarrierTracker<R> {
    fn default() -> Self {
        Self {
            subs: BTreeMap::new(),
            warnings: Vec::new(),
        }
    }
}

impl<R: Clone + Ord> BarrierTracker<R> {
    pub fn new() -> Self {
        Self::default()
    }

    /// What is known of `subresource` of `resource`.
    pub fn state(&self, resource: &R, subresource: u64) -> Option<&SubState> {
        self.subs.get(&(resource.clone(), subresource))
    }

    /// Record a texture's creation layout for every subresource (A2 "creation with an initial
    /// layout"); without it the first barrier's LayoutBefore is assumed (A9).
    pub fn set_layout(&mut self, resource: R, info: &ResourceInfo, layout: Layout) {
        self.for_all(resource, info, |s| s.layout = Some(layout));
    }

    /// Record where one subresource's layout is known to be (another queue's barrier left it
    /// there): LayoutBefore is checked against it (A9).
    pub fn set_subresource_layout(&mut self, resource: R, subresource: u64, layout: Layout) {
        self.subs.entry((resource, subresource)).or_default().layout = Some(layout);
    }

    /// Forget everything about `resource`: its history restarts at the next barrier, whose
    /// Before half is then assumed (A9). Used when another queue took it over behind a fence.
    pub fn forget(&mut self, resource: &R) {
        self.subs.retain(|(r, _), _| r != resource);
    }

    /// Start `resource`'s barrier history again, as an ExecuteCommandLists boundary does on
    /// PC (barrier-spec A8), except for the legacy state of a subresource a legacy
    /// transition moved: a resource state is the queue's, kept across command lists, and
    /// the next transition must name it (EB-11) and an enhanced barrier find it in COMMON
    /// (EB-7).
    pub fn restart(&mut self, resource: &R) {
        self.subs
            .retain(|(r, _), s| r != resource || s.legacy.is_some());
        for ((r, _), s) in self.subs.iter_mut() {
            if r == resource {
                *s = SubState {
                    layout: s.layout,
                    legacy: s.legacy,
                    ..SubState::default()
                };
            }
        }
    }

    /// Record that `resource` is in legacy state `state` (EB-7). Buffers are treated as COMMON.
    pub fn set_legacy_state(&mut self, resource: R, info: &ResourceInfo, state: ResourceStates) {
        if info.texture().is_some() {
            self.for_all(resource, info, |s| s.legacy = Some(state));
        }
    }

    fn for_all(&mut self, resource: R, info: &ResourceInfo, f: impl Fn(&mut SubState)) {
        let subs = match info {
            ResourceInfo::Texture(t) if t.check().is_ok() => {
                Subresources::all(t).indices(t).collect()
            }
            ResourceInfo::Texture(_) => Vec::new(),
            ResourceInfo::Buffer => vec![0],
        };
        for i in subs {
            f(self.subs.entry((resource.clone(), i)).or_default());
        }
    }

    /// Warnings gathered by [`apply`](Self::apply) since the last call.
    pub fn take_warnings(&mut self) -> Vec<BarrierError> {
        std::mem::take(&mut self.warnings)
    }

    /// Check one Barrier call on `queue` and, for each valid barrier, record its effect.
    /// Errors refuse the call (`Err` lists them); warnings are kept for
    /// [`take_warnings`](Self::take_warnings).
    pub fn apply(
        &mut self,
        group: &BarrierGroup<R>,
        queue: QueueType,
        info: impl Fn(&R) -> Option<ResourceInfo>,
    ) -> Result<(), Vec<BarrierError>> {
        let mut findings = Vec::new();
        if group.is_empty() {
            findings.push(BarrierError::EmptyBarrierCall);
        }
        for g in &group.global {
            findings.extend(validate_global(g, queue));
        }
        for b in &group.buffers {
            let Some(i) = info(&b.resource) else {
                findings.push(BarrierError::UnknownResource);
                continue;
            };
            let stateless = validate_buffer(b, queue, &i);
            let ok = !stateless.iter().any(BarrierError::is_error);
            findings.extend(stateless);
            if ok {
                let h = buffer_halves(b);
                findings.extend(self.step(&b.resource, [0u64].into_iter(), &h, false));
            }
        }
        for t in &group.textures {
            let Some(i) = info(&t.resource) else {
                findings.push(BarrierError::UnknownResource);
                continue;
            };
            let (stateless, subs) = validate_texture(t, queue, &i);
            let ok = !stateless.iter().any(BarrierError::is_error);
            findings.extend(stateless);
            if let (true, Some(subs), ResourceInfo::Texture(tex)) = (ok, subs, &i) {
                let h = texture_halves(t);
                findings.extend(self.step(&t.resource, subs.indices(tex), &h, true));
            }
        }
        let (errors, warnings) = super::partition(findings);
        self.warnings.extend(warnings);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Check one valid barrier against each subresource's history; commit if all agree.
    fn step(
        &mut self,
        resource: &R,
        subs: impl Iterator<Item = u64>,
        h: &Halves,
        texture: bool,
    ) -> Vec<BarrierError> {
        let mut errors = Vec::new();
        let mut next = Vec::new();
        let mut interop = Vec::new();
        for i in subs {
            let s = self
                .subs
                .get(&(resource.clone(), i))
                .copied()
                .unwrap_or_default();
            match transition(s, h, texture, i) {
                Ok(n) => next.push((i, n)),
                Err(e) => {
                    if e.iter()
                        .any(|e| matches!(e, BarrierError::LegacyStateNotCommon { .. }))
                    {
                        interop.push(i);
                    }
                    errors.extend(e)
                }
            }
        }
        if errors.is_empty() {
            for (i, n) in next {
                self.subs.insert((resource.clone(), i), n);
            }
        }
        // An enhanced barrier refused on a legacy state (EB-7) still says the application
        // has left the legacy world there: neither state is known any more, so the next
        // legacy transition is not held to the old one (one mistake, one finding).
        for i in interop {
            self.subs.remove(&(resource.clone(), i));
        }
        errors
    }

    /// Record legacy barriers (EB-7, A8): a texture last moved by an enhanced barrier must be
    /// in LAYOUT_COMMON before a legacy transition names it. Buffers are treated as COMMON.
    pub fn apply_legacy(
        &mut self,
        barriers: &[LegacyBarrier<R>],
        info: impl Fn(&R) -> Option<ResourceInfo>,
    ) -> Result<(), Vec<BarrierError>> {
        let mut errors = Vec::new();
        for b in barriers {
            let LegacyBarrier::Transition {
                resource,
                subresource,
                before,
                after,
                split,
            } = b
            else {
                continue;
            };
            let Some(i @ ResourceInfo::Texture(tex)) = info(resource) else {
                continue;
            };
            let subs = match super::legacy::legacy_subresources(*subresource, &tex) {
                Ok(s) => s,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let layout = enhanced_state(*after, &i).ok().and_then(|e| e.layout);
            for idx in subs.indices(&tex) {
                let s = self.subs.entry((resource.clone(), idx)).or_default();
                if let (None, Some(l)) = (s.legacy, s.layout)
                    && l != Layout::Common
                {
                    errors.push(BarrierError::LegacyBarrierOnEnhancedLayout {
                        subresource: idx,
                        layout: l,
                    });
                    continue;
                }
                // A transition from another state than the one the last transition left
                // (EB-11). COMMON is left out: implicit promotion may have moved it since
                // (barrier-spec B), which no transition records; an end-only split names
                // the state before its begin.
                if let Some(state) = s.legacy
                    && state != ResourceStates::COMMON
                    && state != *before
                    && *split != super::legacy::LegacySplit::EndOnly
                {
                    errors.push(BarrierError::LegacyStateBeforeMismatch {
                        subresource: idx,
                        before: before.bits(),
                        state: state.bits(),
                    });
                }
                *s = SubState {
                    layout,
                    legacy: Some(*after),
                    ..SubState::default()
                };
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Close an ExecuteCommandLists scope: buffer and LAYOUT_COMMON splits still open are
    /// reported as warnings (EB-11); other splits may legally stay open.
    pub fn end_submission(&self) -> Vec<BarrierError> {
        self.crossing_splits().into_iter().map(|(_, e)| e).collect()
    }

    /// [`end_submission`](Self::end_submission) with the resource of each open split, in
    /// resource then subresource order.
    pub fn crossing_splits(&self) -> Vec<(R, BarrierError)> {
        self.subs
            .iter()
            .filter_map(|((r, i), s)| {
                let open = s.open_split?;
                let common = match open.layouts {
                    None => true,
                    Some((b, a)) => b == Layout::Common || a == Layout::Common,
                };
                let e = BarrierError::SplitCrossesSubmission { subresource: *i };
                common.then(|| (r.clone(), e))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
