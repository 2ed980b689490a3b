//! Each queue's context as the stream left it: state set, views bound and views gone stale
//! (FS-7, FS-8, FS-11, FS-12, FS-14).
//!
//! A fast context shadows nothing (FS-7): reading state back (GetState) fails, V0203, and so
//! does creating or swapping a device context state, V0209; it inserts no partial flushes
//! by itself, so CSEnableAutomaticGpuFlush fails on it too (FS-3, V0208). All state must be
//! set every frame: Present, Resume and ClearState reset it, and a draw needs render
//! targets, viewport and pipeline state set since (FS-11, V0201; a dispatch the pipeline
//! state). After a clear, a map or a decompression, every bound view of the resource, and a
//! vertex, index or constant buffer bound directly, must be set again before the next draw
//! or dispatch that reads its slot (FS-8, V0202): a dispatch reads compute-stage bindings, a
//! draw the others. Fast contexts take no UpdateSubresource (V0204) nor
//! stream-output append (V0210), and only they take the 16-bit primitive-reset index 0xFFFF
//! (FS-14, V0205). A view's MinLOD changed after it was bound (SetShaderResourceViewMinLod on
//! a fast context; SetResourceMinLod on a legacy one, whose views defer to their resource) is
//! in effect only once the view is set again; a draw or dispatch before that is V0211 (FS-13).
//! A fast context's views ignore SetResourceMinLod once created, so it marks nothing there.
//! The D3D11.X calls (SetFastResources, its batches, CSSetPlacementResource) act as on a fast
//! context whatever the context: a view they bound follows the view call, not the resource's.
//! What a draw runs with, piece
//! by piece, is in [`state`] and checked in [`pipeline`] (FS-12, FS-14). State persists
//! across command lists (FS-12).

mod pipeline;
mod state;

use hashbrown::{HashMap, HashSet};

use super::queues::PerQueue;
use super::stream::Ctx;
use super::views::Views;
use super::{Code, Diagnostic};
use crate::device::{Command, ObjectKey, QueueId, ShaderStage};
use crate::model::{Api, Semantics};
use state::{StateKey, StateShadow};

/// One queue's context.
#[derive(Clone, Default)]
pub(super) struct Context {
    targets_set: bool,
    viewport_set: bool,
    pipeline_set: bool,
    /// Views bound right now.
    bound: Vec<ObjectKey>,
    /// Bound views invalidated by a clear, map or decompression and not set since (FS-8).
    stale: HashSet<ObjectKey>,
    /// Views bound where a dispatch reads them (compute-stage bindings), and where a draw
    /// does (targets, vertex and index buffers, vertex- and pixel-stage bindings): a stale
    /// view is used, and FS-8 broken, only by the work that reads its slot.
    for_compute: HashSet<ObjectKey>,
    for_graphics: HashSet<ObjectKey>,
    /// Bound views whose MinLOD changed since they were bound, not set since (FS-13).
    min_lod_changed: HashSet<ObjectKey>,
    /// Bound views a D3D11.X call bound: their own MinLOD is theirs on any context (FS-13).
    bound_as_fast: HashSet<ObjectKey>,
    /// The pipeline state set since the last reset (FS-12, FS-14).
    state: StateShadow,
    /// State the immediate context had set that a fast list then changed, with the list's
    /// label, until set again (FS-12).
    clobbered: HashMap<StateKey, u32>,
}

/// Every queue's context.
#[derive(Default)]
pub(super) struct Contexts {
    queues: PerQueue<Context>,
}

impl Contexts {
    /// A copy of `queue`'s context, to restore after a legacy list.
    pub fn save(&self, queue: QueueId) -> Context {
        self.queues[queue].clone()
    }

    /// Put back a saved context (or a cleared one, `Context::default()`).
    pub fn restore(&mut self, queue: QueueId, context: Context) {
        self.queues[queue] = context;
    }

    /// The end of a D3D12 command list: the next one on the queue starts with nothing set
    /// or bound (D3D12 lists inherit no state; D3D11.X contexts keep theirs, FS-12).
    pub fn list_ended(&mut self, queue: QueueId) {
        self.queues[queue] = Context::default();
    }

    /// After a fast list played back on the immediate context: every piece of state the
    /// context had set before (`before`) that the list left with another value (FS-12).
    pub fn mark_clobbered(&mut self, queue: QueueId, before: &Context, label: u32) {
        let q = &mut self.queues[queue];
        for (key, value) in before.state.values() {
            if q.state.get(key) != Some(value) {
                q.clobbered.insert(key, label);
            }
        }
    }

