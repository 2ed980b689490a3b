//! What each pass knows complete, and the waits that knowledge makes redundant (FN-2).
//!
//! A queue executes in order, and a fence wait makes everything the signalling queue knew
//! complete known to the waiter, so knowledge is a vector of "latest pass known complete"
//! per queue, previous-frame passes counting as index - n. The steady state takes two sweeps
//! over the frame, the second seeing the first's last passes as the previous frame.
//!
//! The vectors hold one entry per queue the graph uses (its lanes), at a width fixed at
//! compile time: a graph on graphics and one compute queue joins two entries per step, not
//! one per queue the device has. Vectors are plain arrays copied by value, kept flat between
//! compiles.

use crate::device::{QUEUE_COUNT, QueueId};
use crate::plan::CompiledPass;

/// A pass knows nothing of a queue: below every real position, by more than any shift.
pub(super) const NOTHING: i64 = i64::MIN / 2;

/// The queues a graph uses, numbered densely.
#[derive(Clone, Copy)]
pub(super) struct Lanes<'a> {
    /// Per pass: its queue's entry.
    pub lane: &'a [u8],
    /// The passes the graphics queue waits on before it presents (`plan::present`): what the
    /// next frame's graphics queue knows complete beside its own last pass.
    pub present: &'a [usize],
}

/// Each pass's predecessor on its queue: this frame's (false), or the previous frame's last
/// pass on the queue (true).
pub(super) type Prev = Option<(usize, bool)>;

/// Knowledge vectors of `W` lanes, over one compiled frame.
pub(super) struct Known<'a, const W: usize> {
    pub prev: &'a [Prev],
    pub lanes: Lanes<'a>,
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

/// A pass's waits within the frame, or across the frame boundary.
pub(super) fn list(pass: &mut CompiledPass, previous: bool) -> &mut Vec<usize> {
    match previous {
        true => &mut pass.waits_previous,
        false => &mut pass.waits,
    }
}

impl<const W: usize> Known<'_, W> {
    /// `a` learns that `w` (shifted) completed and all `w` knew.
    #[inline(always)]
    fn learn(&self, a: &mut [i64; W], known: &[[i64; W]], w: usize, shift: i64) {
        join(a, &known[w], shift);
        let q = self.lanes.lane[w] as usize;
        a[q] = a[q].max(w as i64 - shift);
    }

    /// What pass `i` knows complete from its own queue alone: the queue's previous pass (this
    /// frame, or the last one of the previous frame) and all it knew.
    #[inline(always)]
    pub fn own_queue(&self, passes: &[CompiledPass], known: &[[i64; W]], i: usize) -> [i64; W] {
        let n = passes.len() as i64;
        let mut k = [NOTHING; W];
        if let Some((j, previous)) = self.prev[i] {
            self.learn(&mut k, known, j, if previous { n } else { 0 });
        }
        if passes[i].queue == QueueId::Graphics && self.prev[i].is_none_or(|(_, p)| p) {
            for &w in self.lanes.present {
                self.learn(&mut k, known, w, n);
            }
        }
        k
    }

    /// `k` joined with what pass `i`'s waits tell, but for `skip`.
    #[inline(always)]
    pub fn with_waits(
        &self,
        passes: &[CompiledPass],
        known: &[[i64; W]],
        i: usize,
        mut k: [i64; W],
        skip: Option<(bool, usize)>,
    ) -> [i64; W] {
        let n = passes.len() as i64;
        for (previous, list) in [(false, &passes[i].waits), (true, &passes[i].waits_previous)] {
            let shift = if previous { n } else { 0 };
            for &w in list {
                if skip != Some((previous, w)) {
                    self.learn(&mut k, known, w, shift);
                }
            }
        }
        k
    }

    /// What every pass knows complete in the steady state.
    pub fn sweep(&self, passes: &[CompiledPass], known: &mut [[i64; W]]) {
        known.fill([NOTHING; W]);
        for _ in 0..2 {
            for i in 0..passes.len() {
                let base = self.own_queue(passes, known, i);
                known[i] = self.with_waits(passes, known, i, base, None);
            }
        }
    }

    /// Drop implied waits, previous-frame ones first; dropping an implied wait changes no
    /// pass's knowledge, so `known` stays valid. A pass waits once per queue, so its waits are
    /// distinct.
    pub fn drop_implied(&self, passes: &mut [CompiledPass], known: &[[i64; W]]) {
        let n = passes.len() as i64;
        for i in 0..passes.len() {
            if passes[i].waits.is_empty() && passes[i].waits_previous.is_empty() {
                continue;
            }
            // What its own queue tells the pass, which no wait of its changes.
            let base = self.own_queue(passes, known, i);
            for previous in [true, false] {
                let mut k = 0;
                while let Some(&w) = list(&mut passes[i], previous).get(k) {
                    let rest = self.with_waits(passes, known, i, base, Some((previous, w)));
                    let pos = if previous { w as i64 - n } else { w as i64 };
                    if rest[self.lanes.lane[w] as usize] >= pos {
                        list(&mut passes[i], previous).remove(k);
                    } else {
                        k += 1;
                    }
                }
            }
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
