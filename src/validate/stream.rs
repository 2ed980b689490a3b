//! The validator's model of the command streams, and the checks it runs on each command.

use bevy_ecs::prelude::Resource;
use hashbrown::{HashMap, HashSet};

use super::{Code, Diagnostic, Severity};
use crate::device::{Command, Device, MapMode, ObjectKey, QueueId};
use crate::model::Semantics;

/// State the validator tracks per queue (state persists across lists, FS-12).
#[derive(Clone, Default)]
pub(super) struct QueueModel {
    targets_set: bool,
    viewport_set: bool,
    pipeline_set: bool,
    /// Views bound right now.
    bound: Vec<ObjectKey>,
    /// Bound views invalidated by a clear, map or decompression and not set since (FS-8).
    stale: HashSet<ObjectKey>,
    /// The pipeline state set since the last reset (FS-12, FS-14).
    pub(super) state: super::state::StateShadow,
    /// State the immediate context had set that a fast list then changed, with the list's
    /// label, until set again (FS-12).
    pub(super) clobbered: HashMap<super::state::StateKey, u32>,
}

/// The validation layer, an ECS resource. Disabled, `observe` returns at once.
#[derive(Resource, Default)]
pub struct Validator {
    pub enabled: bool,
    pub diagnostics: Vec<Diagnostic>,
    frame: u64,
    pub(super) queues: HashMap<QueueId, QueueModel>,
    /// Back buffers waited on since they were last presented (FS-5).
    pub(super) waited: HashSet<ObjectKey>,
    /// Buffers presented this frame (RL-2).
    presented: HashSet<ObjectKey>,
    /// Back buffers written since their last decompression (FS-4).
    dirty: HashSet<ObjectKey>,
    /// Dynamic buffers mapped write-discard this frame (FS-10).
    pub(super) mapped: HashSet<ObjectKey>,
    /// Views re-pointed by PlaceSwapChainView ahead of the device (same submission).
    pub(super) placed: HashMap<ObjectKey, ObjectKey>,
    /// Happens-before tracking of every access (barrier-spec D).
    pub(super) hazards: super::hazard::HazardTracker,
    /// What each queue has bound, for working out what draws and dispatches touch.
    pub(super) bindings: HashMap<QueueId, super::touches::Bindings>,
    /// Texture layouts as the stream's barriers left them.
    pub(super) layouts: HashMap<ObjectKey, crate::barrier::Layout>,
    /// Barrier-call history per queue for the checks of EB-11 and EB-7: barriers on one queue
    /// are sequential; across queues only fences order them.
    pub(super) barrier_calls: HashMap<QueueId, crate::barrier::BarrierTracker<ObjectKey>>,
    /// The queue of the last barrier naming each resource.
    pub(super) barrier_queue: HashMap<ObjectKey, QueueId>,
    /// What the last barrier on a queue allowed for a resource (AccessAfter), and when.
    pub(super) declared: HashMap<(QueueId, ObjectKey), (crate::barrier::Access, u64)>,

    pub(super) declare_counter: u64,
    /// Command-list playback scopes open per queue (CTX-3, CTX-4).
    pub(super) playback: HashMap<QueueId, super::lists::Scope>,
    /// Per queue, the second Begins reported as V0901 since the last Present: each excuses one
    /// End that finds no scope open, a consequence of that mistake, not another (CTX-3).
    pub(super) owed_ends: HashMap<QueueId, u32>,
    /// Where the latest EndQuery of each query executed (CTX-6).
    pub(super) queries: HashMap<u32, (QueueId, u64)>,
    /// Placed resources sharing memory (EB-5, EB-9d).
    pub(super) aliasing: super::aliasing::AliasModel,
}

pub(super) struct Ctx<'a> {
    pub device: &'a Device,
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub pass: String,
    /// Inside a command list played back on the immediate context: the list's semantics.
    pub list: Option<Semantics>,
}

impl Ctx<'_> {
    /// The semantics of the context that issued the command: a list's own (the deferred
    /// context that recorded it), else the device's (CTX-4).
    pub fn semantics(&self) -> Semantics {
        self.list.unwrap_or_else(|| self.device.semantics())
    }
}

impl Validator {
    /// A validator, on or off.
    pub fn new(enabled: bool) -> Self {
        Self {
            enabled,
            ..Default::default()
        }
    }

    /// Errors and warnings so far.
    pub fn counts(&self) -> (u64, u64) {
        let errors = self
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count() as u64;
        (errors, self.diagnostics.len() as u64 - errors)
    }

    /// Count diagnostics per rule, sorted by rule.
    pub fn by_rule(&self) -> Vec<(String, u64)> {
        let mut map: std::collections::BTreeMap<String, u64> = Default::default();
        for d in &self.diagnostics {
            *map.entry(d.rule.to_owned()).or_default() += 1;
        }
        map.into_iter().collect()
    }

