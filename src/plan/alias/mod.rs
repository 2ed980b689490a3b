//! Transient memory aliasing: placing the frame's transient resources in one shared heap by
//! lifetime, so that two of them share bytes only when one is done before the other begins
//! (EB-5, EB-9d; barrier-spec A2, A3).
//!
//! A transient keeps nothing between frames (EB-5: it is activated from UNDEFINED with DISCARD
//! at its first use), so its memory is needed only from its first use to its last. Every
//! frame-graph runtime with transients (RPS, Unreal RDG, Frostbite, Granite, Daxa) places them
//! by that interval; this module does it in three steps over a compiled graph:
//!
//! 1. **Lifetimes** ([`lifetimes`]): each transient's first use, and its *release*: the first
//!    pass from which every later pass, on every queue, is ordered after all its uses, by its
//!    own queue's order or by the graph's cross-queue fences (FN-2). Memory handed to another
//!    queue without such a fence would let the new resource's initialisation race the old
//!    one's work (V0814), so a hand-over is only ever planned where a fence already orders it.
//!    The frame repeats, so lifetimes are measured over two frames: a transient used late may
//!    be released only early in the next frame (its queue is not yet ordered before the
//!    others'), and then it must not share bytes with the transients that frame starts with.
//!    Each queue is released on its own too ([`lifetimes::Known`]): a queue ordered after a
//!    transient's uses may take its bytes while another still holds them.
//! 2. **Placement**: a sweep over the frame in pass order ([`placement`]) that frees what was
//!    released and gives each new transient (largest first) the smallest free gap it fits,
//!    growing the heap only when none does. Where that misses the lower bound, a packing
//!    largest first ([`greedy`]) runs too, within a budget linear in uses (it finds each
//!    transient's neighbours through the meeting graph ([`meets`]) where lifetimes meet few
//!    others, else by walking the placed ones), and the smaller heap wins; where lifetimes
//!    are short, a repair ([`repair`]) then places the transients around any left above the
//!    bound again (searching longer where the frame has few, [`SMALL`]). The sweep holds each
//!    transient's bytes until every queue is released; the packing and repair follow the
//!    queues one by one. Each step runs within a budget linear in uses.
//! 3. **Report**: the heap's size (the peak), the bytes the transients would take unaliased,
//!    and the lower bound no placement can beat: the heaviest set of transients no two of
//!    which may share bytes ([`cliques`]), at least the most in use at one pass. All three count each transient at its placed
//!    size, rounded up to [`ALIAS_ALIGNMENT`], as a committed resource would be too; and when
//!    a placement would need more than every transient side by side (a few large wrapping
//!    transients can), the plan is that side-by-side layout instead, so aliasing never costs
//!    memory.
//! 4. **Hand-overs** ([`hand_over`]): once the runtime has placed the transients in a heap at
//!    these offsets (`systems/alias.rs`), each frame of a barrier plan gets, for every
//!    transient whose bytes another uses, an activation before its first use and a
//!    deactivation after its last (EB-9d).
//!
//! Everything in the first three steps is flat arrays in [`Aliaser`], kept between calls, so
//! a warm placement of a graph of the same shape allocates nothing; the work is linear in
//! uses plus n log n in transients, and the packing's and repair's budgets. Hand-overs run
//! only when a barrier plan is made (cached with the graph), and keep their memory in a
//! [`HandOver`] the same way.

mod cliques;
mod greedy;
mod hand_over;
mod hand_over_edits;
#[cfg(test)]
mod hand_over_tests;
mod lifetimes;
mod lookup;
mod meets;
#[cfg(test)]
mod near_bound_tests;
mod occupants;
mod placement;
mod repair;
mod sharing;
#[cfg(test)]
mod tests;

use bevy_ecs::prelude::*;

use super::CompiledGraph;
use greedy::Neighbours;

pub use hand_over::{HandOver, hand_over};

/// Placement alignment of a transient in a heap: 64 KiB, the default resource placement
/// alignment of D3D12-class hardware.
pub const ALIAS_ALIGNMENT: u64 = 64 * 1024;

/// The heap over the lower bound a placement aims at: the packing tries a second order and the
/// repair a higher cap only to come within it.
const TARGET: f64 = 1.05;

/// Pairs of meeting lifetimes per use up to which the packing by size lists each transient's
/// neighbours: where sorting them costs about what the sweep does. Beyond (long lifetimes,
/// each meeting tens of others per use) it costs several times compile's cost per use.
const PAIRS_PER_USE: u64 = 4;

