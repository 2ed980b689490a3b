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
//! start and end, and submission adds the pass's fences and waits as usual (`script/pass.rs`).
//!
//! Names are resolved to device handles when a command executes, never earlier, because what
//! a name stands for changes while a frame runs: a swap chain is the buffer at index 0 at that
//! moment, so every Present ends a batch and the names after it see the rotated chain (RL-5);
//! a `CreateView` name exists from its `CreateView` on (RL-6). Every batch goes through
//! the [`Submitter`] (counted, validated, then submitted), exactly as the runtime's own
//! streams do, and every release through it too (validated, then destroyed), so
//! the validation layer judges a script by the same rules, and the device refuses what it
//! would refuse from the runtime (a refusal ends the run with an error).
//!
//! A frame script's command lists (`lists`, CTX-1) are recorded when an
//! `ExecuteCommandList` plays them back: their names resolve then, and the list becomes one
//! `Command::ExecuteCommandList` of its semantics in the batch, which the device runs in
//! place. `GetQueryData` is a CPU-side call like a release: it ends the batch and goes to
//! the validation layer with the CPU time; recorded into a list, it is a read on
//! a deferred context (CTX-6). `WriteMapped` is another: the CPU writes a buffer through its
//! mapping when the step runs, and the validation layer asks whether a fence the CPU saw
//! pass (a script's wait or poll) covers every GPU use of it (FS-1). A bundle (`bundles`)
//! is recorded the first time an `ExecuteBundle` replays it and kept (`script/bundle.rs`).

use bevy_ecs::prelude::*;

use crate::barrier::SubresourceRange;

use crate::device::{Command, Device, ObjectDesc, ObjectKey, QueueId, cpu_cost};
use crate::error::RuntimeError;
use crate::frame::{Clock, FrameSubmissions};
use crate::model::*;

mod bundle;
mod legacy;
mod pass;
mod resize;
mod resolve;

pub use pass::record_pass_scripts;

use super::submitter::{Sink, Submitter};
use resolve::{Resolver, Step, Targets};

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
fn queue_of(kind: QueueKind, engine: u8, settings: &Settings) -> QueueId {
    match kind {
        QueueKind::Graphics => QueueId::Graphics,
        QueueKind::Compute => QueueId::Compute {
            pipe: settings.compute_pipe.min(1),
            index: engine,
        },
        QueueKind::Copy => QueueId::Dma { engine },
    }
}

/// A frame script's submissions at one CPU time: batches go through the [`Sink`] (counted,
/// validated, submitted), as every stream of the runtime does.
struct Batches<'s, 'a> {
    sink: &'s mut Sink<'a>,
    cpu_ns: u64,
    /// Where in the scene file each command of the batch being built is (`file:line:col`),
    /// for the validation layer's findings; empty when unknown.
    origins: Vec<std::sync::Arc<str>>,
    /// Where the script command being run is, for a release it makes.
    here: Option<std::sync::Arc<str>>,
    /// The batch's Barrier commands that translate legacy calls (EB-7), by index.
    legacy: Vec<crate::validate::LegacyCall>,
}

impl Batches<'_, '_> {
    /// Submit `batch`, if it holds anything, and leave it empty: the end of the
    /// submission's command list, or (`ends_list` false) a part of it before a CPU-side call.
    fn flush(
        &mut self,
        device: &mut Device,
        queue: QueueId,
        label: u32,
        batch: &mut Vec<Command>,
        ends_list: bool,
    ) -> Result<(), RuntimeError> {
        if batch.is_empty() {
            return Ok(());
        }
        let commands = std::mem::take(batch);
        let mut origins = std::mem::take(&mut self.origins);
        if origins.len() != commands.len() {
            origins.clear();
        }
        (self.sink).locate(origins);
        (self.sink).legacy(std::mem::take(&mut self.legacy));
        // Queuing the commands and playing lists back costs the CPU (CTX-7): the batch goes
        // to the GPU as it is queued, the CPU moves on once it is. The immediate context's
        // kickoffs, command writes and mapped reads cost what the device flags make them
        // (FS-15).
        let flags = match queue {
            QueueId::Graphics => device.flags(),
            _ => crate::model::DeviceFlags::ALL,
        };
        let cost: u64 = commands
            .iter()
            .map(|c| cpu_cost::immediate_ns(c, flags))
            .sum();
        let at = self.cpu_ns;
        self.cpu_ns = self.cpu_ns.saturating_add(cost);
        self.sink.stats().cpu_submit_ns += cost;
        (self.sink).submit_batch(device, queue, label, commands, at, ends_list)
    }

    /// The final release of `key` now (RL-3, FS-6).
    fn release(
        &mut self,
        device: &mut Device,
        key: ObjectKey,
        label: u32,
    ) -> Result<(), RuntimeError> {
        (self.sink).locate(self.here.iter().cloned().collect());
        (self.sink).release(device, key, label, self.cpu_ns)
    }
}

