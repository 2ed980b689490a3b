//! Read phases several queues share, in legacy states: one state for the whole phase, entered
//! by its writer before the fences that order the readers, so that no reader transitions the
//! resource under another queue's read (FS-1; a transition is a write). The state is the
//! readers' states combined (barrier-spec B: read states, DEPTH_READ among them, combine; a
//! depth buffer read through shaders and tested read-only is NON_PIXEL_SHADER_RESOURCE |
//! DEPTH_READ, in the compute-accessible generic read layout), COMMON when a DMA engine reads in the phase or
//! writes after it (a copy engine uses only COMMON, barrier-spec A5), and, when the writer's
//! queue cannot name the combined state (a compute queue and PIXEL_SHADER_RESOURCE), the part
//! it can name, which a reader on another queue widens within the same layout (COMMON where the
//! widening would change the layout). A phase at the
//! start of the frame (history read before the frame rewrites it) is entered by the frame's
//! last writer, for the next frame, and joins the frame's last read run when the frame ends
//! in reads too: one phase across the boundary.

use bevy_ecs::prelude::*;

use super::pass_state;
use super::states::may_move;
use crate::barrier::{Layout, ResourceStates as S};
use crate::device::QueueId;
use crate::model::UseAccess;
use crate::plan::CompiledGraph;

/// Per pass, its state in the read phase it belongs to when that phase spans several queues
/// (barrier-spec B: read states combine), `None` elsewhere. A read phase is a
/// run of passes using `e` that only read it; one state for all of it means no queue changes
/// the state while another reads. A phase a DMA engine reads in, or that a DMA engine's write
/// follows (in the next frame too, when the resource keeps its contents: `wraps`), is COMMON
/// when COMMON serves its reads: a copy engine uses only COMMON and cannot leave it
/// (barrier-spec A5), and COMMON serves shader and copy reads on every queue (A6), so nothing
/// transitions the resource under a reader.
pub(super) fn shared_phases(
    graph: &CompiledGraph,
    e: Entity,
    wraps: bool,
    texture: bool,
) -> Vec<Option<Phase>> {
    let may = |q: QueueId, from: S, to: S| may_move(q, from, to, texture);
    let mut out = vec![None; graph.passes.len()];
    let uses: Vec<(usize, QueueId, UseAccess, S)> = (graph.passes.iter().enumerate())
        .filter_map(|(i, p)| {
            let (access, state) =
                pass_state(graph.uses_of(p).iter().filter(|u| u.key == e), p.queue)?;
            Some((i, p.queue, access, state))
        })
        .collect();
    let dma = |q: QueueId| matches!(q, QueueId::Dma { .. });
    for run in read_runs(&uses, wraps) {
        let Some((&first, &last)) = run.first().zip(run.last()) else {
            continue;
        };
        // The uses before and after the run, across the frame boundary when it wraps.
        let before = first.checked_sub(1).or(uses.len().checked_sub(1));
        let after = Some(last + 1).filter(|&x| x < uses.len());
        let reads = || run.iter().map(|&x| &uses[x]);
        // A transient a DMA engine uses first is taken in COMMON as it is next frame, as a
        // resource that keeps its contents is.
        let dma_first = uses.first().is_some_and(|f| dma(f.1));
        let next = after
            .map(|x| &uses[x])
            .or(uses.first().filter(|_| wraps || dma_first));
        let shared = reads().any(|r| r.1 != uses[first].1);
        let mut combined = reads().fold(S::COMMON, |a, r| a | r.3);
        let dma_reads = reads().any(|r| dma(r.1));
        let dma_writes_next = next.is_some_and(|n| n.2.is_write() && dma(n.1));
        if (dma_reads || (shared && dma_writes_next))
            && (S::ALL_SHADER_RESOURCE | S::COPY_SOURCE).contains(combined)
        {
            combined = S::COMMON;
        }
        if !(shared && (S::GENERIC_READ | S::DEPTH_READ).contains(combined)) {
            continue;
        }
        // The queue of the write the phase follows (the frame's last, across the boundary).
        let writer = before
            .filter(|_| first > 0 || wraps)
            .map(|x| &uses[x])
            .filter(|u| u.2.is_write())
            .map(|u| u.1);
        let base = match writer {
            Some(w) if !may(w, S::UNORDERED_ACCESS, combined) => {
                // The writer's queue cannot name the combined state (a compute queue and a
                // pixel shader's PIXEL_SHADER_RESOURCE, barrier-spec A5): it moves the resource
                // into the part it can name, and a reader that needs more widens it on its own
                // queue after its fence wait, within the same layout, which changes nothing
                // another queue's read depends on (FS-1: only a layout change is a write).
                S::from_bits_truncate(combined.bits() & !S::PIXEL_SHADER_RESOURCE.bits())
            }
            _ => combined,
        };
        // The use after the phase (the next frame's first when the phase ends the frame)
        // leaves the state the last reader left; a compute queue cannot leave
        // PIXEL_SHADER_RESOURCE (A5), so the phase is entered without it, and a pixel reader
        // widens it within the layout and gives it back, as for a compute writer. Otherwise
        // the last reader would have to move it for that queue, under the other queue's read
        // (FS-1).
        let base = match after.map(|x| &uses[x]).or(uses.first()) {
            Some(n) if matches!(n.1, QueueId::Compute { .. }) && !may(n.1, base, n.3) => {
                S::from_bits_truncate(base.bits() & !S::PIXEL_SHADER_RESOURCE.bits())
            }
            _ => base,
        };
        // A compute writer that cannot name even that (a texture's shader and copy reads,
        // barrier-spec B, A5) enters COMMON, which serves them on every queue (A6).
        let base = match writer {
            Some(w @ QueueId::Compute { .. }) if !may(w, S::UNORDERED_ACCESS, base) => S::COMMON,
            _ => base,
        };
        let wants: Option<Vec<S>> = reads()
            .map(|r| {
                if base == combined || base.contains(r.3) {
                    Some(base)
                } else if may(r.1, base, r.3) && texture_layout(r.3) == texture_layout(base) {
                    Some(r.3)
                } else {
                    None
                }
            })
            .collect();
        // A reader that would widen the base into another layout (a pixel shader's read
        // beside a compute queue's copy: NON_PIXEL_SHADER_RESOURCE | COPY_SOURCE is not in
        // SHADER_RESOURCE's layout) would change the layout under the other queue's read
        // (FS-1). The phase is then COMMON, which serves shader and copy reads on every queue
        // (barrier-spec A6) and which every writer's queue can name.
        let (base, wants) = match wants {
            Some(w) => (base, w),
            None if (S::ALL_SHADER_RESOURCE | S::COPY_SOURCE).contains(combined) => {
                (S::COMMON, vec![S::COMMON; run.len()])
            }
            None => continue,
        };
        for (r, want) in reads().zip(wants) {
            out[r.0] = Some(Phase { base, want });
        }
    }
    out
}

