//! Numbering resources by entity as compile meets them, one lookup per use.
//!
//! A world hands out entity indices densely, so the resources a frame uses sit in a narrow
//! band of indices; a table indexed by entity index (less the band's low end) then finds each
//! one's number with one read, where a hash map at 100,000 resources misses the cache on every
//! probe. The band starts where the previous compile's lowest index was (a recompile sees the
//! same resources), or a little below the first index a fresh one meets. Indices outside it
//! (below its start, or far above: a world that grew and shrank, entities made by hand) go to
//! a hash map instead, so the table stays within a few words per resource. A hit in the table
//! is checked against the entity itself: another generation of the same index is another
//! resource.

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// No resource at this index.
const NONE: u32 = u32::MAX;

/// Table slots allowed per numbered resource, beyond a fixed start: the band's width.
const SLOTS_PER_RESOURCE: usize = 16;
const SLOTS_START: usize = 4096;

/// Resource numbers by entity, kept between compiles.
#[derive(Debug, Default)]
pub(super) struct Numbering {
    /// The band's first index; `None` until a compile has met an entity.
    low: Option<u32>,
    /// Number by entity index less `low`; `NONE` where no resource of this compile has it.
    direct: Vec<u32>,
    sparse: EntityHashMap<u32>,
    /// Entity of each number, in order.
    entities: Vec<Entity>,
}

impl Numbering {
    /// Forget every number, touching only the slots this compile's resources took; the next
    /// compile's band starts at this one's lowest index.
    pub(super) fn clear(&mut self) {
        let low = self.low.unwrap_or(0);
        let mut lowest = None::<u32>;
        for e in self.entities.drain(..) {
            let index = e.index_u32();
            lowest = Some(lowest.map_or(index, |l| l.min(index)));
            if let Some(slot) =
                (index.checked_sub(low)).and_then(|i| self.direct.get_mut(i as usize))
            {
                *slot = NONE;
            }
        }
        if lowest.is_some() {
            self.low = lowest;
        }
        self.sparse.clear();
    }

    /// The number of `e`, and whether it is new (then it is the next number in order).
    #[inline]
    pub(super) fn number(&mut self, e: Entity) -> (u32, bool) {
        // Below the band, the index wraps far above it.
        let slot = e.index_u32().wrapping_sub(self.low.unwrap_or(0)) as usize;
        match self.direct.get(slot) {
            Some(&n) if n != NONE && self.entities[n as usize] == e => (n, false),
            Some(&NONE) => {
                let next = self.entities.len() as u32;
                self.direct[slot] = next;
                self.entities.push(e);
                (next, true)
            }
            _ => self.beyond(e),
        }
    }

    /// `e` beyond the table as it stands: the band is set (a fresh numbering's first entity)
    /// or grown to it where that keeps the table small, else it goes to the hash map (outside
    /// the band, or another generation of an index in it).
    #[cold]
    fn beyond(&mut self, e: Entity) -> (u32, bool) {
        let index = e.index_u32();
        let low = *(self.low).get_or_insert(index.saturating_sub(SLOTS_START as u32 / 2));
        let next = self.entities.len() as u32;
        if let Some(slot) = index.checked_sub(low).map(|i| i as usize)
            && slot >= self.direct.len()
            && slot < SLOTS_PER_RESOURCE * self.entities.len() + SLOTS_START
        {
            self.direct.resize(slot + 1, NONE);
            self.direct[slot] = next;
            self.entities.push(e);
            return (next, true);
        }
        match self.sparse.get(&e) {
            Some(&n) => (n, false),
            None => {
                self.sparse.insert(e, next);
                self.entities.push(e);
                (next, true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32, generation: u32) -> Entity {
        let first = Entity::from_raw_u32(index).expect("valid index");
        Entity::from_index_and_generation(
            first.index(),
            first.generation().after_versions(generation),
        )
    }

    #[test]
    fn numbers_in_order_of_first_sight_by_table_or_by_hash() {
        let mut n = Numbering::default();
        assert_eq!(n.number(e(3, 0)), (0, true));
        assert_eq!(n.number(e(1_000_000, 0)), (1, true), "far off: hashed");
        assert_eq!(n.number(e(3, 0)), (0, false));
        assert_eq!(n.number(e(1_000_000, 0)), (1, false));
        assert_eq!(n.number(e(4, 0)), (2, true));
        assert!(n.direct.len() < 4096 + 64, "the table stays in the band");
    }

    #[test]
    fn another_generation_is_another_resource() {
        let mut n = Numbering::default();
        assert_eq!(n.number(e(7, 0)), (0, true));
        assert_eq!(n.number(e(7, 1)), (1, true));
        assert_eq!(n.number(e(7, 1)), (1, false));
        assert_eq!(n.number(e(7, 0)), (0, false));
    }

    #[test]
    fn clearing_forgets_every_number() {
        let mut n = Numbering::default();
        for i in 0..100 {
            n.number(e(i * 3, 0));
        }
        n.number(e(u32::MAX - 1, 0));
        n.clear();
        assert!(n.direct.iter().all(|&s| s == NONE));
        assert_eq!(n.number(e(297, 0)), (0, true));
        assert_eq!(n.number(e(u32::MAX - 1, 0)), (1, true));
        assert_eq!(
            n.number(e(0, 0)),
            (2, true),
            "the lowest index of the last compile"
        );
    }

    #[test]
    fn a_band_far_from_zero_is_a_table_from_the_second_compile_on() {
        let mut n = Numbering::default();
        let base = 1 << 24;
        for i in [5, 2, 9, 0] {
            n.number(e(base + i, 0));
        }
        n.clear();
        assert_eq!(n.low, Some(base));
        for (k, i) in [5, 2, 9, 0].into_iter().enumerate() {
            assert_eq!(n.number(e(base + i, 0)), (k as u32, true));
        }
        assert!(n.sparse.is_empty(), "every one in the table");
        assert!(n.direct.len() <= 10 + 4096 / 2);
    }
}
