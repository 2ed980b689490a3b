//! Record: one command list per pass, each on its own deferred context (CTX-2), in parallel
//! when there are enough passes to pay for the threads.
//!
//! A list sets every piece of state it relies on (FS-12: nothing is reset between lists, and
//! a fast list cannot count on what a previous one left bound). Clears come before the
//! render targets are set, because a clear unbinds its view (FS-8). Dynamic buffers are
//! mapped write-discard and filled at every recording before they are set (FS-10, CTX-5).

use bevy_ecs::prelude::*;
use bevy_tasks::{ComputeTaskPool, ParallelSliceMut, TaskPool};
use glam::UVec2;

use crate::barrier::{BarrierGroup, LegacyBarrier, translate};
use crate::device::{
    Command, CommandList, DeferredContext, DeviceError, MapMode, ObjectKey, QueueId, ShaderStage,
};
use crate::error::RuntimeError;
use crate::frame::{ContextPool, Fatal, FrameWork, ImplicitViews};
use crate::model::*;
use crate::plan::{BarrierPlan, CompiledGraph};
use crate::validate::resource_info;

/// Passes below this count record on the calling thread: spawning tasks costs more than
/// recording a handful of short lists.
pub const PARALLEL_RECORD_THRESHOLD: usize = 16;

/// RB-1: at most eight views per binding call.
const SLOTS_PER_CALL: usize = 8;

/// One use with everything resolved to device objects.
#[derive(Clone, Debug)]
pub struct BoundUse {
    pub access: UseAccess,
    pub clear: bool,
    pub resource: ObjectKey,
    pub view: Option<ObjectKey>,
    pub dynamic: bool,
    pub extent: UVec2,
}

/// Everything needed to record one pass without touching the world.
#[derive(Clone, Debug)]
pub struct PassRecipe {
    pub label: u32,
    pub queue: QueueId,
    pub work: Work,
    pub uses: Vec<BoundUse>,
    pub before: BarrierGroup<ObjectKey>,
    pub after: BarrierGroup<ObjectKey>,
    /// Fault injection: clear after setting the targets, without setting them again.
    pub skip_rebind: bool,
}

