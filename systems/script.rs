//! Scripts: a scene's command scripts, executed as written (RL-4: check a port on a validated
//! device first).
//!
//! A *frame script* replaces the frame graph. While the scene has one, the graph stages
//! (acquire, wait on present, rotate, compile, barriers, record, submit) do not run; this
//! system submits the script's list for the frame in their place, and the script owns every
//! wait on present, view rotation and present. The rest of the tick is unchanged: retire
//! throttles the CPU, the present stage ends the frame with a fence on every queue the script
//! used (nothing is left for it to present), release honours those fences, and the device
//! and the validation layer run as for any frame. A *pass script* replaces the body of one
//! pass: after the runtime has recorded the pass, its list is recorded again on the same
//! deferred context (CTX-2) from the script, between the barriers the planner recorded at its
//! start and end, and submission adds the pass's fences and waits as usual.
//!
//! Names are resolved to device handles when a command executes, never earlier, because what
//! a name stands for changes while a frame runs: a swap chain is the buffer at index 0 at that
//! moment, so every Present ends a batch and the names after it see the rotated chain (RL-5);
//! a `CreateView` name exists from its `CreateView` on (RL-6). Every batch goes through
//! [`Validator::observe`] and then [`Device::submit`], exactly as the runtime's own streams
//! do, and every release through [`Validator::observe_release`] then [`Device::destroy`], so
//! the validation layer judges a script by the same rules, and the device refuses what it
//! would refuse from the runtime (a refusal ends the run with an error).

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;

use super::begin::GpuChain;
use crate::device::{Command, Device, ObjectDesc, ObjectKey, QueueId, SwapChainKey};
use crate::error::RuntimeError;
use crate::frame::{Clock, ContextPool, Fatal, FrameWork};
use crate::model::*;
use crate::plan::CompiledGraph;
use crate::report::RunStats;
use crate::validate::Validator;

/// Run condition: the scene has a frame script (the graph stages stand down).
pub fn has_frame_script(script: Option<Res<FrameScript>>) -> bool {
    script.is_some()
}

/// Run condition: the scene has no frame script (the graph runs).
pub fn no_frame_script(script: Option<Res<FrameScript>>) -> bool {
    script.is_none()
}

/// The queue a script submission names. Scripts say which queue they mean, so `Compute` is an
/// asynchronous compute queue whatever `async_compute` says (CC-2), and `Copy` a DMA engine.
fn queue_of(kind: QueueKind, settings: &Settings) -> QueueId {
    match kind {
        QueueKind::Graphics => QueueId::Graphics,
        QueueKind::Compute => QueueId::Compute {
            pipe: settings.compute_pipe.min(1),
            index: 0,
        },
        QueueKind::Copy => QueueId::Dma { engine: 0 },
    }
}

/// What names resolve against.
#[derive(SystemParam)]
pub struct Targets<'w, 's> {
    names: Query<'w, 's, &'static Name>,
    objects: Query<'w, 's, &'static GpuObject>,
    chains: Query<'w, 's, (&'static GpuChain, &'static BackBuffer)>,
    buffers: Query<
        'w,
        's,
        (Entity, &'static SwapChainBuffer, &'static GpuObject),
        Without<ReleaseRequest>,
    >,
    views: Query<'w, 's, (&'static View, Option<&'static ChainBufferIndex>)>,
}

/// One command, lowered: for the device, or a CPU-side call.
enum Step {
    Device(Command),
    CreateView {
        name: String,
        of: ObjectKey,
        kind: ViewKind,
    },
    /// `None`: a `CreateView` name not made yet (nothing to release).
    Release(Option<ObjectKey>),
}

/// Resolves names to device handles at execution time.
struct Resolver<'a, 'w, 's> {
    device: &'a mut Device,
    state: &'a mut ScriptState,
    targets: &'a Targets<'w, 's>,
    queue: QueueId,
    /// In a pass script a swap chain in a view slot is the view the runtime rotated (FS-9).
    pass: bool,
    /// Entities touched, for the end-of-frame fences that gate their release (FS-6).
    used: Vec<(Entity, QueueId)>,
}

