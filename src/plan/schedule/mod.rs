//! Orderings: which valid order of the passes the frame runs in (issue 19).
//!
//! The version rules fix what every use reads and which passes must precede which; any
//! topological order of those edges computes the same frame (each read still sees the write
//! declared before it, each rewrite still waits for the readers it replaces, FS-1). Within
//! that freedom the order decides, per queue, the sequence of passes, and so where the
//! cross-queue fences go (FN-2): a pass waits on another queue only when it needs a pass
//! there that its queue does not yet know complete, and one wait makes known everything the
//! other queue ran before the awaited pass.
//!
//! Both orderings are list schedules, for two aims:
//!
//! - [`Order::FewerBarriers`] schedules over that knowledge. A pass is *ready* when its
//!   predecessors are placed, *free* when, in addition, every predecessor on another queue
//!   is already known complete to its own queue, so it costs no wait. Free passes go first,
//!   the one with the longest path to the end of the frame first; a wait is chosen only
//!   when none is free, and then the ready pass whose wait reaches furthest into the other
//!   queue, so the one wait covers what the most later passes need. Queues run as far as
//!   they can on their own and meet rarely: fewer fences, at the price of overlap (a queue
//!   may wait for more than it needs next). The barriers stay as they are: each texture a
//!   queue hands over still needs its own on each side (EB-3). It runs in
//!   O((passes + edges) log passes): blocked passes sit in one heap per pair of queues
//!   keyed by what they need of the other, and leave it when their queue learns enough.
//! - [`Order::Overlap`] schedules over time instead ([`timed`]): each queue runs on a clock
//!   of estimated pass costs, and the pass that can start earliest, critical path first,
//!   goes next. No queue waits for more than it needs now.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::versions::Preds;
use crate::device::{QUEUE_COUNT, QueueId};
use crate::model::Order;

/// Nothing known of a queue yet.
const NOTHING: i64 = -1;

/// The scheduler's working memory, kept between compiles.
#[derive(Debug, Default)]
pub struct Scheduler {
    /// Successors, as a list per pass (`succ[starts[i]..starts[i + 1]]`).
    starts: Vec<u32>,
    succ: Vec<u32>,
    /// Predecessors not yet placed, per pass.
    waiting_on: Vec<u32>,
    /// Per pass: its longest path to the end of the frame, in passes.
    depth: Vec<u32>,
    /// Per pass: its queue's lane (queues the graph uses, numbered densely).
    lane: Vec<u8>,
    /// Per placed pass: its place in the order.
    place: Vec<i64>,
    /// Per lane: the latest place of each lane known complete (`lanes` entries each).
    known: Vec<i64>,
    /// Per placed pass: what its lane knew when it was placed (`lanes` entries each).
    seen: Vec<i64>,
    /// Per ready pass: the latest place of each lane it needs (`lanes` entries each).
    need: Vec<i64>,
    /// Free passes, by the ordering's key.
    free: BinaryHeap<Reverse<(i64, u32)>>,
    /// Blocked passes of lane `q` on lane `o` at `q * lanes + o`, by what they need of `o`.
    blocked: Vec<BinaryHeap<Reverse<(i64, u32)>>>,
    /// Every blocked pass, by the ordering's choice of wait (stale entries skipped).
    waits: BinaryHeap<Reverse<(i64, i64, u32)>>,
    /// Per pass: 0 not ready, 1 blocked, 2 free, 3 placed.
    state: Vec<u8>,
    /// Per pass: its estimated cost plus the longest rank among its successors ([`timed`]).
    rank: Vec<u64>,
    /// Per placed pass: when it finishes on its queue's estimated clock.
    finish: Vec<u64>,
    /// Per lane: its ready passes and clock ([`timed`]).
    lane_queues: Vec<timed::LaneQueue>,
}

