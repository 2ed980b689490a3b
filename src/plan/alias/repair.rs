//! Repair: lowering the transients a packing left above the lower bound, by placing a window
//! of their neighbours in pass order again.
//!
//! The packings ([`super::placement`], [`super::greedy`]) decide each transient once. Where
//! lifetimes are short (a chain, a fan-in) the heap usually reaches the lower bound, and the
//! few transients left above it sit in a small knot of lifetimes. Placing those again, every
//! other transient fixed, undoes the knot: a depth-first search tries for each (in order of
//! first use) every offset under the bound where it touches the bottom or the top of a gap
//! the transients it meets leave. A window is the transients first used around the one above
//! the bound, by index in order of first use, widened while the search fails. Every search
//! has a limit, and all of them together a budget linear in uses (counted in neighbours
//! visited), so a knot the search cannot undo costs little. The transients a lifetime meets
//! come from the meeting graph ([`super::meets`]), so the result is as valid as the
//! packing's (EB-9d, V0814).

use super::lifetimes::Slot;
use super::meets::Meets;

/// Windows tried around a transient above the bound: transients on either side.
const WINDOWS: [usize; 4] = [4, 8, 16, 32];

/// Neighbours one search may visit.
const WORK: u64 = 1 << 14;

/// Neighbours one search may visit in a frame of few transients ([`super::SMALL`]), where
/// one knot async compute ties may take the whole budget (linear in uses, which bounds the
/// searches together).
pub(super) const SMALL_WORK: u64 = 1 << 18;

/// The repair's working memory.
#[derive(Debug, Default)]
pub(super) struct Repair {
    /// Per slot: its depth in the current window's search plus one, or 0 outside it.
    depth: Vec<u32>,
    /// The window's offsets as the search places them.
    trial: Vec<u64>,
    /// Per depth: the start of its candidates in `candidates`, and the next to try.
    frames: Vec<(u32, u32)>,
    candidates: Vec<u64>,
    around: Vec<(u64, u64)>,
}

impl Repair {
    /// Lower the transients of `offsets` that end above `cap` where a search finds how, within
    /// `budget` (neighbours visited, counted down), each search within [`WORK`] or, `small`,
    /// [`SMALL_WORK`]; the heap's size after.
    pub fn repair(
        &mut self,
        slots: &[Slot],
        meets: &Meets,
        offsets: &mut [u64],
        (cap, small): (u64, bool),
        budget: &mut u64,
    ) -> u64 {
        self.depth.clear();
        self.depth.resize(slots.len(), 0);
        for b in 0..slots.len() {
            if offsets[b] + slots[b].bytes <= cap {
                continue;
            }
            for w in WINDOWS {
                if *budget == 0 {
                    break;
                }
                let window = b.saturating_sub(w)..(b + w + 1).min(slots.len());
                let limit = (*budget).min(if small { SMALL_WORK } else { WORK });
                let (placed, work) = self.search(slots, meets, offsets, cap, window.clone(), limit);
                *budget = budget.saturating_sub(work);
                if placed {
                    offsets[window.clone()].copy_from_slice(&self.trial);
                    break;
                }
            }
        }
        (slots.iter().zip(offsets.iter()))
            .map(|(s, &o)| o + s.bytes)
            .max()
            .unwrap_or(0)
    }

    /// Place the slots of `window` again under `cap`, the others fixed at `offsets`, visiting
    /// about `limit` neighbours at most: whether it succeeded (the offsets in `trial`), and
    /// the neighbours visited.
    fn search(
        &mut self,
        slots: &[Slot],
        meets: &Meets,
        offsets: &[u64],
        cap: u64,
        window: std::ops::Range<usize>,
        limit: u64,
    ) -> (bool, u64) {
        let base = window.start;
        let len = window.len();
        for i in window.clone() {
            self.depth[i] = (i - base + 1) as u32;
        }
        self.trial.clear();
        self.trial.extend_from_slice(&offsets[window.clone()]);
        self.frames.clear();
        self.candidates.clear();
        let mut work = 0;
        let mut d = 0;
        let placed = loop {
            if d == len {
                break true;
            }
            if work >= limit {
                break false;
            }
            if self.frames.len() == d {
                work += 1 + meets.of(base + d).len() as u64;
                let start = self.candidates.len() as u32;
                self.candidates_for(slots, meets, offsets, cap, base, d);
                self.frames.push((start, start));
            }
            let (start, next) = self.frames[d];
            if (next as usize) < self.candidates.len() {
                self.trial[d] = self.candidates[next as usize];
                self.frames[d].1 += 1;
                d += 1;
            } else {
                // None left here: back to the transient before, and its next candidate.
                self.candidates.truncate(start as usize);
                self.frames.pop();
                if d == 0 {
                    break false;
                }
                d -= 1;
            }
        };
        for i in window {
            self.depth[i] = 0;
        }
        (placed, work)
    }

    /// Push the offsets under `cap` where the window's transient at depth `d` meets none of
    /// the transients already there: the bottom and the top of each gap they leave, lowest
    /// first.
    fn candidates_for(
        &mut self,
        slots: &[Slot],
        meets: &Meets,
        offsets: &[u64],
        cap: u64,
        base: usize,
        d: usize,
    ) {
        let i = base + d;
        let bytes = slots[i].bytes;
        self.around.clear();
        for &j in meets.of(i) {
            let j = j as usize;
            let at = match self.depth[j] {
                0 => offsets[j],
                k if (k as usize) <= d => self.trial[k as usize - 1],
                _ => continue,
            };
            self.around.push((at, at + slots[j].bytes));
        }
        self.around.sort_unstable();
        // Each gap of their union under the cap that holds it, at its bottom and at its top.
        let mut end = 0;
        for &(o, e) in self.around.iter().chain([(cap, cap)].iter()) {
            let top = o.min(cap);
            if top >= end + bytes {
                self.candidates.push(end);
                if top - bytes > end {
                    self.candidates.push(top - bytes);
                }
            }
            end = end.max(e);
            if end >= cap {
                break;
            }
        }
    }
}