impl Resolver<'_, '_, '_> {
    fn name(&self, e: Entity) -> String {
        (self.targets.names.get(e)).map_or_else(|_| e.to_string(), |n| n.as_str().to_string())
    }

    /// Buffer `index` (by creation index) of `chain`: its entity and device object.
    fn chain_buffer(&self, chain: Entity, index: u32) -> Result<(Entity, ObjectKey), String> {
        (self.targets.buffers.iter())
            .find(|(_, b, _)| b.chain == chain && b.index == index)
            .map(|(e, _, o)| (e, o.0))
            .ok_or_else(|| format!("{}[{index}] does not exist", self.name(chain)))
    }

    /// The buffer at index 0 of `chain` now, and its entity.
    fn back_buffer(&mut self, chain: Entity, gpu: &GpuChain) -> Result<ObjectKey, String> {
        let key = (self.device.swap_chain_buffer(gpu.key, 0))
            .ok_or_else(|| format!("swap chain {} has no buffers", self.name(chain)))?;
        if let Some((b, _, _)) = self.targets.buffers.iter().find(|(_, _, o)| o.0 == key) {
            self.used.push((b, self.queue));
        }
        Ok(key)
    }

    /// The device view of a scene view of a swap chain, made at first use: of its buffer
    /// (made again when a resize replaced that buffer), or of the buffer at index 0 then.
    fn chain_view(
        &mut self,
        e: Entity,
        view: &View,
        index: Option<&ChainBufferIndex>,
        gpu: &GpuChain,
    ) -> Result<ObjectKey, String> {
        let made = self.state.chain_views.get(&e).copied();
        let buffer = match index {
            Some(i) => {
                let (b, key) = self.chain_buffer(view.of, i.0)?;
                self.used.push((b, self.queue));
                key
            }
            None => match made {
                Some((v, _)) => return Ok(v),
                None => self.back_buffer(view.of, gpu)?,
            },
        };
        if let Some((v, b)) = made
            && b == buffer
        {
            return Ok(v);
        }
        let desc = ObjectDesc::View {
            of: buffer,
            kind: view.kind,
        };
        let v = (self.device.create(&self.name(e), desc)).map_err(|e| e.to_string())?;
        self.state.chain_views.insert(e, (v, buffer));
        Ok(v)
    }

    /// The device object `target` stands for in `slot` now.
    fn key(&mut self, slot: Slot, target: &Target) -> Result<ObjectKey, String> {
        let q = self.queue;
        let e = match target {
            Target::Local(name) => {
                return (self.state.views.get(name).copied())
                    .ok_or_else(|| format!("view {name:?} is used before CreateView made it"));
            }
            Target::ChainBuffer { chain, index } => {
                let (b, key) = self.chain_buffer(*chain, *index)?;
                self.used.extend([(*chain, q), (b, q)]);
                return Ok(key);
            }
            Target::Entity(e) => *e,
        };
        self.used.push((e, q));
        if let Ok(obj) = self.targets.objects.get(e) {
            if let Ok((view, _)) = self.targets.views.get(e) {
                self.used.push((view.of, q));
            }
            return Ok(obj.0);
        }
        if let Ok((gpu, back)) = self.targets.chains.get(e) {
            if slot == Slot::View && self.pass {
                return (back.view)
                    .ok_or_else(|| format!("swap chain {} has no view this frame", self.name(e)));
            }
            let gpu = *gpu;
            return self.back_buffer(e, &gpu);
        }
        if let Ok((view, index)) = self.targets.views.get(e)
            && let Ok((gpu, _)) = self.targets.chains.get(view.of)
        {
            let (view, index, gpu) = (view.clone(), index.copied(), *gpu);
            self.used.push((view.of, q));
            return self.chain_view(e, &view, index.as_ref(), &gpu);
        }
        Err(format!(
            "{} has no device object: it is dormant, or its release completed",
            self.name(e)
        ))
    }

    /// The device swap chain `target` names.
    fn chain(&mut self, target: &Target) -> Result<SwapChainKey, String> {
        let e = match target {
            Target::Entity(e) => *e,
            _ => return Err("Present needs a swap chain".into()),
        };
        self.used.push((e, self.queue));
        let (gpu, _) = (self.targets.chains.get(e))
            .map_err(|_| format!("swap chain {} does not exist yet", self.name(e)))?;
        Ok(gpu.key)
    }

    /// Lower one command. Fence names get fresh device fences (FN-1).
    fn lower(&mut self, cmd: &ScriptCommand<Target>) -> Result<Step, String> {
        use ScriptCommand as S;
        let command = match cmd {
            S::Present(chain) => Command::Present(self.chain(chain)?),
            S::InsertFence { name, kickoff } => {
                let fence = self.device.next_fence(self.queue);
                self.state.fences.insert(name.clone(), fence);
                Command::InsertFence {
                    fence,
                    kickoff: *kickoff,
                }
            }
            // Before any insert of the name: a fence that does not exist yet (FN-3).
            S::WaitFence(name) => Command::WaitFence(match self.state.fences.get(name) {
                Some(f) => *f,
                None => self.device.next_fence(self.queue),
            }),
            S::CreateView { name, of, kind } => {
                return Ok(Step::CreateView {
                    name: name.clone(),
                    of: self.key(Slot::ViewOf, of)?,
                    kind: *kind,
                });
            }
            S::Release(Target::Local(name)) => {
                return Ok(Step::Release(self.state.views.get(name).copied()));
            }
            S::Release(target) => return Ok(Step::Release(Some(self.key(Slot::Release, target)?))),
            other => device_command(other.try_map(|slot, t| self.key(slot, t))?)
                .ok_or_else(|| format!("{} cannot be lowered", other.name()))?,
        };
        Ok(Step::Device(command))
    }
}

