//! Read phases: a texture's consecutive reads share one layout, chosen so every reader's
//! queue can use it and compression survives where it can (barrier-spec A5, A6, EB-4).

use bevy_ecs::prelude::*;

use super::track::Q;
use crate::barrier::*;

use crate::plan::{CompiledGraph, PlannedUse};

/// One resource's use in one pass (several uses of a resource by one pass are merged), with
/// what the walk needs of the pass copied in: the walk reads a resource's uses in a row.
#[derive(Clone, Copy, Debug)]
pub(super) struct ResUse {
    /// The pass (u32s keep a use at 32 bytes: the planner copies each twice).
    pub(super) pass: u32,
    pub(super) queue: Q,
    pub(super) stages: Sync,
    pub(super) access: Access,
    pub(super) write: bool,
    pub(super) layout: Option<Layout>,
    /// A read in a read phase that spans several queues.
    pub(super) shared: bool,
    /// The pass's [`own_complete`](crate::plan::CompiledPass::own_complete).
    pub(super) own_complete: Option<i32>,
}

impl ResUse {
    /// The use `u` of pass `pass`, on `queue`.
    #[inline(always)]
    pub(super) fn of(pass: usize, queue: Q, own_complete: Option<i32>, u: &PlannedUse) -> Self {
        ResUse {
            pass: pass as u32,
            queue,
            stages: u.stages.expand(),
            access: u.access.access(),
            write: u.access.is_write(),
            layout: u.layout,
            shared: false,
            own_complete,
        }
    }
}

/// What choosing a read phase's layout needs to know of its reads, gathered in one pass.
struct Phase {
    /// Every access the phase makes.
    access: Access,
    dma: bool,
    compute: bool,
    graphics: bool,
    /// Read on more than one queue.
    shared: bool,
}

impl Phase {
    /// The read phase starting at `uses[start]` (a read), and where it ends (the next write
    /// or the end), in one scan; queue types gathered as bits (see [`Q::type_bit`]).
    fn scan(uses: &[ResUse], start: usize) -> (Phase, usize) {
        let first = uses[start].queue;
        let (mut access, mut types, mut shared) = (Access::empty(), 0, false);
        let mut end = start;
        for u in &uses[start..] {
            if u.write {
                break;
            }
            access |= u.access;
            types |= u.queue.type_bit();
            shared |= u.queue != first;
            end += 1;
        }
        let phase = Phase {
            access,
            graphics: types & Q::type_bits(QueueType::Direct) != 0,
            compute: types & Q::type_bits(QueueType::Compute) != 0,
            dma: types & Q::type_bits(QueueType::Copy) != 0,
            shared,
        };
        (phase, end)
    }

    /// True when every reader's queue type allows `layout` (barrier-spec A5).
    fn allowed_everywhere(&self, layout: Layout) -> bool {
        (!self.graphics || QueueType::Direct.allows_layout(layout))
            && (!self.compute || QueueType::Compute.allows_layout(layout))
            && (!self.dma || QueueType::Copy.allows_layout(layout))
    }
}

/// The layout a read phase (consecutive reads of a texture) uses: one every reader's queue
/// can use and whose accesses cover the phase (barrier-spec A5, A6), preferring layouts that
/// keep compression on the graphics engine (EB-4).
fn read_layout(phase: &Phase, compressible: bool) -> Option<Layout> {
    let Phase {
        access,
        dma,
        compute,
        graphics,
        ..
    } = *phase;
    use Layout as L;
    let candidates: &[Layout] = if dma {
        &[L::Common]
    } else if compute && graphics {
        &[
            L::ShaderResource,
            L::CopySource,
            L::GenericRead,
            L::DirectQueueGenericReadComputeQueueAccessible,
            L::Common,
        ]
    } else if compute {
        &[L::ShaderResource, L::CopySource, L::GenericRead, L::Common]
    } else if compressible {
        &[
            L::DepthStencilRead,
            L::DirectQueueShaderResource,
            L::CopySource,
            L::DirectQueueGenericRead,
            L::GenericRead,
            L::Common,
        ]
    } else {
        &[
            L::DepthStencilRead,
            L::ShaderResource,
            L::CopySource,
            L::GenericRead,
            L::DirectQueueGenericRead,
            L::Common,
        ]
    };
    candidates
        .iter()
        .copied()
        .find(|l| layout_allows(*l).contains(access))
}

