//! The present's waits. The graphics queue presents every back buffer (RL-1), and the display
//! reads it from then on, so whatever another queue did to it this frame (a compute pass
//! writing it through a UAV) must be complete before the Present: the graphics queue waits on
//! a fence after the last pass of each other queue that used the chain (FS-1, FN-2), unless a
//! graphics pass already waits on that pass or a later one of its queue. The fence after such
//! a pass is planned like any other, so the barrier planners write its results back before
//! it (FS-2).

use bevy_ecs::prelude::*;

use crate::device::QueueId;
use crate::plan::CompiledPass;

/// Fill `out` with the passes the present waits on, given the swap chains' entities, and mark
/// each one as signalling a fence.
pub(crate) fn plan_present_waits(
    passes: &mut [CompiledPass],
    chains: &[Entity],
    out: &mut Vec<usize>,
) {
    out.clear();
    if chains.is_empty() || passes.iter().all(|p| p.queue == QueueId::Graphics) {
        return;
    }
    let uses_chain = |p: &CompiledPass| p.uses.iter().any(|u| chains.contains(&u.resource));
    for (i, p) in passes.iter().enumerate().rev() {
        if p.queue == QueueId::Graphics || !uses_chain(p) {
            continue;
        }
        let queue = p.queue;
        if out.iter().any(|&l| passes[l].queue == queue) {
            continue;
        }
        let waited = (passes.iter().filter(|g| g.queue == QueueId::Graphics))
            .flat_map(|g| &g.waits)
            .any(|&w| w >= i && passes[w].queue == queue);
        if !waited {
            out.push(i);
        }
    }
    out.sort_unstable();
    for &l in out.iter() {
        passes[l].signals = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::UseAccess;

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

    #[test]
    fn the_present_waits_on_a_compute_queues_last_write_of_the_chain() {
        let (chain, other) = (entity(0), entity(1));
        let mut passes = vec![
            pass(0, QueueId::Graphics, &[other]),
            pass(1, COMPUTE, &[chain]),
            pass(2, COMPUTE, &[chain]),
            pass(3, COMPUTE, &[other]),
        ];
        let mut waits = Vec::new();
        plan_present_waits(&mut passes, &[chain], &mut waits);
        assert_eq!(waits, vec![2]);
        assert!(passes[2].signals && !passes[1].signals);
    }

    #[test]
    fn a_graphics_wait_on_the_last_write_makes_the_present_wait_needless() {
        let chain = entity(0);
        let mut passes = vec![
            pass(0, COMPUTE, &[chain]),
            pass(1, QueueId::Graphics, &[chain]),
        ];
        passes[1].waits.push(0);
        let mut waits = vec![7];
        plan_present_waits(&mut passes, &[chain], &mut waits);
        assert!(waits.is_empty());
        assert!(!passes[0].signals);
    }

    #[test]
    fn graphics_only_use_of_the_chain_needs_no_wait() {
        let chain = entity(0);
        let mut passes = vec![pass(0, QueueId::Graphics, &[chain]), pass(1, COMPUTE, &[])];
        let mut waits = Vec::new();
        plan_present_waits(&mut passes, &[chain], &mut waits);
        assert!(waits.is_empty());
    }
}
