//! Cross-queue fences (FS-1, FN-2): which pass waits on which, planned once per compile.
//!
//! A pass waits on the latest pass of another queue it depends on within the frame (a
//! dependency edge), and on the latest pass of another queue that used a shared resource in a
//! conflicting way later in the previous frame (the frame wraps around). Then waits that are
//! already implied are removed ([`known`]): a queue executes in order, and a fence wait makes
//! everything the signalling queue knew complete known to the waiter. A wait is dropped when
//! the rest already implies it. Every remaining wait is necessary, which is what lets the
//! validation layer catch any single dropped wait.

use bevy_ecs::entity::Entity;

use crate::device::{QUEUE_COUNT, QueueId};
use crate::plan::present::present_candidates;
use crate::plan::{CompiledPass, PlannedUse, ResourceIndex};
use known::{Known, Lanes, NOTHING, Prev, width_class};

mod known;

/// `consumer` waits on `producer`; keep only the latest producer per queue.
fn add_wait(
    passes: &mut [CompiledPass],
    queues: &[QueueId],
    consumer: usize,
    producer: usize,
    previous: bool,
) {
    let queue = queues[producer];
    let list = if previous {
        &mut passes[consumer].waits_previous
    } else {
        &mut passes[consumer].waits
    };
    match list.iter_mut().find(|p| queues[**p] == queue) {
        Some(p) => *p = (*p).max(producer),
        None => list.push(producer),
    }
}

/// Each pass's predecessor on its queue: this frame's (false), or the previous frame's last
/// pass on the queue (true).
fn predecessors(passes: &[CompiledPass], out: &mut Vec<Prev>) {
    let mut last: [Option<usize>; QUEUE_COUNT] = [None; QUEUE_COUNT];
    for (i, p) in passes.iter().enumerate() {
        last[p.queue.index()] = Some(i);
    }
    let mut seen: [Option<usize>; QUEUE_COUNT] = [None; QUEUE_COUNT];
    out.clear();
    out.extend(passes.iter().enumerate().map(|(i, p)| {
        let q = p.queue.index();
        let prev = seen[q].map(|j| (j, false)).or(last[q].map(|j| (j, true)));
        seen[q] = Some(i);
        prev
    }));
}

/// What [`Fences::across`] plans over: the passes, their uses, the index of the uses, the
/// swap chains and the present's waits.
type Across<'a> = (
    &'a mut [CompiledPass],
    &'a [PlannedUse],
    &'a ResourceIndex,
    &'a [Entity],
    &'a mut Vec<usize>,
);

