//! Hand-overs: the barriers that pass a placed transient's bytes to the next one (EB-5,
//! EB-9d; barrier-spec A2, A3.2, A3.5).
//!
//! A barrier planner plans each resource as if it owned its memory. Once transients share a
//! heap ([`super::AliasPlan`]), every one whose bytes another also uses (it *shares*) needs,
//! in every frame:
//!
//! - an **activation** before its first use, on that pass's queue: a texture barrier from
//!   LayoutBefore UNDEFINED with DISCARD (AccessBefore NO_ACCESS), a buffer barrier from
//!   AccessBefore NO_ACCESS. The planner's own barrier there, if any, becomes the activation;
//!   otherwise one is added, into the layout and accesses of that first use. Its SyncBefore
//!   also reaches the stages in which the *previous occupants* of its bytes (the transients
//!   placed there latest before it, on the frame's circle) were used on this queue, so their
//!   work is done before the new contents are initialised (V0815). Occupants on other queues
//!   are ordered by a fence: placement only hands bytes over at a pass a cross-queue fence
//!   orders after every use ([`super::lifetimes`]), so no sync is needed for them (V0814);
//! - a **deactivation** after its last use, at the end of that pass: AccessAfter NO_ACCESS,
//!   SyncAfter NONE, AccessBefore the accesses since the queue's last barrier on it, which
//!   writes them back before any fence the next occupant waits on (FS-2). The planner's own
//!   barrier there becomes it, else one is added in the layout the texture is in.
//!
//! The deactivation ends one pass and the activation opens a later one, so the two are never
//! in one Barrier call (A3.5). A transient whose bytes no other uses needs neither: it is
//! planned as if it owned its memory, which it does.

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

use super::AliasPlan;
use super::sharing::{Sharing, sharing_info};
use crate::barrier::SubresourceRange;
use crate::barrier::{Access, BufferBarrier, Layout, Sync, TextureBarrier, TextureBarrierFlags};
use crate::plan::CompiledGraph;
use crate::plan::barriers::{FramePlan, SlotEdit};

/// The hand-overs of one placement on one graph: what each sharing transient needs, worked
/// out once, then applied to each frame of the graph's barrier plan.
pub struct HandOver<'a> {
    graph: &'a CompiledGraph,
    alias: &'a AliasPlan,
    info: EntityHashMap<Sharing>,
    edit: SlotEdit,
}

/// Add the hand-overs of the transients `alias` places to one frame of a barrier plan.
pub fn hand_over(graph: &CompiledGraph, alias: &AliasPlan, frame: &mut FramePlan) {
    HandOver::new(graph, alias).apply(frame);
}

impl<'a> HandOver<'a> {
    /// What the transients `alias` places on `graph` need handed over.
    pub fn new(graph: &'a CompiledGraph, alias: &'a AliasPlan) -> HandOver<'a> {
        HandOver {
            graph,
            alias,
            info: sharing_info(graph, alias),
            edit: SlotEdit::default(),
        }
    }

    /// Add the hand-overs to one frame of the graph's barrier plan.
    pub fn apply(&mut self, frame: &mut FramePlan) {
        if self.info.is_empty() {
            return;
        }
        // What a frame's own barriers say is found again in each frame.
        for s in self.info.values_mut() {
            s.last_barrier = None;
            (s.since_stages, s.since_access) = (Sync::default(), Access::default());
        }
        activate(self.alias, &self.info, frame, &mut self.edit);
        declare(&self.info, frame, &mut self.edit);
        find_last_barriers(self.graph, self.alias, &mut self.info, frame);
        deactivate(self.alias, &self.info, frame, &mut self.edit);
    }
}

/// The slots `at` gives the sharing transients (sorted, once each), and the transients by
/// slot, then placement: a deterministic order for the barriers added.
fn in_slot_order(
    info: &EntityHashMap<Sharing>,
    at: impl Fn(&Sharing) -> u32,
) -> (Vec<u32>, Vec<(u32, Entity)>) {
    let mut order: Vec<(u32, u32, Entity)> = (info.iter())
        .map(|(&e, s)| (at(s), s.placement, e))
        .collect();
    order.sort_unstable_by_key(|&(slot, p, _)| (slot, p));
    let mut slots: Vec<u32> = order.iter().map(|o| o.0).collect();
    slots.dedup();
    (slots, order.into_iter().map(|(s, _, e)| (s, e)).collect())
}