/// Submit this frame's list of the frame script, in place of the frame graph.
pub fn run_frame_script(
    script: Res<FrameScript>,
    mut clock: ResMut<Clock>,
    frame: Res<FrameIndex>,
    settings: Res<Settings>,
    mut work: ResMut<FrameSubmissions>,
    mut submitter: Submitter,
    mut state: ResMut<ScriptState>,
    targets: Targets,
    locations: Option<Res<ScriptLocations>>,
    mut commands: Commands,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("script");
    let Some(index) = script.0.list_for(frame.0) else {
        return Ok(());
    };
    let (device, mut sink) = submitter.split();
    let mut at = Batches {
        sink: &mut sink,
        cpu_ns: clock.cpu_ns,
        origins: Vec::new(),
        here: None,
        legacy: Vec::new(),
    };
    for (s, sub) in script.0.frames.get(index).into_iter().flatten().enumerate() {
        let queue = queue_of(sub.queue, sub.engine, &settings);
        work.queue(queue);
        let label = device.label(sub.label.as_deref().unwrap_or("script"));
        let mut r = Resolver {
            device: &mut *device,
            state: &mut state,
            targets: &targets,
            queue,
            pass: false,
            used: Vec::new(),
        };
        let locs = (locations.as_ref())
            .and_then(|l| l.frames.get(index)?.get(s))
            .map_or(&[][..], |l| l.as_slice());
        let result = run_submission(&mut r, &mut at, label, &sub.commands, &script.0, locs);
        work.used.append(&mut r.used);
        if let Err((i, err)) = result {
            let at = match locs.get(i) {
                Some(loc) => {
                    format!("{loc}: script list {index}, submission {s} on {queue}, command {i}")
                }
                None => format!("script list {index}, submission {s} on {queue}, command {i}"),
            };
            return Err(match err {
                RuntimeError::Schedule { frame, message } => RuntimeError::Schedule {
                    frame,
                    message: format!("{at}: {message}"),
                },
                RuntimeError::Device { frame, source } => {
                    RuntimeError::ScriptDevice { frame, at, source }
                }
                other => other,
            });
        }
    }
    // A CPU wait moved the CPU clock on (FN-2).
    clock.cpu_ns = at.cpu_ns;
    resolve::catch_up(&targets, &state, &mut commands);
    Ok(())
}

