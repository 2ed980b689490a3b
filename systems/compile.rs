//! Compile: when the graph changed, gather the enabled passes and what their uses name, run
//! the [`Compiler`] and cache the result in [`CompiledGraph`]; create the views the runtime
//! makes for uses that name a resource directly. The compiler compiles into the graph the
//! last compile replaced, so recompiles reuse both graphs' memory.

use bevy_ecs::prelude::*;

use crate::device::{Device, ObjectDesc};
use crate::error::RuntimeError;
use crate::frame::ImplicitViews;
use crate::model::*;
use crate::plan::{CompiledGraph, Compiler, GraphDirty, TargetInfo};

/// The compile system: recompiles when the graph is dirty, creates implicit views.
pub fn compile_system(
    mut dirty: ResMut<GraphDirty>,
    mut graph_res: ResMut<CompiledGraph>,
    mut compiler: Local<Compiler>,
    // The graph the last compile replaced, compiled into next.
    mut compiled: Local<CompiledGraph>,
    mut device: ResMut<Device>,
    mut implicit: ResMut<ImplicitViews>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    passes: Query<(Entity, &Name, &Pass), (Without<Disabled>, Without<Dormant>)>,
    targets: Query<(
        Option<&Texture>,
        Option<&Buffer>,
        Option<&View>,
        Option<&SwapChain>,
        Option<&Lifetime>,
        Has<ReleaseRequest>,
        Has<Dormant>,
    )>,
    objects: Query<(&Name, &GpuObject)>,
    names: Query<&Name>,
) -> Result<(), RuntimeError> {
    if !dirty.0 {
        return Ok(());
    }
    let _span = tracy_client::span!("compile");
    let mut list: Vec<(Entity, &str, &Pass)> =
        passes.iter().map(|(e, n, p)| (e, n.as_str(), p)).collect();
    list.sort_by_key(|(_, _, p)| p.order);
    let target = |e: Entity| match targets.get(e) {
        Ok((_, _, _, _, _, true, _)) | Ok((_, _, _, _, _, _, true)) | Err(_) => {
            TargetInfo::Unavailable
        }
        Ok((Some(t), _, _, _, l, _, _)) => TargetInfo::Texture {
            lifetime: l.copied().unwrap_or_default(),
            dims: [
                t.mips,
                t.array_size,
                if t.format.has_stencil() { 2 } else { 1 },
            ],
        },
        Ok((_, Some(_), _, _, l, _, _)) => TargetInfo::Buffer {
            lifetime: l.copied().unwrap_or_default(),
        },
        Ok((_, _, Some(v), _, _, _, _)) => TargetInfo::View {
            resource: v.of,
            kind: v.kind,
            range: v.range,
        },
        Ok((_, _, _, Some(_), _, _, _)) => TargetInfo::SwapChain,
        _ => TargetInfo::Unavailable,
    };
    (compiler.compile_into(&list, target, &settings, &mut compiled))
        .map_err(|e| RuntimeError::plan(frame.0, e, |p| name_of(&names, p)))?;
    let compiled = &mut *compiled;
    for pass in &mut compiled.passes {
        pass.label = device.label(&pass.name);
        // The recorder binds pipeline state `label` for the pass's work: its cost is the
        // pass's (device::ShaderCost).
        let cost = passes.get(pass.entity).ok().and_then(|(_, _, p)| p.cost);
        device.set_pipeline_cost(pass.label, cost.map(|c| c.shader_cost()));
        for u in pass.uses_in(&compiled.uses) {
            let Some(kind) = u.view_kind else { continue };
            if u.target != u.resource || matches!(target(u.resource), TargetInfo::SwapChain) {
                continue;
            }
            let key = (u.resource, kind, u.view_range);
            if implicit.views.contains_key(&key) {
                continue;
            }
            let Ok((name, obj)) = objects.get(u.resource) else {
                continue;
            };
            let desc = ObjectDesc::View {
                of: obj.0,
                kind,
                range: u.view_range,
            };
            let view = (device.create(&format!("{}.{kind:?}", name.as_str()), desc))
                .map_err(RuntimeError::device(frame.0))?;
            implicit.views.insert(key, view);
        }
    }
    compiled.generation = graph_res.generation + 1;
    std::mem::swap(&mut *graph_res, &mut *compiled);
    dirty.0 = false;
    Ok(())
}

/// The name of `e` for a message (its id when it has none).
pub(super) fn name_of(names: &Query<&Name>, e: Entity) -> String {
    names
        .get(e)
        .map_or_else(|_| e.to_string(), |n| n.as_str().to_owned())
}