/// A script command with device handles as the device command it is; `None` for the ones
/// lowered by hand (fences, present, CPU-side calls).
fn device_command(cmd: ScriptCommand<ObjectKey>) -> Option<Command> {
    use ScriptCommand as S;
    Some(match cmd {
        S::SetRenderTargets { rtvs, dsv } => Command::SetRenderTargets { rtvs, dsv },
        S::SetViewport { width, height } => Command::SetViewport { width, height },
        S::SetPipelineState(p) => Command::SetPipelineState(p),
        S::SetResources {
            stage,
            first_slot,
            views,
        } => Command::SetResources {
            stage,
            first_slot,
            views,
        },
        S::SetVertexBuffers(buffers) => Command::SetVertexBuffers { buffers },
        S::SetIndexBuffer(b) => Command::SetIndexBuffer(b),
        S::SetConstantBuffers { stage, buffers } => Command::SetConstantBuffers { stage, buffers },
        S::ClearState => Command::ClearState,
        S::Draw {
            draws,
            vertices,
            pixels,
        } => Command::Draw {
            draws,
            vertices,
            pixels,
        },
        S::Dispatch {
            dispatches,
            threads,
        } => Command::Dispatch {
            dispatches,
            threads,
        },
        S::CopyResource { src, dst, bytes } => Command::CopyResource { src, dst, bytes },
        S::ClearRenderTarget(v) => Command::ClearRenderTarget(v),
        S::ClearDepthStencil(v) => Command::ClearDepthStencil(v),
        S::ClearUnorderedAccess(v) => Command::ClearUnorderedAccess(v),
        S::Barrier {
            global,
            buffers,
            textures,
        } => Command::Barrier(barrier_group(&global, &buffers, &textures)),
        S::Kickoff => Command::Kickoff,
        S::WaitOnPresent(b) => Command::WaitOnPresent(b),
        S::Decompress(r) => Command::Decompress(r),
        S::PlaceSwapChainView { view, buffer } => Command::PlaceSwapChainView { view, buffer },
        S::Map { resource, mode } => Command::Map { resource, mode },
        S::Unmap(r) => Command::Unmap(r),
        S::DontSyncOnCopy(on) => Command::DontSyncOnCopy(on),
        S::WriteTimestamp(slot) => Command::WriteTimestamp(slot),
        S::Suspend => Command::Suspend,
        S::Resume => Command::Resume,
        S::InsertFence { .. }
        | S::WaitFence(_)
        | S::Present(_)
        | S::CreateView { .. }
        | S::Release(_) => return None,
    })
}

