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
//! last writer, for the next frame.

use bevy_ecs::prelude::*;

use super::{may, pass_state};
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
pub(super) fn shared_phases(graph: &CompiledGraph, e: Entity, wraps: bool) -> Vec<Option<Phase>> {
    let mut out = vec![None; graph.passes.len()];
    let uses: Vec<(usize, QueueId, UseAccess, S)> = (graph.passes.iter().enumerate())
        .filter_map(|(i, p)| {
            let (access, state) =
                pass_state(graph.uses_of(p).iter().filter(|u| u.key == e), p.queue)?;
            Some((i, p.queue, access, state))
        })
        .collect();
    let dma = |q: QueueId| matches!(q, QueueId::Dma { .. });
    let mut k = 0;
    while k < uses.len() {
        if uses[k].2.is_write() {
            k += 1;
            continue;
        }
        let end = (k..uses.len())
            .find(|&x| uses[x].2.is_write())
            .unwrap_or(uses.len());
        let run = &uses[k..end];
        // A transient a DMA engine uses first is taken in COMMON as it is next frame, as a
        // resource that keeps its contents is.
        let dma_first = uses.first().is_some_and(|f| dma(f.1));
        let next = uses
            .get(end)
            .or(uses.first().filter(|_| wraps || dma_first));
        let shared = run.iter().any(|r| r.1 != run[0].1);
        let mut combined = run.iter().fold(S::COMMON, |a, r| a | r.3);
        let dma_reads = run.iter().any(|r| dma(r.1));
        let dma_writes_next = next.is_some_and(|n| n.2.is_write() && dma(n.1));
        if (dma_reads || (shared && dma_writes_next))
            && (S::ALL_SHADER_RESOURCE | S::COPY_SOURCE).contains(combined)
        {
            combined = S::COMMON;
        }
        if !(shared && (S::GENERIC_READ | S::DEPTH_READ).contains(combined)) {
            k = end;
            continue;
        }
        // The queue of the write the phase follows (the frame's last, across the boundary).
        let writer = match k {
            0 => (uses.iter().rev())
                .find(|u| wraps && u.2.is_write())
                .map(|u| u.1),
            _ => Some(uses[k - 1].1),
        };
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
        let wants: Option<Vec<S>> = (run.iter())
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
            None => {
                k = end;
                continue;
            }
        };
        for (r, want) in run.iter().zip(wants) {
            out[r.0] = Some(Phase { base, want });
        }
        k = end;
    }
    out
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
