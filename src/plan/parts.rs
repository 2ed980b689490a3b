//! Subresource parts: how a texture whose passes use different subresources (a mip chain, the
//! faces of a cube, the cascades of a shadow array) is planned piece by piece.
//!
//! Planning tracks state per resource, so a texture that one pass reads at mip 0 while it
//! writes mip 1 must not be one resource to it: it is split into parts. Compile cuts each
//! axis (mips, array slices, planes) at every boundary a use's range names and makes every
//! cell of that grid a part: the coarsest split in which each use covers whole parts. Each
//! part is planned as a resource of its own, under a key entity of its own, so ordering,
//! fences and every barrier planner work per subresource without knowing it (wgpu-core keeps
//! texture state per mip and layer range the same way). A texture whose uses all name every
//! subresource is not split and keeps its own entity as its key.
//!
//! Keys are entity ids counted down from the top of the index space, which a world never
//! reaches (it allocates from the bottom), so they cannot name a live entity. After planning,
//! [`Parts::fold`] turns barriers on keys back into barriers on the texture with the part's
//! range, one barrier where parts with the same transition make a box (EB-6: one barrier call
//! covers a whole transition where ranges agree).

use std::ops::Range;

use bevy_ecs::prelude::*;

use crate::barrier::{LegacyBarrier, SubresourceRange, TextureBarrier};

/// The first part key's index; later parts count down from it.
const PART_BASE: u32 = u32::MAX - 1;

/// A texture's subresource counts: mips, array slices, planes.
pub type Dims = [u32; 3];

/// A box of subresources: a range per axis (mips, slices, planes).
pub type Cell = [Range<u32>; 3];

/// Resolve `range` against a texture of `dims` (counts of `u32::MAX` run to the end), clamped
/// to the texture.
pub fn resolve(range: &SubresourceRange, dims: Dims) -> Cell {
    let axis = |first: u32, count: u32, n: u32| {
        let start = first.min(n);
        start..start.saturating_add(count).min(n).max(start)
    };
    [
        axis(range.first_mip, range.mip_count, dims[0]),
        axis(range.first_slice, range.slice_count, dims[1]),
        axis(range.first_plane, range.plane_count, dims[2]),
    ]
}

/// The barrier range of a cell.
pub fn range_of(cell: &Cell) -> SubresourceRange {
    SubresourceRange {
        first_mip: cell[0].start,
        mip_count: cell[0].len() as u32,
        first_slice: cell[1].start,
        slice_count: cell[1].len() as u32,
        first_plane: cell[2].start,
        plane_count: cell[2].len() as u32,
    }
}

/// The parts of the split textures of one compiled graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    /// Per part (key `PART_BASE - index`): its texture, the cell it covers, and the texture's
    /// dimensions.
    parts: Vec<(Entity, Cell, Dims)>,
}

impl Parts {
    /// Split a texture of `dims` by the cells its uses touch: returns the keys and cells of
    /// its parts, or `None` when every use covers the whole texture.
    pub fn split(
        &mut self,
        texture: Entity,
        dims: Dims,
        used: &[Cell],
    ) -> Option<Vec<(Entity, Cell)>> {
        let whole: Cell = [0..dims[0], 0..dims[1], 0..dims[2]];
        if used.iter().all(|c| *c == whole) {
            return None;
        }
        let cuts = |axis: usize| {
            let mut c: Vec<u32> = vec![0, dims[axis]];
            for cell in used {
                c.extend([cell[axis].start, cell[axis].end]);
            }
            c.sort_unstable();
            c.dedup();
            c.windows(2).map(|w| w[0]..w[1]).collect::<Vec<_>>()
        };
        let (mips, slices, planes) = (cuts(0), cuts(1), cuts(2));
        let mut out = Vec::with_capacity(mips.len() * slices.len() * planes.len());
        for p in &planes {
            for s in &slices {
                for m in &mips {
                    let cell = [m.clone(), s.clone(), p.clone()];
                    let key = PART_BASE
                        .checked_sub(self.parts.len() as u32)
                        .and_then(Entity::from_raw_u32)?;
                    self.parts.push((texture, cell.clone(), dims));
                    out.push((key, cell));
                }
            }
        }
        Some(out)
    }

