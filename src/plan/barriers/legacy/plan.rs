//! The legacy strategy's entry point: the frame's resources in the order passes first use
//! them, where the last plan left each (COMMON for new ones), and the two frames walked from
//! there, the first and the steady one.

use bevy_ecs::prelude::*;

use super::TextureStart;
use super::walk;
use crate::barrier::ResourceStates as S;
use crate::model::UseAccess;
use crate::plan::{BarrierPlan, CompiledGraph, PlanError};

/// Plan legacy barriers for a compiled graph: a first frame from COMMON (where legacy code
/// finds new resources), then the steady frame, which starts where a frame ends.
pub fn plan_legacy(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart,
    previous: &[(Entity, S)],
) -> Result<BarrierPlan, PlanError> {
    // Legacy states cannot make one texture COPY_SOURCE and COPY_DEST at once (EB-9c).
    for p in &graph.passes {
        let texture_as = |a: UseAccess| {
            graph
                .uses_of(p)
                .iter()
                .filter(move |u| u.layout.is_some() && u.access == a)
                .map(|u| u.key)
        };
        if texture_as(UseAccess::CopySource)
            .any(|r| texture_as(UseAccess::CopyDest).any(|d| d == r))
        {
            return Err(PlanError::LegacyCopyToSelf { pass: p.entity });
        }
    }
    let mut resources: Vec<Entity> = Vec::new();
    for p in &graph.passes {
        for u in graph.uses_of(p) {
            if !resources.contains(&u.key) {
                resources.push(u.key);
            }
        }
    }
    // Where the last plan left each resource, COMMON for new ones.
    let mut states: Vec<S> = resources
        .iter()
        .map(|e| {
            previous
                .iter()
                .find(|(p, _)| p == e)
                .map_or(S::COMMON, |(_, s)| *s)
        })
        .collect();
    let mut first = walk(graph, &start, &resources, &mut states, true)?;
    first.legacy_end = resources
        .iter()
        .copied()
        .zip(states.iter().copied())
        .collect();
    let mut steady = walk(graph, &start, &resources, &mut states, false)?;
    steady.legacy_end = resources.iter().copied().zip(states).collect();
    Ok(BarrierPlan {
        frames: vec![first, steady],
        ..Default::default()
    })
}
