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

use super::order::{self as graph, GraphNode};
use crate::barrier::{Layout, Sync};
use crate::device::QueueId;
use crate::model::*;
use crate::plan::{CompiledGraph, CompiledPass, PlanError, PlannedUse};

/// What a use's target turned out to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TargetInfo {
    /// `dims`: mips, array slices and planes.
    Texture {
        lifetime: Lifetime,
        dims: super::parts::Dims,
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

/// Note a texture's dimensions, once, in order of first use.
fn texture_dims(dims: &mut Vec<(Entity, super::parts::Dims)>, e: Entity, d: super::parts::Dims) {
    if !dims.iter().any(|(t, _)| *t == e) {
        dims.push((e, d));
    }
}

/// The queue a pass runs on (CC-1: compute falls back to graphics without async compute).
/// A compute pass runs on the compute queue it asks for (CC-2: its pipe is its priority),
/// by default queue 0 of the `compute_pipe` setting's pipe; the loader refuses queues the
/// device does not have.
pub fn assign_queue(pass: &Pass, settings: &Settings) -> QueueId {
    match pass.queue {
        QueueKind::Graphics => QueueId::Graphics,
        QueueKind::Compute if settings.async_compute => {
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
    let refs: Vec<(Entity, String, &Pass)> =
        owned.iter().map(|(e, s, p)| (*e, s.clone(), p)).collect();
    compile_graph(&refs, target, settings)
}

/// Compile the enabled passes (already sorted by declaration order).
pub fn compile_graph(
    passes: &[(Entity, String, &Pass)],
    target: impl Fn(Entity) -> TargetInfo,
    settings: &Settings,
) -> Result<CompiledGraph, PlanError> {
    let mut planned: Vec<(Entity, String, QueueId, Vec<PlannedUse>)> = Vec::new();
    // Per resource: its lifetime (None for a swap chain); per texture: its dimensions.
    let mut lifetimes: hashbrown::HashMap<Entity, Option<Lifetime>> = hashbrown::HashMap::new();
    let mut dims: Vec<(Entity, super::parts::Dims)> = Vec::new();
    for (e, name, pass) in passes {
        let queue = assign_queue(pass, settings);
        let kind = pass.queue;
        let shading = pass.shading();
        let mut uses = Vec::new();
        for u in &pass.uses {
            // The lifetime is None for a swap chain, which persists but keeps nothing for the
            // next frame's reads: its buffer is a different one each frame.
            let all = crate::barrier::SubresourceRange::ALL;
            let (resource, is_texture, kind_override, lifetime, range) = match target(u.target) {
                TargetInfo::Texture { lifetime, dims: d } => {
                    texture_dims(&mut dims, u.target, d);
                    (u.target, true, None, Some(lifetime), u.range.unwrap_or(all))
                }
                TargetInfo::Buffer { lifetime } => (u.target, false, None, Some(lifetime), all),
                TargetInfo::View {
                    resource,
                    kind,
                    range,
                } => match target(resource) {
                    TargetInfo::Texture { lifetime, dims: d } => {
                        texture_dims(&mut dims, resource, d);
                        (resource, true, Some(kind), Some(lifetime), range)
                    }
                    TargetInfo::Buffer { lifetime } => {
                        (resource, false, Some(kind), Some(lifetime), all)
                    }
                    TargetInfo::SwapChain => (resource, true, Some(kind), None, all),
                    _ => {
                        return Err(PlanError::ViewOfMissing { pass: *e });
                    }
                },
                TargetInfo::SwapChain => (u.target, true, None, None, all),
                TargetInfo::Unavailable => {
                    return Err(PlanError::Unavailable { pass: *e });
                }
            };
            lifetimes.entry(resource).or_insert(lifetime);
            uses.push(PlannedUse {
                target: u.target,
                resource,
                access: u.access,
                stages: u.stages.unwrap_or_else(|| u.access.default_stages(shading))
                    | clear_stage(u),
                layout: is_texture.then(|| u.access.layout(kind)),
                view_kind: kind_override.or_else(|| view_kind(u.access)),
                clear: u.clear,
                key: resource,
                range,
                view_range: range,
                bound: true,
            });
        }
        // A texture copied onto itself is both source and destination of one copy: only a
        // common layout allows both (barrier-spec A3.8, EB-9c).
        let copied_to_self = |r: Entity| {
            let used = |a: UseAccess| uses.iter().any(|u| u.resource == r && u.access == a);
            used(UseAccess::CopySource) && used(UseAccess::CopyDest)
        };
        if uses.iter().any(|u| u.access == UseAccess::CopyDest) {
            let selves: Vec<Entity> = (uses.iter())
                .filter(|u| u.layout.is_some() && copied_to_self(u.resource))
                .map(|u| u.resource)
                .collect();
            for u in uses.iter_mut().filter(|u| selves.contains(&u.resource)) {
                u.layout = Some(Layout::Common);
            }
        }
        planned.push((*e, name.clone(), queue, uses));
    }
    let parts = super::split::split_uses(&mut planned, &dims);
    // Keys whose writes persist (culling keeps their writers), and keys that keep last
    // frame's contents for a read to see (only imported resources: a swap chain's buffer is
    // a different one each frame).
    let mut persistent = Vec::new();
    let mut history = hashbrown::HashSet::new();
    for u in planned.iter().flat_map(|p| &p.3) {
        let lifetime = lifetimes.get(&u.resource).copied().flatten();
        let keeps = lifetimes
            .get(&u.resource)
            .is_some_and(|l| *l != Some(Lifetime::Transient));
        if keeps && u.access.is_write() {
            persistent.push(u.key);
        }
        if lifetime == Some(Lifetime::Imported) {
            history.insert(u.key);
        }
    }
    let node = |uses: &[PlannedUse]| GraphNode {
        reads: uses
            .iter()
            .filter(|u| !u.access.is_write())
            .map(|u| u.key)
            .collect(),
        writes: uses
            .iter()
            .filter(|u| u.access.is_write())
            .map(|u| u.key)
            .collect(),
        after: Vec::new(),
    };
    let mut nodes: Vec<GraphNode> = planned.iter().map(|p| node(&p.3)).collect();
    let index: hashbrown::HashMap<Entity, usize> =
        passes.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
    // Passes some other pass must follow are kept whatever they write.
    let mut followed = vec![false; passes.len()];
    for (i, (_, _, pass)) in passes.iter().enumerate() {
        nodes[i].after = pass
            .after
            .iter()
            .filter_map(|a| index.get(a).copied())
            .collect();
        for &a in &nodes[i].after {
            followed[a] = true;
        }
    }
    let keeps = |r: Entity| history.contains(&r);
    let order = graph::order(&nodes, keeps).map_err(|c| PlanError::Cycle {
        passes: c.0.iter().map(|&i| planned[i].0).collect(),
        because: (0..c.0.len())
            .map(|k| graph::reason(&nodes, c.0[k], c.0[(k + 1) % c.0.len()]))
            .map(|r| r.map(|r| r.map(|e| parts.get(e).map_or(e, |(t, _)| t))))
            .collect(),
    })?;

    // Cull: walk backwards keeping passes whose results persist or feed a kept pass.
    let mut needed: hashbrown::HashSet<Entity> = persistent.into_iter().collect();
    let mut keep = vec![false; planned.len()];
    for &i in order.iter().rev() {
        let uses = &planned[i].3;
        let explicit = followed[i];
        if uses
            .iter()
            .any(|u| u.access.is_write() && needed.contains(&u.key))
            || explicit
        {
            keep[i] = true;
            for u in uses {
                if !u.access.is_write() || !u.clear {
                    needed.insert(u.key);
                }
            }
        }
    }
    let kept: Vec<usize> = order.iter().copied().filter(|&i| keep[i]).collect();
    let culled = order
        .iter()
        .filter(|&&i| !keep[i])
        .map(|&i| std::mem::take(&mut planned[i].1))
        .collect();
    let kept_nodes: Vec<GraphNode> = kept
        .iter()
        .map(|&i| GraphNode {
            reads: std::mem::take(&mut nodes[i].reads),
            writes: std::mem::take(&mut nodes[i].writes),
            after: Vec::new(),
        })
        .collect();
    let mut edges = graph::edges(&kept_nodes, keeps);
    let mut kept_index = vec![usize::MAX; planned.len()];
    for (k, &i) in kept.iter().enumerate() {
        kept_index[i] = k;
    }
    for (k, &i) in kept.iter().enumerate() {
        for &a in &nodes[i].after {
            if kept_index[a] != usize::MAX {
                edges.push((kept_index[a], k));
            }
        }
    }
    // Kept indices are in execution order, so every edge points forwards.
    edges.retain(|(a, b)| a < b);
    edges.sort_unstable();
    edges.dedup();

    // Each kept pass is taken once: its name and uses move into the output.
    let mut out: Vec<CompiledPass> = kept
        .iter()
        .map(|&i| CompiledPass {
            entity: planned[i].0,
            name: std::mem::take(&mut planned[i].1),
            label: 0,
            queue: planned[i].2,
            uses: std::mem::take(&mut planned[i].3),
            waits: Vec::new(),
            waits_previous: Vec::new(),
            signals: false,
            own_complete: None,
        })
        .collect();
    let resources = super::fences::plan_fences(&mut out, &edges);
    Ok(CompiledGraph {
        passes: out,
        culled,
        edges,
        resources,
        parts,
        generation: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_then_write(lifetime: Lifetime) -> CompiledGraph {
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
        compile_dispatches(passes, target, &Settings::default()).expect("compiles")
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
}