/// Merge a resource's uses per pass, in place, and give texture reads their read-phase
/// layout; the merged uses are the front of `planned`, which is returned, with whether
/// they are all on one queue.
pub(super) fn resource_uses<'a>(
    graph: &CompiledGraph,
    planned: &'a mut [ResUse],
    texture: bool,
    compressible: bool,
    wraps: bool,
) -> Result<(&'a [ResUse], bool), crate::plan::PlanError> {
    let Some(first) = planned.first() else {
        return Ok((planned, true));
    };
    // Most resources are used once per pass: one pass without branches tells, and the merge
    // is skipped.
    let (q, mut last) = (first.queue, u32::MAX);
    let (mut twice, mut one_queue) = (false, true);
    for u in planned.iter() {
        twice |= u.pass == last;
        one_queue &= u.queue == q;
        last = u.pass;
    }
    let len = if twice {
        merge_passes(planned)
    } else {
        planned.len()
    };
    let out = &mut planned[..len];
    if texture {
        read_phases(graph, out, compressible, wraps)?;
    }
    Ok((out, one_queue))
}

/// Merge each pass's uses of the resource into one, in place; returns how many are left.
#[inline(never)]
fn merge_passes(planned: &mut [ResUse]) -> usize {
    let mut len: usize = 0;
    for i in 0..planned.len() {
        let u = planned[i];
        match len.checked_sub(1).filter(|&j| planned[j].pass == u.pass) {
            Some(j) => {
                let x = &mut planned[j];
                x.stages |= u.stages;
                x.access |= u.access;
                x.write |= u.write;
                if u.write {
                    x.layout = u.layout;
                }
            }
            None => {
                if len != i {
                    planned[len] = u;
                }
                len += 1;
            }
        }
    }
    len
}

/// The layout of a read phase whose first read is on `first` and that follows the write
/// `writer`, if any: the writer's layout when it already serves every read of the phase on
/// the writer's queue (depth read through a read-only view in DEPTH_STENCIL_WRITE), so there
/// is no transition at all; also when several queues read it, since no transition means none
/// to order among them (a DMA writer's COMMON serves shader reads on every queue). Before a
/// DMA write, a phase several queues read takes the DMA's COMMON when it serves them: a DMA
/// engine cannot change a layout, and a reader that did would race the other queue's reads
/// (FS-1). Otherwise the best layout every reader can use.
fn phase_layout(
    phase: &Phase,
    first: Q,
    writer: Option<ResUse>,
    next: Option<ResUse>,
    compressible: bool,
) -> Option<Layout> {
    let keep = writer.and_then(|w| {
        let l = w.layout?;
        let here = !phase.shared && first == w.queue;
        (layout_allows(l).contains(phase.access)
            && (here || (phase.shared && phase.allowed_everywhere(l))))
        .then_some(l)
    });
    let before_dma = next
        .filter(|n| phase.shared && n.queue.kind() == QueueType::Copy)
        .and_then(|n| n.layout)
        .filter(|&l| layout_allows(l).contains(phase.access) && phase.allowed_everywhere(l));
    keep.or(before_dma)
        .or_else(|| read_layout(phase, compressible))
}

