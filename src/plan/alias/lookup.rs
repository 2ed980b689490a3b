//! Sharing transients found by entity, for the hand-overs' scans of every barrier and use of
//! a frame: a table indexed by entity index where the indices are dense, as a world's are,
//! else a hash map. The table holds positions, and a hit is checked against the entity
//! itself, so another generation of the same index is not mistaken for it.

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// No transient at this index.
const NONE: u32 = u32::MAX;

/// The position of each of a list of entities, by entity.
#[derive(Debug, Default)]
pub(super) struct Lookup {
    entities: Vec<Entity>,
    low: u32,
    /// Position by `index - low`; empty when the indices are too spread for it.
    direct: Vec<u32>,
    sparse: EntityHashMap<u32>,
}

impl Lookup {
    /// Entity `entities[i]` is found at `i`.
    #[cfg(test)]
    pub(super) fn new(entities: Vec<Entity>) -> Lookup {
        let mut lookup = Lookup::default();
        lookup.rebuild(entities);
        lookup
    }

    /// Find entity number `i` of `entities` at `i` from now on, reusing the memory.
    pub(super) fn rebuild(&mut self, entities: impl IntoIterator<Item = Entity>) {
        self.entities.clear();
        self.entities.extend(entities);
        let (low, high) = (self.entities.iter()).fold((u32::MAX, 0), |(lo, hi), e| {
            (lo.min(e.index_u32()), hi.max(e.index_u32()))
        });
        self.low = low;
        self.direct.clear();
        self.sparse.clear();
        if low <= high && ((high - low) as usize) <= 8 * self.entities.len() + 1024 {
            self.direct.resize((high - low) as usize + 1, NONE);
            for (i, e) in self.entities.iter().enumerate() {
                self.direct[(e.index_u32() - low) as usize] = i as u32;
            }
        } else {
            let positions = (self.entities.iter().enumerate()).map(|(i, &e)| (e, i as u32));
            self.sparse.extend(positions);
        }
    }

    /// Where `e` is in the list, if it is.
    #[inline]
    pub(super) fn get(&self, e: Entity) -> Option<usize> {
        if self.direct.is_empty() {
            return self.sparse.get(&e).map(|&i| i as usize);
        }
        let i = *self
            .direct
            .get(e.index_u32().wrapping_sub(self.low) as usize)?;
        (i != NONE && self.entities[i as usize] == e).then_some(i as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32) -> Entity {
        Entity::from_raw_u32(index).expect("valid index")
    }

    #[test]
    fn finds_each_entity_by_table_or_by_hash() {
        for list in [vec![e(10), e(12), e(11)], vec![e(5), e(4_000_000), e(7)]] {
            let lookup = Lookup::new(list.clone());
            for (i, &x) in list.iter().enumerate() {
                assert_eq!(lookup.get(x), Some(i));
            }
            assert_eq!(lookup.get(e(6)), None);
            assert_eq!(lookup.get(e(3_999_999)), None);
            assert_eq!(lookup.get(e(0)), None);
        }
        assert!(!Lookup::new(vec![e(10), e(12)]).direct.is_empty());
        assert!(Lookup::new(vec![e(5), e(4_000_000)]).direct.is_empty());
        assert_eq!(Lookup::new(Vec::new()).get(e(1)), None);
    }

    #[test]
    fn another_generation_of_an_index_is_not_found() {
        let old = e(10);
        let new =
            Entity::from_index_and_generation(old.index(), old.generation().after_versions(1));
        assert_eq!(old.index(), new.index());
        assert_eq!(Lookup::new(vec![old]).get(new), None);
        assert_eq!(Lookup::new(vec![old]).get(old), Some(0));
    }
}
