//! Cross-queue fences (FS-1, FN-2): which pass waits on which, planned once per compile.
//!
//! A pass waits on the latest pass of another queue it depends on within the frame (a
//! dependency edge), and on the latest pass of another queue that used a shared resource in a
//! conflicting way later in the previous frame (the frame wraps around). Then waits that are
//! already implied are removed ([`known`]): a queue executes in order, and a fence wait makes
//! everything the signalling queue knew complete known to the waiter. A wait is dropped when
//! the rest already implies it. Every remaining wait is necessary, which is what lets the
//! validation layer catch any single dropped wait.
//!
//! A pass waits at most once per queue, so planning keeps its waits as one slot per lane (a
//! queue the graph uses, numbered densely) in flat arrays beside the other per-pass facts it
//! reads, and writes the passes' wait lists once, at the end: at 100,000 passes the compiled
//! passes no longer fit the caches, and each sweep over them would cost a trip to memory.

use bevy_ecs::entity::Entity;

use crate::device::{QUEUE_COUNT, QueueId};
use crate::plan::present::present_candidates;
use crate::plan::{CompiledPass, PlannedUse, ResourceIndex};
use known::{Known, NOTHING, Prev, Slots, width_class};

mod known;

/// A wait slot with no wait; a slot holding a wait holds the producer's index plus one.
const NO_WAIT: u32 = 0;

/// Fence planning's working memory, kept between compiles so that a warm compile allocates
/// nothing.
#[derive(Debug, Default)]
pub struct Fences {
    queues: Vec<QueueId>,
    /// Per pass: its queue's lane.
    lane: Vec<u8>,
    /// Per pass: how many uses it has (the index lists the uses, pass after pass).
    counts: Vec<u32>,
    /// Per resource: its last use, then its last write, on each lane.
    last: Vec<u32>,
    prev: Vec<Prev>,
    /// Per pass and lane: the pass of that lane it waits on within the frame, and across the
    /// frame boundary ([`NO_WAIT`], or the pass plus one).
    now: Vec<u32>,
    before: Vec<u32>,
    /// Per pass: what is known complete once it completes (a knowledge vector, at the width
    /// [`width_class`] gives), one after another.
    done: Vec<i64>,
    /// Per pass: the latest pass of its own queue known complete when it starts.
    own: Vec<i64>,
    waited: Vec<bool>,
}

impl Fences {
    /// Plan every pass's waits, the present's (into `present`), and which passes signal a
    /// fence. `uses` are `out`'s ([`CompiledGraph::uses`](crate::plan::CompiledGraph::uses))
    /// and `index` describes them; the wrap-around waits are found through it.
    /// `chains` are the swap chains the passes use: each frame writes another of their
    /// buffers, and the wait on present orders a buffer's reuse (FS-5), so they need no
    /// wrap-around wait. Whatever waits and signals `out` held before are replaced.
    pub fn plan(
        &mut self,
        out: &mut [CompiledPass],
        uses: &[PlannedUse],
        edges: &[(usize, usize)],
        index: &ResourceIndex,
        chains: &[Entity],
        present: &mut Vec<usize>,
    ) {
        let lanes = self.lanes(out);
        present_candidates(out, uses, &self.queues, chains, present);
        match width_class(lanes) {
            // On one queue, order is execution order: no pass waits, and nothing is known
            // complete through a round trip of fences; only the present may wait.
            _ if lanes < 2 => {
                self.waited.clear();
                self.waited.resize(out.len(), false);
                for &i in present.iter() {
                    self.waited[i] = true;
                }
                self.own.clear();
                self.own.resize(out.len(), NOTHING);
                self.now.clear();
                self.before.clear();
                self.write::<1>(out);
            }
            2 => self.across::<2>(out, edges, index, chains, present),
            4 => self.across::<4>(out, edges, index, chains, present),
            _ => self.across::<QUEUE_COUNT>(out, edges, index, chains, present),
        }
    }

