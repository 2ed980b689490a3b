//! Subresources in the happens-before model: an access through a view of some mips or slices,
//! or a barrier whose range names some, touches only those (EB-6). A texture keeps one state
//! while everything that touches it names every subresource, and one state per subresource
//! from the first thing that names fewer, each starting as a copy of the whole state; what
//! names every subresource then applies to each. The validator keeps this apart from the
//! planner's parts (it must share no logic with the planner).

use super::{HazardTracker, ResourceState};
use crate::barrier::{SubresourceRange, Subresources, TextureInfo};
use crate::device::ObjectKey;

/// The subresources of a texture a touch or barrier names, when not all of them: a box of
/// mips x slices x planes, with the texture's dimensions to number them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    dims: [u32; 3],
    first: [u32; 3],
    count: [u32; 3],
}

impl Part {
    /// The part `range` names of `tex`; `None` for every subresource or an invalid range
    /// (which the barrier-call checks report).
    pub fn of(range: &SubresourceRange, tex: &TextureInfo) -> Option<Part> {
        if range.is_all() {
            return None;
        }
        let subs = Subresources::resolve(range, tex).ok()?;
        if subs.covers_all(tex) {
            return None;
        }
        let axis = |r: &std::ops::Range<u32>| (r.start, r.end - r.start);
        let [(m0, mc), (s0, sc), (p0, pc)] =
            [axis(&subs.mips), axis(&subs.slices), axis(&subs.planes)];
        Some(Part {
            dims: [tex.mips, tex.array_size, tex.planes],
            first: [m0, s0, p0],
            count: [mc, sc, pc],
        })
    }

    /// Subresources of the texture.
    pub fn total(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    /// The subresource indices named (mip + mips * (slice + slices * plane), as D3D12
    /// numbers subresources).
    pub fn indices(self) -> impl Iterator<Item = usize> {
        let [mips, slices, _] = self.dims.map(|d| d as usize);
        let (first, count) = (self.first, self.count);
        let range = move |k: usize| first[k] as usize..(first[k] + count[k]) as usize;
        range(2).flat_map(move |p| {
            range(1).flat_map(move |s| range(0).map(move |m| m + mips * (s + slices * p)))
        })
    }
}

/// Which states of a resource something touches: the whole one, or subresources by index.
pub(super) enum Slots {
    Whole,
    Split(Vec<usize>),
}

impl HazardTracker {
    /// The states `part` of `resource` names, splitting the resource's state per subresource
    /// the first time something names fewer than all.
    pub(super) fn slots(&mut self, resource: ObjectKey, part: Option<Part>) -> Slots {
        match (part, self.split.contains_key(&resource)) {
            (None, false) => Slots::Whole,
            (None, true) => Slots::Split((0..self.split[&resource].len()).collect()),
            (Some(p), split) => {
                if !split {
                    let whole = self.resources.remove(&resource).unwrap_or_default();
                    self.split.insert(resource, vec![whole; p.total()]);
                }
                let n = self.split[&resource].len();
                Slots::Split(p.indices().filter(|&i| i < n).collect())
            }
        }
    }

    /// The state in `slot` of `resource` (created empty).
    pub(super) fn state_mut(
        &mut self,
        resource: ObjectKey,
        slot: Option<usize>,
    ) -> &mut ResourceState {
        match slot {
            None => self.resources.entry(resource).or_default(),
            Some(i) => &mut self.split.entry(resource).or_default()[i],
        }
    }

    /// The state in `slot` of `resource`, if any.
    pub(super) fn state(&self, resource: ObjectKey, slot: Option<usize>) -> Option<&ResourceState> {
        match slot {
            None => self.resources.get(&resource),
            Some(i) => self.split.get(&resource)?.get(i),
        }
    }

    /// Every state of `resource`: the whole one, or each subresource's.
    pub(super) fn states_of(&self, resource: ObjectKey) -> impl Iterator<Item = &ResourceState> {
        (self.resources.get(&resource).into_iter())
            .chain(self.split.get(&resource).into_iter().flatten())
    }
}

impl Slots {
    /// The slots as `state_mut` takes them.
    pub(super) fn list(&self) -> Vec<Option<usize>> {
        match self {
            Slots::Whole => vec![None],
            Slots::Split(v) => v.iter().map(|&i| Some(i)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_numbers_its_subresources_mip_first() {
        let tex = TextureInfo {
            array_size: 2,
            ..TextureInfo::render_target(3, 1, 1 << 20)
        };
        let range = SubresourceRange {
            first_mip: 1,
            mip_count: 2,
            first_slice: 1,
            slice_count: 1,
            first_plane: 0,
            plane_count: 1,
        };
        let part = Part::of(&range, &tex).expect("a part");
        assert_eq!(part.total(), 6);
        assert_eq!(part.indices().collect::<Vec<_>>(), [4, 5]);
        assert_eq!(Part::of(&SubresourceRange::ALL, &tex), None);
    }
}