/// Give each read phase of a texture's (merged) uses its layout. When the texture keeps its
/// contents between frames (`wraps`) and both begins and ends the frame with reads, those
/// reads are one phase across the frame boundary (history read at the start of the next
/// frame, nothing written between): they share a layout, so no reader changes it under
/// another queue's reads (FS-1).
fn read_phases(
    graph: &CompiledGraph,
    out: &mut [ResUse],
    compressible: bool,
    wraps: bool,
) -> Result<(), crate::plan::PlanError> {
    let conflict = |range: &[ResUse]| crate::plan::PlanError::NoCommonReadLayout {
        passes: (range.iter())
            .map(|u| graph.passes[u.pass as usize].entity)
            .collect(),
    };
    let (mut start, mut stop) = (0, out.len());
    let last_write = out.iter().rposition(|u| u.write);
    if let Some(w) = last_write.filter(|&w| wraps && !out[0].write && w + 1 < out.len()) {
        let (head, head_end) = Phase::scan(out, 0);
        let (tail, _) = Phase::scan(out, w + 1);
        let phase = Phase {
            access: head.access | tail.access,
            graphics: head.graphics || tail.graphics,
            compute: head.compute || tail.compute,
            dma: head.dma || tail.dma,
            shared: head.shared || tail.shared || out[0].queue != out[w + 1].queue,
        };
        let next = Some(out[head_end]);
        let layout = phase_layout(&phase, out[w + 1].queue, Some(out[w]), next, compressible)
            .ok_or_else(|| conflict(out))?;
        let (front, back) = out.split_at_mut(w + 1);
        for u in front[..head_end].iter_mut().chain(back) {
            u.layout = Some(layout);
            u.shared = phase.shared;
        }
        (start, stop) = (head_end, w + 1);
    }
    while start < stop {
        if out[start].write {
            start += 1;
            continue;
        }
        let (phase, end) = Phase::scan(&out[..stop], start);
        let writer = start.checked_sub(1).map(|w| out[w]);
        // The frame's last phase of a texture that keeps its contents is followed by the next
        // frame's first use (a write here: a first read joined the phase above); so is a
        // transient's when a DMA engine uses it first, which can only take it in COMMON as
        // it is (barrier-spec A5).
        let dma_first = out[0].queue.kind() == QueueType::Copy;
        let next = (out[..stop].get(end).copied())
            .or_else(|| ((wraps || dma_first) && end == out.len()).then_some(out[0]));
        let layout = phase_layout(&phase, out[start].queue, writer, next, compressible)
            .ok_or_else(|| conflict(&out[start..end]))?;
        for u in &mut out[start..end] {
            u.layout = Some(layout);
            u.shared = phase.shared;
        }
        start = end;
    }
    Ok(())
}
const _: () = assert!(std::mem::size_of::<ResUse>() == 32);
const _: () = assert!(std::mem::size_of::<super::track::Acc>() == 16);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::QueueId;

    fn use_(pass: u32, queue: QueueId, access: Access, layout: Option<Layout>) -> ResUse {
        ResUse {
            pass,
            queue: Q::new(queue),
            stages: Sync::COMPUTE_SHADING,
            access,
            write: access == Access::UNORDERED_ACCESS,
            layout,
            shared: false,
            own_complete: None,
        }
    }

    /// A pass that uses a texture twice (read, then write) has one use of both, in the
    /// written layout; the reads after it form one phase over two queues, in a layout both
    /// can read; uses on one queue only say so.
    #[test]
    fn uses_merge_per_pass_and_reads_share_a_phase_layout() {
        let graph = CompiledGraph::default();
        let compute = QueueId::Compute { pipe: 0, index: 0 };
        let srv = Some(Layout::ShaderResource);
        let uav = Some(Layout::UnorderedAccess);
        let mut uses = [
            use_(0, QueueId::Graphics, Access::SHADER_RESOURCE, srv),
            use_(0, QueueId::Graphics, Access::UNORDERED_ACCESS, uav),
            use_(1, QueueId::Graphics, Access::SHADER_RESOURCE, srv),
            use_(2, compute, Access::SHADER_RESOURCE, srv),
        ];
        let (merged, one_queue) =
            resource_uses(&graph, &mut uses, true, false, true).expect("plans");
        assert!(!one_queue);
        assert_eq!(merged.len(), 3, "{merged:?}");
        let w = merged[0];
        assert!(w.write && w.pass == 0 && w.layout == uav);
        assert_eq!(w.access, Access::SHADER_RESOURCE | Access::UNORDERED_ACCESS);
        for r in &merged[1..] {
            assert!(r.shared && !r.write, "{r:?}");
            assert_eq!(r.layout, Some(Layout::ShaderResource), "{r:?}");
        }

        let mut once = [
            use_(0, QueueId::Graphics, Access::UNORDERED_ACCESS, uav),
            use_(1, QueueId::Graphics, Access::SHADER_RESOURCE, srv),
        ];
        let (kept, one_queue) = resource_uses(&graph, &mut once, true, true, true).expect("plans");
        assert!(one_queue && kept.len() == 2 && !kept[1].shared);
        assert_eq!(
            kept[1].layout,
            Some(Layout::DirectQueueShaderResource),
            "a compressible texture read on graphics only stays compressed (EB-4)"
        );
    }
}