    /// The texture a part key belongs to, and the cell it covers; `None` for any other entity.
    pub fn get(&self, key: Entity) -> Option<(Entity, &Cell)> {
        let i = PART_BASE.checked_sub(key.index_u32())? as usize;
        let (e, cell, _) = self.parts.get(i)?;
        (Entity::from_raw_u32(key.index_u32()) == Some(key)).then_some((*e, cell))
    }

    /// True when no texture is split.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Texture barriers on part keys as barriers on their textures: each with its part's
    /// range, those of one texture with the same halves merged where they make a box.
    pub fn fold_textures(&self, barriers: &mut Vec<TextureBarrier<Entity>>) {
        if self.is_empty() || barriers.iter().all(|b| self.get(b.resource).is_none()) {
            return;
        }
        // Each barrier, with the cell and dimensions of its texture when it came from a part.
        type Folded = (TextureBarrier<Entity>, Option<(Cell, Dims)>);
        let mut out: Vec<Folded> = Vec::new();
        for b in barriers.drain(..) {
            let Some(i) = PART_BASE
                .checked_sub(b.resource.index_u32())
                .map(|i| i as usize)
            else {
                out.push((b, None));
                continue;
            };
            let Some((texture, cell, dims)) = self.get(b.resource).map(|_| &self.parts[i]) else {
                out.push((b, None));
                continue;
            };
            let folded = TextureBarrier {
                resource: *texture,
                ..b
            };
            // Merge into an earlier barrier of the same texture and halves where the two
            // cells make a box.
            let merged = out.iter_mut().any(|(o, c)| {
                let Some((oc, _)) = c else { return false };
                if (TextureBarrier {
                    range: b.range,
                    ..*o
                }) != folded
                {
                    return false;
                }
                match join(oc, cell) {
                    Some(j) => {
                        *oc = j;
                        true
                    }
                    None => false,
                }
            });
            if !merged {
                out.push((folded, Some((cell.clone(), *dims))));
            }
        }
        barriers.extend(out.into_iter().map(|(mut b, c)| {
            if let Some((cell, dims)) = c {
                let whole = cell == [0..dims[0], 0..dims[1], 0..dims[2]];
                b.range = if whole {
                    SubresourceRange::ALL
                } else {
                    range_of(&cell)
                };
            }
            b
        }));
    }

