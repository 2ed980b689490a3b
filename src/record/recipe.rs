//! One pass's command list, from its recipe: a pass with everything resolved to device
//! objects.
//!
//! A list sets every piece of state it relies on (FS-12: nothing is reset between lists, and
//! a fast list cannot count on what a previous one left bound). A list that binds starts
//! with ClearState (FS-11): bindings outlive a pipeline-state change, so a slot the previous
//! pass on the queue bound and this one does not would otherwise still be read by its
//! draws and dispatches. Clears come before the render targets are set, because a clear unbinds its view (FS-8). Dynamic buffers are
//! mapped write-discard and filled at every recording before they are set (FS-10, CTX-5).
//! Resources are bound as `binding.rs` chooses (RB-1, RB-2).

use glam::UVec2;

use super::binding::record_bindings;
use crate::barrier::{BarrierGroup, Sync};
use crate::device::{
    Command, CommandList, DeferredContext, DeviceError, MapMode, ObjectKey, QueueId, SharedBatch,
};
use crate::model::*;

/// One use with everything resolved to device objects.
#[derive(Clone, Debug)]
pub struct BoundUse {
    pub access: UseAccess,
    /// The stages that perform the access (the plan's, defaults resolved): a draw binds the
    /// use's view or constant buffer on each shader stage named here.
    pub stages: Sync,
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
    /// Before and after the pass's UAV clears (FS-3, [`crate::plan::clear_barriers`]).
    pub before_clears: BarrierGroup<ObjectKey>,
    pub after_clears: BarrierGroup<ObjectKey>,
    /// Fault injection: clear after setting the targets, without setting them again.
    pub skip_rebind: bool,
    /// The pass's queries this frame, resolved into their buffer after the work.
    pub queries: Option<RecipeQueries>,
    /// How the pass binds its resources (RB-1, RB-2).
    pub binding: BindingMode,
}

/// A pass's queries in one frame: heap slots from `first` (begin and end timestamps, then
/// the occlusion query), resolved into `resolve` (CC-7, CTX-6).
#[derive(Clone, Copy, Debug)]
pub struct RecipeQueries {
    pub first: u32,
    pub timestamps: bool,
    pub occlusion: bool,
    pub resolve: ObjectKey,
}

impl RecipeQueries {
    fn count(&self) -> u32 {
        2 * u32::from(self.timestamps) + u32::from(self.occlusion)
    }
}

/// Record one pass on its deferred context; `batches` are the batches the pass built in
/// earlier frames (`binding.rs`).
pub fn record_pass(
    recipe: &PassRecipe,
    ctx: &mut DeferredContext,
    batches: &mut Vec<SharedBatch<ObjectKey>>,
) -> Result<CommandList, DeviceError> {
    ctx.begin(recipe.label)?;
    let copy =
        matches!(recipe.queue, QueueId::Dma { .. }) || matches!(recipe.work, Work::Copy { .. });
    if !recipe.before.is_empty() {
        ctx.push(Command::Barrier(recipe.before.clone()))?;
    }
    if !copy {
        ctx.push(Command::ClearState)?;
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
    if !recipe.before_clears.is_empty() {
        ctx.push(Command::Barrier(recipe.before_clears.clone()))?;
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
    if copy {
        // Copy engines have no pipeline state or bindings: a copy names its resources.
        record_work(recipe, ctx)?;
        if !recipe.after.is_empty() {
            ctx.push(Command::Barrier(recipe.after.clone()))?;
        }
        return ctx.finish();
    }
    ctx.push(Command::SetPipelineState(recipe.label))?;
    let draw = graphics && !recipe.work.is_dispatch();
    record_bindings(recipe, draw, ctx, batches)?;
    if !recipe.after_clears.is_empty() {
        ctx.push(Command::Barrier(recipe.after_clears.clone()))?;
    }
    let q = recipe.queries;
    if let Some(q) = q.filter(|q| q.timestamps) {
        ctx.push(Command::WriteTimestamp(q.first))?;
    }
    let occlusion = q.filter(|q| q.occlusion).map(|q| q.first + 2);
    if let Some(slot) = occlusion {
        ctx.push(Command::BeginQuery(slot))?;
    }
    record_work(recipe, ctx)?;
    if let Some(slot) = occlusion {
        ctx.push(Command::EndQuery(slot))?;
    }
    if let Some(q) = q {
        if q.timestamps {
            ctx.push(Command::WriteTimestamp(q.first + 1))?;
        }
        ctx.push(Command::ResolveQueryData {
            dst: q.resolve,
            first: q.first,
            count: q.count(),
        })?;
    }
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
        // The argument buffer is the pass's IndirectArgument use (the loader requires one):
        // the command names it, so the validator sees the indirect read (EXECUTE_INDIRECT).
        Work::DrawIndirect {
            draws,
            vertices,
            pixels,
        } => {
            if let Some(args) = of(UseAccess::IndirectArgument).next() {
                ctx.push(Command::ExecuteIndirect {
                    args,
                    draws,
                    vertices,
                    pixels,
                })?;
            }
        }
        Work::DispatchIndirect {
            dispatches,
            threads,
        } => {
            if let Some(args) = of(UseAccess::IndirectArgument).next() {
                ctx.push(Command::DispatchIndirect {
                    args,
                    dispatches,
                    threads,
                })?;
            }
        }
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
