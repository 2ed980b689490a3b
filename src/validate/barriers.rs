//! Barrier calls (EB-11, EB-7): every Barrier command is checked by the barrier vocabulary's
//! own tracker, which keeps what the stream's barriers left per subresource: LayoutBefore and
//! AccessBefore must match it, the Before and After triples must be consistent (barrier-spec
//! A5-A7), sequential barriers must chain their syncs (A3.4), splits must pair (A4), and a
//! texture last moved by a legacy barrier must be in COMMON (EB-7).

use super::stream::{Ctx, Validator};
use super::{Code, Severity};
use crate::barrier::{BarrierError, BarrierGroup, BarrierSeverity, QueueType, ResourceInfo};
use crate::device::{Device, ObjectKey, QueueId};

/// What the barrier rules need to know about a device object.
pub fn resource_info(device: &Device, key: ObjectKey) -> Option<ResourceInfo> {
    device.memory.resource_info(key)
}

/// The queue type barrier-spec A5 knows a hardware queue as.
pub fn queue_type(queue: QueueId) -> QueueType {
    match queue {
        QueueId::Graphics => QueueType::Direct,
        QueueId::Compute { .. } => QueueType::Compute,
        QueueId::Dma { .. } => QueueType::Copy,
    }
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

impl Validator {
    /// Check one Barrier call against the stream's barrier history.
    pub(super) fn check_barrier_call(
        &mut self,
        ctx: &Ctx,
        i: usize,
        group: &BarrierGroup<ObjectKey>,
    ) {
        let device = ctx.device;
        let tracker = self.barrier_calls.entry(ctx.queue).or_default();
        // A resource last barriered on another queue came here behind a fence: its history on
        // this queue starts again (sequential-barrier rules are per queue).
        for r in group
            .textures
            .iter()
            .map(|t| t.resource)
            .chain(group.buffers.iter().map(|b| b.resource))
        {
            if self
                .barrier_queue
                .insert(r, ctx.queue)
                .is_some_and(|q| q != ctx.queue)
            {
                tracker.forget(&r);
            }
        }
        // A texture has one layout whatever the queue: tell this queue's history where other
        // queues' barriers left it, so LayoutBefore is checked against the truth (A9).
        for t in &group.textures {
            if let (Some(known), Some(info)) = (
                self.layouts.get(&t.resource),
                resource_info(device, t.resource),
            ) {
                tracker.set_layout(t.resource, &info, *known);
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
        let queue = queue_type(ctx.queue);
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
            self.report_as(
                ctx,
                i,
                Code::BarrierCall,
                rule(&e),
                severity,
                resource,
                format!("{e} [{}]", e.name()),
            );
        }
    }
}
