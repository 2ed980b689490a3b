//! The present's waits. The graphics queue presents every back buffer (RL-1), and the display
//! reads it from then on, so whatever another queue did to it this frame (a compute pass
//! writing it through a UAV) must be complete before the Present: the graphics queue waits on
//! a fence after the last pass of each other queue that used the chain (FS-1, FN-2). Fence
//! planning (`fences`) drops such a wait when the graphics queue already knows that pass
//! complete, counts what the present waited for as known to the next frame's graphics queue,
//! and makes each pass waited on signal a fence, so the barrier planners write its results
//! back before it (FS-2).

use bevy_ecs::prelude::*;

use crate::device::QueueId;
use crate::plan::{CompiledPass, PlannedUse};

/// Fill `out` with the last pass of each queue other than graphics that uses one of
/// `chains`, in pass order: what the present may have to wait on. `uses` and `queues` are the
/// passes'.
pub(crate) fn present_candidates(
    passes: &[CompiledPass],
    uses: &[PlannedUse],
    queues: &[QueueId],
    chains: &[Entity],
    out: &mut Vec<usize>,
) {
    out.clear();
    if chains.is_empty() || queues.iter().all(|&q| q == QueueId::Graphics) {
        return;
    }
    let uses_chain =
        |p: &CompiledPass| (p.uses_in(uses).iter()).any(|u| chains.contains(&u.resource));
    for (i, p) in passes.iter().enumerate().rev() {
        let seen = out.iter().any(|&l| queues[l] == queues[i]);
        if queues[i] != QueueId::Graphics && !seen && uses_chain(p) {
            out.push(i);
        }
    }
    out.reverse();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::UseAccess;
    use crate::plan::fences::Fences;
    use crate::plan::{CompiledGraph, ResourceIndex};

    /// Passes `i` on `passes[i].0` writing `passes[i].1` through UAVs.
    fn graph(passes: &[(QueueId, &[Entity])]) -> CompiledGraph {
        let reads: Vec<&[Entity]> = passes.iter().map(|p| p.1).collect();
        let mut g = CompiledGraph::reading(&reads);
        for (p, &(queue, _)) in g.passes.iter_mut().zip(passes) {
            p.queue = queue;
        }
        for u in &mut g.uses {
            u.access = UseAccess::UnorderedAccess;
        }
        g
    }

    const COMPUTE: QueueId = QueueId::Compute { pipe: 0, index: 0 };

    fn entity(i: u32) -> Entity {
        Entity::from_raw_u32(100 + i).expect("valid index")
    }

    /// The present's waits as fence planning leaves them, for passes with `edges`.
    fn planned(g: &mut CompiledGraph, edges: &[(usize, usize)], chain: Entity) -> Vec<usize> {
        let index = ResourceIndex::of(&g.uses);
        let mut waits = vec![7];
        let fences = &mut Fences::default();
        fences.plan(&mut g.passes, &g.uses, edges, &index, &[chain], &mut waits);
        waits
    }

    #[test]
    fn the_present_waits_on_a_compute_queues_last_use_of_the_chain() {
        let (chain, other) = (entity(0), entity(1));
        let mut g = graph(&[
            (QueueId::Graphics, &[other]),
            (COMPUTE, &[chain]),
            (COMPUTE, &[chain]),
            (COMPUTE, &[entity(2)]),
        ]);
        assert_eq!(planned(&mut g, &[], chain), vec![2]);
        assert!(g.passes[2].signals && !g.passes[1].signals);
    }

    #[test]
    fn a_compute_queue_alone_still_hands_the_chain_to_the_present() {
        let chain = entity(0);
        let mut g = graph(&[(COMPUTE, &[chain])]);
        assert_eq!(planned(&mut g, &[], chain), vec![0]);
        assert!(g.passes[0].signals);
    }

    #[test]
    fn a_graphics_wait_on_the_last_use_makes_the_present_wait_needless() {
        let chain = entity(0);
        let mut g = graph(&[(COMPUTE, &[chain]), (QueueId::Graphics, &[chain])]);
        assert!(planned(&mut g, &[(0, 1)], chain).is_empty());
        assert_eq!(g.passes[1].waits, vec![0], "the draw waits instead");
    }

    #[test]
    fn graphics_only_use_of_the_chain_needs_no_wait() {
        let chain = entity(0);
        let mut g = graph(&[(QueueId::Graphics, &[chain]), (COMPUTE, &[])]);
        assert!(planned(&mut g, &[], chain).is_empty());
    }
}