/// Placed transients visited per use up to which the packing by size walks them where the
/// lifetimes meet too many others to list ([`greedy::Neighbours::Walked`]), in one order, and
/// in the second too where both fit: at most compile and barrier planning's cost per use on
/// layered graphs of 1,000 passes, three quarters transient.
const WALK_PER_USE: u64 = 64;

/// Pairs of meeting lifetimes per use up to which the repair runs: short lifetimes, whose
/// knots a small window undoes.
const REPAIR_PAIRS_PER_USE: u64 = 2;

/// Neighbours per use the repair's searches may visit.
const REPAIR_WORK_PER_USE: u64 = 16;

/// Transients up to which the packings aim at the bound itself, not [`TARGET`], and each
/// repair search may go further (the repair's budget, linear in uses, still bounds them all).
const SMALL: usize = 256;

/// Pairs per use the lower bound's clique search may test.
const CLIQUE_WORK_PER_USE: u64 = 16;

/// Where one transient lives in the shared heap, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AliasPlacement {
    /// The transient resource.
    pub resource: Entity,
    /// Byte offset in the heap (a multiple of its alignment).
    pub offset: u64,
    /// Bytes it occupies: its size rounded up to [`ALIAS_ALIGNMENT`].
    pub bytes: u64,
    /// Index of the pass of its first use.
    pub first: u32,
    /// Index of the pass of its last use (on any queue).
    pub last: u32,
    /// The first pass (counting on into the next frame: `n + i` is the next frame's pass `i`)
    /// from which every pass is ordered after all its uses: its bytes are free from there.
    pub release: u32,
    /// Dense number of the queue of its first use (in order of the queues' first passes).
    pub queue: u8,
}

/// The placement of a frame's transients: plain data, for tests, reports and recording.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct AliasPlan {
    /// One entry per transient, in order of first use.
    pub placements: Vec<AliasPlacement>,
    /// Passes in the frame the plan was made for.
    pub passes: u32,
    /// Size of the shared heap: the most bytes the placement uses at once.
    pub peak_bytes: u64,
    /// The heaviest set of transients no two of which may share bytes ([`cliques`]): those in
    /// use at one pass (first use to last use), grown by those no fence orders against them
    /// (V0814). No placement can use less.
    pub lower_bound_bytes: u64,
    /// Bytes the transients take when each has its own memory (each rounded up to
    /// [`ALIAS_ALIGNMENT`]).
    pub unaliased_bytes: u64,
    /// Queues the frame's passes use.
    pub queues: u32,
    /// Per placement and dense queue (`i * queues + j`): the first pass of that queue that
    /// activates a transient ordered after all the placement's uses, counting on into the
    /// next frame (`2 * passes`: none). Below `release`, for the queues that learn early.
    pub release_on: Vec<u32>,
}

impl AliasPlan {
    /// True when placements `i` and `j` may not share bytes: on the frame's circle of
    /// `passes`, one holds its bytes (from `first` up to `release`) where the other is
    /// activated, and that activation's queue is not ordered after all its uses yet
    /// (`release_on`).
    pub fn lifetimes_meet(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.placements[i], &self.placements[j]);
        let n = u64::from(self.passes.max(1));
        let span = |p: &AliasPlacement| (u64::from(p.first), u64::from(p.release));
        let ((a0, a1), (b0, b1)) = (span(a), span(b));
        let meet = a1 - a0 >= n
            || b1 - b0 >= n
            // Each interval, and its copy one frame on, against the other.
            || [0, n].iter().any(|&s| a0 + s < b1 && b0 < a1 + s)
            || [0, n].iter().any(|&s| b0 + s < a1 && a0 < b1 + s);
        if !meet || a0 == b0 {
            return meet;
        }
        let ((i, a), (j, b)) = if a0 < b0 {
            ((i, a), (j, b))
        } else {
            ((j, b), (i, a))
        };
        let q = self.queues as usize;
        let on = |k: usize, queue: u8| u64::from(self.release_on[k * q + queue as usize]);
        !(u64::from(b.first) >= on(i, b.queue) && u64::from(a.first) + n >= on(j, a.queue))
    }
}

/// The aliasing planner, with the working memory it keeps between calls.
#[derive(Resource, Debug, Default)]
pub struct Aliaser {
    lifetimes: lifetimes::Lifetimes,
    sweep: placement::Sweep,
    greedy: greedy::Greedy,
    meets: meets::Meets,
    repair: repair::Repair,
    cliques: cliques::Cliques,
}

