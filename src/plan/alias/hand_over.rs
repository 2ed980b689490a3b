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

use super::AliasPlan;
use super::sharing::{SharingFacts, sharing_info};
use crate::barrier::SubresourceRange;
use crate::barrier::{Access, BufferBarrier, Layout, Sync, TextureBarrier, TextureBarrierFlags};
use crate::plan::CompiledGraph;
use crate::plan::barriers::{FramePlan, SlotEdit};

/// The slots one kind of hand-over barrier goes in (sorted, once each), and the sharing
/// transients by slot, then placement: a deterministic order for the barriers added.
#[derive(Debug, Default)]
struct Slots {
    slots: Vec<u32>,
    order: Vec<(u32, u32)>,
}

impl Slots {
    /// The slot `at` gives each transient `0..count` that has one; sorted by counting, as
    /// slots are few (two a pass).
    fn new(count: usize, at: impl Fn(usize) -> Option<u32>) -> Slots {
        let given: Vec<(u32, u32)> = (0..count)
            .filter_map(|i| Some((at(i)?, i as u32)))
            .collect();
        let end = given.iter().map(|g| g.0 as usize + 1).max().unwrap_or(0);
        let mut starts = vec![0u32; end + 1];
        for &(slot, _) in &given {
            starts[slot as usize + 1] += 1;
        }
        for k in 0..end {
            starts[k + 1] += starts[k];
        }
        let mut order = vec![(0, 0); given.len()];
        let mut slots = Vec::new();
        for &(slot, i) in &given {
            let at = &mut starts[slot as usize];
            order[*at as usize] = (slot, i);
            *at += 1;
        }
        for &(slot, _) in &order {
            if slots.last() != Some(&slot) {
                slots.push(slot);
            }
        }
        Slots { slots, order }
    }
}

/// What a frame's own barriers say of a sharing transient, found again in each frame.
#[derive(Clone, Copy, Debug, Default)]
struct Found {
    /// The last barrier on it, on the queue of its last pass, up to that pass: its slot and
    /// SyncAfter, AccessAfter and LayoutAfter.
    last_barrier: Option<(u32, Sync, Access, Layout)>,
    /// Stages and accesses of its uses on its last queue after that barrier.
    since_stages: Sync,
    since_access: Access,
    /// The layout the last barrier before its reuse pass leaves it in (`declare`).
    reuse_layout: Option<Layout>,
    /// Its layout at the start of the frame.
    start: Option<Layout>,
}

impl Found {
    /// `declare` added a barrier on the transient at `slot`, the first on its last queue
    /// in its reuse pass: the last barrier on it unless a later one was found.
    fn declared(&mut self, slot: u32, sync: Sync, access: Access, layout: Layout) {
        if self.last_barrier.is_none_or(|(at, ..)| at < slot) {
            self.last_barrier = Some((slot, sync, access, layout));
        }
    }
}

/// The hand-overs of one placement on one graph: what each sharing transient needs, worked
/// out once, then applied to each frame of the graph's barrier plan.
pub struct HandOver<'a> {
    graph: &'a CompiledGraph,
    alias: &'a AliasPlan,
    facts: SharingFacts,
    activations: Slots,
    declarations: Slots,
    deactivations: Slots,
    found: Vec<Found>,
    edit: SlotEdit,
}

/// Add the hand-overs of the transients `alias` places to one frame of a barrier plan.
pub fn hand_over(graph: &CompiledGraph, alias: &AliasPlan, frame: &mut FramePlan) {
    HandOver::new(graph, alias).apply(frame);
}