    /// Legacy barriers on part keys as barriers on their textures: a transition of a part is
    /// one transition per subresource of it (legacy barriers name one subresource or all).
    pub fn fold_legacy(&self, barriers: &mut Vec<LegacyBarrier<Entity>>) {
        if self.is_empty() {
            return;
        }
        let mut out = Vec::with_capacity(barriers.len());
        let real = |e: Entity| self.get(e).map_or(e, |(t, _)| t);
        for b in barriers.drain(..) {
            match b {
                LegacyBarrier::Transition {
                    resource,
                    before,
                    after,
                    split,
                    ..
                } if self.get(resource).is_some() => {
                    let i = (PART_BASE - resource.index_u32()) as usize;
                    let (texture, cell, dims) = &self.parts[i];
                    for p in cell[2].clone() {
                        for s in cell[1].clone() {
                            for m in cell[0].clone() {
                                out.push(LegacyBarrier::Transition {
                                    resource: *texture,
                                    subresource: m + dims[0] * (s + dims[1] * p),
                                    before,
                                    after,
                                    split,
                                });
                            }
                        }
                    }
                }
                LegacyBarrier::Uav { resource } => {
                    let b = LegacyBarrier::Uav {
                        resource: resource.map(real),
                    };
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
                LegacyBarrier::Aliasing { before, after } => out.push(LegacyBarrier::Aliasing {
                    before: before.map(real),
                    after: after.map(real),
                }),
                other => out.push(other),
            }
        }
        *barriers = out;
    }
}

/// The box two cells make together, if they differ along one axis only and touch there.
fn join(a: &Cell, b: &Cell) -> Option<Cell> {
    let differ: Vec<usize> = (0..3).filter(|&k| a[k] != b[k]).collect();
    match differ[..] {
        [] => Some(a.clone()),
        [k] if a[k].end == b[k].start || b[k].end == a[k].start => {
            let mut j = a.clone();
            j[k] = a[k].start.min(b[k].start)..a[k].end.max(b[k].end);
            Some(j)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, Layout, Sync};

    fn tex() -> Entity {
        Entity::from_raw_u32(5).expect("valid index")
    }

    fn mip(m: u32) -> Cell {
        [m..m + 1, 0..1, 0..1]
    }

    #[test]
    fn a_mip_chain_splits_at_every_mip_a_use_names() {
        let mut parts = Parts::default();
        let whole = [0..4, 0..1, 0..1];
        assert!(
            parts
                .split(tex(), [4, 1, 1], std::slice::from_ref(&whole))
                .is_none()
        );
        let split = parts
            .split(tex(), [4, 1, 1], &[mip(0), [1..4, 0..1, 0..1], whole])
            .expect("split");
        let cells: Vec<Cell> = split.iter().map(|(_, c)| c.clone()).collect();
        assert_eq!(cells, [mip(0), [1..4, 0..1, 0..1]]);
        let (key, _) = &split[1];
        assert_eq!(parts.get(*key), Some((tex(), &[1..4, 0..1, 0..1])));
        assert_eq!(parts.get(tex()), None);
    }

    #[test]
    fn barriers_fold_back_into_ranges_and_merge_into_boxes() {
        let mut parts = Parts::default();
        let used = [mip(0), mip(1), mip(2)];
        let split = parts.split(tex(), [3, 1, 1], &used).expect("split");
        let b = |key: Entity, after: Layout| TextureBarrier {
            resource: key,
            sync_before: Sync::ALL,
            sync_after: Sync::COMPUTE_SHADING,
            access_before: Access::NO_ACCESS,
            access_after: Access::SHADER_RESOURCE,
            layout_before: Layout::Common,
            layout_after: after,
            range: SubresourceRange::ALL,
            flags: Default::default(),
        };
        // Mips 0 and 2 go to SHADER_RESOURCE, mip 1 to UNORDERED_ACCESS: no box joins 0 and 2.
        let mut list = vec![
            b(split[0].0, Layout::ShaderResource),
            b(split[1].0, Layout::UnorderedAccess),
            b(split[2].0, Layout::ShaderResource),
        ];
        parts.fold_textures(&mut list);
        assert_eq!(list.len(), 3);
        assert!(list.iter().all(|t| t.resource == tex()));
        assert_eq!((list[1].range.first_mip, list[1].range.mip_count), (1, 1));
        // All three alike: one barrier on every subresource.
        let mut list: Vec<_> = (split.iter())
            .map(|(k, _)| b(*k, Layout::ShaderResource))
            .collect();
        parts.fold_textures(&mut list);
        assert_eq!(list.len(), 1);
        assert!(list[0].range.is_all());
    }

    #[test]
    fn a_legacy_transition_of_a_part_names_each_subresource() {
        let mut parts = Parts::default();
        let used = [[0..2, 1..2, 0..1], [0..2, 0..2, 0..1]];
        let split = parts.split(tex(), [2, 2, 1], &used).expect("split");
        assert_eq!(split.len(), 2);
        let mut list = vec![LegacyBarrier::Transition {
            resource: split[1].0,
            subresource: crate::barrier::ALL_SUBRESOURCES,
            before: crate::barrier::ResourceStates::COMMON,
            after: crate::barrier::ResourceStates::UNORDERED_ACCESS,
            split: Default::default(),
        }];
        parts.fold_legacy(&mut list);
        let subs: Vec<u32> = list
            .iter()
            .map(|b| match b {
                LegacyBarrier::Transition { subresource, .. } => *subresource,
                _ => u32::MAX,
            })
            .collect();
        assert_eq!(subs, [2, 3], "slice 1, mips 0 and 1");
    }
}