impl Aliaser {
    /// Place the transients of `graph` into `out`, whose memory is reused. `transient` gives,
    /// for a resource the graph uses, its bytes when it is a transient (None otherwise); it is
    /// asked once per resource, not per use.
    pub fn place_into(
        &mut self,
        graph: &CompiledGraph,
        transient: impl FnMut(Entity) -> Option<u64>,
        out: &mut AliasPlan,
    ) {
        let _span = tracy_client::span!("alias");
        let lt = &mut self.lifetimes;
        lt.measure(graph, transient);
        out.passes = graph.passes.len() as u32;
        out.lower_bound_bytes = lt.lower_bound();
        out.unaliased_bytes = lt.slots.iter().map(|s| s.bytes).sum();
        let n = graph.passes.len();
        let uses = graph
            .passes
            .iter()
            .map(|p| p.uses.len() as u64)
            .sum::<u64>();
        let swept = self.sweep.place(&lt.slots, n as u32);
        // The packing by size where the sweep missed the bound and the lifetimes meet few
        // others; the smaller heap wins.
        let budget = PAIRS_PER_USE * uses + (1 << 12);
        let known = lt.known();
        let listed = swept > out.lower_bound_bytes && self.meets.build(&lt.slots, n, budget, known);
        if listed {
            // Transients that may not share though they are not in use at one pass raise it.
            let work = CLIQUE_WORK_PER_USE * uses + (1 << 12);
            out.lower_bound_bytes =
                (self.cliques).heaviest(&lt.slots, &self.meets, known, out.lower_bound_bytes, work);
        }
        let bound = out.lower_bound_bytes;
        // Walked, the packing visits each placed transient once per transient placed.
        let visits = (lt.slots.len() as u64).pow(2) / 2;
        let walk_budget = WALK_PER_USE * uses + (1 << 16);
        let neighbours = match (listed, visits <= walk_budget) {
            _ if swept <= bound => None,
            (true, _) => Some(Neighbours::Listed(&self.meets)),
            (false, true) => Some(Neighbours::Walked { known }),
            (false, false) => None,
        };
        let small = lt.slots.len() <= SMALL;
        let greedy = match neighbours {
            Some(neighbours) => {
                let goal = if small {
                    bound
                } else {
                    (TARGET * bound as f64) as u64
                };
                let orders = match (listed, visits) {
                    (true, _) => 3,
                    _ if 3 * visits <= walk_budget => 3,
                    _ if 2 * visits <= walk_budget => 2,
                    _ => 1,
                };
                self.greedy
                    .place(&lt.slots, (neighbours, &self.meets.degree), goal, orders)
            }
            None => u64::MAX,
        };
        let packed = listed;
        let offsets = if greedy < swept {
            out.peak_bytes = greedy;
            &mut self.greedy.offsets
        } else {
            out.peak_bytes = swept;
            &mut self.sweep.offsets
        };
        let knots = self.meets.pairs <= REPAIR_PAIRS_PER_USE * uses;
        if packed && out.peak_bytes > bound && knots {
            // Halfway to the target first: a knot the bound's search cannot undo within the
            // budget is often undone cheaply under a higher cap, and the bound's search then
            // starts from there; the target itself last.
            let mut budget = REPAIR_WORK_PER_USE * uses;
            for step in [1, 0, 2] {
                let cap = bound + (bound as f64 * (TARGET - 1.0) * step as f64 / 2.0) as u64;
                let cap = cap / ALIAS_ALIGNMENT * ALIAS_ALIGNMENT;
                if out.peak_bytes <= bound {
                    break;
                }
                if out.peak_bytes <= cap {
                    continue;
                }
                out.peak_bytes = (self.repair).repair(
                    &lt.slots,
                    &self.meets,
                    offsets,
                    (cap, small),
                    &mut budget,
                );
            }
        }
        let offsets = &*offsets;
        let side_by_side = out.peak_bytes > out.unaliased_bytes;
        if side_by_side {
            out.peak_bytes = out.unaliased_bytes;
        }
        out.placements.clear();
        let mut next = 0;
        out.placements
            .extend(lt.slots.iter().zip(offsets).map(|(s, &offset)| {
                let offset = if side_by_side { next } else { offset };
                next += s.bytes;
                AliasPlacement {
                    resource: s.resource,
                    offset,
                    bytes: s.bytes,
                    first: s.first,
                    last: s.last,
                    release: s.release,
                    queue: s.queue,
                }
            }));
        out.queues = lt.known().queues as u32;
        out.release_on.clear();
        out.release_on.extend_from_slice(lt.known().release_on);
    }

    /// A fresh planner's placement of `graph`.
    pub fn place(graph: &CompiledGraph, transient: impl FnMut(Entity) -> Option<u64>) -> AliasPlan {
        let mut plan = AliasPlan::default();
        Aliaser::default().place_into(graph, transient, &mut plan);
        plan
    }
}