/// Where one frame's submissions go, and who sees them first.
struct Sink<'a> {
    validator: &'a mut Validator,
    stats: &'a mut RunStats,
    frame: u64,
    cpu_ns: u64,
}

impl Sink<'_> {
    /// Show `batch` to the validation layer, then submit it.
    fn flush(
        &mut self,
        device: &mut Device,
        queue: QueueId,
        label: u32,
        batch: &mut Vec<Command>,
    ) -> Result<(), RuntimeError> {
        if batch.is_empty() {
            return Ok(());
        }
        let commands = std::mem::take(batch);
        super::submit::count_sync(self.stats, &commands);
        self.validator
            .observe(device, queue, self.frame, label, &commands);
        (device.submit(queue, self.frame, label, commands, self.cpu_ns)).map_err(|source| {
            RuntimeError::Device {
                frame: self.frame,
                source,
            }
        })
    }

    /// The final release of `key` now: the validation layer first (RL-3, FS-6), then the
    /// device, which refuses what the GPU may still use.
    fn release(
        &mut self,
        device: &mut Device,
        key: ObjectKey,
        label: u32,
    ) -> Result<(), RuntimeError> {
        (self.validator).observe_release(device, key, self.cpu_ns, self.frame, label);
        (device.destroy(key, self.cpu_ns)).map_err(|source| RuntimeError::Device {
            frame: self.frame,
            source,
        })
    }
}

/// Submit this frame's list of the frame script, in place of the frame graph.
pub fn run_frame_script(
    script: Res<FrameScript>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    settings: Res<Settings>,
    mut work: ResMut<FrameWork>,
    mut device: ResMut<Device>,
    mut state: ResMut<ScriptState>,
    mut validator: ResMut<Validator>,
    mut stats: ResMut<RunStats>,
    mut fatal: ResMut<Fatal>,
    targets: Targets,
) {
    let _span = tracy_client::span!("script");
    let work = &mut *work;
    work.chain_prologue.clear();
    work.lists.clear();
    work.used.clear();
    work.queues.clear();
    work.presented.clear();
    let Some(index) = script.0.list_for(frame.0) else {
        return;
    };
    let mut sink = Sink {
        validator: &mut validator,
        stats: &mut stats,
        frame: frame.0,
        cpu_ns: clock.cpu_ns,
    };
    for (s, sub) in script.0.frames.get(index).into_iter().flatten().enumerate() {
        let queue = queue_of(sub.queue, &settings);
        if !work.queues.contains(&queue) {
            work.queues.push(queue);
        }
        let label = device.label(sub.label.as_deref().unwrap_or("script"));
        let mut r = Resolver {
            device: &mut device,
            state: &mut state,
            targets: &targets,
            queue,
            pass: false,
            used: Vec::new(),
        };
        let result = run_submission(&mut r, &mut sink, label, &sub.commands);
        work.used.append(&mut r.used);
        if let Err((i, err)) = result {
            let at = format!("script list {index}, submission {s} on {queue}, command {i}");
            fatal.set(match err {
                RuntimeError::Schedule { frame, message } => RuntimeError::Schedule {
                    frame,
                    message: format!("{at}: {message}"),
                },
                other => other,
            });
            return;
        }
    }
}

