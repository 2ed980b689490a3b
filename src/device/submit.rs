//! Submission: what happens on the CPU side when a context plays a list back on a queue.
//!
//! The device checks that the queue can run each command, resolves the objects it names
//! (using a destroyed one is an error, FS-6), applies the CPU-side effects (a view re-pointed,
//! a swap chain rotated, a fence registered, a kickoff), decides what the command will cost
//! ([`op_for`]) and queues it for the simulation.

use super::cost::{OpContext, op_for};
use super::sim::{Meta, Pending};
use super::{Command, Device, DeviceError, ObjectKey, QueueId, Submitted};
use crate::model::Semantics;

impl Device {
    /// Submit commands to `queue` at CPU time `cpu_ns`, as the immediate (or compute, or DMA)
    /// context plays them back: one submission is one command list, so a `DontSyncOnCopy`
    /// hint lasts until its end (EB-8d). CPU-side effects (view placement, present rotation,
    /// fence registration, kickoff) happen now; GPU execution happens as time advances.
    pub fn submit(
        &mut self,
        queue: QueueId,
        frame: u64,
        label: u32,
        commands: impl IntoIterator<Item = Command>,
        cpu_ns: u64,
    ) -> Result<(), DeviceError> {
        self.calls.submissions += 1;
        if !queue.is_valid() {
            return Err(DeviceError::NoSuchQueue { queue });
        }
        // Suspend on the graphics immediate context locks the compute and DMA contexts on the
        // CPU until Resume (CC-8): their calls fail, they are not held.
        if self.suspended && queue != QueueId::Graphics {
            return Err(DeviceError::LockedBySuspend { queue });
        }
        let mut dont_sync_on_copy = false;
        let issuing = super::fast::issuing(queue, self.semantics);
        let commands = flatten(commands, label, issuing);
        self.gpu_mut().reserve(queue, commands.len());
        for (label, semantics, cmd) in commands {
            check_queue(&cmd, queue)?;
            super::fast::check_semantics(&cmd, semantics)?;
            super::compute::check_placement(&self.memory, &cmd)?;
            super::resolve::check_resolve(&self.memory, &cmd)?;
            super::predicate::check_value(&self.memory, &cmd)?;
            let traced = self
                .trace
                .is_some()
                .then(|| (cmd.clone(), self.present.back_buffers()));
            let mut refs = Vec::new();
            cmd.objects(&mut refs);
            super::fast::check_counter_views(&cmd, &refs, semantics, &self.memory)?;
            for i in 0..refs.len() {
                let resource = self.memory.resource_of(refs[i])?;
                if resource != refs[i] {
                    refs.push(resource);
                }
            }
            let mut shown = None;
            match &cmd {
                Command::PlaceSwapChainView { view, buffer } => {
                    self.memory.repoint(*view, *buffer)?
                }
                Command::Present(chain) => {
                    let b = self
                        .present
                        .present_cpu(*chain)
                        .ok_or(DeviceError::NoSwapChain)?;
                    let interval = self.present.chain(*chain).map_or(1, |c| c.vsync_interval);
                    refs.push(b);
                    shown = Some((b, self.profile.vsync_period_ns * interval as u64));
                    // Present resets the state (FS-11).
                    self.bound_pipeline[queue.index()] = None;
                }
                Command::DontSyncOnCopy(on) => dont_sync_on_copy = *on,
                Command::Suspend => self.suspended = true,
                Command::SetPipelineState(id) => self.bound_pipeline[queue.index()] = Some(*id),
                Command::ClearState => self.bound_pipeline[queue.index()] = None,
                Command::SetDispatchFlags { .. } => {
                    self.dispatch_flags[queue.index()] =
                        super::compute::DispatchFlags::of(&cmd).unwrap_or_default();
                }
                Command::SetEarlyOutPath(on) => self.early_out_path[queue.index()] = *on,
                Command::SignalEarlyOut(raised) => {
                    let gpu = self.gpu.get_mut().unwrap_or_else(|e| e.into_inner());
                    gpu.signal_early_out(*raised, cpu_ns, &self.profile);
                }
                // Resume resets every context's state (FS-11).
                Command::Resume => {
                    self.bound_pipeline = [None; super::QUEUE_COUNT];
                    self.dispatch_flags = Default::default();
                    self.early_out_path = [false; super::QUEUE_COUNT];
                    self.suspended = false;
                }
                _ => {}
            }
            // FS-13: MinLODs, the views bound with them, and what the work samples.
            self.min_lods.observe(&cmd, queue, semantics, &self.memory);
            let shader = self.bound_pipeline[queue.index()]
                .and_then(|id| self.pipeline_costs.get(&id).copied());
            let mut op = op_for(
                &cmd,
                &mut OpContext {
                    queue,
                    memory: &self.memory,
                    profile: &self.profile,
                    legacy: self.legacy_barriers(),
                    dont_sync_on_copy,
                    shown,
                    compression: &mut self.compression,
                    shader,
                },
            );
            // Dispatch flags (CC-4): L1 bypass lengthens the dispatch, the debug flags follow
            // it with a flush.
            let dispatch = matches!(
                cmd,
                Command::Dispatch { .. } | Command::DispatchIndirect { .. }
            );
            let flags = self.dispatch_flags[queue.index()];
            let mut debug_flush = None;
            if dispatch && let super::cost::Op::Work(w) = &mut op {
                w.work = flags.work(w.work);
                w.early_out = self.early_out_path[queue.index()];
                debug_flush = flags.after_dispatch();
            }
            let kicks = matches!(
                cmd,
                Command::Kickoff
                    | Command::Present(_)
                    | Command::Suspend
                    | Command::Resume
                    | Command::InsertFence { kickoff: true, .. }
            );
            let meta = Meta {
                frame,
                label,
                name: cmd.name(),
                refs,
                seq: 0,
                tracked: semantics == Semantics::Legacy,
            };
            let gpu = self.gpu_mut();
            gpu.horizon = gpu.horizon.max(cpu_ns);
            let submit_ns = cpu_ns;
            gpu.push(
                queue,
                Pending {
                    op,
                    meta,
                    submit_ns,
                },
                kicks,
            );
            if let Some(lowered) = debug_flush {
                let meta = Meta {
                    frame,
                    label,
                    name: "DebugDispatchFlush",
                    refs: Vec::new(),
                    seq: 0,
                    tracked: false,
                };
                let op =
                    super::cost::Op::Barrier(super::barrier_cost::price(&lowered, &self.profile));
                self.gpu_mut().push(
                    queue,
                    Pending {
                        op,
                        meta,
                        submit_ns,
                    },
                    false,
                );
            }
            if let Some((command, back_buffers)) = traced {
                self.record_trace(queue, frame, label, command, back_buffers);
            }
        }
        Ok(())
    }