impl<'a> HandOver<'a> {
    /// What the transients `alias` places on `graph` need handed over.
    pub fn new(graph: &'a CompiledGraph, alias: &'a AliasPlan) -> HandOver<'a> {
        let facts = sharing_info(graph, alias);
        let (info, n) = (&facts.info, facts.info.len());
        let placed = |i: usize| &alias.placements[info[i].placement as usize];
        HandOver {
            graph,
            alias,
            activations: Slots::new(n, |i| Some(2 * placed(i).first)),
            declarations: Slots::new(n, |i| Some(2 * info[i].reuse?)),
            deactivations: Slots::new(n, |i| Some(2 * placed(i).last + 1)),
            found: vec![Found::default(); n],
            facts,
            edit: SlotEdit::default(),
        }
    }

    /// Add the hand-overs to one frame of the graph's barrier plan.
    pub fn apply(&mut self, frame: &mut FramePlan) {
        if self.facts.info.is_empty() {
            return;
        }
        self.found.fill(Found::default());
        self.activate(frame);
        self.find_last_barriers(frame);
        self.declare(frame);
        self.since(frame);
        self.deactivate(frame);
    }

    /// Make the barrier before each sharing transient's first use its activation, or add
    /// one.
    fn activate(&mut self, frame: &mut FramePlan) {
        let (info, order) = (&self.facts.info, &self.activations.order);
        let mut next = 0;
        (frame.barriers).edit_slots(
            &mut self.edit,
            &self.activations.slots,
            |slot, buffers, textures| {
                while let Some(&(_, i)) = order.get(next).filter(|(s, _)| *s == slot) {
                    next += 1;
                    let s = &info[i as usize];
                    let e = s.resource;
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
                            // A buffer has no layout: it declares every access it has on this
                            // queue, which a planner that names no buffers (conservative) does
                            // not again.
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
            },
        );
    }

    /// Where a transient is deactivated on another queue than the one it is activated on,
    /// its first use there in the next frame finds it declared NO_ACCESS on that queue: a
    /// barrier on it there must declare the access again (barrier-spec A3.2), unless the
    /// planner's already does. The layout is the one the last barrier before it left (else
    /// its first use's).
    fn declare(&mut self, frame: &mut FramePlan) {
        if self.declarations.order.is_empty() {
            return;
        }
        let info = &self.facts.info;
        let (found, order) = (&mut self.found, &self.declarations.order);
        let mut next = 0;
        (frame.barriers).edit_slots(
            &mut self.edit,
            &self.declarations.slots,
            |slot, buffers, textures| {
                while let Some(&(_, i)) = order.get(next).filter(|o| o.0 == slot) {
                    next += 1;
                    let s = &info[i as usize];
                    let e = s.resource;
                    let (sync, access) = (s.reuse_stages, s.reuse_access);
                    if s.texture && !textures.iter().any(|t| t.resource == e) {
                        let layout = (found[i as usize].reuse_layout)
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
                        found[i as usize].declared(slot, sync, access, layout);
                    } else if !s.texture && !buffers.iter().any(|b| b.resource == e) {
                        let access = s.last_access;
                        buffers.push(BufferBarrier {
                            resource: e,
                            sync_before: sync,
                            sync_after: sync,
                            access_before: access,
                            access_after: access,
                        });
                        found[i as usize].declared(slot, sync, access, Layout::Undefined);
                    }
                }
            },
        );
    }

    /// For each sharing transient, the last barrier naming it on the queue of its last
    /// pass, up to the start of that pass (`declare` adds its own after), and the layout
    /// the last barrier before its reuse pass leaves it in.
    fn find_last_barriers(&mut self, frame: &FramePlan) {
        let (graph, alias) = (self.graph, self.alias);
        let (info, lookup) = (&self.facts.info, &self.facts.lookup);
        let bars = &frame.barriers;
        for k in 0..graph.passes.len() {
            let q = graph.passes[k].queue;
            for (slot, group) in [(2 * k, bars.before(k)), (2 * k + 1, bars.after(k))] {
                let texture = group
                    .textures
                    .iter()
                    .map(|t| (t.resource, t.sync_after, t.access_after, t.layout_after));
                let buffer = (group.buffers.iter())
                    .map(|b| (b.resource, b.sync_after, b.access_after, Layout::Undefined));
                for (e, sync, access, layout) in texture.chain(buffer) {
                    let Some(i) = lookup.get(e) else { continue };
                    let s = &info[i];
                    let last = alias.placements[s.placement as usize].last as usize;
                    if slot <= 2 * last && graph.passes[last].queue == q {
                        self.found[i].last_barrier = Some((slot as u32, sync, access, layout));
                    }
                    if s.texture && s.reuse.is_some_and(|r| (r as usize) > k) {
                        self.found[i].reuse_layout = Some(layout);
                    }
                }
            }
        }
    }

    /// The stages and accesses of each sharing transient's uses on its last queue since the
    /// last barrier on it, and its layout at the start of the frame.
    fn since(&mut self, frame: &FramePlan) {
        for (i, found) in self.found.iter_mut().enumerate() {
            let from = found.last_barrier.map_or(0, |(slot, ..)| slot.div_ceil(2));
            for u in self.facts.tail(i).iter().filter(|u| u.pass >= from) {
                found.since_stages |= u.stages;
                found.since_access |= u.access;
            }
        }
        for &(e, layout, _) in &frame.start {
            if let Some(i) = self.facts.lookup.get(e) {
                self.found[i].start = Some(layout);
            }
        }
    }

    /// Make the barrier after each sharing transient's last use its deactivation, or add
    /// one.
    fn deactivate(&mut self, frame: &mut FramePlan) {
        let (info, found) = (&self.facts.info, &self.found);
        let order = &self.deactivations.order;
        let mut next = 0;
        (frame.barriers).edit_slots(
            &mut self.edit,
            &self.deactivations.slots,
            |slot, buffers, textures| {
                while let Some(&(_, i)) = order.get(next).filter(|(s, _)| *s == slot) {
                    next += 1;
                    let (s, f) = (&info[i as usize], &found[i as usize]);
                    let e = s.resource;
                    let (sync_before, access_before, layout) = match f.last_barrier {
                        // Within what the last barrier declared (barrier-spec A9): a planner
                        // that orders later accesses with global barriers (conservative)
                        // declares less.
                        Some((_, sync, access, layout)) => {
                            let since = f.since_access & access;
                            let access = if since.is_empty() { access } else { since };
                            (sync | f.since_stages, access, layout)
                        }
                        None => {
                            let layout = f.start.unwrap_or(Layout::Common);
                            (f.since_stages, f.since_access, layout)
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
            },
        );
    }
}
