//! Spawning a validated scene into a bevy `World`.
//!
//! Loading authors the frame and nothing more: one entity per definition with its `Name` and
//! its component, resolved references, the `Settings`, `Timeline` and `FrameIndex`
//! resources, and the scene's command scripts (a `FrameScript` resource, `PassScript`
//! components) with names resolved to targets. Device objects, swap-chain buffer entities and everything GPU-side are the
//! runtime's job, done by systems on the first frame, so a loaded world can be inspected,
//! saved or validated without a device.
//!
//! Spawning happens in two steps: every definition is spawned with only its name first, so
//! that any definition can refer to any other regardless of order, then components are
//! inserted with names resolved to those entities. Timeline `Add` definitions are spawned
//! too, marked `Dormant`, so events can refer to them by `Entity` like to anything else.
//!
//! Pass `order`, the tie-breaker of every ordering decision, is the pass's position among
//! the pass definitions: live passes in file order, then dormant ones in the order the
//! timeline adds them (sorted by frame, stably). That is also the order saving writes them
//! back in, which is what makes load -> save -> load a fixed point.

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;

use super::format::{EntityDef, EventKindDef, PassDef, SceneFile, ViewDef};
use super::index::SceneIndex;
use super::script;
use crate::barrier::SubresourceRange;
use crate::model::{
    BackBuffer, ChainBufferIndex, Disabled, Dormant, FrameIndex, FrameScript, Pass, PassScript,
    Placed, Timeline, TimelineEvent, Use, View,
};

/// Spawns `scene` into `world`. The scene must have passed [`super::validate()`]; should a
/// reference still not resolve, it points at `Entity::PLACEHOLDER` (or the event is
/// dropped) rather than panicking.
pub fn spawn(scene: &SceneFile, world: &mut World) {
    let index = SceneIndex::new(scene);
    let entities: Vec<Entity> = (index.defs.iter())
        .map(|d| world.spawn(Name::new(d.def.name.clone())).id())
        .collect();
    let resolve = |name: &str| index.id(name).and_then(|id| entities.get(id).copied());
    let timeline = sorted_timeline(scene);
    let orders = pass_orders(&index, &timeline);
    for (id, d) in index.defs.iter().enumerate() {
        let Some(&entity) = entities.get(id) else {
            continue;
        };
        let mut e = world.entity_mut(entity);
        insert_components(&mut e, d.def, orders.get(id).copied().flatten(), &resolve);
        if d.event.is_some() {
            e.insert(Dormant);
        }
    }
    let events = (timeline.iter())
        .filter_map(|&(frame, event)| Some((frame, resolve_event(event, &resolve)?)))
        .collect();
    if let Some(script) = &scene.script {
        world.insert_resource(FrameScript(script::resolve_script(script, &resolve)));
    }
    world.insert_resource(scene.settings.clone());
    world.insert_resource(Timeline { events, cursor: 0 });
    world.insert_resource(FrameIndex(0));
}

/// The timeline's events sorted stably by frame (same-frame events keep file order).
fn sorted_timeline(scene: &SceneFile) -> Vec<(u64, &EventKindDef)> {
    let mut events: Vec<(u64, &EventKindDef)> =
        scene.timeline.iter().map(|e| (e.frame, &e.event)).collect();
    events.sort_by_key(|&(frame, _)| frame);
    events
}

/// Each definition's pass `order`, `None` for non-passes.
fn pass_orders(index: &SceneIndex, timeline: &[(u64, &EventKindDef)]) -> Vec<Option<u32>> {
    let mut orders = vec![None; index.defs.len()];
    let mut next = 0u32;
    let mut assign = |id: usize| {
        if let Some(slot) = orders.get_mut(id)
            && index.def(id).is_some_and(|d| d.pass.is_some())
        {
            *slot = Some(next);
            next = next.saturating_add(1);
        }
    };
    for (id, d) in index.defs.iter().enumerate() {
        if d.event.is_none() {
            assign(id);
        }
    }
    for (_, event) in timeline {
        if let EventKindDef::Add(def) = event {
            // The dormant definition this event carries (compared by address: names may
            // repeat in an invalid scene, the definition itself cannot).
            let id = index.defs.iter().position(|d| std::ptr::eq(d.def, &**def));
            if let Some(id) = id {
                assign(id);
            }
        }
    }
    orders
}

