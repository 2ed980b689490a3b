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
//! A transient activated on one queue and deactivated on another also needs a
//! **declaration** at its first use on the second queue: its access there again, as the
//! last frame's deactivation left it NO_ACCESS on that queue (barrier-spec A3.2).
//!
//! The deactivation ends one pass and the activation opens a later one, so the two are never
//! in one Barrier call (A3.5). A transient whose bytes no other uses needs neither: it is
//! planned as if it owned its memory, which it does.

//!
//! Each frame is read once and edited once: one scan finds, per sharing transient, the
//! planner's barriers the hand-overs build on, what the barriers they add will say follows
//! from those, and one edit rewrites every slot that gains or changes one.

use super::AliasPlan;
use super::hand_over_edits::{Found, activate, deactivate, declare};
use super::sharing::SharingFacts;
use crate::barrier::Layout;
use crate::plan::CompiledGraph;
use crate::plan::barriers::{FramePlan, SlotEdit};

/// Which hand-over barrier an edit makes; within a slot, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Activate,
    Declare,
    Deactivate,
}

/// The slots the hand-overs edit (sorted, once each), and the edits by slot: a
/// deterministic order for the barriers added.
#[derive(Debug, Default)]
struct Edits {
    slots: Vec<u32>,
    order: Vec<(u32, Kind, u32)>,
    /// The edits as given, and the counting sort's cursors.
    given: Vec<(u32, Kind, u32)>,
    starts: Vec<u32>,
}

impl Edits {
    /// The edits `given` names (slot, kind, transient), sorted by slot by counting, as
    /// slots are few (two a pass), keeping the given order within a slot.
    fn fill(&mut self, given: impl Iterator<Item = (u32, Kind, u32)>) {
        self.given.clear();
        self.given.extend(given);
        let end = (self.given.iter())
            .map(|g| g.0 as usize + 1)
            .max()
            .unwrap_or(0);
        self.starts.clear();
        self.starts.resize(end + 1, 0);
        for &(slot, ..) in &self.given {
            self.starts[slot as usize + 1] += 1;
        }
        for k in 0..end {
            self.starts[k + 1] += self.starts[k];
        }
        self.order.clear();
        (self.order).resize(self.given.len(), (0, Kind::Activate, 0));
        for &g in &self.given {
            let at = &mut self.starts[g.0 as usize];
            self.order[*at as usize] = g;
            *at += 1;
        }
        self.slots.clear();
        self.slots.extend(self.order.iter().map(|o| o.0));
        self.slots.dedup();
    }
}

/// The hand-overs of one placement on one graph: what each sharing transient needs, worked
/// out once per placement ([`HandOver::prepare`]), then applied to each frame of the graph's
/// barrier plan. The memory is kept between placements: a warm one allocates nothing.
#[derive(Debug, Default)]
pub struct HandOver {
    facts: SharingFacts,
    edits: Edits,
    found: Vec<Found>,
    edit: SlotEdit,
}

/// Add the hand-overs of the transients `alias` places to one frame of a barrier plan.
pub fn hand_over(graph: &CompiledGraph, alias: &AliasPlan, frame: &mut FramePlan) {
    let mut hand_over = HandOver::default();
    hand_over.prepare(graph, alias);
    hand_over.apply(graph, alias, frame);
}

impl HandOver {
    /// Work out what the transients `alias` places on `graph` need handed over.
    pub fn prepare(&mut self, graph: &CompiledGraph, alias: &AliasPlan) {
        self.facts.gather(graph, alias);
        let info = &self.facts.info;
        let placed = |i: usize| &alias.placements[info[i].placement as usize];
        let n = info.len() as u32;
        let activations = (0..n).map(|i| (2 * placed(i as usize).first, Kind::Activate, i));
        let declarations =
            (0..n).filter_map(|i| Some((2 * info[i as usize].reuse?, Kind::Declare, i)));
        let deactivations = (0..n).map(|i| (2 * placed(i as usize).last + 1, Kind::Deactivate, i));
        (self.edits).fill(activations.chain(declarations).chain(deactivations));
        self.found.clear();
        self.found.resize(info.len(), Found::default());
    }

