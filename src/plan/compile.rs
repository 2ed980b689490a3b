//! Compile: turn the authored passes into an ordered, culled, queue-assigned plan with its
//! cross-queue fences. Runs only when the graph changed; the plan is cached in
//! [`CompiledGraph`].
//!
//! Cross-queue synchronisation (FS-1, FN-2): a pass that depends on a pass of another queue
//! waits on a fence inserted after it. Dependencies also wrap around the frame boundary: a
//! pass that writes what another queue touched last frame (or reads what it wrote) waits on
//! that queue's fence from the previous frame. Only the latest producer per queue is waited
//! on, since a queue executes in order.

use bevy_ecs::prelude::*;

use super::compiler::Compiler;
use super::estimate::estimated_ns;
use super::parts::Dims;
use crate::barrier::{Layout, Sync};
use crate::device::{Profile, QueueId};
use crate::model::*;
use crate::plan::{CompiledGraph, PlanError, PlannedUse};

/// What a use's target turned out to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TargetInfo {
    /// `dims`: mips, array slices and planes.
    Texture {
        lifetime: Lifetime,
        dims: Dims,
    },
    Buffer {
        lifetime: Lifetime,
    },
    /// A view; `resource` is what it views, `range` the subresources it covers.
    View {
        resource: Entity,
        kind: ViewKind,
        range: crate::barrier::SubresourceRange,
    },
    SwapChain,
    /// Released, dormant or missing: no pass may use it.
    Unavailable,
}

impl TargetInfo {
    /// A texture of one subresource: what generated graphs (benches, property tests) use.
    pub fn texture(lifetime: Lifetime) -> TargetInfo {
        TargetInfo::Texture {
            lifetime,
            dims: [1, 1, 1],
        }
    }
}

/// The view kind a use binds through, if any. Vertex, index, constant and indirect-argument
/// buffers and copies name the resource itself.
pub fn view_kind(access: UseAccess) -> Option<ViewKind> {
    match access {
        UseAccess::RenderTarget => Some(ViewKind::Rtv),
        UseAccess::DepthWrite => Some(ViewKind::Dsv),
        UseAccess::DepthRead => Some(ViewKind::DsvReadOnly),
        UseAccess::ShaderRead => Some(ViewKind::Srv),
        UseAccess::UnorderedAccess => Some(ViewKind::Uav),
        _ => None,
    }
}

/// The stage a use's clear adds to the stages of the use: a UAV clear runs in
/// CLEAR_UNORDERED_ACCESS_VIEW (barrier-spec A1), so the barriers at the pass's boundary must
/// cover it as they cover the use (FS-3). Render-target and depth clears run in the stage of
/// their use already.
fn clear_stage(u: &crate::model::Use) -> Sync {
    if u.clear && u.access == UseAccess::UnorderedAccess {
        Sync::CLEAR_UNORDERED_ACCESS_VIEW
    } else {
        Sync::empty()
    }
}

/// The queue a pass runs on (CC-1: compute falls back to graphics without async compute).
/// A compute pass runs on the compute queue it asks for (CC-2: its pipe is its priority),
/// by default queue 0 of the `compute_pipe` setting's pipe; the loader refuses queues the
/// device does not have.
pub fn assign_queue(pass: &Pass, settings: &Settings, profile: &Profile) -> QueueId {
    match pass.queue {
        QueueKind::Graphics => QueueId::Graphics,
        QueueKind::Compute
            if settings.async_compute
                && estimated_ns(pass, profile) as f64 >= settings.async_min_us * 1000.0 =>
        {
            let asked = pass.compute_queue.unwrap_or_default();
            QueueId::Compute {
                pipe: asked.pipe.unwrap_or(settings.compute_pipe).min(1),
                index: asked.index,
            }
        }
        QueueKind::Compute => QueueId::Graphics,
        QueueKind::Copy => QueueId::Dma { engine: 0 },
    }
}

/// A use resolved: the planned use, its resource's lifetime (`None` for a swap chain, which
/// persists but keeps nothing for the next frame's reads: its buffer is a different one each
/// frame) and, for a texture, its dimensions.
pub(super) type Resolved = (PlannedUse, Option<Lifetime>, Option<Dims>);

/// Resolve use `u` of pass `pass` (entity `e`, whose work shades in `shading`) through
/// `target`.
#[inline(always)]
pub(super) fn resolve_use(
    e: Entity,
    pass: &Pass,
    shading: Sync,
    u: &Use,
    target: &impl Fn(Entity) -> TargetInfo,
) -> Result<Resolved, PlanError> {
    let all = crate::barrier::SubresourceRange::ALL;
    let (resource, dims, kind_override, lifetime, range) = match target(u.target) {
        TargetInfo::Texture { lifetime, dims } => (
            u.target,
            Some(dims),
            None,
            Some(lifetime),
            u.range.unwrap_or(all),
        ),
        TargetInfo::Buffer { lifetime } => (u.target, None, None, Some(lifetime), all),
        TargetInfo::View {
            resource,
            kind,
            range,
        } => match target(resource) {
            TargetInfo::Texture { lifetime, dims } => {
                (resource, Some(dims), Some(kind), Some(lifetime), range)
            }
            TargetInfo::Buffer { lifetime } => (resource, None, Some(kind), Some(lifetime), all),
            TargetInfo::SwapChain => (resource, Some([1, 1, 1]), Some(kind), None, all),
            _ => return Err(PlanError::ViewOfMissing { pass: e }),
        },
        TargetInfo::SwapChain => (u.target, Some([1, 1, 1]), None, None, all),
        TargetInfo::Unavailable => return Err(PlanError::Unavailable { pass: e }),
    };
    let planned = PlannedUse {
        target: u.target,
        resource,
        access: u.access,
        stages: u.stages.unwrap_or_else(|| u.access.default_stages(shading)) | clear_stage(u),
        layout: dims.map(|_| u.access.layout(pass.queue)),
        view_kind: kind_override.or_else(|| view_kind(u.access)),
        clear: u.clear,
        key: resource,
        range,
        view_range: range,
        bound: true,
    };
    // A swap chain's buffer is a texture, but it is never split.
    let dims = dims.filter(|_| lifetime.is_some());
    Ok((planned, lifetime, dims))
}

