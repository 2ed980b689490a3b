//! What each pass knows complete, and the waits that knowledge makes redundant (FN-2).
//!
//! A queue executes in order, and a fence wait makes everything the signalling queue knew
//! complete known to the waiter, so knowledge is a vector of "latest pass known complete"
//! per queue, previous-frame passes counting as index - n. Each pass keeps what is known
//! once it completes (what it knew when it started, and itself), so that learning from a
//! pass is one join. The steady state takes two sweeps over the frame, the second seeing
//! the first's last passes as the previous frame.
//!
//! The vectors hold one entry per queue the graph uses (its lanes), at a width fixed at
//! compile time: a graph on graphics and one compute queue joins two entries per step, not
//! one per queue the device has. Vectors are plain arrays copied by value, kept flat between
//! compiles, as are the waits they are learnt through (one slot per lane).

use super::NO_WAIT;
use crate::device::QUEUE_COUNT;

/// A pass knows nothing of a queue: below every real position, by more than any shift.
pub(super) const NOTHING: i64 = i64::MIN / 2;

/// Each pass's predecessor on its queue: this frame's (false), or the previous frame's last
/// pass on the queue (true).
pub(super) type Prev = Option<(u32, bool)>;

/// Every pass's waits, one slot per lane: within the frame, and across its boundary.
pub(super) struct Slots<'a, const W: usize> {
    pub now: &'a mut [[u32; W]],
    pub before: &'a mut [[u32; W]],
}

/// Knowledge vectors of `W` lanes, over one compiled frame.
pub(super) struct Known<'a, const W: usize> {
    pub prev: &'a [Prev],
    /// Per pass: its queue's lane.
    pub lane: &'a [u8],
    /// The graphics queue's lane (`u8::MAX` when no pass is on it).
    pub graphics: u8,
    /// The passes the graphics queue waits on before it presents (`plan::present`): what the
    /// next frame's graphics queue knows complete beside its own last pass.
    pub present: &'a [usize],
    pub slots: Slots<'a, W>,
}

/// `a` learns what `b` knows, `b`'s positions moved back by `shift`. Without a branch: an
/// entry of `b` that knows nothing is NOTHING, which less `shift` stays below every entry of
/// `a` (none is below NOTHING), so the maximum ignores it.
#[inline(always)]
fn join<const W: usize>(a: &mut [i64; W], b: &[i64; W], shift: i64) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = (*x).max(y - shift);
    }
}

impl<const W: usize> Known<'_, W> {
    /// `a` learns that `w` (shifted) completed and all `w` knew: `done[w]` holds both.
    #[inline(always)]
    fn learn(&self, a: &mut [i64; W], done: &[[i64; W]], w: usize, shift: i64) {
        join(a, &done[w], shift);
    }

    /// What pass `i` knows complete from its own queue alone: the queue's previous pass (this
    /// frame, or the last one of the previous frame) and all it knew.
    #[inline(always)]
    fn own_queue(&self, done: &[[i64; W]], i: usize) -> [i64; W] {
        let n = self.lane.len() as i64;
        let mut k = [NOTHING; W];
        if let Some((j, previous)) = self.prev[i] {
            self.learn(&mut k, done, j as usize, if previous { n } else { 0 });
        }
        if self.lane[i] == self.graphics && self.prev[i].is_none_or(|(_, p)| p) {
            for &w in self.present {
                self.learn(&mut k, done, w, n);
            }
        }
        k
    }

    /// `k` joined with what pass `i`'s waits tell, but for the one in lane `skip.1` of the
    /// previous frame's (`skip.0`) or this frame's.
    #[inline(always)]
    fn with_waits(
        &self,
        done: &[[i64; W]],
        i: usize,
        mut k: [i64; W],
        skip: Option<(bool, usize)>,
    ) -> [i64; W] {
        let n = self.lane.len() as i64;
        let lists = [(false, &self.slots.now[i]), (true, &self.slots.before[i])];
        for (previous, slots) in lists {
            let shift = if previous { n } else { 0 };
            for (l, &w) in slots.iter().enumerate() {
                if w != NO_WAIT && skip != Some((previous, l)) {
                    self.learn(&mut k, done, w as usize - 1, shift);
                }
            }
        }
        k
    }

    /// What every pass knows complete once it completes, itself included, in the steady
    /// state. The pass is set in its own lane by a select over constant indices, not a store
    /// at its lane's index: the vector then stays in registers, where a store into it in
    /// memory and the wide load after it would stall store forwarding on every pass.
    pub fn sweep(&self, done: &mut [[i64; W]]) {
        // Before the first sweep reaches it, a pass is known to complete, and nothing more.
        for (i, (d, &q)) in done.iter_mut().zip(self.lane).enumerate() {
            *d = [NOTHING; W];
            d[q as usize] = i as i64;
        }
        for _ in 0..2 {
            for i in 0..self.lane.len() {
                let base = self.own_queue(done, i);
                let mut k = self.with_waits(done, i, base, None);
                let q = self.lane[i] as usize;
                for (l, x) in k.iter_mut().enumerate() {
                    *x = if l == q { i as i64 } else { *x };
                }
                done[i] = k;
            }
        }
    }

    /// Drop implied waits, previous-frame ones first, each judged against `done` as the
    /// sweep left it: a wait that the pass's queue and its other waits already imply adds
    /// nothing. A slot's wait is on the slot's lane.
    pub fn drop_implied(&mut self, done: &[[i64; W]]) {
        let n = self.lane.len() as i64;
        for i in 0..self.lane.len() {
            let waits = |s: &[u32; W]| s.iter().any(|&w| w != NO_WAIT);
            if !waits(&self.slots.now[i]) && !waits(&self.slots.before[i]) {
                continue;
            }
            // What its own queue tells the pass, which no wait of its changes.
            let base = self.own_queue(done, i);
            for previous in [true, false] {
                for l in 0..W {
                    let w = self.slot(i, previous, l);
                    if w == NO_WAIT {
                        continue;
                    }
                    let rest = self.with_waits(done, i, base, Some((previous, l)));
                    let w = w as i64 - 1;
                    if rest[l] >= if previous { w - n } else { w } {
                        *self.slot_mut(i, previous, l) = NO_WAIT;
                    }
                }
            }
        }
    }

    fn slot(&self, i: usize, previous: bool, l: usize) -> u32 {
        match previous {
            true => self.slots.before[i][l],
            false => self.slots.now[i][l],
        }
    }

    fn slot_mut(&mut self, i: usize, previous: bool, l: usize) -> &mut u32 {
        match previous {
            true => &mut self.slots.before[i][l],
            false => &mut self.slots.now[i][l],
        }
    }
}

/// The widths knowledge is compiled for: the lanes a graph uses, rounded up.
pub(super) fn width_class(lanes: usize) -> usize {
    match lanes {
        0..=2 => 2,
        3..=4 => 4,
        _ => QUEUE_COUNT,
    }
}