impl Scheduler {
    /// Write into `out` the order `order` gives the passes whose predecessors are `preds`,
    /// whose queues are `queues` and whose estimated costs are `cost` (read by `Overlap`);
    /// `topo` is an order the edges allow (what `Declaration` keeps).
    pub fn schedule(
        &mut self,
        order: Order,
        preds: &Preds,
        queues: &[QueueId],
        cost: &[u64],
        topo: &[u32],
        out: &mut Vec<u32>,
    ) {
        let n = queues.len();
        out.clear();
        if order == Order::Declaration || n == 0 {
            out.extend_from_slice(topo);
            return;
        }
        let lanes = self.lanes(queues);
        self.successors(preds, n);
        self.reset(preds, n, lanes);
        if order == Order::Overlap {
            if lanes < 2 {
                // One queue: nothing to overlap, and its waits are none whatever the order.
                out.extend_from_slice(topo);
            } else {
                self.ranks(topo, cost);
                self.timed(preds, cost, lanes, out);
            }
            return;
        }
        self.depths(topo);
        for i in 0..n {
            if self.waiting_on[i] == 0 {
                self.ready(preds, i as u32, lanes);
            }
        }
        while out.len() < n {
            let next = match self.free.pop() {
                Some(Reverse((_, p))) if self.state[p as usize] == 2 => p,
                Some(_) => continue,
                None => match self.waits.pop() {
                    Some(Reverse((_, _, p))) if self.state[p as usize] == 1 => {
                        self.learn(p as usize, lanes, out);
                        p
                    }
                    Some(_) => continue,
                    // Every pass is placed or ready once its predecessors are: with passes
                    // left and none ready the edges had a cycle, which compile refused.
                    None => unreachable!("a graph compile ordered has no cycle"),
                },
            };
            self.put(preds, next as usize, lanes, out);
        }
        // A greedy choice can lose to the declared order on a small graph: keep whichever
        // needs fewer waits, so this ordering never adds fences.
        if self.waits(out, preds, lanes) >= self.waits(topo, preds, lanes) {
            out.clear();
            out.extend_from_slice(topo);
        }
    }

    /// Clear the working state for a schedule of `n` passes on `lanes` lanes.
    fn reset(&mut self, preds: &Preds, n: usize, lanes: usize) {
        self.place.clear();
        self.place.resize(n, NOTHING);
        self.known.clear();
        self.known.resize(lanes * lanes, NOTHING);
        self.seen.clear();
        self.seen.resize(n * lanes, NOTHING);
        self.need.clear();
        self.need.resize(n * lanes, NOTHING);
        self.state.clear();
        self.state.resize(n, 0);
        self.free.clear();
        self.waits.clear();
        self.blocked.iter_mut().for_each(BinaryHeap::clear);
        self.blocked.resize_with(lanes * lanes, BinaryHeap::new);
        self.waiting_on.clear();
        self.waiting_on
            .extend((0..n).map(|i| preds.of(i).len() as u32));
    }

    /// The waits `order` needs within a frame, counted as compile's fence plan counts them
    /// (FN-2: a wait makes known what the awaited pass's queue knew).
    fn waits(&mut self, order: &[u32], preds: &Preds, lanes: usize) -> usize {
        for (k, &p) in order.iter().enumerate() {
            self.place[p as usize] = k as i64;
        }
        self.known.clear();
        self.known.resize(lanes * lanes, NOTHING);
        let mut count = 0;
        for &p in order {
            let (p, q) = (p as usize, usize::from(self.lane[p as usize]));
            self.need[p * lanes..(p + 1) * lanes].fill(NOTHING);
            for &a in preds.of(p) {
                let l = usize::from(self.lane[a as usize]);
                let need = &mut self.need[p * lanes + l];
                *need = (*need).max(self.place[a as usize]);
            }
            for o in (0..lanes).filter(|&o| o != q) {
                let at = self.need[p * lanes + o];
                if at > self.known[q * lanes + o] {
                    count += 1;
                    self.known[q * lanes + o] = at;
                    let awaited = order[at as usize] as usize;
                    for l in 0..lanes {
                        let k = self.seen[awaited * lanes + l];
                        let mine = &mut self.known[q * lanes + l];
                        *mine = (*mine).max(k);
                    }
                }
            }
            self.known[q * lanes + q] = self.place[p];
            let row = q * lanes;
            self.seen[p * lanes..(p + 1) * lanes].copy_from_slice(&self.known[row..row + lanes]);
        }
        count
    }

    /// Number the queues the graph uses densely; the count.
    fn lanes(&mut self, queues: &[QueueId]) -> usize {
        let mut of = [u8::MAX; QUEUE_COUNT];
        let mut lanes = 0u8;
        self.lane.clear();
        for q in queues {
            let l = &mut of[q.index()];
            if *l == u8::MAX {
                *l = lanes;
                lanes += 1;
            }
            self.lane.push(*l);
        }
        usize::from(lanes)
    }

    /// Successor lists from the predecessor lists.
    fn successors(&mut self, preds: &Preds, n: usize) {
        self.starts.clear();
        self.starts.resize(n + 1, 0);
        for b in 0..n {
            for &a in preds.of(b) {
                self.starts[a as usize + 1] += 1;
            }
        }
        for i in 1..=n {
            self.starts[i] += self.starts[i - 1];
        }
        self.succ.clear();
        self.succ.resize(self.starts[n] as usize, 0);
        // Filled through `waiting_on` as a cursor per pass, reset by the caller.
        self.waiting_on.clear();
        self.waiting_on.extend_from_slice(&self.starts[..n]);
        for b in 0..n {
            for &a in preds.of(b) {
                let at = &mut self.waiting_on[a as usize];
                self.succ[*at as usize] = b as u32;
                *at += 1;
            }
        }
    }

