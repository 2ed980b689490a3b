//! The compile step that splits textures into subresource parts (see [`Parts`]): each use of
//! a split texture becomes one use per part it covers, keyed by the part.

use bevy_ecs::prelude::*;

use super::PlannedUse;
use super::parts::{Cell, Dims, Parts, range_of, resolve};
use crate::barrier::SubresourceRange;

/// Split every texture in `dims` (in order of first use) whose uses name different ranges,
/// and give each use its key and range: the texture and every subresource when it is not
/// split, else one use per part it covers (the first of them `bound`, which recording
/// binds once).
pub fn split_uses(
    planned: &mut [(Entity, String, super::QueueId, Vec<PlannedUse>)],
    dims: &[(Entity, Dims)],
) -> Parts {
    let mut parts = Parts::default();
    let partial = |u: &PlannedUse| !u.range.is_all();
    if !planned.iter().flat_map(|p| &p.3).any(partial) {
        return parts;
    }
    let cell = |u: &PlannedUse, d: Dims| resolve(&u.range, d);
    let mut splits: hashbrown::HashMap<Entity, Vec<(Entity, Cell)>> = hashbrown::HashMap::new();
    for &(texture, d) in dims {
        let used: Vec<Cell> = (planned.iter().flat_map(|p| &p.3))
            .filter(|u| u.resource == texture)
            .map(|u| cell(u, d))
            .collect();
        if let Some(cells) = parts.split(texture, d, &used) {
            splits.insert(texture, cells);
        }
    }
    let dims_of = |e: Entity| dims.iter().find(|(t, _)| *t == e).map(|(_, d)| *d);
    for (_, _, _, uses) in planned.iter_mut() {
        let mut out = Vec::with_capacity(uses.len());
        for u in uses.drain(..) {
            let (Some(cells), Some(d)) = (splits.get(&u.resource), dims_of(u.resource)) else {
                out.push(PlannedUse {
                    range: SubresourceRange::ALL,
                    ..u
                });
                continue;
            };
            let within = cell(&u, d);
            let inside = |c: &Cell| {
                (0..3).all(|k| within[k].start <= c[k].start && c[k].end <= within[k].end)
            };
            for (i, (key, c)) in cells.iter().filter(|(_, c)| inside(c)).enumerate() {
                out.push(PlannedUse {
                    key: *key,
                    range: range_of(c),
                    bound: i == 0,
                    ..u.clone()
                });
            }
        }
        *uses = out;
    }
    parts
}
