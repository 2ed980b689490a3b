//! Submit: play each pass's list back on its queue, in compiled order, wrapped in the fence
//! waits and inserts that order it against other queues (FS-1, FN-2). Fences that another
//! queue waits on are inserted with kickoff, so the wait can be satisfied (FN-3).

use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::barrier::BarrierGroup;
use crate::device::{Command, QueueId};
use crate::error::RuntimeError;
use crate::frame::{ChainPrologues, Clock, FrameSubmissions, PassFences, RecordedLists};
use crate::model::{
    BackBuffer, FrameIndex, GpuObject, Injector, Settings, SwapChain, TextureState,
};
use crate::plan::{BarrierPlan, CompiledGraph, PlanFrame};

/// Submit every recorded list.
pub fn submit_passes(
    graph: Res<CompiledGraph>,
    plan: Res<BarrierPlan>,
    this: Res<PlanFrame>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    mut prologues: ResMut<ChainPrologues>,
    mut lists: ResMut<RecordedLists>,
    mut work: ResMut<FrameSubmissions>,
    mut submitter: Submitter,
    mut fences: ResMut<PassFences>,
    settings: Res<Settings>,
    chains: Query<&BackBuffer, With<SwapChain>>,
    mut states: Query<&mut TextureState>,
    objects: Query<&GpuObject>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("submit");
    let mut injector = settings.fault.as_ref().map(|f| Injector::new(f, frame.0));
    let previous = std::mem::take(&mut fences.current);
    fences.previous = previous;
    // The plan's prologue, before every pass: other queues wait for its fence at their first
    // pass (FS-1).
    let prologue = plan
        .frame_at(this.0)
        .map_or(&[][..], |f| f.prologue.as_slice());
    let mut prologue_fence = None;
    if !prologue.is_empty() {
        let textures = (prologue.iter())
            .filter_map(|t| Some(t.on(objects.get(t.resource).ok()?.0)))
            .collect();
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
        submitter.submit(QueueId::Graphics, label, commands, clock.cpu_ns)?;
        prologue_fence = Some(fence);
    }
    let mut waited = [false; crate::device::QUEUE_COUNT];
    let mut prologues = std::mem::take(&mut prologues.0);
    for (p, list) in graph.passes.iter().zip(lists.0.drain(..)) {
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
        for u in &p.uses {
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
        commands.extend(list.commands);
        if p.signals {
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
        submitter.submit(p.queue, p.label, commands, clock.cpu_ns)?;
    }
    if !work.presented.is_empty() {
        work.queue(QueueId::Graphics);
    }
    for (e, layout, access) in plan.finals(this.0) {
        if let Ok(mut s) = states.get_mut(*e) {
            s.layout = *layout;
            s.access = *access;
        }
    }
    Ok(())
}
