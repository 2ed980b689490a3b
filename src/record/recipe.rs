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
    /// A copy's use of part of a texture (a `range`, or a view's): each subresource it names,
    /// with that mip's extent. The planner planned only these subresources, so the copy is
    /// recorded into them, not over the whole texture (EB-6). Empty for a whole resource.
    pub copy_part: Vec<(u32, UVec2)>,
}

/// The subresources of a texture of `mips`, `slices` and `planes` that `range` names, each
/// with its mip's extent (`extent` at mip 0), numbered as D3D12 numbers them: mip + mips *
/// (slice + slices * plane). Empty when `range` names every subresource.
pub fn copy_part(
    range: &crate::barrier::SubresourceRange,
    [mips, slices, planes]: [u32; 3],
    extent: UVec2,
) -> Vec<(u32, UVec2)> {
    let axis = |first: u32, count: u32, n: u32| first.min(n)..first.saturating_add(count).min(n);
    let (m, s, p) = (
        axis(range.first_mip, range.mip_count, mips),
        axis(range.first_slice, range.slice_count, slices),
        axis(range.first_plane, range.plane_count, planes),
    );
    if m.len() as u32 == mips && s.len() as u32 == slices && p.len() as u32 == planes {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(m.len() * s.len() * p.len());
    for plane in p {
        for slice in s.clone() {
            for mip in m.clone() {
                let size = (extent >> mip).max(UVec2::ONE);
                out.push((mip + mips * (slice + slices * plane), size));
            }
        }
    }
    out
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
            offset: 0,
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
            let side = |a: UseAccess| recipe.uses.iter().find(|u| u.access == a);
            let (Some(src), Some(dst)) = (side(UseAccess::CopySource), side(UseAccess::CopyDest))
            else {
                return Ok(());
            };
            let (s, d) = (src.resource, dst.resource);
            if let (Some(from), Some(to)) = (from, to) {
                ctx.push(Command::CopyTextureRegion {
                    src: s,
                    dst: d,
                    bytes,
                    from: from.region(),
                    to: to.region(),
                })?;
            } else if src.copy_part.is_empty() && dst.copy_part.is_empty() {
                ctx.push(Command::CopyResource {
                    src: s,
                    dst: d,
                    bytes,
                })?;
            } else {
                // A copy into (or out of) part of a texture copies one subresource a call, as
                // D3D12's CopyTextureRegion does; a whole side (a buffer's footprint, or a
                // texture copied whole) pairs its i-th subresource with the part's i-th.
                let n = src.copy_part.len().max(dst.copy_part.len());
                let (sp, dp) = (&src.copy_part, &dst.copy_part);
                for i in 0..n {
                    let extent = (dp.get(i).or(sp.get(i))).map_or(UVec2::ONE, |p| p.1);
                    let region = |part: &[(u32, UVec2)]| {
                        let sub = part.get(i).map_or(i as u32, |p| p.0);
                        crate::barrier::CopyRegion::new(sub, [0, 0, 0], [extent.x, extent.y, 1])
                    };
                    let share = bytes / n as u64 + u64::from(i == 0) * (bytes % n as u64);
                    ctx.push(Command::CopyTextureRegion {
                        src: s,
                        dst: d,
                        bytes: share,
                        from: region(sp),
                        to: region(dp),
                    })?;
                }
            }
        }
        Work::None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::SubresourceRange;

    /// Subresources are numbered mip + mips * (slice + slices * plane), each with its mip's
    /// extent; a range over every subresource names none (the copy is whole).
    #[test]
    fn copy_part_numbers_subresources_as_d3d12() {
        let range = SubresourceRange {
            first_mip: 1,
            mip_count: 2,
            first_slice: 1,
            slice_count: 1,
            ..SubresourceRange::ALL
        };
        let extent = UVec2::new(64, 32);
        assert_eq!(
            copy_part(&range, [3, 2, 1], extent),
            [(4, UVec2::new(32, 16)), (5, UVec2::new(16, 8))]
        );
        assert!(copy_part(&SubresourceRange::ALL, [3, 2, 1], extent).is_empty());
    }
}