/// Make the barrier before each sharing transient's first use its activation, or add one.
fn activate(
    alias: &AliasPlan,
    info: &EntityHashMap<Sharing>,
    frame: &mut FramePlan,
    edit: &mut SlotEdit,
) {
    let at = |s: &Sharing| 2 * alias.placements[s.placement as usize].first;
    let (slots, order) = in_slot_order(info, at);
    let mut next = 0;
    frame
        .barriers
        .edit_slots(edit, &slots, |slot, buffers, textures| {
            while let Some(&(_, e)) = order.get(next).filter(|(s, _)| *s == slot) {
                next += 1;
                let s = &info[&e];
                let before = |b: Sync| if s.wait.is_empty() { b } else { b | s.wait };
                if s.texture {
                    let mut found = false;
                    for t in textures.iter_mut().filter(|t| t.resource == e) {
                        found = true;
                        t.sync_before = before(t.sync_before);
                        t.access_before = Access::NO_ACCESS;
                        t.layout_before = Layout::Undefined;
                        t.flags.discard = true;
                    }
                    if !found {
                        // Its own last frame's work on this queue is ordered too.
                        textures.push(TextureBarrier {
                            sync_before: before(s.own_stages),
                            sync_after: s.first_stages,
                            access_before: Access::NO_ACCESS,
                            access_after: s.first_access,
                            layout_before: Layout::Undefined,
                            layout_after: s.first_layout.unwrap_or(Layout::Common),
                            resource: e,
                            range: SubresourceRange::ALL,
                            flags: TextureBarrierFlags { discard: true },
                        });
                    }
                } else {
                    let mut found = false;
                    for b in buffers.iter_mut().filter(|b| b.resource == e) {
                        found = true;
                        b.sync_before = before(b.sync_before);
                        b.access_before = Access::NO_ACCESS;
                    }
                    if !found {
                        // A buffer has no layout: it declares every access it has on this queue,
                        // which a planner that names no buffers (conservative) does not again.
                        buffers.push(BufferBarrier {
                            resource: e,
                            sync_before: before(s.own_stages),
                            sync_after: s.own_stages,
                            access_before: Access::NO_ACCESS,
                            access_after: s.own_access,
                        });
                    }
                }
            }
        });
}

/// Where a transient is deactivated on another queue than the one it is activated on, its
/// first use there in the next frame finds it declared NO_ACCESS on that queue: a barrier on
/// it there must declare the access again (barrier-spec A3.2), unless the planner's already
/// does. The layout is the one the last barrier before it left (else its first use's).
fn declare(info: &EntityHashMap<Sharing>, frame: &mut FramePlan, edit: &mut SlotEdit) {
    let mut order: Vec<(u32, u32, Entity)> = (info.iter())
        .filter_map(|(&e, s)| Some((2 * s.reuse?, s.placement, e)))
        .collect();
    if order.is_empty() {
        return;
    }
    order.sort_unstable_by_key(|&(slot, p, _)| (slot, p));
    let mut layouts: EntityHashMap<Layout> = EntityHashMap::default();
    let bars = &frame.barriers;
    for k in 0..bars.passes() {
        for t in bars.before(k).textures.iter().chain(bars.after(k).textures) {
            let s = info.get(&t.resource);
            if s.is_some_and(|s| s.reuse.is_some_and(|r| (r as usize) > k)) {
                layouts.insert(t.resource, t.layout_after);
            }
        }
    }
    let mut slots: Vec<u32> = order.iter().map(|o| o.0).collect();
    slots.dedup();
    let mut next = 0;
    frame
        .barriers
        .edit_slots(edit, &slots, |slot, buffers, textures| {
            while let Some(&(_, _, e)) = order.get(next).filter(|o| o.0 == slot) {
                next += 1;
                let s = &info[&e];
                let (sync, access) = (s.reuse_stages, s.reuse_access);
                if s.texture && !textures.iter().any(|t| t.resource == e) {
                    let layout = (layouts.get(&e).copied())
                        .or(s.reuse_layout)
                        .unwrap_or(Layout::Common);
                    textures.push(TextureBarrier {
                        sync_before: sync,
                        sync_after: sync,
                        access_before: access,
                        access_after: access,
                        layout_before: layout,
                        layout_after: layout,
                        resource: e,
                        range: SubresourceRange::ALL,
                        flags: TextureBarrierFlags::default(),
                    });
                } else if !s.texture && !buffers.iter().any(|b| b.resource == e) {
                    let access = s.last_access;
                    buffers.push(BufferBarrier {
                        resource: e,
                        sync_before: sync,
                        sync_after: sync,
                        access_before: access,
                        access_after: access,
                    });
                }
            }
        });
}

