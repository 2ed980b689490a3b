//! Placed memory in the happens-before model (EB-5, EB-9d, barrier-spec A2, A3.4, FS-2).
//!
//! Placed resources whose byte ranges on a heap overlap are one memory seen through several
//! resources, so an access through one must be ordered after the accesses through the others
//! as if they named the same resource: a write through a placed buffer and a texture's
//! activation or read on the same bytes meet here, whatever their names. The aliasing checker
//! (`validate/aliasing.rs`) checks the hand-over protocol (deactivate, then activate in a
//! later call, fenced across queues); this module checks that the work itself is ordered:
//!
//! - on one queue, the barriers between the two accesses must reach the earlier one with
//!   their SyncBefore and cover the later one with their SyncAfter. Execution order is not
//!   per resource, so a barrier naming either resource (the deactivation of the old one, the
//!   activation of the new one) orders earlier work on the shared memory; that ordering is
//!   kept apart (`Record::via_alias`) so that it never excuses a missing barrier on the
//!   resource itself;
//! - across queues, a fence must order the earlier access before the later one, and a write
//!   must have been written back before the fence (FS-2), or its dirty lines land on the new
//!   resource's contents.
//!
//! Each finding names the resource touched and, in [`Hazard::through`], the one the earlier
//! access went through. The byte ranges come from the device's placements (`aliases`). A
//! placed texture counts whole: the API names its memory by subresource only (barrier-spec
//! A2: texture barriers carry subresource ranges, only buffer barriers offsets and sizes),
//! its compression is tracked per resource (EB-8b) and its activation initialises it whole
//! (EB-5), so its layout in memory is the driver's and any overlapping byte range aliases
//! every subresource (`validate::tests::placed_textures`).

use super::*;

/// The placed resources whose memory overlaps a resource's, as the device places them.
pub type Aliases<'a> = &'a dyn Fn(ObjectKey) -> Vec<ObjectKey>;