/// A texture copied onto itself is both source and destination of one copy: only a common
/// layout allows both (barrier-spec A3.8, EB-9c). `uses` are one pass's.
pub(super) fn copies_to_self(uses: &mut [PlannedUse]) {
    if !uses.iter().any(|u| u.access == UseAccess::CopyDest) {
        return;
    }
    let used = |uses: &[PlannedUse], r: Entity, a: UseAccess| {
        uses.iter().any(|u| u.resource == r && u.access == a)
    };
    for i in 0..uses.len() {
        let r = uses[i].resource;
        if uses[i].layout.is_some()
            && used(uses, r, UseAccess::CopySource)
            && used(uses, r, UseAccess::CopyDest)
        {
            uses[i].layout = Some(Layout::Common);
        }
    }
}

/// Compile generated passes, without a world: each is a one-dispatch pass
/// ([`Pass::dispatch`]) on its queue with its uses, declared in order as entity `i + 1`
/// named `p{i}`. How benches and property tests build graphs.
pub fn compile_dispatches(
    passes: impl IntoIterator<Item = (QueueKind, Vec<Use>)>,
    target: impl Fn(Entity) -> TargetInfo,
    settings: &Settings,
) -> Result<CompiledGraph, PlanError> {
    let mut owned = Vec::new();
    for (i, (queue, uses)) in passes.into_iter().enumerate() {
        let too_many = PlanError::TooManyPasses { count: i };
        let order = u32::try_from(i).map_err(|_| too_many.clone())?;
        let e = (order.checked_add(1))
            .and_then(Entity::from_raw_u32)
            .ok_or(too_many)?;
        owned.push((e, format!("p{i}"), Pass::dispatch(queue, uses, order)));
    }
    let refs: Vec<(Entity, &str, &Pass)> =
        owned.iter().map(|(e, s, p)| (*e, s.as_str(), p)).collect();
    compile_graph(&refs, target, settings)
}

/// Compile the enabled passes (already sorted by declaration order) with a fresh
/// [`Compiler`]; the runtime keeps one instead, so that recompiles reuse its memory.
pub fn compile_graph(
    passes: &[(Entity, &str, &Pass)],
    target: impl Fn(Entity) -> TargetInfo,
    settings: &Settings,
) -> Result<CompiledGraph, PlanError> {
    let mut out = CompiledGraph::default();
    Compiler::default().compile_into(passes, target, settings, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_then_write(lifetime: Lifetime) -> CompiledGraph {
        read_then_write_in(lifetime, &Settings::default())
    }

    fn read_then_write_in(lifetime: Lifetime, settings: &Settings) -> CompiledGraph {
        let [a, out] = [100, 101].map(|i| Entity::from_raw_u32(i).expect("valid index"));
        let with = |target, access| Use {
            target,
            access,
            stages: None,
            clear: false,
            range: None,
        };
        // Each pass also writes an imported `out`, so neither is culled.
        let passes = [
            (
                QueueKind::Compute,
                vec![
                    with(a, UseAccess::ShaderRead),
                    with(out, UseAccess::UnorderedAccess),
                ],
            ),
            (
                QueueKind::Graphics,
                vec![with(a, UseAccess::UnorderedAccess)],
            ),
        ];
        let target = |e| TargetInfo::texture(if e == a { lifetime } else { Lifetime::Imported });
        compile_dispatches(passes, target, settings).expect("compiles")
    }

    /// A history read on one queue, rewritten later on another: the rewrite waits for the
    /// read, and the next frame's read for the rewrite (FS-1 across the frame boundary).
    #[test]
    fn a_history_read_waits_for_the_previous_frames_rewrite() {
        let g = read_then_write(Lifetime::Imported);
        let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["p0", "p1"]);
        assert_eq!(g.passes[1].waits, [0]);
        assert_eq!(g.passes[0].waits_previous, [1]);
    }

    /// A transient keeps nothing: the read sees the frame's own write.
    #[test]
    fn a_transient_read_declared_first_reads_the_frames_write() {
        let g = read_then_write(Lifetime::Transient);
        let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["p1", "p0"]);
        assert_eq!(g.passes[1].waits, [0]);
    }

    /// The schedulers keep the late read after the write it sees, as declaration order does
    /// (a transient read declared first reads the frame's own write).
    #[test]
    fn every_order_runs_a_transients_late_read_after_its_write() {
        for order in [
            crate::model::Order::FewerBarriers,
            crate::model::Order::Overlap,
        ] {
            let settings = Settings {
                order,
                ..Settings::default()
            };
            let g = read_then_write_in(Lifetime::Transient, &settings);
            let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
            assert_eq!(names, ["p1", "p0"], "{order:?}");
        }
    }
}
