//! Barriers: plan the barriers around every pass, by the run's strategy (`barriers` setting).
//! The planners live in [`crate::plan::barriers`]; this system decides when to plan again and
//! hands them where each texture starts the frame.
//!
//! Plans are cached with the compiled graph. A plan assumes where each texture starts the
//! frame; when that differs from where the last frame left it (the first frame, a resize, a
//! recompile) the barriers are planned again.

use bevy_ecs::prelude::*;

use crate::barrier::Layout;
use crate::error::RuntimeError;
use crate::frame::TransientHeap;
use crate::model::{BarrierMode, Lifetime, Settings, SwapChain, Texture};
use crate::model::{SubresourceStates, TextureState};
use crate::plan::alias::HandOver;
use crate::plan::barriers::{EnhancedPlanner, TextureStart, plan_conservative, plan_legacy};
use crate::plan::{AliasPlan, BarrierPlan, CompiledGraph, PlanFrame, range_of};

/// Re-plan when the graph changed or textures start the frame somewhere the plan did not
/// assume. Steady state costs a comparison.
pub fn barrier_system(
    graph: Res<CompiledGraph>,
    mut plan: ResMut<BarrierPlan>,
    mut this: ResMut<PlanFrame>,
    settings: Res<Settings>,
    frame: Res<crate::model::FrameIndex>,
    states: Query<(
        &TextureState,
        Option<&Lifetime>,
        Has<SwapChain>,
        Option<&Texture>,
        Option<&SubresourceStates>,
    )>,
    names: Query<&Name>,
    (alias, heap): (Res<AliasPlan>, Res<TransientHeap>),
    mut last: Local<Option<(u64, BarrierMode)>>,
    mut enhanced: Local<EnhancedPlanner>,
    mut hand_over: Local<HandOver>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("barriers");
    // The strategy the device can run (EB-11: legacy alone on the 2013 console).
    let mode = settings.barriers_run();
    let key = (graph.generation, mode);
    // A part of a split texture starts where the last frame left that part.
    let state_of = |e: Entity| {
        let (texture, cell) = match graph.parts.get(e) {
            Some((t, cell)) => (t, Some(range_of(cell))),
            None => (e, None),
        };
        let (s, lt, chain, tex, parts) = states.get(texture).ok()?;
        let s = cell
            .and_then(|r| parts.and_then(|p| p.get(&r)))
            .unwrap_or(*s);
        Some((s, lt, chain, tex))
    };
    let steady = plan.starts_at(this.0 + 1).iter().all(|(e, l, a)| {
        state_of(*e).is_some_and(|(s, lt, chain, _)| {
            chain || lt == Some(&Lifetime::Transient) || (s.layout == *l && s.access == *a)
        })
    });
    if *last == Some(key) && steady {
        this.0 += 1;
        return Ok(());
    }
    let start = |e: Entity| match state_of(e) {
        Some((s, lt, chain, tex)) => TextureStart {
            state: s,
            transient: lt == Some(&Lifetime::Transient),
            chain,
            compressible: tex.is_some_and(Texture::compressible),
        },
        None => TextureStart {
            state: TextureState::new(Layout::Common),
            transient: false,
            chain: false,
            compressible: false,
        },
    };
    let generation = plan.generation + 1;
    let planned = match mode {
        BarrierMode::Conservative => plan_conservative(&graph, start),
        // Into the plan it replaces, reusing its memory.
        BarrierMode::Enhanced => enhanced
            .plan_into(&graph, start, &mut plan)
            .map(|()| std::mem::take(&mut *plan)),
        BarrierMode::Legacy => {
            let previous = plan
                .frame_at(this.0)
                .map(|f| f.legacy_end.clone())
                .unwrap_or_default();
            plan_legacy(&graph, start, &previous)
        }
    };
    // Passes by their compiled names; resources (a split texture's parts as the texture) by
    // their scene names.
    let name = |e: Entity| {
        let pass = graph.passes.iter().find(|p| p.entity == e);
        pass.map_or_else(
            || {
                let e = graph.parts.get(e).map_or(e, |(t, _)| t);
                names
                    .get(e)
                    .map_or_else(|_| e.to_string(), |n| n.as_str().to_owned())
            },
            |p| p.name.clone(),
        )
    };
    let mut planned = planned.map_err(|err| RuntimeError::plan(frame.0, err, name))?;
    // Transients placed in one heap hand their bytes over (EB-5, EB-9d).
    if !heap.offsets.is_empty() && mode != BarrierMode::Legacy {
        hand_over.prepare(&graph, &alias);
        for f in &mut planned.frames {
            hand_over.apply(&graph, &alias, f);
        }
    }
    // Barriers on the parts of split textures become barriers on the textures' ranges.
    for f in &mut planned.frames {
        f.fold_parts(&graph.parts);
    }
    planned.generation = generation;
    *plan = planned;
    *this = PlanFrame(0);
    *last = Some(key);
    Ok(())
}