    /// Add the hand-overs to one frame of the barrier plan of `graph`, the graph and placement
    /// last prepared.
    pub fn apply(&mut self, graph: &CompiledGraph, alias: &AliasPlan, frame: &mut FramePlan) {
        if self.facts.info.is_empty() {
            return;
        }
        self.found.fill(Found::default());
        self.scan(graph, alias, frame);
        self.resolve(graph, alias, frame);
        let (info, found) = (&self.facts.info, &self.found);
        let order = &self.edits.order;
        let mut next = 0;
        (frame.barriers).edit_slots(
            &mut self.edit,
            &self.edits.slots,
            |slot, buffers, textures| {
                while let Some(&(_, kind, i)) = order.get(next).filter(|o| o.0 == slot) {
                    next += 1;
                    let (s, f) = (&info[i as usize], &found[i as usize]);
                    match kind {
                        Kind::Activate => activate(s, buffers, textures),
                        Kind::Declare => declare(s, f, buffers, textures),
                        Kind::Deactivate => deactivate(s, f, buffers, textures),
                    }
                }
            },
        );
    }

    /// Per sharing transient, from the planner's barriers: the last on it on the queue of
    /// its last pass, up to the start of that pass; the layout the last before its reuse
    /// pass leaves it in; whether its activation and declaration slots already name it.
    fn scan(&mut self, graph: &CompiledGraph, alias: &AliasPlan, frame: &FramePlan) {
        let (info, lookup) = (&self.facts.info, &self.facts.lookup);
        let bars = &frame.barriers;
        for k in 0..graph.passes.len() {
            let q = graph.passes[k].queue;
            for (slot, group) in [(2 * k, bars.before(k)), (2 * k + 1, bars.after(k))] {
                let texture = (group.textures.iter()).map(|t| {
                    (
                        true,
                        t.resource,
                        t.sync_after,
                        t.access_after,
                        t.layout_after,
                    )
                });
                let buffer = (group.buffers.iter()).map(|b| {
                    (
                        false,
                        b.resource,
                        b.sync_after,
                        b.access_after,
                        Layout::Undefined,
                    )
                });
                for (is_texture, e, sync, access, layout) in texture.chain(buffer) {
                    let Some(i) = lookup.get(e) else { continue };
                    let (s, f) = (&info[i], &mut self.found[i]);
                    let placed = &alias.placements[s.placement as usize];
                    if is_texture == s.texture {
                        f.at_first |= slot == 2 * placed.first as usize;
                        f.at_reuse |= s.reuse.is_some_and(|r| slot == 2 * r as usize);
                    }
                    let last = placed.last as usize;
                    if slot <= 2 * last && graph.passes[last].queue == q {
                        f.last_barrier = Some((slot as u32, sync, access, layout));
                    }
                    if is_texture && s.reuse.is_some_and(|r| (r as usize) > k) {
                        f.reuse_layout = Some((slot as u32, layout));
                    }
                }
            }
        }
    }

    /// What the barriers the hand-overs add will leave: an added activation or declaration
    /// may be the last barrier before the deactivation, and an added activation the last
    /// before the reuse pass; then the accesses since the last barrier, and the layout at
    /// the frame's start.
    fn resolve(&mut self, graph: &CompiledGraph, alias: &AliasPlan, frame: &FramePlan) {
        for (s, f) in self.facts.info.iter().zip(&mut self.found) {
            let placed = &alias.placements[s.placement as usize];
            let (first, last) = (placed.first as usize, placed.last as usize);
            if !f.at_first {
                let slot = 2 * placed.first;
                let (sync, access, layout) = match s.texture {
                    true => (
                        s.first_stages,
                        s.first_access,
                        s.first_layout.unwrap_or(Layout::Common),
                    ),
                    false => (s.own_stages, s.own_access, Layout::Undefined),
                };
                if s.texture && s.reuse.is_some() && f.reuse_layout.is_none_or(|(at, _)| at < slot)
                {
                    f.reuse_layout = Some((slot, layout));
                }
                if graph.passes[first].queue == graph.passes[last].queue {
                    f.later(slot, sync, access, layout);
                }
            }
            if let Some(reuse) = s.reuse.filter(|_| !f.at_reuse) {
                let (slot, sync) = (2 * reuse, s.reuse_stages);
                match s.texture {
                    true => f.later(slot, sync, s.reuse_access, f.declared_layout(s)),
                    false => f.later(slot, sync, s.last_access, Layout::Undefined),
                }
            }
        }
        for (i, f) in self.found.iter_mut().enumerate() {
            let from = f.last_barrier.map_or(0, |(slot, ..)| slot.div_ceil(2));
            for u in self.facts.tail(i).iter().filter(|u| u.pass >= from) {
                f.since_stages |= u.stages;
                f.since_access |= u.access;
            }
        }
        for &(e, layout, _) in &frame.start {
            if let Some(i) = self.facts.lookup.get(e) {
                self.found[i].start = Some(layout);
            }
        }
    }
}