/// The read runs of a resource's uses (indices into `uses`, in the order they run): maximal
/// runs of passes that only read it. When the resource keeps its contents (`wraps`) and the
/// frame both ends and begins with reads, the last run and the first are one phase, read at
/// the end of one frame and the start of the next (history read by one queue after the write
/// and by another before it): one state for both, so no queue changes it under the other's
/// read across the boundary (FS-1), as within a frame.
fn read_runs<T: Copy>(uses: &[(usize, QueueId, UseAccess, T)], wraps: bool) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut open = false;
    for (x, u) in uses.iter().enumerate() {
        match (u.2.is_write(), open) {
            (true, _) => open = false,
            (false, true) => runs.last_mut().expect("an open run").push(x),
            (false, false) => {
                runs.push(vec![x]);
                open = true;
            }
        }
    }
    let ends_in_read = uses.last().is_some_and(|u| !u.2.is_write());
    let begins_with_read = uses.first().is_some_and(|u| !u.2.is_write());
    if wraps && ends_in_read && begins_with_read && runs.len() > 1 {
        let head = runs.remove(0);
        runs.last_mut().expect("a last run").extend(head);
    }
    runs
}

/// The layout a texture in legacy state `s` is in (barrier-spec B).
fn texture_layout(s: S) -> Option<Layout> {
    let texture = crate::barrier::ResourceInfo::Texture(crate::barrier::TextureInfo::default());
    crate::barrier::enhanced_state(s, &texture).ok()?.layout
}

/// A pass's state in a read phase several queues share: the phase's `base`, which its writer
/// moves it into, and the state this pass reads it in, `base` or a widening of it in the same
/// layout that the reader makes on its own queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Phase {
    pub(super) base: S,
    pub(super) want: S,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(accesses: &[UseAccess]) -> Vec<(usize, QueueId, UseAccess, ())> {
        (accesses.iter().enumerate())
            .map(|(i, &a)| (i, QueueId::Graphics, a, ()))
            .collect()
    }

    const R: UseAccess = UseAccess::ShaderRead;
    const W: UseAccess = UseAccess::RenderTarget;

    /// FS-1: a frame that ends and begins with reads of what it keeps has one read phase
    /// across the boundary, the last run first.
    #[test]
    fn the_last_and_first_read_runs_join_when_the_contents_are_kept() {
        let u = uses(&[R, R, W, R, W, R]);
        assert_eq!(read_runs(&u, true), [vec![3], vec![5, 0, 1]]);
        assert_eq!(read_runs(&u, false), [vec![0, 1], vec![3], vec![5]]);
    }

    /// Nothing to join: a frame that opens with a write, or only reads.
    #[test]
    fn runs_join_only_across_a_write() {
        assert_eq!(read_runs(&uses(&[W, R, R]), true), [vec![1, 2]]);
        assert_eq!(read_runs(&uses(&[R, R]), true), [vec![0, 1]]);
        assert_eq!(read_runs(&uses(&[R, W]), true), [vec![0]]);
    }
}