fn insert_components(
    e: &mut EntityWorldMut,
    def: &EntityDef,
    order: Option<u32>,
    resolve: &impl Fn(&str) -> Option<Entity>,
) {
    let lifetime = def.lifetime.unwrap_or_default();
    if let Some(t) = &def.texture {
        e.insert((t.clone(), lifetime));
    }
    if let Some(b) = &def.buffer {
        e.insert((b.clone(), lifetime));
    }
    if let Some(v) = &def.view {
        e.insert(view(v, resolve));
        if let Some((_, index)) = indexed_view(v, resolve) {
            e.insert(ChainBufferIndex(index));
        }
    }
    if let Some(p) = &def.pass {
        e.insert(pass(p, order.unwrap_or(u32::MAX), resolve));
        if let Some(commands) = &p.script {
            e.insert(PassScript(script::resolve_commands(commands, resolve)));
        }
        if def.disabled == Some(true) {
            e.insert(Disabled);
        }
    }
    if let Some(s) = &def.swap_chain {
        e.insert((s.clone(), BackBuffer::default()));
    }
    if let Some(h) = def.heap {
        e.insert(h);
    }
    if let Some(p) = &def.placed {
        e.insert(Placed {
            heap: resolve(&p.heap).unwrap_or(Entity::PLACEHOLDER),
            offset: p.offset,
        });
    }
}

/// For a view of `"chain[i]"` (and no entity of that very name): the chain and `i`.
fn indexed_view(v: &ViewDef, resolve: &impl Fn(&str) -> Option<Entity>) -> Option<(Entity, u32)> {
    if resolve(&v.of).is_some() {
        return None;
    }
    let (chain, index) = script::split_index(&v.of)?;
    Some((resolve(chain)?, index))
}

fn view(v: &ViewDef, resolve: &impl Fn(&str) -> Option<Entity>) -> View {
    let of = resolve(&v.of).or_else(|| indexed_view(v, resolve).map(|(chain, _)| chain));
    View {
        of: of.unwrap_or(Entity::PLACEHOLDER),
        kind: v.kind,
        range: SubresourceRange {
            first_mip: v.first_mip,
            mip_count: v.mip_count.unwrap_or(u32::MAX),
            first_slice: v.first_slice,
            slice_count: v.slice_count.unwrap_or(u32::MAX),
            ..SubresourceRange::ALL
        },
        min_lod: v.min_lod,
        format: v.format,
    }
}

fn pass(p: &PassDef, order: u32, resolve: &impl Fn(&str) -> Option<Entity>) -> Pass {
    Pass {
        queue: p.queue,
        uses: (p.uses.iter())
            .map(|u| Use {
                target: resolve(&u.target).unwrap_or(Entity::PLACEHOLDER),
                access: u.access,
                stages: u.stages,
                clear: u.clear,
                range: u.range.map(|r| r.range()),
            })
            .collect(),
        work: p.work,
        after: p.after.iter().filter_map(|a| resolve(a)).collect(),
        order,
        cost: p.cost,
        compute_queue: p.compute_queue,
        queries: (p.queries.as_ref()).map(|q| q.map(|b| resolve(b).unwrap_or(Entity::PLACEHOLDER))),
    }
}

fn resolve_event(
    event: &EventKindDef,
    resolve: &impl Fn(&str) -> Option<Entity>,
) -> Option<TimelineEvent> {
    Some(match event {
        EventKindDef::Resize { chain, extent } => TimelineEvent::Resize {
            chain: resolve(chain)?,
            extent: *extent,
        },
        EventKindDef::Enable(name) => TimelineEvent::Enable(resolve(name)?),
        EventKindDef::Disable(name) => TimelineEvent::Disable(resolve(name)?),
        EventKindDef::Release(name) => TimelineEvent::Release(resolve(name)?),
        EventKindDef::Add(def) => TimelineEvent::Add(resolve(&def.name)?),
        EventKindDef::Suspend { frames } => TimelineEvent::Suspend { frames: *frames },
    })
}
