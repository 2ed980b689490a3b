//! Synchronisation checks: feeds every command's accesses, barriers and fences to the
//! happens-before tracker and turns what it finds into diagnostics.

use super::Code;
use super::hazard::{At, Hazard, HazardKind};
use super::stream::{Ctx, Validator};
use super::touches::{Bindings, touches};
use crate::barrier::Access;
use crate::device::Command;

impl Validator {
    pub(super) fn check_sync(&mut self, ctx: &Ctx, i: usize, cmd: &Command) {
        let mut bind = self.bindings.remove(&ctx.queue).unwrap_or_default();
        let found = self.sync_effects(ctx, i, cmd, &mut bind);
        self.bindings.insert(ctx.queue, bind);
        for h in found {
            self.report_hazard(ctx, i, &h);
        }
    }

    fn sync_effects(
        &mut self,
        ctx: &Ctx,
        i: usize,
        cmd: &Command,
        bind: &mut Bindings,
    ) -> Vec<Hazard> {
        let at = At {
            queue: ctx.queue,
            label: ctx.label,
            frame: ctx.frame,
        };
        if bind.bind(cmd) {
            return Vec::new();
        }
        match cmd {
            Command::SetPipelineState(_) => {
                // A pipeline reads the resources bound for it: the recorder (and a script)
                // binds them after choosing the pipeline, so older shader bindings no longer
                // count as inputs.
                let rt = (bind.rtvs.clone(), bind.dsv);
                *bind = Bindings {
                    rtvs: rt.0,
                    dsv: rt.1,
                    ..Default::default()
                };
                Vec::new()
            }
            Command::ClearState | Command::Resume | Command::Present(_) => {
                let shown = match cmd {
                    Command::Present(chain) => ctx
                        .device
                        .present
                        .chain(*chain)
                        .and_then(|c| c.buffers.first().copied()),
                    _ => None,
                };
                *bind = Bindings::default();
                let layout_ok = shown.is_none_or(|b| {
                    self.layouts
                        .get(&b)
                        .is_none_or(|l| *l == crate::barrier::Layout::PRESENT)
                });
                if !layout_ok {
                    self.report(ctx, i, Code::PresentInWrongLayout, shown, "presenting a buffer not in PRESENT/COMMON layout: transition it before Present".into());
                }
                shown
                    .and_then(|b| self.hazards.present(at, b))
                    .into_iter()
                    .collect()
            }
            Command::Barrier(group) => {
                self.check_barrier_call(ctx, i, group);
                self.alias_barrier(ctx, i, group);
                self.declare(ctx.queue, group);
                for t in &group.textures {
                    self.layouts.insert(t.resource, t.layout_after);
                }
                self.hazards.barrier(at, group)
            }
            Command::InsertFence { fence, .. } => {
                self.hazards.insert_fence(ctx.queue, *fence);
                Vec::new()
            }
            Command::WaitFence(fence) => {
                if !self.hazards.wait_fence(ctx.queue, *fence) {
                    self.report(ctx, i, Code::WaitOnUninsertedFence, None, format!("wait on fence {fence}, which was never inserted: the queue can never pass it"));
                }
                Vec::new()
            }
            _ => {
                let placed = &self.placed;
                let device = ctx.device;
                let resolve = |k| {
                    placed
                        .get(&k)
                        .copied()
                        .unwrap_or_else(|| device.memory.resource_of(k).unwrap_or(k))
                };
                let layouts = &self.layouts;
                let list = touches(cmd, bind, device, resolve, |r| layouts.get(&r).copied());
                if list.is_empty() {
                    return Vec::new();
                }
                self.check_layouts(ctx, i, &list);
                self.check_declared(ctx, i, &list);
                self.check_aliasing(ctx, i, &list);
                // FS-5 for every way of writing a back buffer, not only render targets.
                for t in list.iter().filter(|t| t.write) {
                    if device.present.find_buffer(t.resource).is_some()
                        && self.waited.insert(t.resource)
                    {
                        let message = "back buffer written without a wait on present since it was last presented: insert InsertWaitOnPresent before writing it".to_owned();
                        self.report(
                            ctx,
                            i,
                            Code::BackBufferWriteWithoutWait,
                            Some(t.resource),
                            message,
                        );
                    }
                }
                let found = self.hazards.access(at, &list);
                let mut named = Vec::new();
                cmd.objects(&mut named);
                if matches!(cmd, Command::Draw { .. } | Command::Dispatch { .. }) {
                    named.extend(bind.all());
                }
                for k in named {
                    self.hazards.note_use(ctx.queue, k);
                }
                found
            }
        }
    }

