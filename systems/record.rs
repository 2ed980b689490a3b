//! Record: resolve each compiled pass into a [`PassRecipe`] (device objects, views, its
//! barrier calls, legacy barriers translated as the driver would, EB-10), then record them all
//! with [`record_all`], one command list per pass on its own deferred context (CTX-2), which
//! touches no ECS data. The CPU clock advances by the recording's wall time on
//! `settings.record_threads` threads (CTX-7).

use bevy_ecs::prelude::*;
use glam::UVec2;

use crate::barrier::{LegacyBarrier, LegacyPath, for_compute_list, translate_with};
use crate::device::ObjectKey;
use crate::device::QueueId;
use crate::device::cpu_cost::record_span_ns;
use crate::error::RuntimeError;
use crate::frame::{Clock, ContextPool, ImplicitViews, RecordedLists};
use crate::model::*;
use crate::plan::{BarrierPlan, CompiledGraph, PlanFrame, clear_barriers};
use crate::record::{BoundUse, PassRecipe, RecipeQueries, copy_part, record_all};
use crate::report::RunStats;
use crate::validate::resource_info;

/// Resolve every compiled pass into a recipe, then record them all.
pub fn record_passes(
    graph: Res<CompiledGraph>,
    plan: Res<BarrierPlan>,
    this: Res<PlanFrame>,
    implicit: Res<ImplicitViews>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut pool: ResMut<ContextPool>,
    mut lists: ResMut<RecordedLists>,
    mut recipes: Local<Vec<PassRecipe>>,
    device: Res<crate::device::Device>,
    mut clock: ResMut<Clock>,
    mut stats: ResMut<RunStats>,
    passes: Query<&Pass>,
    objects: Query<(
        Option<&GpuObject>,
        Option<&Texture>,
        Option<&Buffer>,
        Option<&SwapChain>,
        Option<&BackBuffer>,
    )>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("record");
    let key_of = |e: Entity| -> Option<ObjectKey> {
        let (gpu, _, _, chain, back) = objects.get(e).ok()?;
        match (gpu, chain) {
            (Some(g), _) => Some(g.0),
            (None, Some(_)) => back
                .and_then(|b| b.buffer)
                .and_then(|b| objects.get(b).ok()?.0.map(|g| g.0)),
            _ => None,
        }
    };
    // Kept between ticks: a frame of 100,000 passes has 38 MB of recipes.
    recipes.clear();
    for (i, p) in graph.passes.iter().enumerate() {
        let pass_uses = graph.uses_of(p);
        let pass_work = passes.get(p.entity).map_or(Work::None, |p| p.work);
        // Each frame resolves into its own slots of the query ring (CTX-6).
        let queries = (passes.get(p.entity).ok()).and_then(|pass| {
            let q = pass.queries.as_ref()?;
            Some(RecipeQueries {
                first: PassQueries::<Entity>::first_slot(pass.order, frame.0),
                timestamps: q.timestamps,
                occlusion: q.occlusion,
                resolve: key_of(q.resolve)?,
            })
        });
        let mut uses = Vec::with_capacity(pass_uses.len());
        // A use split over several parts of a texture is bound once.
        for u in pass_uses.iter().filter(|u| u.bound) {
            let Ok((_, tex, buf, chain, back)) = objects.get(u.resource) else {
                continue;
            };
            let Some(resource) = key_of(u.resource) else {
                continue;
            };
            let view = if u.target != u.resource {
                objects.get(u.target).ok().and_then(|o| o.0).map(|g| g.0)
            } else if chain.is_some() {
                back.and_then(|b| b.view?.for_access(u.access))
            } else {
                u.view_kind
                    .and_then(|k| implicit.views.get(&(u.resource, k, u.view_range)).copied())
            };
            let extent = tex
                .map(|t| t.extent)
                .or(chain.map(|c| c.extent))
                .unwrap_or(UVec2::ONE);
            let copy = matches!(u.access, UseAccess::CopySource | UseAccess::CopyDest);
            let copy_part = match tex.filter(|_| copy) {
                Some(t) => {
                    let planes = if t.format.has_stencil() { 2 } else { 1 };
                    copy_part(&u.view_range, [t.mips, t.array_size, planes], t.extent)
                }
                None => Vec::new(),
            };
            uses.push(BoundUse {
                access: u.access,
                stages: u.stages,
                clear: u.clear,
                resource,
                view,
                dynamic: buf.is_some_and(|b| b.usage == BufferUsage::Dynamic),
                extent,
                copy_part,
            });
        }
        let (before, after) = plan.groups(this.0, i);
        let mut before = before.map(|e| key_of(*e).unwrap_or_default());
        let mut after = after.map(|e| key_of(*e).unwrap_or_default());
        if let Some(fp) = plan.frame_at(this.0) {
            // The driver translates legacy barriers as the list is recorded (EB-10), or, with
            // the loose file of seed 004, takes its previous path.
            let path = LegacyPath::of(settings.legacy_barrier_translation);
            for (legacy, group) in [
                (fp.legacy_before.get(i), &mut before),
                (fp.legacy_after.get(i), &mut after),
            ] {
                let Some(legacy) = legacy.filter(|l| !l.is_empty()) else {
                    continue;
                };
                let keyed: Vec<LegacyBarrier<ObjectKey>> = legacy
                    .iter()
                    .map(|b| b.map(|e| key_of(*e).unwrap_or_default()))
                    .collect();
                match translate_with(&keyed, |k| resource_info(&device, *k), path) {
                    Ok(mut g) => {
                        if matches!(p.queue, QueueId::Compute { .. }) {
                            for_compute_list(&mut g);
                        }
                        group.global.extend(g.global);
                        group.buffers.extend(g.buffers);
                        group.textures.extend(g.textures);
                    }
                    Err(errors) => {
                        let message = format!(
                            "legacy barriers of pass {} do not translate: {:?}",
                            p.name,
                            errors.first()
                        );
                        return Err(RuntimeError::Schedule {
                            frame: frame.0,
                            message,
                        });
                    }
                }
            }
        }
        let clears = clear_barriers(p.queue, pass_uses, settings.barriers_run());
        recipes.push(PassRecipe {
            label: p.label,
            queue: p.queue,
            work: pass_work,
            uses,
            before,
            after,
            before_clears: clears.before.map(|e| key_of(*e).unwrap_or_default()),
            after_clears: clears.after.map(|e| key_of(*e).unwrap_or_default()),
            skip_rebind: settings.fault == Some(Fault::SkipRebind),
            queries,
            binding: settings.binding,
        });
    }
    let pool = &mut *pool;
    let recorded = record_all(
        &recipes,
        &mut pool.contexts,
        &mut pool.batches,
        settings.semantics,
        settings.d3dcompile_no_debug,
    );
    recipes.clear();
    let mut costs = Vec::with_capacity(recorded.len());
    for r in recorded {
        let list = r.map_err(RuntimeError::device(frame.0))?;
        costs.push(list.cpu_ns);
        lists.0.push(list);
    }
    // The lists record in parallel on the recording threads; the frame waits for the last
    // (CTX-2, CTX-7).
    let span = record_span_ns(&costs, settings.record_threads);
    stats.cpu_record_ns += costs.iter().sum::<u64>();
    stats.cpu_record_span_ns += span;
    clock.cpu_ns = clock.cpu_ns.saturating_add(span);
    Ok(())
}
