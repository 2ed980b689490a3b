//! Rule: the passes enabled at load can be ordered.
//!
//! Order is derived from the declarations (uses of a resource in declaration order, reads of
//! history first, explicit `after` edges), by the same [`crate::plan::order::order`] the runtime compiles
//! with, so a scene that loads is a scene the runtime can order. The graph is built here
//! before any entity exists: each resource is keyed by its definition number (a view counts
//! as the resource it views, a swap chain as itself, exactly as the runtime keys them), and
//! only passes that are live and not disabled take part, because those are the ones the
//! first frame compiles. A pass naming itself in `after` is reported as the shortest cycle;
//! the graph ignores self-edges, but the author surely did not mean it.
//!
//! The error says why each pass of the cycle must run before the next, naming the resource
//! and the ordering rule (or the `after` edge) that put them in that order: the edge to
//! change is among those.

use bevy_ecs::entity::Entity;

use super::check::Check;
use super::error::SceneError;
use super::index::Kind;
use crate::model::Lifetime;
use crate::plan::order::{Cycle, GraphNode, order, reason};

/// Reports the first dependency cycle among the passes enabled at load.
pub fn check(c: &Check) -> Result<(), SceneError> {
    let passes: Vec<usize> = (0..c.index.defs.len())
        .filter(|&id| c.index.defs[id].event.is_none())
        .filter(|&id| c.index.kind(id) == Some(Kind::Pass))
        .filter(|&id| c.index.def(id).is_some_and(|d| d.disabled != Some(true)))
        .collect();
    let node_of = |id: usize| passes.iter().position(|&p| p == id);
    let mut nodes = Vec::with_capacity(passes.len());
    for &id in &passes {
        let mut node = GraphNode::default();
        let Some(pass) = c.index.def(id).and_then(|d| d.pass.as_ref()) else {
            nodes.push(node);
            continue;
        };
        for u in &pass.uses {
            let resource = c.index.id(&u.target).and_then(|t| c.index.resource(t));
            let Some(key) = resource.and_then(|(r, _)| key(r)) else {
                continue;
            };
            if u.access.is_write() {
                node.writes.push(key);
            } else {
                node.reads.push(key);
            }
        }
        for name in &pass.after {
            let Some(before) = c.index.id(name) else {
                continue;
            };
            if before == id {
                let p = c.index.name(id).unwrap_or_default();
                return Err(cycle(
                    c,
                    &[id],
                    vec![format!("{p:?} is declared `after` itself")],
                ));
            }
            node.after.extend(node_of(before));
        }
        nodes.push(node);
    }
    // Imported textures and buffers keep last frame's contents (a read before the frame's
    // first write sees them); transients and swap chains do not.
    let keeps = |k: Entity| {
        let id = k.index_u32() as usize;
        c.index
            .kind(id)
            .is_some_and(|kind| matches!(kind, Kind::Texture | Kind::Buffer))
            && c.index
                .def(id)
                .is_some_and(|d| d.lifetime != Some(Lifetime::Transient))
    };
    let Err(Cycle(members)) = order(&nodes, keeps) else {
        return Ok(());
    };
    let name = |id: usize| c.index.name(id).unwrap_or_default();
    let because = (0..members.len())
        .map(|i| {
            let (a, b) = (members[i], members[(i + 1) % members.len()]);
            let (pa, pb) = (name(passes[a]), name(passes[b]));
            reason(&nodes, a, b).map_or_else(
                || format!("{pa:?} runs before {pb:?}"),
                |r| r.describe(&pa, &pb, |k| name(k.index_u32() as usize)),
            )
        })
        .collect();
    let ids: Vec<usize> = members.iter().map(|&n| passes[n]).collect();
    Err(cycle(c, &ids, because))
}

/// A stand-in entity for resource definition `id`: only identity matters to the ordering.
fn key(id: usize) -> Option<Entity> {
    u32::try_from(id).ok().and_then(Entity::from_raw_u32)
}

/// The error for a cycle through definitions `ids` (each before the next, the last before
/// the first), located at the first, with why each runs before the next.
fn cycle(c: &Check, ids: &[usize], because: Vec<String>) -> SceneError {
    let mut path: Vec<String> = ids.iter().filter_map(|&id| c.index.name(id)).collect();
    if let Some(first) = path.first().cloned() {
        path.push(first);
    }
    let first = ids.first().copied();
    SceneError::Cycle {
        location: first.map_or_else(|| c.loc.start(), |id| c.loc.def(id)),
        entity: c.owner(first),
        path,
        because,
    }
}
