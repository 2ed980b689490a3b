//! Barrier calls (EB-11, EB-7): every Barrier command is checked by the barrier vocabulary's
//! own tracker, which keeps what the stream's barriers left per subresource: LayoutBefore and
//! AccessBefore must match it, the Before and After triples must be consistent (barrier-spec
//! A5-A7), sequential barriers must chain their syncs (A3.4), splits must pair (A4), and a
//! texture last moved by a legacy barrier must be in COMMON (EB-7).
//!
//! What each barrier declares in AccessAfter holds on its queue until the next barrier naming
//! the resource there: every access must be one it declared (EB-11, barrier-spec A1, A9,
//! V0804); COMMON declares any access the layout allows.

use hashbrown::HashMap;

use super::hazard::{HazardTracker, Touch};
use super::layouts::{Layouts, barrier_subresources};
use super::queues::PerQueue;
use super::stream::Ctx;
use super::{Code, Diagnostic, Severity};
use crate::barrier::{
    Access, BarrierError, BarrierGroup, BarrierSeverity, BarrierTracker, LegacyBarrier,
    ResourceInfo,
};
use crate::device::{Device, ObjectKey, QueueId};

/// What the barrier rules need to know about a device object.
pub fn resource_info(device: &Device, key: ObjectKey) -> Option<ResourceInfo> {
    device.memory.resource_info(key)
}

/// EB-11, seed 004: a Barrier call the application made itself (not the driver's translation
/// of a legacy call, nor a barrier of a device whose barriers are its legacy ones) on a
/// device without the enhanced Barrier API, as the 2013 console is.
pub(super) fn unsupported(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    let device = ctx.device;
    if device.profile.enhanced_barriers || device.legacy_barriers() {
        return;
    }
    let message = format!(
        "the device ({}) has no enhanced barriers (seed 004: Xbox Series only): use legacy ResourceBarrier calls (the legacy strategy), or a profile that has them",
        device.profile.name
    );
    out.push(ctx.finding_as(
        i,
        Code::BarrierCall,
        "EB-11",
        Severity::Error,
        None,
        message,
    ));
}

/// The catalogue rule a barrier finding cites.
fn rule(e: &BarrierError) -> &'static str {
    match e.name() {
        "LegacyStateNotCommon" | "LegacyBarrierOnEnhancedLayout" => "EB-7",
        "BarrierTypeMismatch" => "EB-6",
        "SelfCopyOverlap" => "EB-9",
        _ => "EB-11",
    }
}

/// The stream's barrier history, per queue.
#[derive(Default)]
pub(super) struct BarrierCalls {
    /// Barriers on one queue are sequential (EB-11); across queues only fences order them.
    trackers: PerQueue<BarrierTracker<ObjectKey>>,
    /// The queue of the last barrier naming each resource.
    last_queue: HashMap<ObjectKey, QueueId>,
    /// What the last barrier naming a resource on a queue allowed (AccessAfter).
    declared: PerQueue<HashMap<ObjectKey, Declared>>,
    /// The last barrier naming each resource on any queue, while its queue has not accessed
    /// the resource since: a barrier that ends a queue's use by declaring another access
    /// hands the resource over with that declaration (its queue, its position there, what it
    /// allows).
    handed: HashMap<ObjectKey, (QueueId, u64, Access)>,
    /// Open splits already reported crossing a submission, until a barrier names the
    /// resource again on the queue (EB-11).
    warned_splits: hashbrown::HashSet<(QueueId, ObjectKey)>,
}

/// What a queue's barriers declared for one resource: for every subresource, then for those
/// a later barrier's range named (by subresource index; EB-6).
#[derive(Clone, Debug, Default)]
struct Declared {
    whole: Access,
    parts: Vec<Option<Access>>,
}

impl Declared {
    fn at(&self, i: usize) -> Access {
        self.parts.get(i).copied().flatten().unwrap_or(self.whole)
    }
}

