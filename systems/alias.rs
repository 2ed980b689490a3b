//! Alias: after a compile, place the frame's transients in one shared heap by lifetime
//! ([`crate::plan::alias`], EB-5, EB-9d), note the plan's figures for the run summary
//! (`memory.transient_*`), and, when aliasing runs ([`Settings::aliasing_runs`]), give each
//! placed transient its device object in the heap at its planned offset. Runs only when
//! compile produced a new graph.
//!
//! A new plan that moves anything makes a new heap and new objects (and views of them) for
//! every transient, and retires the old ones: like a release (FS-6), they are destroyed only
//! once the end-of-frame fences of every frame in flight have passed, the heap last
//! ([`retire_placements`]). The barrier planners hand the memory over between transients
//! ([`crate::plan::alias::hand_over`]).

use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::barrier::Layout;
use crate::device::{Device, FenceId, ObjectDesc, ObjectKey, QueueId};
use crate::error::RuntimeError;
use crate::frame::{Clock, FramesInFlight, ImplicitViews, Retiring, TransientHeap};
use crate::model::*;
use crate::plan::{AliasPlan, Aliaser, CompiledGraph};
use crate::report::RunStats;

type TransientQuery<'a> = (
    Entity,
    &'a Name,
    Option<&'a Texture>,
    Option<&'a Buffer>,
    Option<&'a GpuObject>,
);

/// True for a transient the frame graph places: not placed by the scene, alive.
type Placeable = (
    Without<Placed>,
    Without<Dormant>,
    Without<ReleaseRequest>,
    Without<SwapChainBuffer>,
);

/// Place the transients of a newly compiled graph, and, when aliasing runs, their objects.
pub fn place_transients(
    mut commands: Commands,
    graph: Res<CompiledGraph>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut aliaser: Local<Aliaser>,
    mut placed: Local<Option<u64>>,
    mut plan: ResMut<AliasPlan>,
    mut stats: ResMut<RunStats>,
    mut heap: ResMut<TransientHeap>,
    mut device: ResMut<Device>,
    mut implicit: ResMut<ImplicitViews>,
    in_flight: Res<FramesInFlight>,
    (resources, transients, scripted): (
        Query<(
            Option<&Texture>,
            Option<&Buffer>,
            Option<&Lifetime>,
            Has<Placed>,
        )>,
        Query<TransientQuery, Placeable>,
        Query<(), With<PassScript>>,
    ),
    views: Query<(Entity, &Name, &View, Option<&GpuObject>)>,
) -> Result<(), RuntimeError> {
    if *placed == Some(graph.generation) {
        return Ok(());
    }
    *placed = Some(graph.generation);
    let runs = settings.aliasing_runs();
    let excluded = if runs {
        unplaceable(&graph, &scripted)
    } else {
        EntityHashSet::default()
    };
    let bytes = |e: Entity| match resources.get(e) {
        Ok((_, _, _, true)) => None,
        _ if excluded.contains(&e) => None,
        Ok((Some(t), _, Some(Lifetime::Transient), _)) => Some(t.bytes()),
        Ok((_, Some(b), Some(Lifetime::Transient), _)) => Some(b.size),
        _ => None,
    };
    aliaser.place_into(&graph, bytes, &mut plan);
    stats.transient_peak_bytes = plan.peak_bytes;
    stats.transient_lower_bound_bytes = plan.lower_bound_bytes;
    stats.transient_unaliased_bytes = plan.unaliased_bytes;
    let failed = RuntimeError::device(frame.0);
    let is_transient =
        |e: Entity| matches!(resources.get(e), Ok((.., Some(Lifetime::Transient), _)));
    // When no two transients share bytes, each keeps its own memory: placing them would save
    // nothing and cost their alignment and hand-overs.
    let offsets: EntityHashMap<u64> = match runs && plan.peak_bytes < plan.unaliased_bytes {
        true => (plan.placements.iter().map(|p| (p.resource, p.offset))).collect(),
        false => EntityHashMap::default(),
    };
    let moved = offsets != heap.offsets || (runs && heap.heap.is_none() && !offsets.is_empty());
    let mut retiring = Retiring::default();
    let mut new_heap = None;
    if moved && !offsets.is_empty() {
        let name = format!("transients.{}", graph.generation);
        new_heap = Some(device.memory.create_heap(&name, plan.peak_bytes));
    }
    let target = new_heap.or(heap.heap);
    let (mut made, mut old_views) = (EntityHashMap::<ObjectKey>::default(), Vec::new());
    for (e, name, texture, buffer, gpu) in &transients {
        if !is_transient(e) {
            continue;
        }
        let desc = match (texture, buffer) {
            (Some(t), _) => ObjectDesc::Texture(t.clone()),
            (None, Some(b)) => ObjectDesc::Buffer(b.clone()),
            _ => continue,
        };
        let old = gpu.map(|g| g.0);
        let in_old_heap = old.is_some_and(|k| {
            (device.memory.placement(k)).is_some_and(|p| Some(p.heap) == heap.heap)
        });
        let key = match (offsets.get(&e), target) {
            (Some(&offset), Some(h)) if moved || old.is_none() => {
                (device.memory.create_placed(name.as_str(), desc, h, offset)).map_err(&failed)?
            }
            // Unplaced: keeps its own memory, made now if it has none or lived in the old heap.
            (None, _) if old.is_none() || (moved && in_old_heap) => {
                device.create(name.as_str(), desc).map_err(&failed)?
            }
            _ => continue,
        };
        retiring.objects.extend(old);
        let mut ec = commands.entity(e);
        ec.insert(GpuObject(key));
        if old.is_none() {
            ec.insert(LastUse::default());
        }
        if texture.is_some() {
            // A new object holds nothing: it starts undefined (EB-5).
            let state = TextureState::new(Layout::Undefined);
            ec.insert((state, SubresourceStates::default()));
        }
        made.insert(e, key);
    }
    // Views of the new objects: the scene's, then those the runtime made for uses (compile).
    for (v, name, view, gpu) in &views {
        let Some(&of) = made.get(&view.of) else {
            continue;
        };
        let desc = ObjectDesc::View {
            of,
            kind: view.kind,
            range: view.range,
        };
        let key = device.create(name.as_str(), desc).map_err(&failed)?;
        old_views.extend(gpu.map(|g| g.0));
        commands
            .entity(v)
            .insert((GpuObject(key), LastUse::default()));
    }
    for pass in &graph.passes {
        for u in (graph.uses_of(pass).iter()).filter(|u| u.target == u.resource) {
            let (Some(kind), Some(&of)) = (u.view_kind, made.get(&u.resource)) else {
                continue;
            };
            let slot = (u.resource, kind, u.view_range);
            if (implicit.views.get(&slot)).is_some_and(|&k| device.memory.resource_of(k) == Ok(of))
            {
                continue;
            }
            let range = u.view_range;
            let desc = ObjectDesc::View { of, kind, range };
            let name = format!("{}.{kind:?}", device.memory.name(of));
            let key = device.create(&name, desc).map_err(&failed)?;
            old_views.extend(implicit.views.insert(slot, key));
        }
    }
    // Views go before the resources they view.
    old_views.append(&mut retiring.objects);
    retiring.objects = old_views;
    stats.transients_placed = !offsets.is_empty();
    if moved {
        retiring.heap = heap.heap.take();
        heap.heap = new_heap;
        heap.offsets = offsets;
    }
    if !retiring.objects.is_empty() || retiring.heap.is_some() {
        retiring.fences = (in_flight.frames.iter())
            .flat_map(|(_, f)| f.iter().map(|f| f.0))
            .collect();
        heap.retiring.push(retiring);
    }
    Ok(())
}