/// Execute one submission in batches: CPU-side calls and Presents end a batch, so the
/// commands after them resolve against what they changed.
fn run_submission(
    r: &mut Resolver,
    sink: &mut Sink,
    label: u32,
    commands: &[ScriptCommand<Target>],
) -> Result<(), (usize, RuntimeError)> {
    let mut batch = Vec::new();
    let frame = sink.frame;
    let schedule = |message: String| RuntimeError::Schedule { frame, message };
    for (i, cmd) in commands.iter().enumerate() {
        let at = |e| (i, e);
        let step = r.lower(cmd).map_err(|m| at(schedule(m)))?;
        match step {
            Step::Device(c) => {
                let ends = matches!(c, Command::Present(_));
                batch.push(c);
                if ends {
                    sink.stats.presents += 1;
                    sink.flush(r.device, r.queue, label, &mut batch)
                        .map_err(at)?;
                }
            }
            Step::CreateView { name, of, kind } => {
                sink.flush(r.device, r.queue, label, &mut batch)
                    .map_err(at)?;
                // Re-making a live name releases the view it held, like a smart pointer.
                if let Some(&old) = r.state.views.get(&name)
                    && r.device.memory.is_live(old)
                {
                    sink.release(r.device, old, label).map_err(at)?;
                }
                let view = (r.device.create(&name, ObjectDesc::View { of, kind }))
                    .map_err(|source| at(RuntimeError::Device { frame, source }))?;
                r.state.views.insert(name, view);
            }
            Step::Release(key) => {
                sink.flush(r.device, r.queue, label, &mut batch)
                    .map_err(at)?;
                if let Some(key) = key {
                    sink.release(r.device, key, label).map_err(at)?;
                }
            }
        }
    }
    sink.flush(r.device, r.queue, label, &mut batch)
        .map_err(|e| (commands.len(), e))
}

/// Record each scripted pass's list from its script, on the pass's own deferred context,
/// between the barriers the planner recorded at the pass's start and end.
pub fn record_pass_scripts(
    graph: Res<CompiledGraph>,
    frame: Res<FrameIndex>,
    mut pool: ResMut<ContextPool>,
    mut work: ResMut<FrameWork>,
    mut device: ResMut<Device>,
    mut state: ResMut<ScriptState>,
    mut fatal: ResMut<Fatal>,
    scripts: Query<&PassScript>,
    targets: Targets,
) {
    let _span = tracy_client::span!("record: scripts");
    for (i, p) in graph.passes.iter().enumerate() {
        let Ok(script) = scripts.get(p.entity) else {
            continue;
        };
        let generated = work.lists.get(i).map_or(&[][..], |l| l.commands.as_slice());
        let is_barrier = |c: &&Command| matches!(c, Command::Barrier(_));
        let lead = generated.iter().take_while(is_barrier).count();
        let trail = generated[lead..]
            .iter()
            .rev()
            .take_while(is_barrier)
            .count();
        let mut commands: Vec<Command> = generated[..lead].to_vec();
        let tail: Vec<Command> = generated[generated.len() - trail..].to_vec();
        let mut r = Resolver {
            device: &mut device,
            state: &mut state,
            targets: &targets,
            queue: p.queue,
            pass: true,
            used: Vec::new(),
        };
        for cmd in &script.0 {
            match r.lower(cmd) {
                Ok(Step::Device(c)) => commands.push(c),
                Ok(_) => {
                    return fatal.set(RuntimeError::Schedule {
                        frame: frame.0,
                        message: format!("pass {}: {} in a pass script", p.name, cmd.name()),
                    });
                }
                Err(message) => {
                    return fatal.set(RuntimeError::Schedule {
                        frame: frame.0,
                        message: format!("pass {}: {}: {message}", p.name, cmd.name()),
                    });
                }
            }
        }
        commands.extend(tail);
        let recorded = match pool.contexts.get_mut(i) {
            Some(ctx) => record(ctx, p.label, commands),
            None => Err(crate::device::DeviceError::NotRecording { context: i as u32 }),
        };
        match (recorded, work.lists.get_mut(i)) {
            (Ok(list), Some(slot)) => *slot = list,
            (Ok(_), None) => {}
            (Err(source), _) => {
                return fatal.set(RuntimeError::Device {
                    frame: frame.0,
                    source,
                });
            }
        }
    }
}

/// Record `commands` as one list on `ctx` (CTX-2).
fn record(
    ctx: &mut crate::device::DeferredContext,
    label: u32,
    commands: Vec<Command>,
) -> Result<crate::device::CommandList, crate::device::DeviceError> {
    ctx.begin(label)?;
    for c in commands {
        ctx.push(c)?;
    }
    ctx.finish()
}
