//! What a pass will likely cost on the GPU, judged at compile time from what the scene
//! declares, before any command is recorded. Two decisions need it: queue assignment keeps a
//! compute pass cheaper than `async_min_us` on graphics, where a fence would cost more than
//! the overlap gains, and [`Order::Overlap`](crate::model::Order) runs each queue on an
//! estimated clock so that a queue never waits for work the other has not started.
//!
//! The estimates price work the way the simulated device does (`device::cost`): shading
//! spread over every compute unit, over the fixed-function floors of the geometry front end,
//! the colour back end and the launches, and over a declared cost's memory or measured
//! floor. They leave out what only the device knows: how many CUs the other queues hold,
//! partial flushes that wait for earlier work to drain, decompression. Each write a pass
//! makes also counts the write-back and invalidation of the cache it goes through, the
//! barrier after it that every written texture or UAV pays (EB-3).

use crate::device::{CacheCost, Profile, QueueId};
use crate::model::{Pass, UseAccess, Work};
use crate::plan::PlannedUse;

/// A lower bound on a compute pass's GPU time, ns, as the device would price its work: the
/// dispatches' shading spread over every compute unit, or the floor its declared cost or its
/// dispatch count sets, whichever is longer. Passes without dispatches cost nothing here.
pub fn estimated_ns(pass: &Pass, profile: &Profile) -> u64 {
    let (Work::Dispatch {
        dispatches,
        threads,
    }
    | Work::DispatchIndirect {
        dispatches,
        threads,
    }) = pass.work
    else {
        return 0;
    };
    let cost = pass.cost.map(|c| c.shader_cost());
    let cycles = cost.and_then(|c| c.cycles).unwrap_or(profile.thread_cycles);
    let shading = profile.work_mcu_ns(threads.saturating_mul(u64::from(cycles)))
        / u64::from(profile.capacity_mcu());
    let floor = (u64::from(dispatches).saturating_mul(profile.dispatch_ns))
        .max(cost.map_or(0, |c| c.floor_ns(profile)));
    shading.max(floor)
}

/// An estimate of pass `pass`'s GPU time on `queue`, ns: its work (any kind) and the cache
/// maintenance of each write among `uses`, the pass's planned uses.
pub fn pass_ns(pass: &Pass, uses: &[PlannedUse], queue: QueueId, profile: &Profile) -> u64 {
    let cost = pass.cost.map(|c| c.shader_cost());
    let floor = cost.map_or(0, |c| c.floor_ns(profile));
    let work = match pass.work {
        Work::Dispatch { .. } | Work::DispatchIndirect { .. } => estimated_ns(pass, profile),
        Work::Draw {
            draws,
            vertices,
            pixels,
        }
        | Work::DrawIndirect {
            draws,
            vertices,
            pixels,
        } => {
            let pixel_cycles = cost.and_then(|c| c.cycles).unwrap_or(profile.pixel_cycles);
            let lanes = (vertices.saturating_mul(u64::from(profile.vertex_cycles)))
                .saturating_add(pixels.saturating_mul(u64::from(pixel_cycles)));
            let shading = profile.work_mcu_ns(lanes) / u64::from(profile.capacity_mcu());
            shading
                .max(profile.rate_ns(vertices, profile.vertices_per_clock))
                .max(profile.rate_ns(pixels, profile.pixels_per_clock))
                .max(u64::from(draws).saturating_mul(profile.draw_ns))
                .max(floor)
        }
        Work::Copy { bytes, .. } => {
            let bandwidth = match queue {
                QueueId::Dma { .. } => profile.dma_bytes_per_us,
                _ => profile.memory_bytes_per_us,
            };
            Profile::transfer_ns(bytes, bandwidth)
        }
        Work::None => 0,
    };
    let caches = &profile.caches;
    let maintenance = |c: CacheCost| c.writeback_ns.saturating_add(c.invalidate_ns);
    uses.iter()
        .filter(|u| u.bound)
        .map(|u| match u.access {
            UseAccess::RenderTarget => maintenance(caches.color),
            UseAccess::DepthWrite => maintenance(caches.depth),
            UseAccess::UnorderedAccess => maintenance(caches.vector),
            UseAccess::CopyDest => maintenance(caches.l2),
            _ => 0,
        })
        .fold(work, u64::saturating_add)
}

