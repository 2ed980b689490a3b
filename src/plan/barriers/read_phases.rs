//! Read phases of the `conservative` strategy: runs of passes that only read a texture, and
//! the one layout such a run uses when several queues share it.
//!
//! A layout transition is a write (FS-1): made by one reader while another queue reads, it
//! races that read, and no fence orders two reads. So a read phase several queues share is
//! read in one layout, entered by the phase's writer before its fences, in which every reader
//! only declares its own access (EB-11). When the readers' own layouts agree, that is the
//! layout. A phase a DMA engine reads in, or that a DMA engine's write follows, is read in
//! COMMON, the only layout a copy engine knows (barrier-spec A5). Otherwise, when a write of
//! the frame opens the phase, it takes the first layout that admits every access of the phase,
//! that every reader's queue may use and that the writer's queue may enter (A5, A6): for a
//! depth buffer bound read-only on the graphics queue while async compute samples it, the
//! direct queue's compute-accessible generic read layout, which only the graphics queue may
//! enter (A1). A phase that opens the frame of a texture that keeps its contents is entered
//! by the frame's last write, for the next frame; one with no write in the frame keeps its
//! readers' own layouts.

use bevy_ecs::prelude::*;

use crate::barrier::{Layout, layout_allows};
use crate::device::QueueId;
use crate::plan::{CompiledGraph, CompiledPass};

/// Whether `p` (a pass of `graph`) uses `e`, and if so whether it writes it.
fn uses(graph: &CompiledGraph, p: &CompiledPass, e: Entity) -> Option<bool> {
    let mut it = graph.uses_of(p).iter().filter(|u| u.key == e).peekable();
    it.peek().is_some().then(|| it.any(|u| u.access.is_write()))
}

/// True when pass `i` reads `e` in a read phase (a run of passes that only read it) in which
/// a pass of another queue reads it in the same layout (`phase` where it sets one, the use's
/// own otherwise): one that would read while `i`'s queue changes the layout.
pub fn shared_read(graph: &CompiledGraph, phase: &[Option<Layout>], i: usize, e: Entity) -> bool {
    let passes = &graph.passes;
    let reads = |k: &usize| uses(graph, &passes[*k], e) == Some(false);
    let used = |k: &usize| uses(graph, &passes[*k], e).is_some();
    if !reads(&i) {
        return false;
    }
    let before = (0..i).rev().filter(used).take_while(reads);
    let after = (i + 1..passes.len()).filter(used).take_while(reads);
    let layout = |k: usize| {
        phase[k].or_else(|| {
            graph
                .uses_of(&passes[k])
                .iter()
                .find_map(|u| (u.key == e).then_some(u.layout)?)
        })
    };
    before
        .chain(after)
        .any(|k| passes[k].queue != passes[i].queue && layout(k) == layout(i))
}

