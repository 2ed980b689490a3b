//! Synchronisation: what each queue has bound, and the happens-before tracker fed with every
//! access, barrier and fence (barrier-spec D, FS-1 to FS-3, FN-2, FN-3); and what a release
//! needs (RL-3, FS-6), which is the same two things.
//!
//! The accesses of a command are worked out from the stream alone ([`super::touches`]); the
//! tracker ([`super::hazard`]) turns them into hazards, which this checker names: a code per
//! hazard kind, with the earlier access it conflicts with and what would order them.

use super::hazard::{At, Hazard, HazardKind, HazardTracker, Touch};
use super::layouts::Layouts;
use super::queues::PerQueue;
use super::stream::Ctx;
use super::touches::{Bindings, touches};
use super::views::Views;
use super::{Code, Diagnostic};
use crate::barrier::BarrierGroup;
use crate::device::{Command, Device, FenceId, ObjectKey, QueueId};

/// Bindings per queue and the happens-before tracker.
#[derive(Default)]
pub(super) struct SyncCheck {
    tracker: HazardTracker,
    /// What each queue has bound, for working out what draws and dispatches touch.
    bindings: PerQueue<Bindings>,
}

impl SyncCheck {
    /// The happens-before tracker, for the checks that ask what is ordered (EB-5, CTX-6).
    pub fn tracker(&self) -> &HazardTracker {
        &self.tracker
    }

    /// Forget the records of objects that no longer exist (`live` says which do).
    pub fn retain_live(&mut self, live: impl Fn(ObjectKey) -> bool) {
        self.tracker.retain_live(live);
    }

    /// Record a binding command; true when `cmd` was one.
    pub fn bind(&mut self, queue: QueueId, cmd: &Command) -> bool {
        self.bindings[queue].bind(cmd)
    }

    /// Present, Resume and ClearState unbind everything (FS-11).
    pub fn reset(&mut self, queue: QueueId) {
        self.bindings[queue] = Bindings::default();
    }

    /// The end of an ExecuteCommandLists scope that drains and flushes `queue` (PC D3D12).
    pub fn scope_flushed(&mut self, queue: QueueId) {
        self.tracker.scope_flushed(queue);
    }

    /// A copy of `queue`'s bindings, to restore after a legacy list.
    pub fn save_bindings(&self, queue: QueueId) -> Bindings {
        self.bindings[queue].clone()
    }

    /// Put back saved bindings (or none, `Bindings::default()`).
    pub fn restore_bindings(&mut self, queue: QueueId, bindings: Bindings) {
        self.bindings[queue] = bindings;
    }

    /// The present engine reads `buffer` (RL-1).
    pub fn present(&mut self, at: At, buffer: ObjectKey) -> Option<Hazard> {
        self.tracker.present(at, buffer)
    }

    /// A wait on present for `buffer` on `queue` orders its later work after the flip (FS-5).
    pub fn wait_on_present(&mut self, queue: QueueId, buffer: ObjectKey) {
        self.tracker.wait_on_present(queue, buffer);
    }

    /// A Barrier call orders and makes visible earlier accesses; transitions are accesses.
    pub fn barrier(
        &mut self,
        device: &Device,
        at: At,
        group: &BarrierGroup<ObjectKey>,
    ) -> Vec<Hazard> {
        let aliases = |k| device.memory.aliases(k);
        (self.tracker).barrier_placed(
            at,
            group,
            |t| part_of(device, t.resource, &t.range),
            &aliases,
        )
    }

    /// A fence inserted on `queue` in `frame`.
    pub fn insert_fence(&mut self, queue: QueueId, fence: FenceId, frame: u64) {
        self.tracker.insert_fence(queue, fence, frame);
    }

    /// The CPU saw `fence` pass (a CPU wait, or a pending test that found it passed).
    pub fn fence_seen_by_cpu(&mut self, fence: FenceId) {
        self.tracker.fence_seen_by_cpu(fence);
    }

    /// A submission on `queue`: it comes after everything the CPU saw complete.
    pub fn submitted_by_cpu(&mut self, queue: QueueId) {
        self.tracker.submitted_by_cpu(queue);
    }

    /// A wait on `fence`; one never inserted can never pass (FN-3).
    pub fn wait_fence(&mut self, ctx: &Ctx, i: usize, fence: FenceId, out: &mut Vec<Diagnostic>) {
        if !self.tracker.wait_fence(ctx.queue, fence) {
            out.push(ctx.finding(
                i,
                Code::WaitOnUninsertedFence,
                None,
                format!(
                    "wait on fence {fence}, which was never inserted: the queue can never pass it"
                ),
            ));
        }
    }

    /// The accesses `cmd` makes with what its queue has bound.
    pub fn touches(
        &self,
        ctx: &Ctx,
        cmd: &Command,
        views: &Views,
        layouts: &Layouts,
    ) -> Vec<Touch> {
        let device = ctx.device;
        let resolve = |k| views.resolve(device, k);
        touches(cmd, &self.bindings[ctx.queue], device, resolve, |r| {
            layouts.get(r)
        })
    }