    /// Longest path to the end of the frame, in passes, walking a topological order back.
    fn depths(&mut self, topo: &[u32]) {
        self.depth.clear();
        self.depth.resize(topo.len(), 1);
        for &a in topo.iter().rev() {
            let a = a as usize;
            let succ = &self.succ[self.starts[a] as usize..self.starts[a + 1] as usize];
            self.depth[a] = 1 + succ
                .iter()
                .map(|&b| self.depth[b as usize])
                .max()
                .unwrap_or(0);
        }
    }

    /// Pass `p`'s predecessors are all placed: note what it needs and file it as free or
    /// blocked.
    fn ready(&mut self, preds: &Preds, p: u32, lanes: usize) {
        let (pi, q) = (p as usize, usize::from(self.lane[p as usize]));
        let need = &mut self.need[pi * lanes..(pi + 1) * lanes];
        for &a in preds.of(pi) {
            let l = usize::from(self.lane[a as usize]);
            need[l] = need[l].max(self.place[a as usize]);
        }
        let mut furthest = NOTHING;
        let mut blocked_on = None;
        for o in (0..lanes).filter(|&o| o != q) {
            if need[o] > self.known[q * lanes + o] {
                blocked_on.get_or_insert(o);
                furthest = furthest.max(need[o]);
            }
        }
        match blocked_on {
            None => self.make_free(p),
            Some(o) => {
                self.state[pi] = 1;
                self.blocked[q * lanes + o].push(Reverse((need[o], p)));
                self.waits.push(Reverse((-furthest, i64::from(p), p)));
            }
        }
    }

    fn make_free(&mut self, p: u32) {
        self.state[p as usize] = 2;
        let key = -i64::from(self.depth[p as usize]);
        self.free.push(Reverse((key, p)));
    }

    /// Blocked pass `p` is chosen to wait: its lane learns what its needs' passes knew.
    fn learn(&mut self, p: usize, lanes: usize, placed: &[u32]) {
        let q = usize::from(self.lane[p]);
        for o in (0..lanes).filter(|&o| o != q) {
            let at = self.need[p * lanes + o];
            if at <= self.known[q * lanes + o] {
                continue;
            }
            self.known[q * lanes + o] = at;
            // A wait makes known what the awaited pass's queue knew (FN-2).
            let awaited = placed[at as usize] as usize;
            for l in 0..lanes {
                let k = self.seen[awaited * lanes + l];
                let mine = &mut self.known[q * lanes + l];
                *mine = (*mine).max(k);
            }
        }
    }

    /// Place pass `p`: its lane knows itself complete up to here, its successors may become
    /// ready, and passes of its lane that its knowledge unblocks become free.
    fn put(&mut self, preds: &Preds, p: usize, lanes: usize, out: &mut Vec<u32>) {
        let q = self.record(p, lanes, out);
        for i in self.starts[p] as usize..self.starts[p + 1] as usize {
            let s = self.succ[i];
            self.waiting_on[s as usize] -= 1;
            if self.waiting_on[s as usize] == 0 {
                self.ready(preds, s, lanes);
            }
        }
        self.unblock(q, lanes);
    }

    /// Append pass `p` to `out`: its lane knows itself complete up to here, and `p` keeps
    /// what its lane knew then (a wait on it passes that on, FN-2). Its lane.
    fn record(&mut self, p: usize, lanes: usize, out: &mut Vec<u32>) -> usize {
        let at = out.len() as i64;
        let q = usize::from(self.lane[p]);
        out.push(p as u32);
        self.state[p] = 3;
        self.place[p] = at;
        self.known[q * lanes + q] = at;
        let row = q * lanes;
        self.seen[p * lanes..(p + 1) * lanes].copy_from_slice(&self.known[row..row + lanes]);
        q
    }

    /// Move the passes of lane `q` that what `q` knows now covers to the free heap.
    fn unblock(&mut self, q: usize, lanes: usize) {
        for o in (0..lanes).filter(|&o| o != q) {
            let known = self.known[q * lanes + o];
            while let Some(&Reverse((need, p))) = self.blocked[q * lanes + o].peek() {
                if need > known {
                    break;
                }
                self.blocked[q * lanes + o].pop();
                if self.state[p as usize] != 1 {
                    continue;
                }
                let pi = p as usize;
                let other = (0..lanes)
                    .find(|&x| x != q && self.need[pi * lanes + x] > self.known[q * lanes + x]);
                match other {
                    Some(x) => {
                        self.blocked[q * lanes + x].push(Reverse((self.need[pi * lanes + x], p)))
                    }
                    None => self.make_free(p),
                }
            }
        }
    }
}

mod timed;

#[cfg(test)]
mod tests;