/// For each sharing transient, the last barrier naming it on the queue of its last pass, up
/// to the start of that pass, and the stages and accesses of its uses there since.
fn find_last_barriers(
    graph: &CompiledGraph,
    alias: &AliasPlan,
    info: &mut EntityHashMap<Sharing>,
    frame: &FramePlan,
) {
    let bars = &frame.barriers;
    for k in 0..graph.passes.len() {
        for (slot, group) in [(2 * k, bars.before(k)), (2 * k + 1, bars.after(k))] {
            let q = graph.passes[k].queue;
            let texture = group
                .textures
                .iter()
                .map(|t| (t.resource, t.sync_after, t.access_after, t.layout_after));
            let buffer = (group.buffers.iter())
                .map(|b| (b.resource, b.sync_after, b.access_after, Layout::Undefined));
            for (e, sync, access, layout) in texture.chain(buffer) {
                let Some(s) = info.get_mut(&e) else { continue };
                let last = alias.placements[s.placement as usize].last as usize;
                if slot <= 2 * last && graph.passes[last].queue == q {
                    s.last_barrier = Some((slot as u32, sync, access, layout));
                }
            }
        }
    }
    for (k, pass) in graph.passes.iter().enumerate() {
        for u in &pass.uses {
            let Some(s) = info.get_mut(&u.resource) else {
                continue;
            };
            let last = alias.placements[s.placement as usize].last as usize;
            let after = s
                .last_barrier
                .is_none_or(|(slot, ..)| 2 * k >= slot as usize);
            if k <= last && graph.passes[last].queue == pass.queue && after {
                s.since_stages |= u.stages;
                s.since_access |= u.access.access();
            }
        }
    }
}

/// Make the barrier after each sharing transient's last use its deactivation, or add one.
fn deactivate(
    alias: &AliasPlan,
    info: &EntityHashMap<Sharing>,
    frame: &mut FramePlan,
    edit: &mut SlotEdit,
) {
    let at = |s: &Sharing| 2 * alias.placements[s.placement as usize].last + 1;
    let (slots, order) = in_slot_order(info, at);
    let mut next = 0;
    let starts: EntityHashMap<Layout> = (frame.start.iter())
        .filter(|(e, ..)| info.contains_key(e))
        .map(|&(e, l, _)| (e, l))
        .collect();
    frame
        .barriers
        .edit_slots(edit, &slots, |slot, buffers, textures| {
            while let Some(&(_, e)) = order.get(next).filter(|(s, _)| *s == slot) {
                next += 1;
                let s = &info[&e];
                let (sync_before, access_before, layout) = match s.last_barrier {
                    // Within what the last barrier declared (barrier-spec A9): a planner that
                    // orders later accesses with global barriers (conservative) declares less.
                    Some((_, sync, access, layout)) => {
                        let since = s.since_access & access;
                        let access = if since.is_empty() { access } else { since };
                        (sync | s.since_stages, access, layout)
                    }
                    None => {
                        let layout = starts.get(&e).copied().unwrap_or(Layout::Common);
                        (s.since_stages, s.since_access, layout)
                    }
                };
                if s.texture {
                    let mut found = false;
                    for t in textures.iter_mut().filter(|t| t.resource == e) {
                        found = true;
                        t.sync_after = Sync::NONE;
                        t.access_after = Access::NO_ACCESS;
                    }
                    if !found {
                        textures.push(TextureBarrier {
                            sync_before,
                            sync_after: Sync::NONE,
                            access_before,
                            access_after: Access::NO_ACCESS,
                            layout_before: layout,
                            layout_after: layout,
                            resource: e,
                            range: SubresourceRange::ALL,
                            flags: TextureBarrierFlags::default(),
                        });
                    }
                } else {
                    let mut found = false;
                    for b in buffers.iter_mut().filter(|b| b.resource == e) {
                        found = true;
                        b.sync_after = Sync::NONE;
                        b.access_after = Access::NO_ACCESS;
                    }
                    if !found {
                        buffers.push(BufferBarrier {
                            resource: e,
                            sync_before,
                            sync_after: Sync::NONE,
                            access_before,
                            access_after: Access::NO_ACCESS,
                        });
                    }
                }
            }
        });
}