/// Into `out`, [`pass_ns`] of each of `passes`, whose planned uses are `uses` and queues
/// `queues`: what `Order::Overlap` schedules with.
pub(super) fn pass_costs<'u>(
    passes: &[(bevy_ecs::entity::Entity, &str, &Pass)],
    uses: impl Iterator<Item = &'u [PlannedUse]>,
    queues: &[QueueId],
    profile: &Profile,
    out: &mut Vec<u64>,
) {
    let each = passes.iter().zip(uses).zip(queues);
    out.extend(each.map(|(((_, _, pass), uses), &queue)| pass_ns(pass, uses, queue, profile)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pass, QueueKind};

    fn pass(work: Work) -> Pass {
        Pass {
            work,
            ..Pass::dispatch(QueueKind::Graphics, Vec::new(), 0)
        }
    }

    #[test]
    fn a_draw_costs_at_least_its_launches_and_its_pixels() {
        let p = Profile::default();
        let small = pass_ns(
            &pass(Work::Draw {
                draws: 1,
                vertices: 3,
                pixels: 64,
            }),
            &[],
            QueueId::Graphics,
            &p,
        );
        assert_eq!(small, p.draw_ns, "one small draw costs its launch");
        let big = pass_ns(
            &pass(Work::Draw {
                draws: 1,
                vertices: 3,
                pixels: 8_000_000,
            }),
            &[],
            QueueId::Graphics,
            &p,
        );
        assert!(big > 100 * small, "{big} against {small}");
    }

    #[test]
    fn a_copy_on_the_dma_engine_moves_at_its_bandwidth() {
        let p = Profile::default();
        let copy = pass(Work::Copy {
            bytes: 1 << 24,
            from: None,
            to: None,
        });
        let dma = pass_ns(&copy, &[], QueueId::Dma { engine: 0 }, &p);
        assert_eq!(dma, Profile::transfer_ns(1 << 24, p.dma_bytes_per_us));
        assert_eq!(
            pass_ns(&copy, &[], QueueId::Graphics, &p),
            Profile::transfer_ns(1 << 24, p.memory_bytes_per_us)
        );
    }

    #[test]
    fn a_dispatch_is_priced_as_queue_assignment_prices_it() {
        let p = Profile::default();
        let d = pass(Work::Dispatch {
            dispatches: 4,
            threads: 1 << 22,
        });
        assert_eq!(
            pass_ns(&d, &[], QueueId::Graphics, &p),
            estimated_ns(&d, &p)
        );
        assert_eq!(pass_ns(&pass(Work::None), &[], QueueId::Graphics, &p), 0);
    }

    fn using(access: UseAccess, bound: bool) -> PlannedUse {
        let e = bevy_ecs::entity::Entity::from_raw_u32(1).expect("valid index");
        PlannedUse {
            target: e,
            resource: e,
            access,
            stages: crate::barrier::Sync::PIXEL_SHADING,
            layout: None,
            view_kind: None,
            clear: false,
            key: e,
            range: crate::barrier::SubresourceRange::ALL,
            view_range: crate::barrier::SubresourceRange::ALL,
            bound,
        }
    }

    /// EB-3: each write pays its cache's write-back and invalidation, once per use bound
    /// (a use split over parts is one write); reads pay nothing here.
    #[test]
    fn each_write_adds_its_caches_maintenance() {
        let p = Profile::default();
        let idle = pass(Work::None);
        let color = p.caches.color.writeback_ns + p.caches.color.invalidate_ns;
        let vector = p.caches.vector.writeback_ns + p.caches.vector.invalidate_ns;
        let uses = [
            using(UseAccess::RenderTarget, true),
            using(UseAccess::RenderTarget, false),
            using(UseAccess::UnorderedAccess, true),
            using(UseAccess::ShaderRead, true),
        ];
        assert!(color > 0 && vector > 0);
        assert_eq!(pass_ns(&idle, &uses, QueueId::Graphics, &p), color + vector);
    }
}