/// Record one pass on its deferred context.
pub fn record_pass(
    recipe: &PassRecipe,
    ctx: &mut DeferredContext,
) -> Result<CommandList, DeviceError> {
    ctx.begin(recipe.label)?;
    if !recipe.before.is_empty() {
        ctx.push(Command::Barrier(recipe.before.clone()))?;
    }
    let graphics = recipe.queue == QueueId::Graphics;
    for u in recipe
        .uses
        .iter()
        .filter(|u| u.dynamic && !u.access.is_write())
    {
        ctx.push(Command::Map {
            resource: u.resource,
            mode: MapMode::WriteDiscard,
        })?;
        ctx.push(Command::Unmap(u.resource))?;
    }
    let mut clears = Vec::new();
    for u in recipe.uses.iter().filter(|u| u.clear) {
        let Some(view) = u.view else { continue };
        clears.push(match u.access {
            UseAccess::RenderTarget if graphics => Command::ClearRenderTarget(view),
            UseAccess::DepthWrite if graphics => Command::ClearDepthStencil(view),
            UseAccess::UnorderedAccess => Command::ClearUnorderedAccess(view),
            _ => continue,
        });
    }
    // The skip-rebind fault clears after binding, so the draw uses unbound views (FS-8).
    let clear_late = recipe.skip_rebind && graphics;
    if !clear_late {
        for c in clears.drain(..) {
            ctx.push(c)?;
        }
    }
    if graphics && !matches!(recipe.work, Work::Copy { .. }) {
        let rtvs: Vec<ObjectKey> = recipe
            .uses
            .iter()
            .filter(|u| u.access == UseAccess::RenderTarget)
            .filter_map(|u| u.view)
            .collect();
        let dsv = recipe
            .uses
            .iter()
            .find(|u| matches!(u.access, UseAccess::DepthWrite | UseAccess::DepthRead))
            .and_then(|u| u.view);
        let extent = recipe
            .uses
            .iter()
            .find(|u| {
                matches!(
                    u.access,
                    UseAccess::RenderTarget | UseAccess::DepthWrite | UseAccess::DepthRead
                )
            })
            .map_or(UVec2::ONE, |u| u.extent);
        ctx.push(Command::SetRenderTargets { rtvs, dsv })?;
        for c in clears.drain(..) {
            ctx.push(c)?;
        }
        ctx.push(Command::SetViewport {
            width: extent.x,
            height: extent.y,
        })?;
    }
    if matches!(recipe.queue, QueueId::Dma { .. }) || matches!(recipe.work, Work::Copy { .. }) {
        // Copy engines have no pipeline state or bindings: a copy names its resources.
        record_work(recipe, ctx)?;
        if !recipe.after.is_empty() {
            ctx.push(Command::Barrier(recipe.after.clone()))?;
        }
        return ctx.finish();
    }
    ctx.push(Command::SetPipelineState(recipe.label))?;
    let stage = if graphics && !matches!(recipe.work, Work::Dispatch { .. }) {
        ShaderStage::Pixel
    } else {
        ShaderStage::Compute
    };
    let views: Vec<ObjectKey> = recipe
        .uses
        .iter()
        .filter(|u| matches!(u.access, UseAccess::ShaderRead | UseAccess::UnorderedAccess))
        .filter_map(|u| u.view)
        .collect();
    for (i, chunk) in views.chunks(SLOTS_PER_CALL).enumerate() {
        ctx.push(Command::SetResources {
            stage,
            first_slot: (i * SLOTS_PER_CALL) as u32,
            views: chunk.to_vec(),
        })?;
    }
    let of = |a: UseAccess| {
        recipe
            .uses
            .iter()
            .filter(move |u| u.access == a)
            .map(|u| u.resource)
    };
    let vbs: Vec<ObjectKey> = of(UseAccess::VertexBuffer).collect();
    if !vbs.is_empty() {
        ctx.push(Command::SetVertexBuffers { buffers: vbs })?;
    }
    if let Some(ib) = of(UseAccess::IndexBuffer).next() {
        ctx.push(Command::SetIndexBuffer(ib))?;
    }
    let cbs: Vec<ObjectKey> = of(UseAccess::ConstantBuffer).collect();
    if !cbs.is_empty() {
        ctx.push(Command::SetConstantBuffers {
            stage,
            buffers: cbs,
        })?;
    }
    record_work(recipe, ctx)?;
    if !recipe.after.is_empty() {
        ctx.push(Command::Barrier(recipe.after.clone()))?;
    }
    ctx.finish()
}

fn record_work(recipe: &PassRecipe, ctx: &mut DeferredContext) -> Result<(), DeviceError> {
    let of = |a: UseAccess| {
        recipe
            .uses
            .iter()
            .filter(move |u| u.access == a)
            .map(|u| u.resource)
    };
    match recipe.work {
        Work::Draw {
            draws,
            vertices,
            pixels,
        } => ctx.push(Command::Draw {
            draws,
            vertices,
            pixels,
        })?,
        Work::Dispatch {
            dispatches,
            threads,
        } => ctx.push(Command::Dispatch {
            dispatches,
            threads,
        })?,
        Work::Copy { bytes, from, to } => {
            if let (Some(src), Some(dst)) = (
                of(UseAccess::CopySource).next(),
                of(UseAccess::CopyDest).next(),
            ) {
                ctx.push(match (from, to) {
                    (Some(from), Some(to)) => Command::CopyTextureRegion {
                        src,
                        dst,
                        bytes,
                        from: from.region(),
                        to: to.region(),
                    },
                    _ => Command::CopyResource { src, dst, bytes },
                })?;
            }
        }
        Work::None => {}
    }
    Ok(())
}

