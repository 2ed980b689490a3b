//! A generated graph as the compiler takes it, without a world: what the pipeline bench and
//! the aliasing tests compile and place. Texture `i` is entity `RESOURCE_BASE + i`, pass `i`
//! entity `i + 1`; graphics passes render into their texture, compute passes write it as a
//! UAV, and every read is a shader read.

use bevy_ecs::prelude::*;
use glam::UVec2;

use super::GenGraph;
use crate::model::{Lifetime, Pass, QueueKind, Texture, TextureFlags, Use, UseAccess};
use crate::plan::TargetInfo;

/// Index of texture 0's entity, above any pass's.
pub const RESOURCE_BASE: u32 = 1 << 24;

impl GenGraph {
    /// The entity of texture `i`.
    pub fn texture(i: usize) -> Entity {
        Entity::from_raw_u32(RESOURCE_BASE + i as u32).expect("below the entity index limit")
    }

    /// Which texture `e` is, if it is one of this graph's.
    pub fn texture_number(&self, e: Entity) -> Option<usize> {
        let i = e.index_u32().checked_sub(RESOURCE_BASE)? as usize;
        (i < self.transient.len()).then_some(i)
    }

    /// Every pass with its entity and name, in declaration order.
    pub fn passes(&self) -> Vec<(Entity, String, Pass)> {
        let use_of = |j: usize, access: UseAccess| Use {
            target: Self::texture(j),
            access,
            stages: None,
            clear: false,
            range: None,
        };
        (self.reads.iter().enumerate())
            .map(|(i, reads)| {
                let (queue, access) = match self.compute[i] {
                    true => (QueueKind::Compute, UseAccess::UnorderedAccess),
                    false => (QueueKind::Graphics, UseAccess::RenderTarget),
                };
                let write = use_of(i, access);
                let uses = std::iter::once(write)
                    .chain(reads.iter().map(|&j| use_of(j, UseAccess::ShaderRead)));
                let entity = Entity::from_raw_u32(i as u32 + 1).expect("a valid index");
                let pass = Pass::dispatch(queue, uses.collect(), i as u32);
                (entity, format!("p{i}"), pass)
            })
            .collect()
    }

    /// The lifetime of texture entity `e` (imported for anything else).
    pub fn lifetime(&self, e: Entity) -> Lifetime {
        match self.texture_number(e).map(|i| self.transient[i]) {
            Some(true) => Lifetime::Transient,
            _ => Lifetime::Imported,
        }
    }

    /// What the compiler asks of a use's target.
    pub fn target(&self, e: Entity) -> TargetInfo {
        TargetInfo::texture(self.lifetime(e))
    }

    /// The bytes of texture entity `e` when it is transient: what aliasing places.
    pub fn transient_bytes(&self, e: Entity) -> Option<u64> {
        let i = self.texture_number(e).filter(|&i| self.transient[i])?;
        let (side, format) = self.size[i];
        Some(Texture::new_2d(format, UVec2::splat(side), TextureFlags::default()).bytes())
    }
}