impl BarrierCalls {
    /// Check one Barrier call against the stream's barrier history.
    pub fn check(
        &mut self,
        ctx: &Ctx,
        i: usize,
        group: &BarrierGroup<ObjectKey>,
        layouts: &Layouts,
        out: &mut Vec<Diagnostic>,
    ) {
        let device = ctx.device;
        let tracker = &mut self.trackers[ctx.queue];
        // A resource last barriered on another queue came here behind a fence: its history on
        // this queue starts again (sequential-barrier rules are per queue).
        for r in group
            .textures
            .iter()
            .map(|t| t.resource)
            .chain(group.buffers.iter().map(|b| b.resource))
        {
            if self
                .last_queue
                .insert(r, ctx.queue)
                .is_some_and(|q| q != ctx.queue)
            {
                tracker.forget(&r);
            }
            self.warned_splits.remove(&(ctx.queue, r));
        }
        // A texture has one layout per subresource whatever the queue: tell this queue's
        // history where other queues' barriers left the subresources this barrier's range
        // names, so LayoutBefore is checked against the truth (A9, EB-6 ranges).
        for t in &group.textures {
            for i in barrier_subresources(device, t) {
                if let Some(known) = layouts.subresource(t.resource, i) {
                    tracker.set_subresource_layout(t.resource, i, known);
                }
            }
        }
        // One barrier at a time, so that each finding names its resource.
        let mut parts: Vec<(Option<ObjectKey>, BarrierGroup<ObjectKey>)> = Vec::new();
        if !group.global.is_empty() || group.is_empty() {
            let g = BarrierGroup {
                global: group.global.clone(),
                ..BarrierGroup::default()
            };
            parts.push((None, g));
        }
        for b in &group.buffers {
            let mut g = BarrierGroup::default();
            g.buffers.push(*b);
            parts.push((Some(b.resource), g));
        }
        for t in &group.textures {
            let mut g = BarrierGroup::default();
            g.textures.push(*t);
            parts.push((Some(t.resource), g));
        }
        let queue = ctx.queue.queue_type();
        let mut findings = Vec::new();
        for (resource, part) in parts {
            let result = tracker.apply(&part, queue, |k| resource_info(device, *k));
            findings.extend(
                result
                    .err()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|e| (resource, e)),
            );
        }
        findings.extend(tracker.take_warnings().into_iter().map(|e| (None, e)));
        for (resource, e) in findings {
            let severity = match e.severity() {
                BarrierSeverity::Warning => Severity::Warning,
                BarrierSeverity::Error => Severity::Error,
            };
            let message = format!("{e} [{}]", e.name());
            let rule = rule(&e);
            out.push(ctx.finding_as(i, Code::BarrierCall, rule, severity, resource, message));
        }
    }

    /// A Barrier command that is the driver's translation of a legacy `ResourceBarrier` call
    /// (EB-10): the legacy transitions set each subresource's legacy state, which an
    /// enhanced barrier later finds in COMMON or refuses (EB-7); a legacy transition of a
    /// texture an enhanced barrier left in a layout other than COMMON is refused too (A8).
    /// The translation itself is the driver's, right by construction: it is not checked as
    /// the application's enhanced barriers are.
    pub fn legacy(
        &mut self,
        ctx: &Ctx,
        i: usize,
        group: &BarrierGroup<ObjectKey>,
        legacy: &[LegacyBarrier<ObjectKey>],
        out: &mut Vec<Diagnostic>,
    ) {
        let device = ctx.device;
        let tracker = &mut self.trackers[ctx.queue];
        let named = (group.textures.iter().map(|t| t.resource))
            .chain(group.buffers.iter().map(|b| b.resource));
        for r in named {
            if self
                .last_queue
                .insert(r, ctx.queue)
                .is_some_and(|q| q != ctx.queue)
            {
                tracker.forget(&r);
            }
            self.warned_splits.remove(&(ctx.queue, r));
        }
        // One barrier at a time, so that each finding names its resource.
        let errors = legacy.iter().flat_map(|b| {
            let resource = match b {
                LegacyBarrier::Transition { resource, .. } => Some(*resource),
                _ => None,
            };
            let found =
                tracker.apply_legacy(std::slice::from_ref(b), |k| resource_info(device, *k));
            found
                .err()
                .unwrap_or_default()
                .into_iter()
                .map(move |e| (resource, e))
        });
        for (resource, e) in errors.collect::<Vec<_>>() {
            let message = match e {
                BarrierError::LegacyStateBeforeMismatch { .. } => {
                    format!("{e} [{}]", e.name())
                }
                _ => format!(
                    "{e} [{}]: a legacy ResourceBarrier and an enhanced Barrier meet only in COMMON: move the texture to COMMON with the one before using the other",
                    e.name()
                ),
            };
            out.push(ctx.finding_as(
                i,
                Code::BarrierCall,
                rule(&e),
                Severity::Error,
                resource,
                message,
            ));
        }
    }

    /// Remember what each barrier allows until the next one naming the resource on its
    /// queue (AccessAfter).
    /// A texture barrier whose range names some subresources declares for those alone.
    pub fn declare(
        &mut self,
        device: &Device,
        queue: QueueId,
        pos: u64,
        group: &BarrierGroup<ObjectKey>,
    ) {
        let declared = &mut self.declared[queue];
        for b in &group.buffers {
            let whole = Declared {
                whole: b.access_after,
                parts: Vec::new(),
            };
            declared.insert(b.resource, whole);
            self.handed.insert(b.resource, (queue, pos, b.access_after));
        }
        for t in &group.textures {
            let d = declared.entry(t.resource).or_default();
            match super::sync::part_of(device, t.resource, &t.range) {
                None => {
                    d.whole = t.access_after;
                    d.parts.clear();
                }
                Some(part) => {
                    d.parts.resize(part.total(), None);
                    for i in part.indices() {
                        d.parts[i] = Some(t.access_after);
                    }
                }
            }
            self.handed.insert(t.resource, (queue, pos, t.access_after));
        }
    }

    /// Accesses by `queue`: a barrier of its own after which it used the resource handed
    /// nothing over.
    pub fn accessed(&mut self, queue: QueueId, touches: &[Touch]) {
        for t in touches {
            if self
                .handed
                .get(&t.resource)
                .is_some_and(|(q, ..)| *q == queue)
            {
                self.handed.remove(&t.resource);
            }
        }
    }

    /// The end of a command list submitted on `queue` (an ExecuteCommandLists boundary): a
    /// buffer or LAYOUT_COMMON split barrier still open crosses it (EB-11, warning), once per
    /// resource and split.
    pub fn list_ended(&mut self, ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
        let mut named = Vec::new();
        for (r, e) in self.trackers[ctx.queue].crossing_splits() {
            if named.contains(&r) || !self.warned_splits.insert((ctx.queue, r)) {
                continue;
            }
            named.push(r);
            let message = format!(
                "{e} [{}]: end the split in the same command list, or use a layout other than COMMON",
                e.name()
            );
            out.push(ctx.finding_as(
                i,
                Code::BarrierCall,
                "EB-11",
                Severity::Warning,
                Some(r),
                message,
            ));
        }
    }

    /// The end of an ExecuteCommandLists scope on PC D3D12 (barrier-spec A8): every access
    /// starts again at COMMON and each queue's barrier history starts again; only texture
    /// layouts carry over (they are kept per subresource by the layouts checker), and the
    /// legacy states transitions left, which the next transition must name (EB-11, EB-7).
    pub fn scope_ended(&mut self, queue: QueueId) {
        let tracker = &mut self.trackers[queue];
        for (r, d) in self.declared[queue].iter_mut() {
            *d = Declared::default();
            tracker.restart(r);
        }
        self.handed.retain(|_, (q, ..)| *q != queue);
    }

    /// Every access must be one the last barrier on its queue declared in AccessAfter
    /// (barrier-spec A1, A9); COMMON declares any access the layout allows.
    pub fn check_declared(
        &self,
        ctx: &Ctx,
        i: usize,
        touches: &[Touch],
        tracker: &HazardTracker,
        out: &mut Vec<Diagnostic>,
    ) {
        for t in touches {
            // Only barriers naming the resource declare its accesses; a global barrier orders
            // and flushes but leaves each resource's declared accesses as they were.
            let Some(d) = self.declared[ctx.queue].get(&t.resource) else {
                continue;
            };
            let allows = |declared: Access| {
                declared.is_empty()
                    || (declared != Access::NO_ACCESS && declared.contains(t.access))
            };
            // Through a view of some subresources, what was declared for those.
            let denied = match t.part {
                Some(p) => p.indices().map(|i| d.at(i)).find(|a| !allows(*a)),
                None if d.parts.is_empty() => Some(d.whole).filter(|a| !allows(*a)),
                None => (0..d.parts.len()).map(|i| d.at(i)).find(|a| !allows(*a)),
            };
            // A hand-back (EB-11 across queues, FN-2): another queue's last barrier on the
            // resource ended its use by declaring an access for the next user, and a fence
            // orders it before this access.
            let handed = self
                .handed
                .get(&t.resource)
                .is_some_and(|&(q, pos, access)| {
                    q != ctx.queue && allows(access) && tracker.ordered_before(q, pos, ctx.queue)
                });
            let Some(declared) = denied.filter(|_| !handed) else {
                continue;
            };
            let message = format!(
                "accessed as {:?} but the last barrier on this queue allowed only {:?} until the next one: declare the access in AccessAfter",
                t.access, declared
            );
            out.push(ctx.finding(i, Code::AccessNotDeclared, Some(t.resource), message));
        }
    }
}
