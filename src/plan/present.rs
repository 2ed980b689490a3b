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
use crate::plan::CompiledPass;

/// Fill `out` with the last pass of each queue other than graphics that uses one of
/// `chains`, in pass order: what the present may have to wait on. `queues` are the passes'.
pub(crate) fn present_candidates(
    passes: &[CompiledPass],
    queues: &[QueueId],
    chains: &[Entity],
    out: &mut Vec<usize>,
) {
    out.clear();
    if chains.is_empty() || queues.iter().all(|&q| q == QueueId::Graphics) {
        return;
    }
    let uses_chain = |p: &CompiledPass| p.uses.iter().any(|u| chains.contains(&u.resource));
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
    use crate::plan::ResourceIndex;
    use crate::plan::fences::Fences;

    fn pass(i: usize, queue: QueueId, uses: &[Entity]) -> CompiledPass {
        let mut p = CompiledPass::reading(i, uses);
        p.queue = queue;
        for u in &mut p.uses {
            u.access = UseAccess::UnorderedAccess;
        }
        p
    }

    const COMPUTE: QueueId = QueueId::Compute { pipe: 0, index: 0 };

    fn entity(i: u32) -> Entity {
        Entity::from_raw_u32(100 + i).expect("valid index")
    }

    /// The present's waits as fence planning leaves them, for passes with `edges`.
    fn planned(passes: &mut [CompiledPass], edges: &[(usize, usize)], chain: Entity) -> Vec<usize> {
        let index = ResourceIndex::of(passes);
        let mut waits = vec![7];
        Fences::default().plan(passes, edges, &index, &[chain], &mut waits);
        waits
    }

    #[test]
    fn the_present_waits_on_a_compute_queues_last_use_of_the_chain() {
        let (chain, other) = (entity(0), entity(1));
        let mut passes = vec![
            pass(0, QueueId::Graphics, &[other]),
            pass(1, COMPUTE, &[chain]),
            pass(2, COMPUTE, &[chain]),
            pass(3, COMPUTE, &[entity(2)]),
        ];
        assert_eq!(planned(&mut passes, &[], chain), vec![2]);
        assert!(passes[2].signals && !passes[1].signals);
    }

    #[test]
    fn a_compute_queue_alone_still_hands_the_chain_to_the_present() {
        let chain = entity(0);
        let mut passes = vec![pass(0, COMPUTE, &[chain])];
        assert_eq!(planned(&mut passes, &[], chain), vec![0]);
        assert!(passes[0].signals);
    }

    #[test]
    fn a_graphics_wait_on_the_last_use_makes_the_present_wait_needless() {
        let chain = entity(0);
        let mut passes = vec![
            pass(0, COMPUTE, &[chain]),
            pass(1, QueueId::Graphics, &[chain]),
        ];
        assert!(planned(&mut passes, &[(0, 1)], chain).is_empty());
        assert_eq!(passes[1].waits, vec![0], "the draw waits instead");
    }

    #[test]
    fn graphics_only_use_of_the_chain_needs_no_wait() {
        let chain = entity(0);
        let mut passes = vec![pass(0, QueueId::Graphics, &[chain]), pass(1, COMPUTE, &[])];
        assert!(planned(&mut passes, &[], chain).is_empty());
    }
}