    fn record_trace(
        &mut self,
        queue: QueueId,
        frame: u64,
        label: u32,
        command: Command,
        back_buffers: Vec<ObjectKey>,
    ) {
        let views: Vec<ObjectKey> = match &command {
            Command::SetRenderTargets { rtvs, .. } => rtvs.clone(),
            Command::ClearRenderTarget(v) => vec![*v],
            _ => Vec::new(),
        };
        let writes = views
            .iter()
            .filter_map(|v| self.memory.resource_of(*v).ok())
            .collect();
        if let Some(trace) = self.trace.as_mut() {
            trace.push(Submitted {
                queue,
                frame,
                label,
                command,
                writes,
                back_buffers,
            });
        }
    }
}

/// Command lists played back in place: an `ExecuteCommandList` stays in the stream as a
/// marker (without its commands) followed by its commands, labelled with the list's label
/// and issued with the semantics of the deferred context that recorded it (CTX-4). A
/// bundle's commands follow its `ExecuteBundle` marker the same way, labelled with the
/// bundle's label and issued with the semantics of the list that executes it.
fn flatten(
    commands: impl IntoIterator<Item = Command>,
    label: u32,
    semantics: Semantics,
) -> Vec<(u32, Semantics, Command)> {
    let commands = commands.into_iter();
    let mut out = Vec::with_capacity(commands.size_hint().0);
    for cmd in commands {
        match cmd {
            Command::ExecuteCommandList {
                label: list,
                semantics: recorded,
                commands,
            } => {
                out.push((
                    label,
                    semantics,
                    Command::ExecuteCommandList {
                        label: list,
                        semantics: recorded,
                        commands: Vec::new(),
                    },
                ));
                out.extend(flatten(commands, list, recorded));
            }
            // A bundle runs inside the list that executes it, with its semantics.
            Command::ExecuteBundle {
                label: bundle,
                commands,
            } => {
                out.push((
                    label,
                    semantics,
                    Command::ExecuteBundle {
                        label: bundle,
                        commands: Vec::new(),
                    },
                ));
                out.extend(flatten(commands, bundle, semantics));
            }
            other => out.push((label, semantics, other)),
        }
    }
    out
}