    /// Note each pass's queue, lane and number of uses once; the rest of the plan reads these compact
    /// copies. The number of lanes.
    fn lanes(&mut self, out: &[CompiledPass]) -> usize {
        let mut dense = [u8::MAX; QUEUE_COUNT];
        let mut width = 0;
        self.queues.clear();
        self.lane.clear();
        self.counts.clear();
        for p in out {
            let d = &mut dense[p.queue.index()];
            if *d == u8::MAX {
                (*d, width) = (width as u8, width + 1);
            }
            self.queues.push(p.queue);
            self.lane.push(*d);
            self.counts.push(p.uses.len() as u32);
        }
        width
    }

    /// With the graph's queues as `W` lanes: the waits along the graph's edges and across
    /// the frame boundary, then the knowledge that drops the implied ones.
    fn across<const W: usize>(
        &mut self,
        out: &mut [CompiledPass],
        edges: &[(usize, usize)],
        index: &ResourceIndex,
        chains: &[Entity],
        present: &mut Vec<usize>,
    ) {
        let n = out.len();
        self.now.clear();
        self.before.clear();
        self.now.resize(n * W, NO_WAIT);
        self.before.resize(n * W, NO_WAIT);
        let (now, _) = self.now.as_chunks_mut::<W>();
        for &(a, b) in edges {
            if self.queues[a] != self.queues[b] {
                let slot = &mut now[b][self.lane[a] as usize];
                *slot = (*slot).max(a as u32 + 1);
            }
        }
        self.wrap_around::<W>(index, chains);
        self.predecessors();
        self.settle::<W>(n, present);
        self.write::<W>(out);
    }

    /// Frame wrap-around, per resource: a later conflicting use on another queue must finish
    /// before an earlier-ordered use of the next frame.
    ///
    /// Only the latest conflicting use per queue matters (a pass waits on the latest producer
    /// per queue), and the latest after `y` is the resource's last one on that queue if it
    /// comes after `y`: two passes over the uses, however many passes share a resource.
    fn wrap_around<const W: usize>(&mut self, index: &ResourceIndex, chains: &[Entity]) {
        const NONE: u32 = u32::MAX;
        let resources = index.resources();
        // Per resource: its last use and last write on each lane.
        self.last.clear();
        self.last.resize(resources.len() * 2 * W, NONE);
        let (last, _) = self.last.as_chunks_mut::<W>();
        let lane = &self.lane;
        let mut numbers = index.numbers().iter().zip(index.writes());
        for (x, &count) in self.counts.iter().enumerate() {
            let l = lane[x] as usize;
            for (&r, &write) in (&mut numbers).take(count as usize) {
                last[2 * r as usize][l] = x as u32;
                if write {
                    last[2 * r as usize + 1][l] = x as u32;
                }
            }
        }
        // A swap chain's buffer is another one next frame (FS-5): nothing to wait for.
        for (r, e) in resources.iter().enumerate() {
            if chains.contains(e) {
                last[2 * r] = [NONE; W];
                last[2 * r + 1] = [NONE; W];
            }
        }
        let (before, _) = self.before.as_chunks_mut::<W>();
        let mut numbers = index.numbers().iter().zip(index.writes());
        for (y, &count) in self.counts.iter().enumerate() {
            let l = lane[y] as usize;
            for (&r, &write) in (&mut numbers).take(count as usize) {
                // A write conflicts with every later use, a read with later writes.
                let latest = &last[2 * r as usize + usize::from(!write)];
                for (k, &x) in latest.iter().enumerate() {
                    if x != NONE && x as usize > y && k != l {
                        before[y][k] = before[y][k].max(x + 1);
                    }
                }
            }
        }
    }

    /// Each pass's predecessor on its queue: this frame's (false), or the previous frame's
    /// last pass on the queue (true).
    fn predecessors(&mut self) {
        let mut last: [Option<u32>; QUEUE_COUNT] = [None; QUEUE_COUNT];
        for (i, &l) in self.lane.iter().enumerate() {
            last[l as usize] = Some(i as u32);
        }
        let mut seen: [Option<u32>; QUEUE_COUNT] = [None; QUEUE_COUNT];
        self.prev.clear();
        self.prev
            .extend(self.lane.iter().enumerate().map(|(i, &l)| {
                let l = l as usize;
                let prev = seen[l].map(|j| (j, false)).or(last[l].map(|j| (j, true)));
                seen[l] = Some(i as u32);
                prev
            }));
    }