/// Execute one submission in batches: CPU-side calls and Presents end a batch, so the
/// commands after them resolve against what they changed.
fn run_submission(
    r: &mut Resolver,
    sink: &mut Batches,
    label: u32,
    commands: &[ScriptCommand<Target>],
    script: &Script<Target>,
    locations: &[std::sync::Arc<str>],
) -> Result<(), (usize, RuntimeError)> {
    let mut batch = Vec::new();
    let frame = sink.sink.frame();
    let schedule = |message: String| RuntimeError::Schedule { frame, message };
    for (i, cmd) in commands.iter().enumerate() {
        let at = |e| (i, e);
        sink.here = locations.get(i).cloned();
        // D3D12's Signal and Wait are queue calls, made between ExecuteCommandLists: the
        // commands before one were a list of their own, which ended there (barrier-spec A8 on
        // PC; on every D3D12 API the next list inherits no state). D3D11.X inserts fences
        // into the context's stream.
        if r.device.api() != crate::model::Api::D3d11x
            && matches!(
                cmd,
                ScriptCommand::Call(ScriptCall::Signal { .. } | ScriptCall::Wait { .. })
            )
        {
            sink.flush(r.device, r.queue, label, &mut batch, true)
                .map_err(at)?;
        }
        let step = r.lower(cmd).map_err(|m| at(schedule(m)))?;
        if matches!(
            step,
            Step::Device(_) | Step::ExecuteList(_) | Step::ExecuteBundle(_)
        ) {
            sink.origins.extend(sink.here.clone());
        }
        match step {
            Step::Legacy(commands, mut legacy) => {
                // The validation layer learns which Barrier commands translate the call.
                for c in commands {
                    sink.origins.extend(sink.here.clone());
                    sink.legacy
                        .push((batch.len(), None, std::mem::take(&mut legacy)));
                    batch.push(c);
                }
            }
            Step::Device(c) => {
                let ends = matches!(c, Command::Present(_));
                batch.push(c);
                if ends {
                    sink.sink.stats().presents += 1;
                    sink.flush(r.device, r.queue, label, &mut batch, true)
                        .map_err(at)?;
                }
            }
            Step::CreateView { name, of, kind } => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                // Re-making a live name releases the view it held, like a smart pointer.
                if let Some(&old) = r.state.views.get(&name)
                    && r.device.memory.is_live(old)
                {
                    sink.release(r.device, old, label).map_err(at)?;
                }
                let desc = ObjectDesc::View {
                    of,
                    kind,
                    range: SubresourceRange::ALL,
                };
                let view = (r.device.create(&name, desc))
                    .map_err(|source| at(RuntimeError::Device { frame, source }))?;
                r.state.views.insert(name, view);
            }
            Step::ReleaseHeap(heap) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                // Nothing is reference counted (FS-6): the device refuses a heap that still
                // holds a live placed resource.
                (r.device.memory.destroy_heap(heap))
                    .map_err(|source| at(RuntimeError::Device { frame, source }))?;
            }
            Step::Release(key) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                if let Some(key) = key {
                    sink.release(r.device, key, label).map_err(at)?;
                }
            }
            Step::ExecuteList(name) => {
                let (list, calls) =
                    record_list(r, sink, &name, &script.lists).map_err(|m| at(schedule(m)))?;
                // The list's legacy calls, at the command that plays it back (EB-7).
                let here = batch.len();
                (sink.legacy).extend(calls.into_iter().map(|(k, b)| (here, Some(k), b)));
                batch.push(list);
            }
            Step::ExecuteBundle(name) => {
                let replay = bundle::execute_bundle(r, sink, &name, &script.bundles)
                    .map_err(|m| at(schedule(m)))?;
                batch.push(replay);
            }
            Step::Nothing => {}
            Step::Resize {
                chain,
                key,
                texture,
            } => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                resize::resize_buffers(r, sink, label, chain, key, texture).map_err(at)?;
            }
            Step::CpuWait(fence) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                let t = (r.device.wait_fence_cpu(fence))
                    .map_err(|source| at(RuntimeError::Device { frame, source }))?;
                if t > sink.cpu_ns {
                    sink.sink.stats().cpu_wait_ns += t - sink.cpu_ns;
                    sink.cpu_ns = t;
                }
                (sink.sink).fence_observed(r.device, fence, sink.cpu_ns);
            }
            Step::CpuPoll(fence) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                (sink.sink).fence_observed(r.device, fence, sink.cpu_ns);
            }
            Step::WriteMapped(key, bytes) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                (sink.sink).locate(sink.here.iter().cloned().collect());
                (sink.sink).cpu_write(r.device, key, bytes, label);
            }
            Step::GetQueryData(query, name) => {
                sink.flush(r.device, r.queue, label, &mut batch, false)
                    .map_err(at)?;
                (sink.sink).locate(sink.here.iter().cloned().collect());
                (sink.sink).query_read(r.device, query, &name, sink.cpu_ns, label, false);
            }
        }
    }
    sink.flush(r.device, r.queue, label, &mut batch, true)
        .map_err(|e| (commands.len(), e))
}
/// Record the script's list `name` on a deferred context of its semantics, now, as the
/// `ExecuteCommandList` that plays it back, with where in the list each legacy call's
/// translation starts and the call's barriers (EB-7). A GetData recorded into it is shown to
/// the validation layer as a read on a deferred context (CTX-6).
fn record_list(
    r: &mut Resolver,
    sink: &mut Batches,
    name: &str,
    lists: &[ListDef<Target>],
) -> Result<(Command, ListLegacy), String> {
    let list = (lists.iter().find(|l| l.name == name))
        .ok_or_else(|| format!("no command list {name:?}"))?;
    let label = r.device.label(name);
    let mut commands = Vec::new();
    let mut calls = Vec::new();
    for cmd in &list.commands {
        match r.lower(cmd)? {
            Step::Device(c) => commands.push(c),
            Step::Legacy(cs, mut call) => {
                for c in cs {
                    calls.push((commands.len(), std::mem::take(&mut call)));
                    commands.push(c);
                }
            }
            Step::GetQueryData(query, q) => {
                (sink.sink).query_read(r.device, query, &q, sink.cpu_ns, label, true)
            }
            _ => return Err(format!("{} in command list {name:?}", cmd.name())),
        }
    }
    // The script records the list on its own thread, now (CTX-7).
    let recorded: u64 = commands.iter().map(cpu_cost::record_ns).sum();
    sink.cpu_ns = sink.cpu_ns.saturating_add(recorded);
    let stats = sink.sink.stats();
    stats.cpu_record_ns += recorded;
    stats.cpu_record_span_ns += recorded;
    let list = Command::ExecuteCommandList {
        label,
        semantics: list.semantics,
        commands,
    };
    Ok((list, calls))
}

/// A recorded list's legacy calls: the index in the list of each call's first translated
/// Barrier command, and the call's barriers.
type ListLegacy = Vec<(usize, Vec<crate::barrier::LegacyBarrier<ObjectKey>>)>;
