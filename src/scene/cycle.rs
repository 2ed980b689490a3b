//! Rule: the passes enabled at load can be ordered.
//!
//! Order is derived from the declarations (writers before readers, writers in declaration
//! order, explicit `after` edges), by the same [`crate::plan::order::order`] the runtime compiles
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
use crate::plan::order::{Cycle, GraphNode, order};

/// Reports the first dependency cycle among the passes enabled at load.
pub fn check(c: &Check) -> Result<(), SceneError> {
    let passes: Vec<usize> = (0..c.index.defs.len())
        .filter(|&id| c.index.defs[id].event.is_none())
        .filter(|&id| c.index.kind(id) == Some(Kind::Pass))
        .filter(|&id| c.index.def(id).is_some_and(|d| d.disabled != Some(true)))
        .collect();
    let node_of = |id: usize| passes.iter().position(|&p| p == id);
    let mut nodes = Vec::with_capacity(passes.len());
    // Per pass, the resources (by definition) it writes and reads, for the explanation.
    let mut touched: Vec<(usize, Vec<usize>, Vec<usize>)> = Vec::with_capacity(passes.len());
    for &id in &passes {
        let Some(pass) = c.index.def(id).and_then(|d| d.pass.as_ref()) else {
            continue;
        };
        let mut node = GraphNode::default();
        let (mut writes, mut reads) = (Vec::new(), Vec::new());
        for u in &pass.uses {
            let resource = c.index.id(&u.target).and_then(|t| c.index.resource(t));
            let Some((r, key)) = resource.and_then(|(r, _)| Some((r, key(r)?))) else {
                continue;
            };
            if u.access.is_write() {
                node.writes.push(key);
                writes.push(r);
            } else {
                node.reads.push(key);
                reads.push(r);
            }
        }
        touched.push((id, writes, reads));
        for name in &pass.after {
            let Some(before) = c.index.id(name) else {
                continue;
            };
            if before == id {
                return Err(cycle(c, &[id], &touched));
            }
            node.after.extend(node_of(before));
        }
        nodes.push(node);
    }
    match order(&nodes) {
        Ok(_) => Ok(()),
        Err(Cycle(members)) => {
            let ids: Vec<usize> = members
                .iter()
                .filter_map(|&n| passes.get(n).copied())
                .collect();
            Err(cycle(c, &ids, &touched))
        }
    }
}

/// A stand-in entity for resource definition `id`: only identity matters to the ordering.
fn key(id: usize) -> Option<Entity> {
    u32::try_from(id).ok().and_then(Entity::from_raw_u32)
}

/// The error for a cycle through definitions `ids` (each before the next, the last before
/// the first), located at the first, with why each runs before the next (`touched`: each
/// pass's written and read resource definitions).
fn cycle(c: &Check, ids: &[usize], touched: &[(usize, Vec<usize>, Vec<usize>)]) -> SceneError {
    let mut path: Vec<String> = ids.iter().filter_map(|&id| c.index.name(id)).collect();
    if let Some(first) = path.first().cloned() {
        path.push(first);
    }
    let because = (0..ids.len())
        .map(|i| why(c, ids[i], ids[(i + 1) % ids.len()], touched))
        .collect();
    let first = ids.first().copied();
    SceneError::Cycle {
        location: first.map_or_else(|| c.loc.start(), |id| c.loc.def(id)),
        entity: c.owner(first),
        path,
        because,
    }
}

/// Why pass `a` runs before pass `b`: an `after` edge, a resource `a` writes and `b` reads
/// (writers before readers), or one both write with `a` declared first (writers in
/// declaration order).
fn why(c: &Check, a: usize, b: usize, touched: &[(usize, Vec<usize>, Vec<usize>)]) -> String {
    let name = |id: usize| c.index.name(id).unwrap_or_default();
    let (pa, pb) = (name(a), name(b));
    let after = c.index.def(b).and_then(|d| d.pass.as_ref());
    if after.is_some_and(|p| p.after.iter().any(|n| c.index.id(n) == Some(a))) {
        return format!("{pb:?} is declared `after` {pa:?}");
    }
    let of = |id: usize| touched.iter().find(|t| t.0 == id);
    if let (Some((_, wa, _)), Some((_, wb, rb))) = (of(a), of(b)) {
        if let Some(&r) = wa.iter().find(|r| rb.contains(r)) {
            return format!(
                "{pa:?} writes {:?}, which {pb:?} reads (writers run before readers)",
                name(r)
            );
        }
        if let Some(&r) = wa.iter().find(|r| wb.contains(r)) {
            return format!(
                "{pa:?} and {pb:?} both write {:?} (writers run in declaration order)",
                name(r)
            );
        }
    }
    format!("{pa:?} runs before {pb:?}")
}