    pub(super) fn resource(&self, device: &Device, key: ObjectKey) -> ObjectKey {
        if let Some(b) = self.placed.get(&key) {
            return *b;
        }
        device.memory.resource_of(key).unwrap_or(key)
    }

    fn is_back_buffer(device: &Device, key: ObjectKey) -> Option<bool> {
        // Some(true) at index 0 of a chain, Some(false) elsewhere in a chain, None if not a
        // swap-chain buffer at all.
        device.present.find_buffer(key).map(|i| i == 0)
    }

    /// Check one submission (commands in the order the device will receive them).
    pub fn observe(
        &mut self,
        device: &Device,
        queue: QueueId,
        frame: u64,
        label: u32,
        commands: &[Command],
    ) {
        if !self.enabled {
            return;
        }
        if frame != self.frame {
            self.frame = frame;
            self.presented.clear();
            self.mapped.clear();
        }
        self.placed.clear();
        let ctx = Ctx {
            device,
            queue,
            frame,
            label,
            pass: device.label_name(label).to_owned(),
            list: None,
        };
        let mut first_map: HashSet<ObjectKey> = HashSet::new();
        for (i, cmd) in commands.iter().enumerate() {
            self.observe_one(&ctx, i, cmd, &mut first_map);
        }
    }

    /// Check one command; a command list played back is checked command by command.
    pub(super) fn observe_one(
        &mut self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        first_map: &mut HashSet<ObjectKey>,
    ) {
        if let Command::ExecuteCommandList {
            label,
            semantics,
            commands,
        } = cmd
        {
            return self.execute_list(ctx, i, *label, *semantics, commands);
        }
        // Hazards first: a present checks the buffer it is about to show.
        self.check_sync(ctx, i, cmd);
        self.check_playback(ctx, i, cmd);
        self.check_pipeline(ctx, i, cmd);
        self.check(ctx, i, cmd, first_map);
    }

