//! Submit: play each pass's list back on its queue, in compiled order, wrapped in the fence
//! waits and inserts that order it against other queues (FS-1, FN-2). Fences that another
//! queue waits on are inserted with kickoff, so the wait can be satisfied (FN-3).

use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::barrier::Access;
use crate::device::{Command, QueueId};
use crate::error::RuntimeError;
use crate::frame::{Clock, FrameWork, PassFences, TextureState};
use crate::model::{BackBuffer, Fault, FrameIndex, Settings, SwapChain};
use crate::plan::{BarrierPlan, CompiledGraph};

/// Submit every recorded list.
pub fn submit_passes(
    graph: Res<CompiledGraph>,
    plan: Res<BarrierPlan>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    mut work: ResMut<FrameWork>,
    mut submitter: Submitter,
    mut fences: ResMut<PassFences>,
    settings: Res<Settings>,
    chains: Query<&BackBuffer, With<SwapChain>>,
    mut states: Query<&mut TextureState>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("submit");
    let fault = &settings.fault;
    let mut dropped = false;
    let mut seen = (0usize, 0usize);
    let previous = std::mem::take(&mut fences.current);
    fences.previous = previous;
    let work = &mut *work;
    work.used.clear();
    work.queues.clear();
    work.presented.clear();
    let mut prologues = std::mem::take(&mut work.chain_prologue);
    let lists = std::mem::take(&mut work.lists);
    for (p, list) in graph.passes.iter().zip(lists) {
        let mut commands = Vec::with_capacity(list.commands.len() + 4);
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
        if !work.queues.contains(&p.queue) {
            work.queues.push(p.queue);
        }
        if let Some(fault) = &fault {
            inject(
                fault,
                &p.name,
                frame.0,
                &mut commands,
                &mut dropped,
                &mut seen,
            );
        }
        submitter.submit(p.queue, p.label, commands, clock.cpu_ns)?;
    }
    if !work.queues.contains(&QueueId::Graphics) && !work.presented.is_empty() {
        work.queues.push(QueueId::Graphics);
    }
    for (e, layout, access) in plan.finals() {
        if let Ok(mut s) = states.get_mut(*e) {
            s.layout = *layout;
            s.access = *access;
        }
    }
    Ok(())
}

/// Fault injection at submission: drop barriers or fence waits of one pass (or the first of
/// the frame, or the n-th), or strip every barrier of its cache work. `dropped` remembers
/// whether the frame's first occurrence is gone already; `seen` counts barriers and waits
/// submitted so far this frame.
fn inject(
    fault: &Fault,
    pass: &str,
    frame: u64,
    commands: &mut Vec<Command>,
    dropped: &mut bool,
    seen: &mut (usize, usize),
) {
    match *fault {
        Fault::DropNthBarrier { frame: f, index } if f == frame => {
            for c in commands.iter_mut() {
                if let Command::Barrier(g) = c {
                    let (ng, nb, nt) = (g.global.len(), g.buffers.len(), g.textures.len());
                    if index >= seen.0 && index < seen.0 + ng + nb + nt {
                        let k = index - seen.0;
                        if k < ng {
                            g.global.remove(k);
                        } else if k < ng + nb {
                            g.buffers.remove(k - ng);
                        } else {
                            g.textures.remove(k - ng - nb);
                        }
                    }
                    seen.0 += ng + nb + nt;
                }
            }
            commands.retain(|c| !matches!(c, Command::Barrier(g) if g.is_empty()));
            return;
        }
        Fault::DropNthFenceWait { frame: f, index } if f == frame => {
            let mut k = seen.1;
            commands.retain(|c| {
                !matches!(c, Command::WaitFence(_)) || {
                    k += 1;
                    k - 1 != index
                }
            });
            seen.1 = k;
            return;
        }
        _ => {}
    }
    let mut drop_matching = |name: &Option<String>, is: fn(&Command) -> bool| {
        if !Fault::targets(name, pass, !*dropped) {
            return;
        }
        if name.is_some() {
            commands.retain(|c| !is(c));
        } else if let Some(i) = commands.iter().position(is) {
            commands.remove(i);
            *dropped = true;
        }
    };
    match fault {
        Fault::DropBarrier(name) => drop_matching(name, |c| matches!(c, Command::Barrier(_))),
        Fault::DropFenceWait(name) => drop_matching(name, |c| matches!(c, Command::WaitFence(_))),
        Fault::SkipCacheFlush => {
            for c in commands.iter_mut() {
                if let Command::Barrier(g) = c {
                    for b in &mut g.global {
                        (b.access_before, b.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                    for b in &mut g.buffers {
                        (b.access_before, b.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                    for t in &mut g.textures {
                        (t.access_before, t.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                }
            }
        }
        _ => {}
    }
}