    /// Knowledge vectors of `W` lanes (at least the graph's): drop the implied waits, then
    /// note what each pass knows complete of its own queue, which waits the present keeps,
    /// and which passes signal.
    fn settle<const W: usize>(&mut self, n: usize, present: &mut Vec<usize>) {
        let graphics = self.queues.iter().position(|&q| q == QueueId::Graphics);
        self.done.clear();
        self.done.resize(n * W, NOTHING);
        let (done, _) = self.done.as_chunks_mut::<W>();
        let (now, _) = self.now.as_chunks_mut::<W>();
        let (before, _) = self.before.as_chunks_mut::<W>();
        let mut k = Known::<W> {
            prev: &self.prev,
            lane: &self.lane,
            graphics: graphics.map_or(u8::MAX, |g| self.lane[g]),
            present,
            slots: Slots { now, before },
        };
        k.sweep(done);
        k.drop_implied(done);
        // Two sweeps do not reach every round trip through the frame before, so a dropped
        // wait may have carried knowledge the others do not: sweep again over those kept.
        k.sweep(done);
        // What each pass knows complete of its own queue: only a round trip tells (its queue
        // signalled, another waited on it, and this pass or an earlier one of its queue
        // waited on that one). Two sweeps carry it over the frame boundary. A pass's vector
        // is read here only in other lanes than its own, where what it knew as it started is
        // what is known once it completes.
        let shift = n as i64;
        let own = &mut self.own;
        own.clear();
        own.extend((0..n).map(|i| {
            let q = self.lane[i] as usize;
            let through = |w: u32, shift: i64| done[w as usize - 1][q] - shift;
            let now = k.slots.now[i].iter().filter(|&&w| w != NO_WAIT);
            let before = k.slots.before[i].iter().filter(|&&w| w != NO_WAIT);
            (now.map(|&w| through(w, 0)))
                .chain(before.map(|&w| through(w, shift)))
                .fold(NOTHING, i64::max)
        }));
        for _ in 0..2 {
            for i in 0..n {
                if let Some((j, previous)) = self.prev[i] {
                    let inherited = own[j as usize] - if previous { shift } else { 0 };
                    own[i] = own[i].max(inherited);
                }
            }
        }
        // The present need not wait on what the graphics queue already knows complete.
        let last_graphics = self.queues.iter().rposition(|&q| q == QueueId::Graphics);
        let waited = &mut self.waited;
        waited.clear();
        waited.resize(n, false);
        for &w in present.iter() {
            waited[w] = last_graphics.is_none_or(|g| done[g][self.lane[w] as usize] < w as i64);
        }
        present.retain(|&w| waited[w]);
        for slots in now.iter().chain(before.iter()) {
            for &w in slots.iter().filter(|&&w| w != NO_WAIT) {
                waited[w as usize - 1] = true;
            }
        }
    }

    /// Write the plan into the passes: their waits in lane order, whether they signal, and
    /// what each knows complete of its own queue.
    fn write<const W: usize>(&self, out: &mut [CompiledPass]) {
        fn waits<const W: usize>(slots: Option<&[u32; W]>) -> impl Iterator<Item = usize> + '_ {
            (slots.into_iter().flatten())
                .filter(|&&w| w != NO_WAIT)
                .map(|&w| w as usize - 1)
        }
        let (now, _) = self.now.as_chunks::<W>();
        let (before, _) = self.before.as_chunks::<W>();
        for (i, p) in out.iter_mut().enumerate() {
            p.waits.clear();
            p.waits.extend(waits(now.get(i)));
            p.waits_previous.clear();
            p.waits_previous.extend(waits(before.get(i)));
            p.signals = self.waited[i];
            let own = self.own[i];
            p.own_complete = (own > NOTHING / 2 && own < i as i64).then_some(own);
        }
    }
}

#[cfg(test)]
mod tests;
