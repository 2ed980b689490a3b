//! Present: finish each written back buffer the way the seed's render loop does (RL-1):
//! decompress it, because the display engine cannot read compressed surfaces (FS-4); move it
//! to PRESENT/COMMON (barrier-spec E); present, which also resets all state (FS-11). Then the
//! frame ends with a fence on every queue it used, covering every object it touched (FS-6).

use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::barrier::*;
use crate::device::{Command, FenceId, QueueId};
use crate::error::RuntimeError;
use crate::frame::{Clock, FrameSubmissions, FramesInFlight, PassFences};
use crate::model::*;
use crate::plan::{BarrierPlan, CompiledGraph, PlanFrame};

/// Present every written chain, then insert the end-of-frame fences.
pub fn present_frame(
    mut commands: Commands,
    work: Res<FrameSubmissions>,
    plan: Res<BarrierPlan>,
    graph: Res<CompiledGraph>,
    fences: Res<PassFences>,
    this: Res<PlanFrame>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    mut submitter: Submitter,
    mut in_flight: ResMut<FramesInFlight>,
    settings: Res<Settings>,
    mut chains: Query<(&SwapChain, &GpuChain, &mut BackBuffer, &mut TextureState)>,
    objects: Query<&GpuObject>,
    mut last_uses: Query<&mut LastUse>,
    mut timelines: Query<&mut FenceTimeline>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("present");
    let label = submitter.device().label("present");
    let end_label = submitter.device().label("end of frame");
    let mut waits: Vec<Command> = (graph.present_waits.iter())
        .filter_map(|&w| fences.current.get(&graph.passes.get(w)?.entity))
        .map(|&f| Command::WaitFence(f))
        .collect();
    for &e in &work.presented {
        let Ok((chain, gpu, mut back, mut state)) = chains.get_mut(e) else {
            continue;
        };
        let Some(buffer) = back.buffer.and_then(|b| objects.get(b).ok()).map(|o| o.0) else {
            continue;
        };
        let (layout, access) = plan
            .finals(this.0)
            .iter()
            .find(|(t, _, _)| *t == e)
            .map_or((state.layout, state.access), |(_, l, a)| (*l, *a));
        // RL-1, FS-4: the display cannot read a compressed surface. The fault skips the whole
        // decompress stage: the barrier into PRESENT would decompress the buffer too.
        let skip = settings.fault == Some(Fault::SkipDecompress);
        // FS-1: what other queues did to the chains this frame completes before a present.
        let mut cmds: Vec<Command> = std::mem::take(&mut waits);
        // An explicit decompression rewrites the surface as a render target; a buffer last
        // written otherwise (through a UAV) is decompressed by its barrier into PRESENT.
        if !skip && layout == Layout::RenderTarget {
            cmds.push(Command::Decompress(buffer));
        }
        if layout != Layout::PRESENT && !skip {
            let mut group = BarrierGroup::default();
            // Nothing on this queue touches the buffer after it until the next frame's wait on
            // present: SyncAfter NONE, AccessAfter NO_ACCESS (barrier-spec A3.1).
            // SyncBefore must contain the SyncAfter of the plan's last barrier on it (A3.4):
            // the stage that wrote it, or nothing when another queue's fence ordered it.
            let sync_before = match settings.barriers_run() {
                BarrierMode::Conservative => Sync::ALL,
                _ if layout == Layout::RenderTarget => Sync::RENDER_TARGET,
                _ if access == Access::NO_ACCESS => Sync::NONE,
                BarrierMode::Enhanced | BarrierMode::Legacy => Sync::ALL_SHADING,
            };
            group.textures.push(TextureBarrier {
                sync_before,
                sync_after: Sync::NONE,
                access_before: access,
                access_after: Access::NO_ACCESS,
                layout_before: layout,
                layout_after: Layout::PRESENT,
                resource: buffer,
                range: SubresourceRange::ALL,
                flags: TextureBarrierFlags::default(),
            });
            cmds.push(Command::Barrier(group));
        }
        cmds.push(Command::Present(gpu.key));
        submitter.submit(QueueId::Graphics, label, cmds, clock.cpu_ns)?;
        submitter.stats().presents += 1;
        *state = TextureState {
            layout: Layout::PRESENT,
            access: Access::NO_ACCESS,
        };
        // RL-5: the title's own index advances once per frame.
        back.saved_index = (back.saved_index + 1) % chain.buffers.max(1);
    }

    // End of frame: one fence per queue used, kicked off so the CPU can count on it (FN-3).
    let mut frame_fences: Vec<(QueueId, FenceId)> = Vec::with_capacity(work.queues.len());
    for &q in &work.queues {
        let fence = submitter.device().next_fence(q);
        let cmds = vec![Command::InsertFence {
            fence,
            kickoff: true,
        }];
        submitter.submit(q, end_label, cmds, clock.cpu_ns)?;
        frame_fences.push((q, fence));
        match timelines.iter_mut().find(|t| t.queue == q) {
            Some(mut t) => t.last_inserted = fence.0,
            None => {
                commands.spawn((
                    Name::new(format!("fence:{q}")),
                    FenceTimeline {
                        queue: q,
                        last_inserted: fence.0,
                        last_passed: 0,
                    },
                ));
            }
        }
    }
    let fence_of = |q: QueueId| {
        frame_fences
            .iter()
            .find(|(fq, _)| *fq == q)
            .map(|(_, f)| f.0)
    };
    for &(e, q) in &work.used {
        let Some(fence) = fence_of(q) else { continue };
        match last_uses.get_mut(e) {
            Ok(mut lu) => {
                if lu.frame != frame.0 || lu.fences.is_empty() {
                    lu.frame = frame.0;
                    lu.fences.clear();
                }
                if !lu.fences.contains(&fence) {
                    lu.fences.push(fence);
                }
            }
            Err(_) => {
                commands.entity(e).try_insert(LastUse {
                    frame: frame.0,
                    fences: vec![fence],
                });
            }
        }
    }
    if let Some(g) = fence_of(QueueId::Graphics) {
        for (_, _, mut back, _) in &mut chains {
            let len = back.ring.len();
            if len > 0 {
                let slot = (back.ring_cursor + len - 1) % len;
                if let Some((_, f)) = back.ring[slot].as_mut()
                    && *f == 0
                {
                    *f = g;
                }
            }
            for (_, f) in back.retiring.iter_mut().filter(|(_, f)| *f == 0) {
                *f = g;
            }
        }
    }
    in_flight
        .frames
        .push_back((frame.0, frame_fences.iter().map(|(_, f)| *f).collect()));
    Ok(())
}