/// Per pass, the layout it reads `e` in when that is its read phase's shared layout rather
/// than its own (`None`: its own). A phase several queues share whose readers' layouts differ
/// takes one layout every reader can use (module essay); one a DMA engine shares with another
/// queue, or several queues share and a DMA engine's write follows (in the next frame too,
/// when the texture keeps its contents: `wraps`), is read in COMMON.
pub fn phase_layouts(graph: &CompiledGraph, e: Entity, wraps: bool) -> Vec<Option<Layout>> {
    let mut out = vec![None; graph.passes.len()];
    let dma = |k: usize| matches!(graph.passes[k].queue, QueueId::Dma { .. });
    // Per pass using `e`: its index, whether it writes, its accesses, its own layout.
    let found: Vec<_> = (graph.passes.iter().enumerate())
        .filter_map(|(i, p)| {
            let mut uses = graph.uses_of(p).iter().filter(|u| u.key == e).peekable();
            let own = uses.peek()?.layout;
            let (mut write, mut access) = (false, crate::barrier::Access::empty());
            for u in uses {
                write |= u.access.is_write();
                access |= u.access.access();
            }
            Some((i, write, access, own))
        })
        .collect();
    let mut k = 0;
    while k < found.len() {
        if found[k].1 {
            k += 1;
            continue;
        }
        let end = (k..found.len())
            .find(|&x| found[x].1)
            .unwrap_or(found.len());
        let run = &found[k..end];
        // The phase that opens the frame of a texture that keeps its contents is entered by
        // the frame's last write, for the next frame.
        let last_write = found.last().filter(|f| wraps && f.1).map(|f| f.0);
        let writer = k.checked_sub(1).map(|w| found[w].0).or(last_write);
        k = end;
        let queue = |i: usize| graph.passes[i].queue;
        if !run.iter().any(|r| queue(r.0) != queue(run[0].0)) {
            continue;
        }
        // A transient a DMA engine uses first is taken in COMMON as it is next frame, as a
        // texture that keeps its contents is.
        let dma_first = found.first().is_some_and(|f| dma(f.0));
        let next = (found.get(end)).or(found.first().filter(|_| wraps || dma_first));
        let dma_reads = run.iter().any(|r| dma(r.0));
        let dma_writes_next = next.is_some_and(|n| n.1 && dma(n.0));
        let access = run
            .iter()
            .fold(crate::barrier::Access::empty(), |a, r| a | r.2);
        let layout = if dma_reads || dma_writes_next {
            Layout::Common
        } else if let Some(writer) = writer.filter(|_| run.iter().any(|r| r.3 != run[0].3)) {
            // Entered by the writer of this frame before its fence, or for a phase the frame
            // opens with, by the last writer of the frame before.
            let fits = |l: &Layout| {
                layout_allows(*l).contains(access)
                    && queue(writer).queue_type().may_transition(*l)
                    && run
                        .iter()
                        .all(|r| queue(r.0).queue_type().allows_layout(*l))
            };
            let candidates = [
                Layout::ShaderResource,
                Layout::GenericRead,
                Layout::DirectQueueGenericReadComputeQueueAccessible,
            ];
            match candidates.into_iter().find(fits) {
                Some(l) => l,
                None => continue,
            }
        } else {
            continue;
        };
        if layout_allows(layout).contains(access) {
            for r in run {
                out[r.0] = Some(layout);
            }
        }
    }
    out
}

/// A read phase several queues share that opens the frame of a texture that keeps its
/// contents has no writer in the frame to enter a layout for it. When the layout the texture
/// starts the frame in admits every access of the phase on every reader's queue, the phase is
/// read in that layout: a reader that changed it would race another queue's read (FS-1), and
/// nothing earlier in the frame can change it for them. (At the end of the frame its last
/// writer moves it into the opening phase's layout, so a later frame starts there.)
pub fn keep_opening_layout(
    graph: &CompiledGraph,
    e: Entity,
    start: Layout,
    phase: &mut [Option<Layout>],
) {
    let run: Vec<usize> = (graph.passes.iter().enumerate())
        .filter_map(|(i, p)| uses(graph, p, e).map(|write| (i, write)))
        .take_while(|&(_, write)| !write)
        .map(|(i, _)| i)
        .collect();
    let queue = |i: usize| graph.passes[i].queue;
    let Some(&first) = run.first() else { return };
    if start == Layout::Undefined || run.iter().all(|&i| queue(i) == queue(first)) {
        return;
    }
    let access = (run.iter())
        .flat_map(|&i| {
            graph
                .uses_of(&graph.passes[i])
                .iter()
                .filter(|u| u.key == e)
        })
        .fold(crate::barrier::Access::empty(), |a, u| {
            a | u.access.access()
        });
    let fits = layout_allows(start).contains(access)
        && run
            .iter()
            .all(|&i| queue(i).queue_type().allows_layout(start));
    if fits {
        for i in run {
            phase[i] = Some(start);
        }
    }
}