    /// Report a finding whose code fixes its rule and severity.
    pub(super) fn report(
        &mut self,
        ctx: &Ctx,
        command: usize,
        code: Code,
        resource: Option<ObjectKey>,
        message: String,
    ) {
        let rule = code.rule().unwrap_or_default();
        let severity = code.severity().unwrap_or(Severity::Error);
        self.report_as(ctx, command, code, rule, severity, resource, message);
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "a diagnostic's fields, each from a different source"
    )]
    pub(super) fn report_as(
        &mut self,
        ctx: &Ctx,
        command: usize,
        code: Code,
        rule: &'static str,
        severity: Severity,
        resource: Option<ObjectKey>,
        message: String,
    ) {
        self.diagnostics.push(Diagnostic {
            code,
            severity,
            rule,
            frame: ctx.frame,
            queue: ctx.queue.to_string(),
            command,
            pass: ctx.pass.clone(),
            resource: resource.map_or_else(String::new, |r| ctx.device.memory.name(r)),
            message,
        });
    }

    fn write_back_buffer(&mut self, ctx: &Ctx, i: usize, view: ObjectKey) {
        let res = self.resource(ctx.device, view);
        let Some(at_zero) = Self::is_back_buffer(ctx.device, res) else {
            return;
        };
        if !at_zero {
            self.report(ctx, i, Code::SwapChainViewNotRotated, Some(res), "this swap-chain buffer is not at index 0: rotate the view after every present (saved views, a fenced ring, or PlaceSwapChainView)".into());
        }
        if !self.waited.contains(&res) {
            self.report(ctx, i, Code::BackBufferWriteWithoutWait, Some(res), "back buffer written without a wait on present since it was last presented: insert InsertWaitOnPresent before setting it".into());
            self.waited.insert(res);
        }
        self.dirty.insert(res);
    }

    pub(super) fn check(
        &mut self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        first_map: &mut HashSet<ObjectKey>,
    ) {
        let device = ctx.device;
        let q = self.queues.entry(ctx.queue).or_default();
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                q.targets_set = true;
                q.bound.retain(|v| !rtvs.contains(v) && Some(*v) != *dsv);
                for v in rtvs.iter().chain(dsv) {
                    q.stale.remove(v);
                    q.bound.push(*v);
                }
                for v in rtvs.clone() {
                    self.write_back_buffer(ctx, i, v);
                }
            }
            Command::SetViewport { .. } => q.viewport_set = true,
            Command::SetPipelineState(_) => q.pipeline_set = true,
            Command::SetResources { views, .. } => {
                for v in views {
                    q.stale.remove(v);
                    q.bound.push(*v);
                }
                self.check_dynamic(ctx, i, views);
            }
            Command::SetVertexBuffers { buffers } | Command::SetConstantBuffers { buffers, .. } => {
                self.check_dynamic(ctx, i, buffers)
            }
            Command::SetIndexBuffer(b) => self.check_dynamic(ctx, i, &[*b]),
            // Resume resets all state and bindings like ClearState (FS-11).
            Command::ClearState | Command::Resume => *q = QueueModel::default(),
            Command::ClearRenderTarget(v) | Command::ClearDepthStencil(v) => {
                if q.bound.contains(v) {
                    q.stale.insert(*v);
                }
                if matches!(cmd, Command::ClearRenderTarget(_)) {
                    self.write_back_buffer(ctx, i, *v);
                }
            }
            Command::Decompress(r) | Command::Map { resource: r, .. } => {
                let r = match self.placed.get(r) {
                    Some(b) => *b,
                    None => device.memory.resource_of(*r).unwrap_or(*r),
                };
                let stale: Vec<ObjectKey> = q
                    .bound
                    .iter()
                    .copied()
                    .filter(|v| device.memory.resource_of(*v).ok() == Some(r))
                    .collect();
                q.stale.extend(stale);
                if matches!(cmd, Command::Decompress(_)) {
                    self.dirty.remove(&r);
                }
                if let Command::Map { mode, .. } = cmd {
                    if first_map.insert(r) && *mode != MapMode::WriteDiscard {
                        self.report(
                            ctx,
                            i,
                            Code::FirstMapNotDiscard,
                            Some(r),
                            "the first Map of a resource in a command list must be write-discard"
                                .into(),
                        );
                    }
                    if *mode == MapMode::WriteDiscard {
                        self.mapped.insert(r);
                    }
                }
            }
            Command::Draw { .. } | Command::Dispatch { .. } => {
                let graphics = matches!(cmd, Command::Draw { .. });
                if graphics && !(q.targets_set && q.viewport_set && q.pipeline_set) {
                    let missing = [
                        (q.targets_set, "render targets"),
                        (q.viewport_set, "viewport"),
                        (q.pipeline_set, "pipeline state"),
                    ]
                    .iter()
                    .filter(|(set, _)| !set)
                    .map(|(_, n)| *n)
                    .collect::<Vec<_>>()
                    .join(", ");
                    self.report(ctx, i, Code::StateNotSet, None, format!("draw with state not set since the last present or clear-state ({missing}): set all state every frame"));
                } else if !graphics && !q.pipeline_set {
                    self.report(
                        ctx,
                        i,
                        Code::StateNotSet,
                        None,
                        "dispatch without a pipeline state set since the last reset".into(),
                    );
                }
                let q = self.queues.entry(ctx.queue).or_default();
                if let Some(v) = q.bound.iter().copied().find(|v| q.stale.contains(v)) {
                    q.stale.remove(&v);
                    self.report(ctx, i, Code::ViewNotSetAgain, Some(v), "a view used after a clear, map or decompression without being set again: set it again at every slot".into());
                }
            }
            Command::GetState if ctx.semantics() == Semantics::Fast => {
                self.report(ctx, i, Code::GetOnFastContext, None, "a Get* call on a fast context: fast contexts shadow no state, so reading it back fails; keep your own copy of what you set".into());
            }
            Command::UpdateSubresource { resource, .. } if ctx.semantics() == Semantics::Fast => {
                let r = self.resource(device, *resource);
                self.report(ctx, i, Code::UpdateSubresourceOnFastContext, Some(r), "UpdateSubresource is not supported on fast contexts: map a dynamic buffer or copy from an upload resource instead".into());
            }
            Command::SetPrimitiveResetIndex(0xFFFF) if ctx.semantics() == Semantics::Legacy => {
                self.report(ctx, i, Code::ResetIndexOnLegacyContext, None, "a legacy context refuses the 16-bit primitive-reset index 0xFFFF: only fast contexts take it (for 16-bit strips)".into());
            }
            Command::RawCopy {
                src, dst, bytes, ..
            } => self.check_raw(ctx, i, &[*src, *dst], *bytes),
            Command::RawFill { dst, bytes, .. } => self.check_raw(ctx, i, &[*dst], *bytes),
            Command::CopyResource { src, dst, .. } => self.check_copy(ctx, i, *src, *dst, None),
            Command::CopyTextureRegion {
                src, dst, from, to, ..
            } => self.check_copy(ctx, i, *src, *dst, Some((from, to))),
            Command::WaitOnPresent(b) => {
                let r = self.resource(device, *b);
                if self.presented.contains(&r) {
                    self.report(ctx, i, Code::WaitOnPresentAfterPresent, Some(r), "wait on present for a buffer already presented this frame: this hangs the GPU; wait before writing the back buffer, not after Present".into());
                }
                self.waited.insert(r);
            }
            Command::PlaceSwapChainView { view, buffer } => {
                self.placed.insert(*view, *buffer);
            }
            Command::Present(chain) => {
                let shown = device
                    .present
                    .chain(*chain)
                    .and_then(|c| c.buffers.first().copied());
                if let Some(b) = shown {
                    if self.dirty.contains(&b) {
                        self.report(ctx, i, Code::PresentCompressed, Some(b), "presenting a buffer that may still be compressed: decompress it before Present".into());
                    }
                    self.waited.remove(&b);
                    self.presented.insert(b);
                }
                self.queues.insert(ctx.queue, QueueModel::default());
            }
            _ => {}
        }
    }
}