    /// Check and record the accesses `list` of `cmd`, and note every object it uses (FS-6).
    /// Placed resources meet the accesses through those sharing their memory (EB-5).
    pub fn access(
        &mut self,
        device: &Device,
        at: At,
        cmd: &Command,
        list: &[Touch],
    ) -> Vec<Hazard> {
        let aliases = |k| device.memory.aliases(k);
        let found = self.tracker.access_placed(at, list, &aliases);
        let mut named = Vec::new();
        cmd.objects(&mut named);
        if matches!(
            cmd,
            Command::Draw { .. }
                | Command::Dispatch { .. }
                | Command::ExecuteIndirect { .. }
                | Command::DispatchIndirect { .. }
        ) {
            named.extend(self.bindings[at.queue].all());
        }
        for k in named {
            self.tracker.note_use(&at, k);
        }
        found
    }

    /// The diagnostic for a hazard found by command `i`, `cmd`.
    pub fn finding(&self, ctx: &Ctx, i: usize, cmd: &Command, h: &Hazard) -> Diagnostic {
        if let Some(other) = h.through {
            return alias_finding(ctx, i, h, other);
        }
        if let Some(d) = indirect_arguments_finding(ctx, i, cmd, h) {
            return d;
        }
        let (code, advice) = match h.kind {
            HazardKind::ReadAfterWrite => (
                Code::ReadAfterWrite,
                "insert a barrier whose SyncBefore covers the write's stages and SyncAfter the read's",
            ),
            HazardKind::WriteAfterRead => (
                Code::WriteAfterRead,
                "insert a barrier whose SyncBefore covers the read's stages before writing",
            ),
            HazardKind::WriteAfterWrite => (
                Code::WriteAfterWrite,
                "insert a barrier between the two writes",
            ),
            HazardKind::ReadRacingWrite => (
                Code::ReadRacingWrite,
                "insert a fence after the write and wait on it before the read",
            ),
            HazardKind::WriteRacingRead => (
                Code::WriteRacingRead,
                "insert a fence after the read and wait on it before the write",
            ),
            HazardKind::WriteRacingWrite => (
                Code::WriteRacingWrite,
                "insert a fence after the first write and wait on it before the second",
            ),
            HazardKind::WriteNotVisible if h.earlier_queue == ctx.queue => (
                Code::WriteNotVisible,
                "a barrier between them must write the cache back (AccessBefore naming the write) and invalidate for this access (AccessAfter naming it); caches are never flushed by themselves",
            ),
            HazardKind::WriteNotVisible => (
                Code::WriteNotVisible,
                "the producer writes its caches back before the fence (a barrier whose AccessBefore names the write) and this queue invalidates its own after waiting (a barrier from SyncBefore NONE whose AccessAfter names this access); a DMA engine reading has no caches to invalidate and owes only the fence, nor does a compute context whose dispatch flags bypass L1 (CC-4)",
            ),
            HazardKind::PresentAfterWrite => (
                Code::PresentAfterWrite,
                "finish the writes with a barrier before Present",
            ),
        };
        let earlier = ctx.device.label_name(h.earlier_label).to_owned();
        let (before, after) = match h.kind {
            HazardKind::WriteNotVisible => ("is ordered after the write of", "but does not see it"),
            _ => ("conflicts with", "with nothing ordering them"),
        };
        let message = format!(
            "{}: this access {before} pass {earlier} ({}, queue {}) {after}: {advice}",
            h.kind.name(),
            frames_before(ctx.frame, h.earlier_frame),
            h.earlier_queue
        );
        ctx.finding(i, code, Some(h.resource), message)
    }

    /// A release of `key` by the CPU at `cpu_ns`: nothing bound may be released (RL-3), and
    /// every GPU use must be covered by a fence that has passed (FS-6).
    pub fn check_release(&self, ctx: &Ctx, key: ObjectKey, cpu_ns: u64, out: &mut Vec<Diagnostic>) {
        let device = ctx.device;
        let resolve = |k| device.memory.resource_of(k).unwrap_or(k);
        let bound = (self.bindings.iter())
            .find(|(_, b)| b.all().any(|v| v == key || resolve(v) == key))
            .map(|(q, _)| q);
        if let Some(q) = bound {
            let message = format!(
                "released while still bound on queue {q}: unbind it first; a fast context keeps no reference to keep it alive"
            );
            out.push(ctx.finding(0, Code::ReleasedWhileBound, Some(key), message));
        }
        let uncovered = (self.tracker).uncovered_use(key, |f| !device.is_fence_pending(f, cpu_ns));
        if let Some((q, l, f)) = uncovered {
            let message = format!(
                "released before a fence covering its use by pass {} ({}, queue {q}) has passed: defer the release until the fence passes",
                device.label_name(l),
                frames_before(ctx.frame, f)
            );
            out.push(ctx.finding(0, Code::ReleasedBeforeFence, Some(key), message));
        }
    }