/// Fence planning's working memory, kept between compiles so that a warm compile allocates
/// nothing.
#[derive(Debug, Default)]
pub struct Fences {
    queues: Vec<QueueId>,
    /// Per resource: its last use, then its last write, on each lane.
    last: Vec<u32>,
    pairs: Vec<(usize, usize)>,
    prev: Vec<Prev>,
    /// Knowledge vectors, a pass's after another's, at the width [`width_class`] gives.
    known: Vec<i64>,
    /// Per pass: the latest pass of its own queue known complete when it starts.
    own: Vec<Option<i64>>,
    waited: Vec<bool>,
    lane: Vec<u8>,
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
        if let Some(lanes) = self.waits(out, uses, edges, chains, present) {
            let across = (out, uses, index, chains, present);
            match width_class(lanes) {
                2 => self.across::<2>(across),
                4 => self.across::<4>(across),
                _ => self.across::<QUEUE_COUNT>(across),
            }
        }
    }

    /// The waits along the graph's edges, the latest per queue, and the graph's lanes; their
    /// count, or `None` for a graph on one queue, which is then planned.
    fn waits(
        &mut self,
        out: &mut [CompiledPass],
        uses: &[PlannedUse],
        edges: &[(usize, usize)],
        chains: &[Entity],
        present: &mut Vec<usize>,
    ) -> Option<usize> {
        // Each pass once, its queue noted and what an earlier plan left cleared; the rest of
        // the plan reads the queues from this compact copy.
        let queues = &mut self.queues;
        queues.clear();
        for p in out.iter_mut() {
            queues.push(p.queue);
            p.waits.clear();
            p.waits_previous.clear();
            (p.signals, p.own_complete) = (false, None);
        }
        present_candidates(out, uses, queues, chains, present);
        // On one queue, order is execution order: no pass waits, and nothing is known
        // complete through a round trip of fences; only the present may wait.
        if queues.windows(2).all(|w| w[0] == w[1]) {
            for &i in present.iter() {
                out[i].signals = true;
            }
            return None;
        }
        for &(a, b) in edges {
            if queues[a] != queues[b] {
                add_wait(out, queues, b, a, false);
            }
        }
        let mut dense = [u8::MAX; QUEUE_COUNT];
        let mut width = 0;
        self.lane.clear();
        for q in queues.iter() {
            let d = &mut dense[q.index()];
            if *d == u8::MAX {
                (*d, width) = (width as u8, width + 1);
            }
            self.lane.push(*d);
        }
        Some(width)
    }

    /// With the graph's queues as `W` lanes: the waits across the frame boundary, then the
    /// knowledge that drops the implied ones.
    fn across<const W: usize>(&mut self, (out, uses, index, chains, present): Across<'_>) {
        self.wrap_around::<W>(out, uses, index, chains);
        predecessors(out, &mut self.prev);
        self.settle::<W>(out, present);
    }

    /// Frame wrap-around, per resource: a later conflicting use on another queue must finish
    /// before an earlier-ordered use of the next frame.
    ///
    /// Only the latest conflicting use per queue matters (a wait keeps the latest producer
    /// per queue), and the latest after `y` is the resource's last one on that queue if it
    /// comes after `y`: two passes over the uses, however many passes share a resource.
    fn wrap_around<const W: usize>(
        &mut self,
        out: &mut [CompiledPass],
        uses: &[PlannedUse],
        index: &ResourceIndex,
        chains: &[Entity],
    ) {
        const NONE: u32 = u32::MAX;
        let resources = index.resources();
        // Per resource: its last use and last write on each lane.
        self.last.clear();
        self.last.resize(resources.len() * 2 * W, NONE);
        let (last, _) = self.last.as_chunks_mut::<W>();
        let (lane, pairs) = (&self.lane, &mut self.pairs);
        let mut numbers = index.numbers().iter();
        for (x, p) in out.iter().enumerate() {
            let l = lane[x] as usize;
            for (u, &r) in p.uses_in(uses).iter().zip(&mut numbers) {
                last[2 * r as usize][l] = x as u32;
                if u.access.is_write() {
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
        pairs.clear();
        let mut numbers = index.numbers().iter();
        for (y, p) in out.iter().enumerate() {
            let l = lane[y] as usize;
            for (u, &r) in p.uses_in(uses).iter().zip(&mut numbers) {
                // A write conflicts with every later use, a read with later writes.
                let latest = &last[2 * r as usize + usize::from(!u.access.is_write())];
                for (k, &x) in latest.iter().enumerate() {
                    if x != NONE && x as usize > y && k != l {
                        pairs.push((y, x as usize));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for &(y, x) in pairs.iter() {
            add_wait(out, &self.queues, y, x, true);
        }
    }

    /// Knowledge vectors of `W` lanes (at least the graph's): drop the implied waits, then
    /// note what each pass knows complete of its own queue, which waits the present keeps,
    /// and which passes signal.
    fn settle<const W: usize>(&mut self, out: &mut [CompiledPass], present: &mut Vec<usize>) {
        let lanes = Lanes {
            lane: &self.lane,
            present,
        };
        let n = out.len();
        self.known.clear();
        self.known.resize(n * W, NOTHING);
        let (known, _) = self.known.as_chunks_mut::<W>();
        let k = Known::<W> {
            prev: &self.prev,
            lanes,
        };
        k.sweep(out, known);
        k.drop_implied(out, known);
        // What each pass knows complete of its own queue: only a round trip tells (its queue
        // signalled, another waited on it, and this pass or an earlier one of its queue
        // waited on that one). Two sweeps carry it over the frame boundary.
        k.sweep(out, known);
        let n = n as i64;
        let own = &mut self.own;
        own.clear();
        own.extend(out.iter().enumerate().map(|(i, pass)| {
            let q = lanes.lane[i] as usize;
            let through = |w: usize, shift: i64| known[w][q] - shift;
            pass.waits
                .iter()
                .map(|&w| through(w, 0))
                .chain(pass.waits_previous.iter().map(|&w| through(w, n)))
                .filter(|&k| k > NOTHING / 2)
                .max()
        }));
        for _ in 0..2 {
            for i in 0..out.len() {
                if let Some((j, previous)) = self.prev[i] {
                    let inherited = own[j].map(|k| k - if previous { n } else { 0 });
                    own[i] = own[i].max(inherited);
                }
            }
        }
        for (i, pass) in out.iter_mut().enumerate() {
            pass.own_complete = own[i].filter(|&k| k < i as i64);
        }
        // The present need not wait on what the graphics queue already knows complete.
        let last_graphics = out.iter().rposition(|p| p.queue == QueueId::Graphics);
        let waited = &mut self.waited;
        waited.clear();
        waited.resize(out.len(), false);
        for &w in present.iter() {
            waited[w] = last_graphics.is_none_or(|g| known[g][self.lane[w] as usize] < w as i64);
        }
        present.retain(|&w| waited[w]);
        for p in out.iter() {
            for &w in p.waits.iter().chain(&p.waits_previous) {
                waited[w] = true;
            }
        }
        for (p, &w) in out.iter_mut().zip(waited.iter()) {
            p.signals = w;
        }
    }
}

#[cfg(test)]
mod tests;
