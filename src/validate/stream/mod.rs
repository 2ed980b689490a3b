//! The validator: an owner of checkers, each with its own state, and the entry points the
//! runtime calls (a submission, a release, a query read).
//!
//! Each checker keeps plain data and a few operations and reports into the diagnostics it is
//! handed; none reads another's fields. Where one needs what another knows (the hazard
//! tracker's stream positions for aliasing and queries, the layouts for barrier calls), the
//! validator passes it by shared reference. [`dispatch`] decides which checkers see a
//! command and in what order, which is also the order of the findings.

mod ctx;
mod dispatch;

pub(in crate::validate) use ctx::Ctx;
pub use ctx::LegacyCall;

use bevy_ecs::prelude::Resource;
use hashbrown::HashSet;
use std::sync::Arc;

use super::aliasing::Aliasing;
use super::barriers::BarrierCalls;
use super::compression::Compressed;
use super::context::Contexts;
use super::layouts::Layouts;
use super::lists::Playback;
use super::memory::DynamicMemory;
use super::queries::Queries;
use super::shader_reads::ShaderReads;
use super::swap_chain::SwapChain;
use super::sync::SyncCheck;
use super::views::Views;
use super::{Code, Diagnostic, Severity};
use crate::device::{Command, Device, FenceId, ObjectKey, QueueId};
use crate::model::Api;

/// The validation layer, an ECS resource. Disabled, `observe` returns at once.
#[derive(Resource, Default)]
pub struct Validator {
    pub enabled: bool,
    pub diagnostics: Vec<Diagnostic>,
    frame: u64,
    /// Views re-pointed in the current submission (RL-7).
    views: Views,
    /// FS-5, RL-2, FS-9.
    swap_chain: SwapChain,
    /// FS-4: surfaces that may still hold compression metadata.
    compressed: Compressed,
    /// FS-3, FS-7, FS-8, FS-11, FS-12, FS-14.
    contexts: Contexts,
    /// FS-10, CTX-5, CC-1.
    dynamic: DynamicMemory,
    /// Happens-before (barrier-spec D, FS-1 to FS-3, FN-2, FN-3) and lifetime (RL-3, FS-6).
    sync: SyncCheck,
    /// EB-1, RL-1.
    layouts: Layouts,
    /// EB-11, EB-7.
    barriers: BarrierCalls,
    /// EB-11: the shaders a legacy shader-resource state lets read.
    shader_reads: ShaderReads,
    /// CTX-3, CTX-4.
    playback: Playback,
    /// CTX-6.
    queries: Queries,
    /// EB-5, EB-9d.
    aliasing: Aliasing,
    /// CC-4: each compute context's dispatch flags.
    dispatch_flags: crate::validate::compute::DispatchFlagsCheck,
    /// Submissions and releases shown to the validator, on or off (RL-4).
    seen: crate::device::DeviceCalls,
    /// Where the commands of the next submission (or the next CPU-side call) are in the
    /// scene file, when a script gave them.
    origins: Vec<Arc<str>>,
    /// The Barrier commands of the next submission that are the driver's translation of a
    /// legacy `ResourceBarrier` call (EB-10), by command index, with that call's barriers.
    legacy: Vec<LegacyCall>,
    /// Between a Suspend and its Resume on the graphics immediate context, in CPU order:
    /// compute and DMA contexts are locked (CC-8).
    suspended: bool,
    /// Findings past [`DIAGNOSTICS_KEPT`], counted by severity and rule only.
    dropped: Dropped,
}

/// Diagnostics kept in full; later ones are only counted (by severity and rule), so that a
/// run repeating a mistake every frame holds fixed memory however long it runs.
pub const DIAGNOSTICS_KEPT: usize = 10_000;

/// Counts of the findings not kept.
#[derive(Default)]
struct Dropped {
    errors: u64,
    warnings: u64,
    by_rule: std::collections::BTreeMap<&'static str, u64>,
}