impl HazardTracker {
    /// Hazards of `t`, done by the command at `pos` of queue `q`, against the accesses through
    /// `aliases` (resources sharing its memory). `barrier` says `t` is a layout transition
    /// done by a barrier: then its stages are the barrier's SyncBefore, which need only reach
    /// the earlier access.
    pub(super) fn alias_hazards(
        &self,
        q: usize,
        pos: u64,
        t: &Touch,
        barrier: bool,
        aliases: &[ObjectKey],
    ) -> Vec<Hazard> {
        let stages = t.stages.expand();
        let raster = |s: Sync| s == Sync::RENDER_TARGET || s == Sync::DEPTH_STENCIL;
        let ordered = |e: &Record| {
            if e.queue != q {
                return self.clocks[q][e.queue] > e.pos;
            }
            let after = e.chained | e.via_alias;
            self.completed[q] > e.pos
                || after.contains(Sync::ALL.expand())
                || (barrier && e.stages.union(after).intersects(stages))
                || (!barrier && after.contains(stages))
                // The output merger writes in API order whatever target it writes.
                || (!barrier && raster(stages) && e.stages == stages)
        };
        let mut out = Vec::new();
        for &other in aliases {
            for state in self.states_of(other) {
                let earlier = (state.write.iter())
                    .chain(state.reads.iter().filter(|_| t.write))
                    .filter(|e| !(e.queue == q && e.pos == pos));
                for e in earlier {
                    let same = e.queue == q;
                    let kind = match (ordered(e), e.write, t.write) {
                        (false, true, true) if same => HazardKind::WriteAfterWrite,
                        (false, true, true) => HazardKind::WriteRacingWrite,
                        (false, true, false) if same => HazardKind::ReadAfterWrite,
                        (false, true, false) => HazardKind::ReadRacingWrite,
                        (false, false, _) if same => HazardKind::WriteAfterRead,
                        (false, false, _) => HazardKind::WriteRacingRead,
                        // Another queue's write still in its caches would land on this one's.
                        (true, true, true) if !same && !e.written_back => {
                            HazardKind::WriteNotVisible
                        }
                        (true, ..) => continue,
                    };
                    let h = Hazard {
                        kind,
                        resource: t.resource,
                        earlier_queue: QueueId::from_index(e.queue).unwrap_or_default(),
                        earlier_label: e.label,
                        earlier_frame: e.frame,
                        through: Some(other),
                    };
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
            }
        }
        out
    }

    /// A barrier on queue `q` naming a resource that shares memory with `aliases`: its
    /// SyncBefore waits for earlier work on that memory, whatever resource it went through,
    /// so work in its SyncAfter is ordered after it (for the memory checks only).
    pub(super) fn alias_sync(
        &mut self,
        q: usize,
        aliases: &[ObjectKey],
        before: Sync,
        after: Sync,
    ) {
        let (before, after) = (before.expand(), after.expand());
        for other in aliases {
            let split = self.split.get_mut(other).into_iter().flatten();
            for state in self.resources.get_mut(other).into_iter().chain(split) {
                for r in state.write.iter_mut().chain(state.reads.iter_mut()) {
                    let reached = r.stages | r.chained | r.via_alias;
                    if r.queue == q
                        && (reached.contains(Sync::ALL.expand()) || reached.intersects(before))
                    {
                        r.via_alias |= after;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::BufferBarrier;
    use slotmap::SlotMap;

    fn at(queue: QueueId) -> At {
        At {
            queue,
            label: 0,
            frame: 0,
        }
    }

    fn touch(resource: ObjectKey, stages: Sync, access: Access, write: bool) -> Touch {
        Touch {
            resource,
            access,
            stages,
            write,
            part: None,
            through_l2: false,
        }
    }

    fn buffer_barrier(resource: ObjectKey, before: Sync, after: Sync) -> BarrierGroup<ObjectKey> {
        BarrierGroup {
            buffers: vec![BufferBarrier {
                sync_before: before,
                sync_after: after,
                access_before: Access::NO_ACCESS,
                access_after: Access::COPY_DEST,
                resource,
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_write_through_one_alias_meets_a_write_through_the_other() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (a, b) = (keys.insert(()), keys.insert(()));
        let aliases = |k: ObjectKey| if k == a { vec![b] } else { vec![a] };
        let g = QueueId::Graphics;
        let mut tracker = HazardTracker::default();
        let write = |r| touch(r, Sync::COMPUTE_SHADING, Access::UNORDERED_ACCESS, true);
        tracker.access_placed(at(g), &[write(a)], &aliases);
        // No barrier: the second write through `b` is not ordered after the first.
        let found = tracker.access_placed(at(g), &[write(b)], &aliases);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].kind, HazardKind::WriteAfterWrite);
        assert_eq!(found[0].through, Some(a));
        // A barrier on `a` (its deactivation) reaching the compute write orders the next.
        let group = buffer_barrier(a, Sync::COMPUTE_SHADING, Sync::COMPUTE_SHADING);
        tracker.barrier_placed(at(g), &group, |_| None, &aliases);
        assert_eq!(tracker.access_placed(at(g), &[write(a)], &aliases), []);
        // So does one on `b` (its activation) reaching it, yet never for `a` itself.
        let group = buffer_barrier(b, Sync::ALL, Sync::COMPUTE_SHADING);
        tracker.barrier_placed(at(g), &group, |_| None, &aliases);
        assert_eq!(tracker.access_placed(at(g), &[write(b)], &aliases), []);
        let own = tracker.access_placed(at(g), &[write(a)], &|_| Vec::new());
        assert_eq!(own.len(), 1, "{own:?}");
    }

    #[test]
    fn a_read_through_one_alias_meets_a_write_through_the_other_on_any_queue() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (buffer, texture) = (keys.insert(()), keys.insert(()));
        let aliases = |k: ObjectKey| {
            if k == buffer {
                vec![texture]
            } else {
                vec![buffer]
            }
        };
        let (g, c) = (QueueId::Graphics, QueueId::Compute { pipe: 0, index: 0 });
        let mut tracker = HazardTracker::default();
        let write = touch(
            buffer,
            Sync::COMPUTE_SHADING,
            Access::UNORDERED_ACCESS,
            true,
        );
        let read = touch(texture, Sync::PIXEL_SHADING, Access::SHADER_RESOURCE, false);
        tracker.access_placed(at(c), &[write], &aliases);
        // Another queue, no fence: the read races the write on the same bytes.
        let found = tracker.access_placed(at(g), &[read], &aliases);
        let kinds: Vec<_> = found.iter().map(|h| (h.kind, h.through)).collect();
        assert_eq!(kinds, [(HazardKind::ReadRacingWrite, Some(buffer))]);
        // Reads never conflict with reads, whatever they go through.
        let again = touch(
            buffer,
            Sync::COMPUTE_SHADING,
            Access::SHADER_RESOURCE,
            false,
        );
        let mut fresh = HazardTracker::default();
        fresh.access_placed(at(g), &[read], &aliases);
        assert_eq!(fresh.access_placed(at(g), &[again], &aliases), []);
    }
}