    fn report_hazard(&mut self, ctx: &Ctx, i: usize, h: &Hazard) {
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
            HazardKind::WriteNotVisible => (
                Code::WriteNotVisible,
                "write the producer's cache back (AccessBefore) and invalidate the consumer's (AccessAfter) in a barrier",
            ),
            HazardKind::PresentAfterWrite => (
                Code::PresentAfterWrite,
                "finish the writes with a barrier before Present",
            ),
        };
        let earlier = ctx.device.label_name(h.earlier_label).to_owned();
        let message = format!(
            "{}: this access conflicts with pass {earlier} (frame {}, queue {}) with nothing ordering them: {advice}",
            h.kind.name(),
            h.earlier_frame,
            h.earlier_queue
        );
        self.report(ctx, i, code, Some(h.resource), message);
    }
}

impl Validator {
    /// Check a release the runtime (or a script) is about to perform at CPU time `cpu_ns`:
    /// nothing bound may be released (RL-3), and every GPU use must be covered by a fence
    /// that has passed (FS-6).
    pub fn observe_release(
        &mut self,
        device: &crate::device::Device,
        key: crate::device::ObjectKey,
        cpu_ns: u64,
        frame: u64,
        label: u32,
    ) {
        if !self.enabled {
            return;
        }
        let ctx = Ctx {
            device,
            queue: crate::device::QueueId::Graphics,
            frame,
            label,
            pass: device.label_name(label).to_owned(),
            list: None,
        };
        let resolve = |k| device.memory.resource_of(k).unwrap_or(k);
        let bound = self
            .bindings
            .iter()
            .find(|(_, b)| b.all().any(|v| v == key || resolve(v) == key))
            .map(|(q, _)| *q);
        if let Some(q) = bound {
            let message = format!(
                "released while still bound on queue {q}: unbind it first; a fast context keeps no reference to keep it alive"
            );
            self.report(&ctx, 0, Code::ReleasedWhileBound, Some(key), message);
        }
        let uncovered = self
            .hazards
            .uncovered_use(key, |f| !device.is_fence_pending(f, cpu_ns));
        if let Some((q, l, f)) = uncovered {
            let message = format!(
                "released before a fence covering its use by pass {} (frame {f}, queue {q}) has passed: defer the release until the fence passes",
                device.label_name(l)
            );
            self.report(&ctx, 0, Code::ReleasedBeforeFence, Some(key), message);
        }
    }
}

impl Validator {
    /// Every texture access must be one its current layout admits (barrier-spec A6). Textures
    /// are created in COMMON; transients leave UNDEFINED only through a barrier.
    fn check_layouts(&mut self, ctx: &Ctx, i: usize, touches: &[super::Touch]) {
        for t in touches {
            let is_texture = matches!(
                ctx.device.memory.get(t.resource).map(|o| &o.desc),
                Ok(crate::device::ObjectDesc::Texture(_))
            );
            if !is_texture {
                continue;
            }
            let layout = self
                .layouts
                .get(&t.resource)
                .copied()
                .unwrap_or(crate::barrier::Layout::Common);
            if !crate::barrier::layout_allows(layout).contains(t.access) {
                let message = format!(
                    "accessed as {:?} while in layout {}: transition it with a texture barrier first",
                    t.access,
                    layout.spec_name()
                );
                self.report(
                    ctx,
                    i,
                    Code::LayoutDisallowsAccess,
                    Some(t.resource),
                    message,
                );
            }
        }
    }
}

impl Validator {
    /// Remember what each barrier allows until the next one on its queue (AccessAfter).
    fn declare(
        &mut self,
        queue: crate::device::QueueId,
        group: &crate::barrier::BarrierGroup<crate::device::ObjectKey>,
    ) {
        self.declare_counter += 1;
        let n = self.declare_counter;

        for b in &group.buffers {
            self.declared
                .insert((queue, b.resource), (b.access_after, n));
        }
        for t in &group.textures {
            self.declared
                .insert((queue, t.resource), (t.access_after, n));
        }
    }

    /// Every access must be one the last barrier on its queue declared in AccessAfter
    /// (barrier-spec A1, A9); COMMON declares any access the layout allows.
    fn check_declared(&mut self, ctx: &Ctx, i: usize, touches: &[super::Touch]) {
        for t in touches {
            // Only barriers naming the resource declare its accesses; a global barrier orders
            // and flushes but leaves each resource's declared accesses as they were.
            let Some(declared) = self.declared.get(&(ctx.queue, t.resource)).map(|d| d.0) else {
                continue;
            };
            if declared.is_empty() || (declared != Access::NO_ACCESS && declared.contains(t.access))
            {
                continue;
            }
            let message = format!(
                "accessed as {:?} but the last barrier on this queue allowed only {:?} until the next one: declare the access in AccessAfter",
                t.access, declared
            );
            self.report(ctx, i, Code::AccessNotDeclared, Some(t.resource), message);
        }
    }
}