/// Refuse commands a queue cannot run (barrier-spec A5; Suspend and Resume are immediate-
/// context calls, CC-8; raw copies and fills are compute-context calls, CC-6; fills and the
/// LZ codec are the DMA engines').
fn check_queue(cmd: &Command, queue: QueueId) -> Result<(), DeviceError> {
    let graphics_only = matches!(
        cmd,
        Command::Draw { .. }
            | Command::ExecuteIndirect { .. }
            | Command::ResolveSubresource { .. }
            | Command::SetRenderTargets { .. }
            | Command::SetViewport { .. }
            | Command::ClearRenderTarget(_)
            | Command::ClearDepthStencil(_)
            | Command::Decompress(_)
            | Command::DecompressResource { .. }
            | Command::Suspend
            | Command::Resume
            | Command::BeginCommandListExecution
            | Command::EndCommandListExecution
            | Command::ExecuteCommandList { .. }
            | Command::ExecuteBundle { .. }
            | Command::BeginQuery(_)
            | Command::EndQuery(_)
            | Command::SOSetTargets { .. }
    );
    let compute_only = matches!(
        cmd,
        Command::RawCopy { .. }
            | Command::RawFill { .. }
            | Command::SetDispatchFlags { .. }
            | Command::SetEarlyOutPath(_)
    );
    let dma_only = matches!(
        cmd,
        Command::DmaFill { .. } | Command::LzCompress { .. } | Command::LzDecompress { .. }
    );
    // Present, and the wait on present before a UAV write of the back buffer (FS-5), may come
    // from a compute queue (a compute-only frame presents there); never from a DMA engine.
    let present_ok = !matches!(cmd, Command::Present(_)) || !matches!(queue, QueueId::Dma { .. });
    let copy_ok = matches!(
        cmd,
        Command::CopyResource { .. }
            | Command::CopyTextureRegion { .. }
            | Command::Map { .. }
            | Command::Unmap(_)
            | Command::ReadMapped { .. }
            | Command::InsertFence { .. }
            | Command::WaitFence(_)
            | Command::Kickoff
            | Command::Barrier(_)
            | Command::WriteTimestamp(_)
            | Command::DontSyncOnCopy(_)
    ) || dma_only;
    let dma = matches!(queue, QueueId::Dma { .. });
    let compute = matches!(queue, QueueId::Compute { .. });
    if (graphics_only && queue != QueueId::Graphics)
        || (compute_only && !compute)
        || (dma_only && !dma)
        || (dma && !copy_ok)
        || !present_ok
    {
        return Err(DeviceError::WrongQueue {
            command: cmd.name(),
            queue,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::ObjectDesc;
    use crate::model::{Buffer, BufferUsage};

    #[test]
    fn a_command_list_runs_in_place_on_the_immediate_context_only() {
        let mut d = Device::default();
        let mut buffer = |name| {
            let desc = ObjectDesc::Buffer(Buffer {
                size: 4096,
                usage: BufferUsage::Default,
                unordered_access: false,
            });
            d.create(name, desc).unwrap()
        };
        let (b, c) = (buffer("b"), buffer("c"));
        let list = Command::ExecuteCommandList {
            label: 0,
            semantics: Semantics::Fast,
            commands: vec![
                Command::CopyResource {
                    src: b,
                    dst: c,
                    bytes: 4096,
                },
                Command::EndQuery(0),
            ],
        };
        let flat = flatten([list.clone()], 3, Semantics::Legacy);
        assert_eq!(flat.len(), 3);
        assert!(
            flat[1..]
                .iter()
                .all(|(label, s, _)| *label == 0 && *s == Semantics::Fast)
        );
        let cs = QueueId::Compute { pipe: 0, index: 0 };
        assert!(matches!(
            d.submit(cs, 0, 0, [list.clone()], 0),
            Err(DeviceError::WrongQueue { .. })
        ));
        d.submit(QueueId::Graphics, 0, 0, [list], 0).unwrap();
        // Destroying what the list's copy uses is refused until it has run (FS-6).
        assert!(matches!(d.destroy(c, 0), Err(DeviceError::InUse { .. })));
    }
}