    /// `views` were just bound by a D3D11.X call (SetFastResources or a batch), which reads
    /// the view's own MinLOD on any context (FS-13).
    pub fn bound_as_fast(&mut self, queue: QueueId, views: impl IntoIterator<Item = ObjectKey>) {
        self.queues[queue].bound_as_fast.extend(views);
    }

    /// Track what `cmd` sets, binds and invalidates, and check the state a draw or dispatch
    /// runs with (FS-11, FS-8) and what a fast or legacy context refuses (FS-7, FS-14).
    pub fn command(
        &mut self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        views: &Views,
        out: &mut Vec<Diagnostic>,
    ) {
        let device = ctx.device;
        let fast_rebinds = device.api() == Api::D3d11x;
        let q = &mut self.queues[ctx.queue];
        let mut report = |code, resource, message: &str| {
            out.push(ctx.finding(i, code, resource, message.to_owned()))
        };
        // FS-14: a fast context keeps no hidden counter for an append or counter UAV.
        if matches!(
            cmd,
            Command::SetResources { .. } | Command::ClearUnorderedAccess(_)
        ) && ctx.semantics() == Semantics::Fast
        {
            let mut named = Vec::new();
            cmd.objects(&mut named);
            let counter = |k: &&ObjectKey| {
                matches!(device.memory.get(**k).map(|o| &o.desc),
                    Ok(crate::device::ObjectDesc::View { kind, .. }) if *kind == crate::model::ViewKind::UavCounter)
            };
            if let Some(v) = named.iter().find(counter) {
                report(
                    Code::CounterUavOnFastContext,
                    Some(*v),
                    "an append or counter UAV of a buffer on a fast context: fast contexts keep no hidden counter; bind a plain UAV and keep the count in a buffer of your own (an atomic on it)",
                );
            }
        }
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                q.targets_set = true;
                q.bound.retain(|v| !rtvs.contains(v) && Some(*v) != *dsv);
                for v in rtvs.iter().chain(dsv) {
                    q.stale.remove(v);
                    q.min_lod_changed.remove(v);
                    q.bound.push(*v);
                    q.for_graphics.insert(*v);
                }
            }
            Command::SetViewport { .. } => q.viewport_set = true,
            Command::SetPipelineState(_) => q.pipeline_set = true,
            Command::SetResources { views: keys, .. }
            | Command::SetVertexBuffers { buffers: keys }
            | Command::SetConstantBuffers { buffers: keys, .. } => {
                let compute = matches!(
                    cmd,
                    Command::SetResources {
                        stage: ShaderStage::Compute,
                        ..
                    } | Command::SetConstantBuffers {
                        stage: ShaderStage::Compute,
                        ..
                    }
                );
                for v in keys {
                    if compute {
                        q.for_compute.insert(*v);
                    } else {
                        q.for_graphics.insert(*v);
                    }
                    q.stale.remove(v);
                    q.min_lod_changed.remove(v);
                    q.bound_as_fast.remove(v);
                    if !q.bound.contains(v) {
                        q.bound.push(*v);
                    }
                }
            }
            Command::SetIndexBuffer(b) | Command::CSSetPlacementResource { view: b, .. } => {
                q.stale.remove(b);
                if matches!(cmd, Command::CSSetPlacementResource { .. }) {
                    // A rebind: the view's MinLOD as it is now (FS-13).
                    q.min_lod_changed.remove(b);
                    q.bound_as_fast.insert(*b);
                    q.for_compute.insert(*b);
                } else {
                    q.for_graphics.insert(*b);
                }
                if !q.bound.contains(b) {
                    q.bound.push(*b);
                }
            }
            // Resume resets all state and bindings like ClearState (FS-11), and so does the
            // end of a frame.
            Command::ClearState | Command::Resume | Command::Present(_) => *q = Context::default(),
            // Only D3D11.X unbinds what a clear, map or decompression touched (FS-8); D3D12
            // binds descriptors and addresses, which none of them change.
            Command::ClearRenderTarget(v) | Command::ClearDepthStencil(v)
                if q.bound.contains(v) && fast_rebinds =>
            {
                q.stale.insert(*v);
            }
            // A bound view resolves as the stream has re-pointed it (PlaceSwapChainView, RL-7),
            // not as the device last mapped it; a buffer bound directly resolves to itself.
            Command::Decompress(r)
            | Command::DecompressResource { resource: r, .. }
            | Command::Map { resource: r, .. }
                if fast_rebinds =>
            {
                let r = views.resolve(device, *r);
                let stale = (q.bound.iter().copied()).filter(|v| views.resolve(device, *v) == r);
                q.stale.extend(stale);
            }
            Command::SetShaderResourceViewMinLod { view, .. }
                if q.bound.contains(view)
                    && (ctx.semantics() == Semantics::Fast || q.bound_as_fast.contains(view)) =>
            {
                q.min_lod_changed.insert(*view);
            }
            Command::SetResourceMinLod { resource, .. } if ctx.semantics() == Semantics::Legacy => {
                let r = views.resolve(device, *resource);
                let changed = (q.bound.iter().copied())
                    .filter(|v| !q.bound_as_fast.contains(v) && views.resolve(device, *v) == r);
                q.min_lod_changed.extend(changed);
            }
            Command::Draw { .. }
            | Command::Dispatch { .. }
            | Command::ExecuteIndirect { .. }
            | Command::DispatchIndirect { .. } => {
                let graphics =
                    matches!(cmd, Command::Draw { .. } | Command::ExecuteIndirect { .. });
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
                    report(
                        Code::StateNotSet,
                        None,
                        &format!(
                            "draw with state not set since the last present or clear-state ({missing}): set all state every frame"
                        ),
                    );
                } else if !graphics && !q.pipeline_set {
                    report(
                        Code::StateNotSet,
                        None,
                        "dispatch without a pipeline state set since the last reset",
                    );
                }
                if let Some(v) = (q.bound.iter().copied()).find(|v| q.min_lod_changed.contains(v)) {
                    q.min_lod_changed.remove(&v);
                    report(
                        Code::MinLodNotRebound,
                        Some(v),
                        "a view whose MinLOD changed after it was bound, used without being set again: the new MinLOD takes effect only when the view is rebound",
                    );
                }
                // Every stale view this work reads, each once; a view only the other kind of
                // work reads stays stale for that work (FS-8).
                let reads = if graphics {
                    &q.for_graphics
                } else {
                    &q.for_compute
                };
                let used: Vec<ObjectKey> = (q.bound.iter().copied())
                    .filter(|v| q.stale.contains(v) && reads.contains(v))
                    .collect();
                for v in used {
                    q.stale.remove(&v);
                    report(
                        Code::ViewNotSetAgain,
                        Some(v),
                        "a view used after a clear, map or decompression without being set again: set it again at every slot",
                    );
                }
            }
            Command::GetState if ctx.semantics() == Semantics::Fast => {
                report(
                    Code::GetOnFastContext,
                    None,
                    "a Get* call on a fast context: fast contexts shadow no state, so reading it back fails; keep your own copy of what you set",
                );
            }
            Command::CSEnableAutomaticGpuFlush(_) if ctx.semantics() == Semantics::Fast => {
                report(
                    Code::AutomaticFlushOnFastContext,
                    None,
                    "CSEnableAutomaticGpuFlush fails on a fast context: it inserts no partial flushes by itself; send the flushes the work needs as pipelined events (barriers)",
                );
            }
            Command::CreateDeviceContextState | Command::SwapDeviceContextState
                if ctx.semantics() == Semantics::Fast =>
            {
                report(
                    Code::ContextStateOnFastContext,
                    None,
                    "device context state cannot be created or swapped on a fast context, which shadows no state: set the state you need again",
                );
            }
            Command::SOSetTargets { offsets, .. }
                if offsets.contains(&-1) && ctx.semantics() == Semantics::Fast =>
            {
                report(
                    Code::StreamOutputAppendOnFastContext,
                    None,
                    "SOSetTargets with offset -1 (append) fails on a fast context: give each stream-output target its byte offset",
                );
            }
            Command::UpdateSubresource { resource, .. } if ctx.semantics() == Semantics::Fast => {
                let r = views.resolve(device, *resource);
                report(
                    Code::UpdateSubresourceOnFastContext,
                    Some(r),
                    "UpdateSubresource is not supported on fast contexts: map a dynamic buffer or copy from an upload resource instead",
                );
            }
            Command::SetPrimitiveResetIndex(0xFFFF) if ctx.semantics() == Semantics::Legacy => {
                report(
                    Code::ResetIndexOnLegacyContext,
                    None,
                    "a legacy context refuses the 16-bit primitive-reset index 0xFFFF: only fast contexts take it (for 16-bit strips)",
                );
            }
            _ => {}
        }
    }
}
