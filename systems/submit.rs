//! Submit: play each pass's list back on its queue, in compiled order, wrapped in the fence
//! waits and inserts that order it against other queues (FS-1, FN-2). Fences that another
//! queue waits on are inserted with kickoff, so the wait can be satisfied (FN-3). Each
//! submission leaves the CPU later by what queuing its own commands and playing the list
//! back cost (CTX-7).

use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::barrier::{BarrierGroup, LegacyBarrier, TextureBarrier, translate};
use crate::device::cpu_cost::{self, playback_ns};
use crate::device::{Command, QueueId};
use crate::device::{Device, ObjectKey};
use crate::error::RuntimeError;
use crate::frame::{
    ChainPrologues, Clock, FrameSubmissions, PassFences, RecordedLegacy, RecordedLists,
    RecordedOrigins,
};
use crate::model::{
    BackBuffer, FrameIndex, GpuObject, Injector, Settings, SubresourceStates, SwapChain,
    TextureState,
};
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, PlanFrame, range_of};
use crate::validate::resource_info;

/// Submit every recorded list.
pub fn submit_passes(
    graph: Res<CompiledGraph>,
    plan: Res<BarrierPlan>,
    this: Res<PlanFrame>,
    mut clock: ResMut<Clock>,
    frame: Res<FrameIndex>,
    mut prologues: ResMut<ChainPrologues>,
    mut lists: ResMut<RecordedLists>,
    mut origins: ResMut<RecordedOrigins>,
    mut legacy: ResMut<RecordedLegacy>,
    mut work: ResMut<FrameSubmissions>,
    mut submitter: Submitter,
    mut fences: ResMut<PassFences>,
    settings: Res<Settings>,
    chains: Query<&BackBuffer, With<SwapChain>>,
    mut states: Query<(&mut TextureState, Option<&mut SubresourceStates>)>,
    objects: Query<&GpuObject>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("submit");
    let mut injector = settings.fault.as_ref().map(|f| Injector::new(f, frame.0));
    let previous = std::mem::take(&mut fences.current);
    fences.previous = previous;
    // The plan's prologue, before every pass: other queues wait for its fence at their first
    // pass (FS-1).
    let prologue = match plan.frame_at(this.0) {
        Some(f) => prologue_barriers(f, submitter.device(), |e| objects.get(e).ok().map(|o| o.0))
            .map_err(|message| RuntimeError::Schedule {
            frame: frame.0,
            message,
        })?,
        None => Vec::new(),
    };
    // The CPU queues what the immediate context adds and plays each list back (CTX-7).
    let start = clock.cpu_ns;
    let mut cpu = start;
    let mut prologue_fence = None;
    if !prologue.is_empty() {
        let textures = prologue;
        let fence = submitter.device().next_fence(QueueId::Graphics);
        let commands = vec![
            Command::Barrier(BarrierGroup {
                textures,
                ..BarrierGroup::default()
            }),
            Command::InsertFence {
                fence,
                kickoff: true,
            },
        ];
        let label = submitter.device().label("prologue");
        work.queue(QueueId::Graphics);
        let flags = submitter.device().flags();
        let queued = commands.iter().map(|c| cpu_cost::immediate_ns(c, flags));
        cpu = cpu.saturating_add(queued.sum::<u64>());
        submitter.submit(QueueId::Graphics, label, commands, cpu)?;
        prologue_fence = Some(fence);
    }
    let mut waited = [false; crate::device::QUEUE_COUNT];
    let mut prologues = std::mem::take(&mut prologues.0);
    for (i, (p, list)) in graph.passes.iter().zip(lists.0.drain(..)).enumerate() {
        let mut commands = Vec::with_capacity(list.commands.len() + 4);
        if let Some(f) = prologue_fence.filter(|_| p.queue != QueueId::Graphics)
            && !std::mem::replace(&mut waited[p.queue.index()], true)
        {
            commands.push(Command::WaitFence(f));
        }
        for &w in &p.waits {
            if let Some(f) = fences.current.get(&graph.passes[w].entity) {
                commands.push(Command::WaitFence(*f));
            }
        }
        for &w in &p.waits_previous {
            if let Some(f) = fences.previous.get(&graph.passes[w].entity) {
                commands.push(Command::WaitFence(*f));
            }
        }
        for u in graph.uses_of(p) {
            if let Some(pos) = prologues.iter().position(|(c, _)| *c == u.resource) {
                let (chain, pre) = prologues.swap_remove(pos);
                commands.extend(pre);
                work.presented.push(chain);
            }
            work.used.push((u.target, p.queue));
            work.used.push((u.resource, p.queue));
            if let Some(b) = chains.get(u.resource).ok().and_then(|back| back.buffer) {
                work.used.push((b, p.queue));
            }
        }
        // The immediate context's writes and kickoffs cost what its flags make them (FS-15).
        let flags = match p.queue {
            QueueId::Graphics => submitter.device().flags(),
            _ => crate::model::DeviceFlags::ALL,
        };
        let queued = (commands.iter().map(|c| cpu_cost::immediate_ns(c, flags))).sum::<u64>();
        cpu = cpu.saturating_add(queued + playback_ns(list.commands.len()));
        let before = commands.len();
        let listed = list.commands.len();
        commands.extend(list.commands);
        if p.signals {
            let kickoff: Command = Command::Kickoff;
            cpu = cpu.saturating_add(cpu_cost::immediate_ns(&kickoff, flags));
            let fence = submitter.device().next_fence(p.queue);
            commands.push(Command::InsertFence {
                fence,
                kickoff: true,
            });
            fences.current.insert(p.entity, fence);
        }
        work.queue(p.queue);
        if let Some(injector) = &mut injector {
            injector.inject(&p.name, &mut commands);
        }
        // A scripted pass's commands name their place in the scene file, and its legacy
        // calls reach the validation layer as such (EB-7); a fault that changed the stream
        // leaves them unnamed and checked as their translation rather than misplaced.
        let unchanged = commands.len() == before + listed + usize::from(p.signals);
        if let Some(mut calls) = legacy.0.remove(&i)
            && unchanged
        {
            calls.iter_mut().for_each(|(at, ..)| *at += before);
            submitter.legacy(calls);
        }
        if let Some(mut located) = origins.0.remove(&i)
            && located.len() == listed
            && unchanged
        {
            let none = std::sync::Arc::<str>::from("");
            located.splice(0..0, std::iter::repeat_n(none.clone(), before));
            located.resize(commands.len(), none);
            submitter.locate(located);
        }
        submitter.submit(p.queue, p.label, commands, cpu)?;
    }
    submitter.stats().cpu_submit_ns += cpu - start;
    clock.cpu_ns = cpu;
    if !work.presented.is_empty() {
        work.queue(QueueId::Graphics);
    }
    for &(e, layout, access) in plan.finals(this.0) {
        let state = TextureState { layout, access };
        // A part of a split texture records its own end; the texture's state follows the last
        // part recorded, so a texture whose parts end alike reads as that.
        let (texture, part) = match graph.parts.get(e) {
            Some((t, cell)) => (t, Some(range_of(cell))),
            None => (e, None),
        };
        if let Ok((mut s, parts)) = states.get_mut(texture) {
            *s = state;
            if let (Some(range), Some(mut parts)) = (part, parts) {
                parts.set(range, state);
            }
        }
    }
    Ok(())
}

/// The prologue's texture barriers on device objects: the plan's own, and its legacy
/// transitions as the driver translates them (EB-10).
fn prologue_barriers(
    f: &FramePlan,
    device: &Device,
    key: impl Fn(Entity) -> Option<ObjectKey>,
) -> Result<Vec<TextureBarrier<ObjectKey>>, String> {
    let mut out: Vec<TextureBarrier<ObjectKey>> = (f.prologue.iter())
        .filter_map(|t| Some(t.on(key(t.resource)?)))
        .collect();
    let legacy: Vec<LegacyBarrier<ObjectKey>> = (f.legacy_prologue.iter())
        .map(|b| b.map(|e| key(*e).unwrap_or_default()))
        .collect();
    if !legacy.is_empty() {
        let translated = translate(&legacy, |k| resource_info(device, *k)).map_err(|errors| {
            format!("legacy prologue does not translate: {:?}", errors.first())
        })?;
        out.extend(translated.textures);
    }
    Ok(out)
}