/// What the frame graph cannot place: the resources a pass script records with (its own
/// barriers know nothing of a hand-over), textures split into subresource parts (a hand-over
/// activates a texture whole, EB-5), and textures first used on a DMA engine, which cannot
/// activate them (copy queues change no layouts, barrier-spec A5).
fn unplaceable(graph: &CompiledGraph, scripted: &Query<(), With<PassScript>>) -> EntityHashSet {
    let mut out = EntityHashSet::default();
    let mut seen = EntityHashSet::default();
    for pass in &graph.passes {
        let script = scripted.contains(pass.entity);
        let dma = matches!(pass.queue, QueueId::Dma { .. });
        for u in graph.uses_of(pass) {
            let first = seen.insert(u.resource);
            let texture = u.layout.is_some();
            if script || u.key != u.resource || (first && dma && texture) {
                out.insert(u.resource);
            }
        }
    }
    out
}

/// Destroy what replaced placements left once their fences have passed: views, resources,
/// then the heap when nothing is placed in it any more (FS-6).
pub fn retire_placements(
    mut heap: ResMut<TransientHeap>,
    mut submitter: Submitter,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
) -> Result<(), RuntimeError> {
    if heap.retiring.is_empty() {
        return Ok(());
    }
    let cpu = clock.cpu_ns;
    let label = submitter.device().label("release");
    let mut keep = Vec::new();
    for mut r in std::mem::take(&mut heap.retiring) {
        let device = submitter.device();
        let pending = |f: &u64| device.is_fence_pending(FenceId(*f), cpu);
        if r.fences.iter().any(pending) {
            keep.push(r);
            continue;
        }
        for key in std::mem::take(&mut r.objects) {
            if submitter.device().memory.is_live(key) {
                submitter.release(key, label, cpu)?;
            }
        }
        let memory = &mut submitter.device().memory;
        match r.heap {
            Some(h) if memory.heap_in_use(h) => keep.push(r),
            Some(h) => memory
                .destroy_heap(h)
                .map_err(RuntimeError::device(frame.0))?,
            None => {}
        }
    }
    heap.retiring = keep;
    Ok(())
}
