//! Which checkers see a command, and in what order (which is the order of its findings).
//!
//! Synchronisation first, so that a Present checks the buffer it is about to show before the
//! swap chain moves on: bindings, barriers, fences and every access feed the hazard tracker,
//! the layouts, the barrier history, aliasing and FS-5's writes. Then playback scopes and
//! query ends (CTX-3, CTX-6), the pipeline state a draw runs with (FS-12, FS-14), and last
//! the stream model: context state and bindings, the swap chain, dynamic memory and copies.
//! A command list played back on the immediate context is checked command by command, in
//! place, with its own label and semantics; a bundle's commands too, with the semantics and
//! state of the list that executes it (a Barrier among them is EB-11's V0805).

use hashbrown::HashSet;

use super::{Ctx, Validator};
use crate::device::{Command, ObjectKey};
use crate::model::Semantics;
use crate::validate::hazard::At;
use crate::validate::views::Views;
use crate::validate::{Code, Diagnostic};
use crate::validate::{binding, compute, copies};

impl Validator {
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
        if let Command::ExecuteBundle { label, commands } = cmd {
            return self.execute_bundle(ctx, i, *label, commands, first_map);
        }
        // A fast binding call is checked for its own rules (RB-1, RB-2), then as the legacy
        // binding calls it stands for.
        if let Some(sets) = binding::fast_sets(cmd) {
            if binding::check(ctx, i, cmd, &mut self.diagnostics) {
                for legacy in sets.iter().filter_map(|s| s.as_legacy()) {
                    self.observe_one(ctx, i, &legacy, first_map);
                }
                // Its shader-resource views keep their own MinLOD on any context (FS-13).
                let srvs = sets.iter().filter_map(|s| match s {
                    crate::device::FastSet::Srv { views, .. } => Some(views.iter().copied()),
                    _ => None,
                });
                self.contexts.bound_as_fast(ctx.queue, srvs.flatten());
            }
            return;
        }
        self.check_sync(ctx, i, cmd);
        let out = &mut self.diagnostics;
        self.playback.command(ctx, i, cmd, out);
        // A resolve makes its queries' data readable once the GPU processed it (CTX-6): the
        // CPU's read of the first slot is judged against the resolve's position.
        if let Command::EndQuery(query) | Command::ResolveQueryData { first: query, .. } = cmd {
            (self.queries).ended(*query, ctx.queue, self.sync.tracker().position(ctx.queue));
        }
        match cmd {
            Command::BeginQuery(query) => self.queries.begin(ctx, i, *query, out),
            Command::EndQuery(query) => self.queries.end(ctx, i, *query, out),
            _ => {}
        }
        self.contexts.pipeline(ctx, i, cmd, out);
        self.check_stream(ctx, i, cmd, first_map);
    }

    /// Bindings, barriers, fences and accesses, in happens-before order.
    fn check_sync(&mut self, ctx: &Ctx, i: usize, cmd: &Command) {
        let at = At {
            queue: ctx.queue,
            label: ctx.label,
            frame: ctx.frame,
        };
        self.dispatch_flags.command(ctx, cmd);
        let out = &mut self.diagnostics;
        if self.sync.bind(ctx.queue, cmd) {
            return;
        }
        let found = match cmd {
            Command::ClearState | Command::Resume | Command::Present(_) => {
                let shown = match cmd {
                    Command::Present(chain) => ctx
                        .device
                        .present
                        .chain(*chain)
                        .and_then(|c| c.buffers.first().copied()),
                    _ => None,
                };
                self.sync.reset(ctx.queue);
                self.layouts.check_present(ctx, i, shown, out);
                shown
                    .and_then(|b| self.sync.present(at, b))
                    .into_iter()
                    .collect()
            }
            Command::Barrier(group) => {
                (self.shader_reads).barrier(ctx, group, ctx.legacy_call(i));
                match ctx.legacy_call(i) {
                    Some(legacy) => self.barriers.legacy(ctx, i, group, legacy, out),
                    None => {
                        super::super::barriers::unsupported(ctx, i, out);
                        self.barriers.check(ctx, i, group, &self.layouts, out)
                    }
                }
                self.aliasing
                    .barrier(ctx, i, group, self.sync.tracker(), out);
                let pos = self.sync.tracker().position(ctx.queue);
                self.barriers.declare(ctx.device, ctx.queue, pos, group);
                self.layouts.barrier(ctx.device, group);
                self.compressed.barrier(ctx.device, group);
                self.sync.barrier(ctx.device, at, group)
            }
            Command::InsertFence { fence, .. } => {
                self.sync.insert_fence(ctx.queue, *fence, ctx.frame);
                Vec::new()
            }
            Command::WaitFence(fence) => {
                self.sync.wait_fence(ctx, i, *fence, out);
                Vec::new()
            }
            _ => {
                let mut list = self.sync.touches(ctx, cmd, &self.views, &self.layouts);
                self.dispatch_flags.bypass_l1(ctx, cmd, &mut list);
                if list.is_empty() {
                    return;
                }
                (self.layouts).check_access(ctx, i, &list, &self.compressed, out);
                (self.barriers).check_declared(ctx, i, &list, self.sync.tracker(), out);
                self.shader_reads.check(ctx, i, &list, out);
                self.barriers.accessed(ctx.queue, &list);
                self.aliasing
                    .access(ctx, i, &list, self.sync.tracker(), out);
                self.swap_chain.written(ctx, i, &list, out);
                self.sync.access(ctx.device, at, cmd, &list)
            }
        };
        for h in found {
            let d = (self.dispatch_flags.hidden_by_debug_flags(ctx, i, cmd, &h))
                .unwrap_or_else(|| self.sync.finding(ctx, i, cmd, &h));
            // A hand-over of placed memory the aliasing checker already named (V0811 for a
            // missing activation, V0814 for a missing fence) is not named again by the
            // memory it leaves unordered: one finding for one mistake.
            let said = |o: &Diagnostic| {
                let named = [d.code, Code::AliasNotActivated, Code::AliasHandOverUnfenced];
                named.contains(&o.code)
                    && (o.frame, &o.queue, &o.resource) == (d.frame, &d.queue, &d.resource)
            };
            if h.through.is_some() && out.iter().rev().take(32).any(said) {
                continue;
            }
            out.push(d);
        }
    }

    /// The stream model: context state and bindings, the swap chain, dynamic memory, copies.
    /// At most one checker reports on any one command; the context goes first because a
    /// Present resets it after the swap chain has looked.
    fn check_stream(
        &mut self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        first_map: &mut HashSet<ObjectKey>,
    ) {
        let out = &mut self.diagnostics;
        let views = &mut self.views;
        let resolve = |v: &Views, k: ObjectKey| v.resolve(ctx.device, k);
        self.contexts.command(ctx, i, cmd, views, out);
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                for v in rtvs {
                    (self.swap_chain).write_target(ctx, i, resolve(views, *v), out);
                }
                let surfaces = rtvs.iter().chain(dsv).map(|v| resolve(views, *v));
                self.compressed
                    .bind(ctx.queue, surfaces.collect::<Vec<_>>());
            }
            // Present, Resume and ClearState unbind everything (FS-11).
            Command::ClearState | Command::Resume => self.compressed.bind(ctx.queue, []),
            Command::Draw { .. } | Command::ExecuteIndirect { .. } => {
                self.compressed.draw(ctx.device, ctx.queue)
            }
            Command::ClearRenderTarget(v) => {
                (self.swap_chain).write_target(ctx, i, resolve(views, *v), out);
                self.compressed.cleared(ctx.device, resolve(views, *v));
            }
            Command::ClearDepthStencil(v) => {
                self.compressed.written(ctx.device, resolve(views, *v))
            }
            Command::SetResources { views: keys, .. } => {
                self.dynamic.bound(ctx, i, keys, views, first_map, out)
            }
            Command::SetVertexBuffers { buffers } | Command::SetConstantBuffers { buffers, .. } => {
                self.dynamic.bound(ctx, i, buffers, views, first_map, out)
            }
            Command::SetIndexBuffer(b) => self.dynamic.bound(ctx, i, &[*b], views, first_map, out),
            Command::Decompress(r) => self.compressed.decompressed(resolve(views, *r), true),
            Command::DecompressResource {
                resource,
                propagate_color_clear,
            } => (self.compressed).decompressed(resolve(views, *resource), *propagate_color_clear),
            Command::ReadMapped { resource, .. } => {
                let r = resolve(views, *resource);
                self.dynamic.read_mapped(ctx, i, r, out);
            }
            Command::Map { resource, mode } => {
                let r = resolve(views, *resource);
                self.dynamic.map(ctx, i, r, *mode, first_map, out);
            }
            Command::CSSetPlacementResource { .. } => compute::check_placement(ctx, i, cmd, out),
            Command::RawCopy {
                src, dst, bytes, ..
            } => copies::check_raw(ctx, i, &[*src, *dst], *bytes, views, out),
            Command::RawFill { dst, bytes, .. } => {
                copies::check_raw(ctx, i, &[*dst], *bytes, views, out)
            }
            Command::CopyResource { src, dst, .. } => {
                copies::check_copy(ctx, i, (*src, *dst), None, views, out)
            }
            Command::CopyTextureRegion {
                src, dst, from, to, ..
            } => copies::check_copy(ctx, i, (*src, *dst), Some((from, to)), views, out),
            Command::WaitOnPresent(b) => {
                let buffer = resolve(views, *b);
                (self.swap_chain).wait_on_present(ctx, i, buffer, out);
                self.sync.wait_on_present(ctx.queue, buffer);
            }
            Command::PlaceSwapChainView { view, buffer } => views.place(*view, *buffer),
            Command::Present(chain) => {
                (self.swap_chain).present(ctx, i, *chain, &self.compressed, out);
                self.compressed.bind(ctx.queue, []);
            }
            _ => {}
        }
    }

    /// Play back one list: check the scope (CTX-3, CTX-4), then its commands in place. A
    /// legacy list starts cleared and the state before it is restored; a fast list starts
    /// from and leaves behind whatever the context has (FS-12).
    fn execute_list(
        &mut self,
        ctx: &Ctx,
        i: usize,
        label: u32,
        semantics: Semantics,
        commands: &[Command],
    ) {
        (self.playback).list(ctx, i, label, semantics, &mut self.diagnostics);
        let inner = Ctx {
            device: ctx.device,
            queue: ctx.queue,
            frame: ctx.frame,
            label,
            pass: ctx.device.label_name(label).to_owned(),
            list: Some(semantics),
            origins: ctx.origins,
            legacy: &[],
        };
        let saved = self.contexts.save(ctx.queue);
        let saved_bindings = self.sync.save_bindings(ctx.queue);
        if semantics == Semantics::Legacy {
            self.contexts.restore(ctx.queue, Default::default());
            self.sync.restore_bindings(ctx.queue, Default::default());
        }
        // The first Map of each resource in a list must be write-discard (CTX-5).
        let mut first_map = HashSet::new();
        for (k, cmd) in commands.iter().enumerate() {
            // A legacy call recorded into the list reaches the checks as one (EB-7), at the
            // submission's command that plays the list back.
            let call = (ctx.legacy.iter()).find(|(at, inner, _)| *at == i && *inner == Some(k));
            match call {
                Some((.., barriers)) => {
                    let legacy = [(i, None, barriers.clone())];
                    let marked = Ctx {
                        pass: inner.pass.clone(),
                        origins: inner.origins,
                        legacy: &legacy,
                        ..inner
                    };
                    self.observe_one(&marked, i, cmd, &mut first_map);
                }
                None => self.observe_one(&inner, i, cmd, &mut first_map),
            }
        }
        match semantics {
            Semantics::Legacy => {
                self.contexts.restore(ctx.queue, saved);
                self.sync.restore_bindings(ctx.queue, saved_bindings);
            }
            Semantics::Fast if ctx.list.is_none() => {
                self.contexts.mark_clobbered(ctx.queue, &saved, label)
            }
            Semantics::Fast => {}
        }
    }

    /// A bundle replayed in a list: its commands are checked in place, with the list's
    /// state, bindings and scope (a bundle inherits them, and what it sets stays set), under
    /// the bundle's label. A Barrier call may not be recorded into a bundle (EB-11: "the
    /// list is not a bundle"; D3D12 fails the bundle's Close): found at the ExecuteBundle,
    /// then checked as executed, so what follows is judged on what it meant.
    fn execute_bundle(
        &mut self,
        ctx: &Ctx,
        i: usize,
        label: u32,
        commands: &[Command],
        first_map: &mut HashSet<ObjectKey>,
    ) {
        let name = ctx.device.label_name(label).to_owned();
        let inner = Ctx {
            device: ctx.device,
            queue: ctx.queue,
            frame: ctx.frame,
            label,
            pass: name.clone(),
            list: ctx.list,
            origins: ctx.origins,
            legacy: &[],
        };
        for cmd in commands {
            if let Command::Barrier(group) = cmd {
                let resource = (group.textures.iter().map(|t| t.resource))
                    .chain(group.buffers.iter().map(|b| b.resource))
                    .next();
                let message = format!(
                    "Barrier call recorded into bundle {name:?}: a bundle may not hold barriers (D3D12 fails its Close); make the call on the list that executes the bundle, before ExecuteBundle"
                );
                let finding = inner.finding(i, Code::BarrierInBundle, resource, message);
                self.diagnostics.push(finding);
            }
            self.observe_one(&inner, i, cmd, first_map);
        }
    }
}
