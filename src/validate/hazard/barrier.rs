//! Barriers in the happens-before model: how a barrier extends ordering and visibility of
//! earlier accesses, and layout transitions as read-modify-writes (barrier-spec D).

use super::*;

impl HazardTracker {
    /// Apply a barrier group on `at.queue` (no placed memory shared).
    pub fn barrier(
        &mut self,
        at: At,
        group: &BarrierGroup<ObjectKey>,
        part: impl Fn(&crate::barrier::TextureBarrier<ObjectKey>) -> Option<Part>,
    ) -> Vec<Hazard> {
        self.barrier_placed(at, group, part, &|_| Vec::new())
    }

    /// Apply a barrier group on `at.queue`: extend ordering and visibility of earlier
    /// accesses, and check layout transitions as read-modify-writes.
    /// `part` gives the subresources a texture barrier's range names, when not all;
    /// `aliases` the placed resources sharing a resource's memory, whose earlier work a
    /// barrier orders too and which a transition must follow (EB-5, `memory`).
    pub fn barrier_placed(
        &mut self,
        at: At,
        group: &BarrierGroup<ObjectKey>,
        part: impl Fn(&crate::barrier::TextureBarrier<ObjectKey>) -> Option<Part>,
        aliases: Aliases,
    ) -> Vec<Hazard> {
        let q = at.queue.index();
        let named = (group
            .buffers
            .iter()
            .map(|b| (b.resource, b.sync_before, b.sync_after)))
        .chain((group.textures.iter()).map(|t| (t.resource, t.sync_before, t.sync_after)));
        for (r, before, after) in named {
            self.alias_sync(q, &aliases(r), before, after);
        }
        let clock = self.clocks[q];
        let apply = |r: &mut Record, before: Sync, after: Sync, ab: Access, aa: Access| {
            if r.queue != q {
                // A consumer's barrier after the fence invalidates its caches for the write.
                if r.write && clock[r.queue] > r.pos && aa != Access::NO_ACCESS {
                    r.visible_on |= 1 << q;
                }
                return;
            }
            // A split barrier (A4) orders at its end what its beginning reached.
            let (begins, ends) = (after.contains(Sync::SPLIT), before.contains(Sync::SPLIT));
            let before = before.expand();
            let reached = match ends {
                true => r.split_open,
                false => {
                    r.chained.contains(Sync::ALL.expand())
                        || r.stages.union(r.chained).intersects(before)
                }
            };
            if reached {
                r.split_open = begins;
                r.chained |= after.expand();
                // AccessBefore COMMON stands for every write (barrier-spec A1).
                let writes_back = ab.is_empty() || ab.contains(r.access);
                if r.write && writes_back && ab != Access::NO_ACCESS {
                    r.written_back = true;
                }
                // Once written back, any later barrier that reaches the write invalidates the
                // caches its AccessAfter names (COMMON: all of them).
                if r.write && r.written_back && aa != Access::NO_ACCESS {
                    if aa.is_empty() {
                        r.visible_all = true;
                    } else {
                        r.visible |= aa;
                    }
                }
            }
        };
        for g in &group.global {
            let split = self.split.values_mut().flatten();
            for state in self.resources.values_mut().chain(split) {
                for r in state.write.iter_mut().chain(state.reads.iter_mut()) {
                    apply(
                        r,
                        g.sync_before,
                        g.sync_after,
                        g.access_before,
                        g.access_after,
                    );
                }
            }
        }
        for b in &group.buffers {
            let split = self.split.get_mut(&b.resource).into_iter().flatten();
            for state in self.resources.get_mut(&b.resource).into_iter().chain(split) {
                for r in state.write.iter_mut().chain(state.reads.iter_mut()) {
                    apply(
                        r,
                        b.sync_before,
                        b.sync_after,
                        b.access_before,
                        b.access_after,
                    );
                }
            }
        }
        let mut out = Vec::new();
        for t in &group.textures {
            let slots = self.slots(t.resource, part(t)).list();
            for &slot in &slots {
                let state = self.state_mut(t.resource, slot);
                for r in state.write.iter_mut().chain(state.reads.iter_mut()) {
                    apply(
                        r,
                        t.sync_before,
                        t.sync_after,
                        t.access_before,
                        t.access_after,
                    );
                }
            }
            // The end half of a split transition: the beginning made the transition.
            if t.layout_before != t.layout_after && !t.sync_before.contains(Sync::SPLIT) {
                // The transition itself writes the texture between the two scopes: it must be
                // ordered after everything before, and everything after waits on its scope.
                let touch = Touch {
                    resource: t.resource,
                    access: t.access_after,
                    stages: t.sync_before,
                    write: true,
                    part: part(t),
                    through_l2: false,
                };
                // Even a DISCARD activation writes (metadata) and must wait for earlier users.
                // One finding per earlier access, however many subresources share it.
                let pos = self.position(at.queue) + 1;
                let shared = self.alias_hazards(q, pos, &touch, true, &aliases(t.resource));
                for h in self.check_only(q, &touch, &slots).into_iter().chain(shared) {
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
                let pos = self.advance(q);
                for &slot in &slots {
                    let state = self.state_mut(t.resource, slot);
                    state.reads.clear();
                    state.write = Some(Record {
                        queue: q,
                        pos,
                        stages: t.sync_before.expand(),
                        access: t.access_after,
                        write: true,
                        chained: t.sync_after.expand(),
                        via_alias: Sync::empty(),
                        visible: t.access_after,
                        visible_all: t.access_after.is_empty(),
                        transition: true,
                        split_open: t.sync_after.contains(Sync::SPLIT),
                        written_back: true,
                        visible_on: 0,
                        label: at.label,
                        frame: at.frame,
                    });
                }
            }
        }
        out
    }

    /// Hazards `touch` would have against earlier accesses, where "ordered" for a barrier
    /// means its SyncBefore reaches them (same queue) or a fence does (other queues).
    fn check_only(&self, q: usize, touch: &Touch, slots: &[Option<usize>]) -> Vec<Hazard> {
        let before = touch.stages.expand();
        let reached = |r: &Record| {
            if r.queue == q {
                self.completed[q] > r.pos
                    || r.chained.contains(Sync::ALL.expand())
                    || r.stages.union(r.chained).intersects(before)
            } else {
                self.clocks[q][r.queue] > r.pos
            }
        };
        (slots.iter())
            .filter_map(|&slot| self.state(touch.resource, slot))
            .flat_map(|state| state.write.iter().chain(state.reads.iter()))
            .filter_map(|r| {
                let kind = match (reached(r), r.queue == q, r.write) {
                    // Another queue's write must be written back before the transition rewrites
                    // the memory (FS-2).
                    (true, false, true) if !r.written_back => HazardKind::WriteNotVisible,
                    (true, ..) => return None,
                    (false, true, true) => HazardKind::WriteAfterWrite,
                    (false, true, false) => HazardKind::WriteAfterRead,
                    (false, false, true) => HazardKind::WriteRacingWrite,
                    (false, false, false) => HazardKind::WriteRacingRead,
                };
                Some((r, kind))
            })
            .map(|(r, kind)| Hazard {
                kind,
                resource: touch.resource,
                earlier_queue: QueueId::from_index(r.queue).unwrap_or_default(),
                earlier_label: r.label,
                earlier_frame: r.frame,
                through: None,
            })
            .collect()
    }
}