impl Validator {
    /// A validator, on or off.
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            ..Default::default()
        }
    }

    /// Submissions and releases shown to the validator so far, whether it checked them or
    /// not: every call the device received must be here (RL-4).
    pub fn seen(&self) -> crate::device::DeviceCalls {
        self.seen
    }

    /// Errors and warnings so far.
    pub fn counts(&self) -> (u64, u64) {
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count() as u64;
        let warnings = self.diagnostics.len() as u64 - errors;
        (
            errors + self.dropped.errors,
            warnings + self.dropped.warnings,
        )
    }

    /// Diagnostics found but not kept (past [`DIAGNOSTICS_KEPT`]).
    pub fn dropped(&self) -> u64 {
        self.dropped.errors + self.dropped.warnings
    }

    /// Keep at most [`DIAGNOSTICS_KEPT`] diagnostics; count the rest.
    fn keep_bounded(&mut self) {
        if self.diagnostics.len() <= DIAGNOSTICS_KEPT {
            return;
        }
        for d in self.diagnostics.drain(DIAGNOSTICS_KEPT..) {
            match d.severity {
                Severity::Error => self.dropped.errors += 1,
                _ => self.dropped.warnings += 1,
            }
            *self.dropped.by_rule.entry(d.rule).or_default() += 1;
        }
    }

    /// Entries the validator's growing tables hold (kept diagnostics, happens-before
    /// records) and the bytes they have allocated, for the memory report of a soak run.
    pub fn footprint(&self) -> (usize, usize) {
        let tracker = self.sync.tracker();
        let diagnostics = self.diagnostics.capacity() * size_of::<Diagnostic>();
        (
            self.diagnostics.len() + tracker.entries(),
            diagnostics + tracker.heap_bytes(),
        )
    }

    /// Count diagnostics per rule, sorted by rule.
    pub fn by_rule(&self) -> Vec<(String, u64)> {
        let mut map: std::collections::BTreeMap<String, u64> = Default::default();
        for d in &self.diagnostics {
            *map.entry(d.rule.to_owned()).or_default() += 1;
        }
        for (rule, n) in &self.dropped.by_rule {
            *map.entry((*rule).to_owned()).or_default() += n;
        }
        map.into_iter().collect()
    }

    /// Check one submission (commands in the order the device will receive them), which is
    /// a whole command list (one ExecuteCommandLists).
    pub fn observe(
        &mut self,
        device: &Device,
        queue: QueueId,
        frame: u64,
        label: u32,
        commands: &[Command],
    ) {
        self.observe_batch(device, queue, frame, label, commands, true);
    }

    /// Check one submission; `ends_list` false when the list goes on in the next one (a
    /// script's list split around a CPU-side call), so no list boundary is crossed.
    pub fn observe_batch(
        &mut self,
        device: &Device,
        queue: QueueId,
        frame: u64,
        label: u32,
        commands: &[Command],
        ends_list: bool,
    ) {
        self.seen.submissions += 1;
        if !self.enabled {
            return;
        }
        if frame != self.frame {
            self.frame = frame;
            self.swap_chain.new_frame();
            self.dynamic.new_frame();
            // Destroyed keys are never named again: their records go, so that the tables
            // hold live objects only over any run length.
            self.sync.retain_live(|k| device.memory.is_live(k));
        }
        self.views.clear();
        let origins = std::mem::take(&mut self.origins);
        let legacy = std::mem::take(&mut self.legacy);
        // Submitted after whatever the CPU saw complete (FN-2).
        self.sync.submitted_by_cpu(queue);
        let ctx = Ctx {
            device,
            queue,
            frame,
            label,
            pass: device.label_name(label).to_owned(),
            list: None,
            origins: &origins,
            legacy: &legacy,
        };
        if self.suspended && queue != QueueId::Graphics {
            let message = "a compute or DMA context is called between Suspend and Resume: Suspend on the graphics immediate context locks them until Resume; finish or early-out their work before suspending".to_owned();
            (self.diagnostics).push(ctx.finding(0, Code::CallWhileSuspended, None, message));
        }
        let mut first_map: HashSet<ObjectKey> = HashSet::new();
        for (i, cmd) in commands.iter().enumerate() {
            self.observe_one(&ctx, i, cmd, &mut first_map);
            match cmd {
                Command::Suspend => self.suspended = true,
                Command::Resume => self.suspended = false,
                _ => {}
            }
        }
        if ends_list {
            let last = commands.len().saturating_sub(1);
            (self.barriers).list_ended(&ctx, last, &mut self.diagnostics);
        }
        self.keep_bounded();
        if ends_list {
            self.list_ended(device.api(), queue);
        }
    }

    /// The end of a command list on `queue`, by the API's rules: D3D12 lists inherit no
    /// state; PC D3D12 also drains the queue and flushes its caches at every
    /// ExecuteCommandLists boundary, where declared accesses start again at COMMON
    /// (barrier-spec A8; the Xbox does neither, EB-8a).
    fn list_ended(&mut self, api: Api, queue: QueueId) {
        if api == Api::D3d11x {
            return;
        }
        self.contexts.list_ended(queue);
        self.sync.reset(queue);
        if api == Api::D3d12Pc {
            self.sync.scope_flushed(queue);
            self.barriers.scope_ended(queue);
        }
    }

    /// Check a release the runtime (or a script) is about to perform at CPU time `cpu_ns`:
    /// nothing bound may be released (RL-3), and every GPU use must be covered by a fence
    /// that has passed (FS-6).
    pub fn observe_release(
        &mut self,
        device: &Device,
        key: ObjectKey,
        cpu_ns: u64,
        frame: u64,
        label: u32,
    ) {
        self.seen.destructions += 1;
        if !self.enabled {
            return;
        }
        let origins = std::mem::take(&mut self.origins);
        let ctx = Self::cpu_ctx(device, frame, label, &origins);
        (self.sync).check_release(&ctx, key, cpu_ns, &mut self.diagnostics);
        self.keep_bounded();
    }

    /// Check a CPU write of `bytes` of mapped buffer `key`: every GPU use must be covered by
    /// a fence the CPU has seen pass (FS-1, FN-2).
    pub fn observe_cpu_write(
        &mut self,
        device: &Device,
        key: ObjectKey,
        bytes: u64,
        frame: u64,
        label: u32,
    ) {
        if !self.enabled {
            return;
        }
        let origins = std::mem::take(&mut self.origins);
        let ctx = Self::cpu_ctx(device, frame, label, &origins);
        (self.sync).check_cpu_write(&ctx, key, bytes, &mut self.diagnostics);
        self.keep_bounded();
    }

    /// Check a GetData of query `query` by the CPU at `cpu_ns`; `deferred` when the call is
    /// recorded into a command list (a deferred context).
    #[expect(
        clippy::too_many_arguments,
        reason = "the read and where it happens, as the script step gives them"
    )]
    pub fn observe_query_read(
        &mut self,
        device: &Device,
        query: u32,
        name: &str,
        cpu_ns: u64,
        frame: u64,
        label: u32,
        deferred: bool,
    ) {
        if !self.enabled {
            return;
        }
        let origins = std::mem::take(&mut self.origins);
        let ctx = Self::cpu_ctx(device, frame, label, &origins);
        let tracker = self.sync.tracker();
        let processed = |queue, pos| {
            tracker.fence_passed_after(queue, pos, |f| !device.is_fence_pending(f, cpu_ns))
        };
        (self.queries).read(
            &ctx,
            query,
            name,
            deferred,
            processed,
            &mut self.diagnostics,
        );
        self.keep_bounded();
    }

    /// The CPU tested or waited on `fence` at `cpu_ns` (FN-2): when it has passed, what it
    /// covers happens before everything submitted from then on, on every queue.
    pub fn observe_fence_cpu(&mut self, device: &Device, fence: FenceId, cpu_ns: u64) {
        if self.enabled && !device.is_fence_pending(fence, cpu_ns) {
            self.sync.fence_seen_by_cpu(fence);
        }
    }

    /// CPU-side calls are the immediate context's, reported on the graphics queue.
    fn cpu_ctx<'a>(device: &'a Device, frame: u64, label: u32, origins: &'a [Arc<str>]) -> Ctx<'a> {
        Ctx {
            device,
            queue: QueueId::Graphics,
            frame,
            label,
            pass: device.label_name(label).to_owned(),
            list: None,
            origins,
            legacy: &[],
        }
    }

    /// Where the commands of the next submission, or the next CPU-side call, are in the
    /// scene file (`file:line:col` each): its findings say so.
    pub fn locate_next(&mut self, origins: Vec<Arc<str>>) {
        if self.enabled {
            self.origins = origins;
        }
    }

    /// Which Barrier commands of the next submission translate legacy `ResourceBarrier`
    /// calls (EB-10): their legacy states are tracked for EB-7 instead of checking the
    /// translation as the application's own enhanced barriers.
    pub fn legacy_next(&mut self, calls: Vec<LegacyCall>) {
        if self.enabled {
            self.legacy = calls;
        }
    }
}