    /// A write of `bytes` of mapped `key` by the CPU (FS-1): the CPU does not wait for the
    /// GPU, so every GPU use of the buffer must be covered by a fence the CPU saw pass (a
    /// wait or a poll, FN-2), or the write lands under a read or write still to come. A
    /// fence that happens to have passed unobserved does not count: that is a race the GPU
    /// won this time.
    pub fn check_cpu_write(
        &self,
        ctx: &Ctx,
        key: ObjectKey,
        bytes: u64,
        out: &mut Vec<Diagnostic>,
    ) {
        let device = ctx.device;
        let uncovered = (self.tracker).use_unseen_by_cpu(key);
        if let Some((q, l, f)) = uncovered {
            let message = format!(
                "the CPU writes {bytes} bytes of it through its mapping before the CPU has seen a fence covering its use by pass {} ({}, queue {q}) pass: wait for that fence first, or write another buffer (one per frame in flight)",
                device.label_name(l),
                frames_before(ctx.frame, f)
            );
            out.push(ctx.finding(0, Code::CpuWriteRacingGpu, Some(key), message));
        }
    }
}

/// The subresources `range` names of `resource`, when it is a texture and not all of them.
pub(super) fn part_of(
    device: &Device,
    resource: ObjectKey,
    range: &crate::barrier::SubresourceRange,
) -> Option<super::hazard::Part> {
    match device.memory.resource_info(resource) {
        Some(crate::barrier::ResourceInfo::Texture(tex)) => super::hazard::Part::of(range, &tex),
        _ => None,
    }
}

/// The diagnostic for a hazard between accesses through two placed resources sharing memory
/// (EB-5): unordered on one queue is V0815, racing across queues V0814 (the hand-over was not
/// fenced), a write not written back before the fence V0521 (FS-2).
fn alias_finding(ctx: &Ctx, i: usize, h: &Hazard, other: ObjectKey) -> Diagnostic {
    let earlier = ctx.device.label_name(h.earlier_label).to_owned();
    let when = frames_before(ctx.frame, h.earlier_frame);
    let (name, q, eq) = (ctx.device.memory.name(other), ctx.queue, h.earlier_queue);
    let what = format!(
        "{}: its memory overlaps {name}, accessed by pass {earlier} ({when}, queue {eq})",
        h.kind.name()
    );
    let (code, message) = match h.kind {
        HazardKind::WriteNotVisible => (
            Code::WriteNotVisible,
            format!(
                "{what}, whose write was not written back before the fence: deactivate {name} with AccessBefore naming the write before signalling, or its cache lines land on this resource's contents"
            ),
        ),
        _ if eq == q => (
            Code::AliasNotOrdered,
            format!(
                "{what}, and no barrier orders that access before this one: the barrier deactivating {name} or the one activating this resource needs a SyncBefore reaching it and a SyncAfter covering this access"
            ),
        ),
        _ => (
            Code::AliasHandOverUnfenced,
            format!(
                "{what}, and no fence orders that access before this one: signal a fence on {eq} after {name}'s last use and deactivation, and wait on it on {q} before this"
            ),
        ),
    };
    ctx.finding(i, code, Some(h.resource), message)
}

/// When an earlier access was, said relative to the finding's frame, so that a finding
/// repeated every frame reads the same in each (and is printed once, with its count).
fn frames_before(now: u64, then: u64) -> String {
    match now.saturating_sub(then) {
        0 => "this frame".to_owned(),
        1 => "the frame before".to_owned(),
        n => format!("{n} frames before"),
    }
}

/// CC-4: a compute context inserts no pipeline flush between dispatches, so the argument
/// buffer a DispatchIndirect fetches must be ordered after the dispatch that wrote it like any
/// other read (a barrier into INDIRECT_ARGUMENT, sync EXECUTE_INDIRECT). A missing one on a
/// compute queue is named as the argument buffer's hazard (V0504) rather than a plain V0501.
fn indirect_arguments_finding(
    ctx: &Ctx,
    i: usize,
    cmd: &Command,
    h: &Hazard,
) -> Option<Diagnostic> {
    let Command::DispatchIndirect { args, .. } = cmd else {
        return None;
    };
    let compute = matches!(ctx.queue, QueueId::Compute { .. });
    if !compute || h.kind != HazardKind::ReadAfterWrite || *args != h.resource {
        return None;
    }
    let earlier = ctx.device.label_name(h.earlier_label).to_owned();
    let message = format!(
        "READ_AFTER_WRITE: DispatchIndirect fetches its argument buffer, written by pass {earlier} ({}), with nothing ordering them; a compute context inserts no pipeline flush between dispatches: insert a barrier from the write's stages to EXECUTE_INDIRECT (access INDIRECT_ARGUMENT)",
        frames_before(ctx.frame, h.earlier_frame),
    );
    Some(ctx.finding(
        i,
        Code::IndirectArgumentsUnordered,
        Some(h.resource),
        message,
    ))
}
