//! Writing a world back out as a scene: the inverse of loading.
//!
//! Saving lets tools edit frames as data (load, change components, save) and lets tests
//! prove the format loses nothing: load -> save -> load yields the same world. So saving
//! writes exactly what loading reads: every authored entity (one with a `Name` and a
//! texture, buffer, view, pass, swap chain or heap component) with references turned back into
//! names, the settings, the timeline with each dormant entity back inside the `Add`
//! event that brings it to life, and the command scripts with their targets named again.
//! What the runtime adds (swap-chain buffer entities, device objects, fence timelines,
//! per-frame state) is not authored and is left out.
//!
//! Live entities are written in spawn order, except that passes are written in pass
//! `order`, the order loading assigns from the file; dormant ones are written in timeline
//! order. A world in the middle of a run saves as the graph it now is: an `Add` whose
//! entity is already alive is dropped (the entity is written with the others), as are
//! events naming despawned entities. A reference to an entity without a `Name` is written
//! as the entity's id, which loading will then report as an unknown name.

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_ecs::world::EntityRef;

use super::format::{
    EntityDef, EventDef, EventKindDef, PassDef, PlacedDef, SceneFile, UseDef, ViewDef,
};
use super::script;
use crate::model::{
    Buffer, ChainBufferIndex, Disabled, Dormant, FrameScript, Heap, Lifetime, Pass, PassScript,
    Placed, Settings, SwapChain, SwapChainBuffer, Texture, Timeline, TimelineEvent, View,
};

/// The scene describing `world`'s authored entities, settings and timeline.
pub fn save(world: &World) -> SceneFile {
    let mut authored: Vec<EntityRef> = world.iter_entities().filter(is_authored).collect();
    authored.sort_by_key(|e| e.id().index());
    let mut live: Vec<EntityRef> = authored
        .into_iter()
        .filter(|e| !e.contains::<Dormant>())
        .collect();
    order_passes(&mut live);
    let entities = live.iter().map(|e| definition(world, e)).collect();
    let timeline = world.get_resource::<Timeline>().map_or_else(Vec::new, |t| {
        (t.events.iter())
            .filter_map(|(frame, event)| {
                Some(EventDef {
                    frame: *frame,
                    event: event_def(world, event)?,
                })
            })
            .collect()
    });
    SceneFile {
        settings: world
            .get_resource::<Settings>()
            .cloned()
            .unwrap_or_default(),
        entities,
        timeline,
        script: (world.get_resource::<FrameScript>()).map(|s| script::name_script(world, &s.0)),
    }
}

/// True for entities a scene authors (and not the runtime's swap-chain buffers).
fn is_authored(e: &EntityRef) -> bool {
    e.contains::<Name>()
        && !e.contains::<SwapChainBuffer>()
        && (e.contains::<Texture>()
            || e.contains::<Buffer>()
            || e.contains::<View>()
            || e.contains::<Pass>()
            || e.contains::<SwapChain>()
            || e.contains::<Heap>())
}

/// Puts the passes of `live` in pass order, keeping every other entity where it is.
fn order_passes(live: &mut [EntityRef]) {
    let slots: Vec<usize> = (0..live.len())
        .filter(|&i| live[i].contains::<Pass>())
        .collect();
    let mut passes: Vec<EntityRef> = slots.iter().map(|&i| live[i]).collect();
    passes.sort_by_key(|e| e.get::<Pass>().map(|p| p.order));
    for (slot, pass) in slots.into_iter().zip(passes) {
        live[slot] = pass;
    }
}

/// The name an entity is written as.
fn name_of(world: &World, entity: Entity) -> String {
    world
        .get::<Name>(entity)
        .map_or_else(|| entity.to_string(), |n| n.as_str().to_string())
}

/// An authored entity as a definition.
fn definition(world: &World, e: &EntityRef) -> EntityDef {
    let texture = e.get::<Texture>().cloned();
    let buffer = e.get::<Buffer>().cloned();
    let resource = texture.is_some() || buffer.is_some();
    let pass = e.get::<Pass>().map(|p| PassDef {
        script: (e.get::<PassScript>()).map(|s| script::name_commands(world, &s.0)),
        ..pass_def(world, p)
    });
    EntityDef {
        name: e
            .get::<Name>()
            .map(|n| n.as_str().to_string())
            .unwrap_or_default(),
        lifetime: resource.then(|| e.get::<Lifetime>().copied().unwrap_or_default()),
        disabled: (pass.is_some() && e.contains::<Disabled>()).then_some(true),
        texture,
        buffer,
        view: (e.get::<View>()).map(|v| view_def(world, v, e.get::<ChainBufferIndex>())),
        pass,
        swap_chain: e.get::<SwapChain>().cloned(),
        heap: e.get::<Heap>().copied(),
        placed: (e.get::<Placed>()).map(|p| PlacedDef {
            heap: name_of(world, p.heap),
            offset: p.offset,
        }),
    }
}

/// A view by names; one of a single swap-chain buffer (`index`) views `"chain[i]"`.
fn view_def(world: &World, v: &View, index: Option<&ChainBufferIndex>) -> ViewDef {
    let count = |n: u32| (n != u32::MAX).then_some(n);
    let of = name_of(world, v.of);
    ViewDef {
        of: index.map_or(of.clone(), |i| format!("{of}[{}]", i.0)),
        kind: v.kind,
        first_mip: v.range.first_mip,
        mip_count: count(v.range.mip_count),
        first_slice: v.range.first_slice,
        slice_count: count(v.range.slice_count),
        min_lod: v.min_lod,
        format: v.format,
    }
}

fn pass_def(world: &World, p: &Pass) -> PassDef {
    PassDef {
        queue: p.queue,
        uses: (p.uses.iter())
            .map(|u| UseDef {
                target: name_of(world, u.target),
                access: u.access,
                stages: u.stages,
                clear: u.clear,
                range: u.range.as_ref().and_then(super::format::UseRange::of),
            })
            .collect(),
        work: p.work,
        after: p.after.iter().map(|&a| name_of(world, a)).collect(),
        script: None,
        cost: p.cost,
        compute_queue: p.compute_queue,
        queries: p.queries.as_ref().map(|q| q.map(|&b| name_of(world, b))),
    }
}

/// A timeline event by names; `None` for events whose entity is gone, and for an `Add`
/// whose entity is no longer dormant.
fn event_def(world: &World, event: &TimelineEvent) -> Option<EventKindDef> {
    let exists = |e: Entity| world.get_entity(e).is_ok();
    Some(match *event {
        TimelineEvent::Resize { chain, extent } => EventKindDef::Resize {
            chain: exists(chain).then(|| name_of(world, chain))?,
            extent,
        },
        TimelineEvent::Enable(e) => EventKindDef::Enable(exists(e).then(|| name_of(world, e))?),
        TimelineEvent::Disable(e) => EventKindDef::Disable(exists(e).then(|| name_of(world, e))?),
        TimelineEvent::Release(e) => EventKindDef::Release(exists(e).then(|| name_of(world, e))?),
        TimelineEvent::Suspend { frames } => EventKindDef::Suspend { frames },
        TimelineEvent::Add(e) => {
            let entity = world.get_entity(e).ok()?;
            if !entity.contains::<Dormant>() || !is_authored(&entity) {
                return None;
            }
            EventKindDef::Add(Box::new(definition(world, &entity)))
        }
    })
}