/// Resolve every compiled pass into a recipe, then record them all.
pub fn record_passes(
    graph: Res<CompiledGraph>,
    plan: Res<BarrierPlan>,
    implicit: Res<ImplicitViews>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut pool: ResMut<ContextPool>,
    mut work: ResMut<FrameWork>,
    mut fatal: ResMut<Fatal>,
    device: Res<crate::device::Device>,
    passes: Query<&Pass>,
    objects: Query<(
        Option<&GpuObject>,
        Option<&Texture>,
        Option<&Buffer>,
        Option<&SwapChain>,
        Option<&BackBuffer>,
    )>,
) {
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
    let mut recipes = Vec::with_capacity(graph.passes.len());
    for (i, p) in graph.passes.iter().enumerate() {
        let pass_work = passes.get(p.entity).map_or(Work::None, |p| p.work);
        let mut uses = Vec::with_capacity(p.uses.len());
        for u in &p.uses {
            let Ok((_, tex, buf, chain, back)) = objects.get(u.resource) else {
                continue;
            };
            let Some(resource) = key_of(u.resource) else {
                continue;
            };
            let view = if u.target != u.resource {
                objects.get(u.target).ok().and_then(|o| o.0).map(|g| g.0)
            } else if chain.is_some() {
                back.and_then(|b| b.view)
            } else {
                u.view_kind
                    .and_then(|k| implicit.views.get(&(u.resource, k)).copied())
            };
            let extent = tex
                .map(|t| t.extent)
                .or(chain.map(|c| c.extent))
                .unwrap_or(UVec2::ONE);
            uses.push(BoundUse {
                access: u.access,
                clear: u.clear,
                resource,
                view,
                dynamic: buf.is_some_and(|b| b.usage == BufferUsage::Dynamic),
                extent,
            });
        }
        let (before, after) = plan.groups(i);
        let mut before = before.map(|e| key_of(*e).unwrap_or_default());
        let mut after = after.map(|e| key_of(*e).unwrap_or_default());
        if let Some(fp) = plan.current() {
            // The driver translates legacy barriers as the list is recorded (EB-10).
            for (legacy, group) in [
                (fp.legacy_before.get(i), &mut before),
                (fp.legacy_after.get(i), &mut after),
            ] {
                let Some(legacy) = legacy.filter(|l| !l.is_empty()) else {
                    continue;
                };
                let keyed: Vec<LegacyBarrier<ObjectKey>> = legacy
                    .iter()
                    .map(|b| key_legacy(b, |e| key_of(e).unwrap_or_default()))
                    .collect();
                match translate(&keyed, |k| resource_info(&device, *k)) {
                    Ok(g) => {
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
                        fatal.set(RuntimeError::Schedule {
                            frame: frame.0,
                            message,
                        });
                        return;
                    }
                }
            }
        }
        recipes.push(PassRecipe {
            label: p.label,
            queue: p.queue,
            work: pass_work,
            uses,
            before,
            after,
            skip_rebind: settings.fault() == Some(Fault::SkipRebind),
        });
    }
    while pool.contexts.len() < recipes.len() {
        let id = pool.contexts.len() as u32;
        pool.contexts
            .push(DeferredContext::new(id, settings.semantics));
    }
    let contexts = std::mem::take(&mut pool.contexts);
    let (mut jobs, rest): (Vec<_>, Vec<_>) = {
        let mut it = contexts.into_iter();
        let jobs: Vec<(PassRecipe, DeferredContext)> =
            recipes.into_iter().zip(it.by_ref()).collect();
        (jobs, it.collect::<Vec<_>>())
    };
    let results: Vec<Result<CommandList, DeviceError>> = if jobs.len() >= PARALLEL_RECORD_THRESHOLD
    {
        let tasks = ComputeTaskPool::get_or_init(TaskPool::default);
        let chunk = jobs.len().div_ceil(tasks.thread_num().max(1));
        jobs.par_chunk_map_mut(tasks, chunk, |_, chunk| {
            chunk
                .iter_mut()
                .map(|(r, ctx)| record_pass(r, ctx))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect()
    } else {
        jobs.iter_mut()
            .map(|(r, ctx)| record_pass(r, ctx))
            .collect()
    };
    pool.contexts = jobs.into_iter().map(|(_, c)| c).chain(rest).collect();
    work.lists.clear();
    for r in results {
        match r {
            Ok(list) => work.lists.push(list),
            Err(source) => {
                fatal.set(RuntimeError::Device {
                    frame: frame.0,
                    source,
                });
                return;
            }
        }
    }
}

/// A legacy barrier on ECS entities, renamed to device objects.
fn key_legacy(
    b: &LegacyBarrier<Entity>,
    key: impl Fn(Entity) -> ObjectKey,
) -> LegacyBarrier<ObjectKey> {
    match *b {
        LegacyBarrier::Transition {
            resource,
            subresource,
            before,
            after,
            split,
        } => LegacyBarrier::Transition {
            resource: key(resource),
            subresource,
            before,
            after,
            split,
        },
        LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
            resource: resource.map(&key),
        },
        LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
            before: before.map(&key),
            after: after.map(&key),
        },
    }
}
