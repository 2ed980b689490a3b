//! [`Order::Overlap`](crate::model::Order): a list schedule on estimated clocks.
//!
//! Each queue runs on its own clock, advanced by the passes' estimated costs
//! ([`pass_ns`](crate::plan::pass_ns)). A pass can start on its queue once its queue is free
//! and the passes it needs on other queues are estimated finished; the schedule places next
//! whichever pass of any queue can start earliest, and among those a queue could start at
//! once, the one with the longest estimated path to the end of the frame (its rank). So a
//! queue never idles while it has work whose inputs are ready, the critical path goes first,
//! and a queue that needs another's result waits for exactly that pass (FN-2: one wait makes
//! known what the awaited pass's queue knew), no further.
//!
//! The estimates need not be right for the order to be valid: any order the schedule
//! places is topological, and the fences follow from it. They need only rank the passes
//! roughly as the device will; with every pass costed alike the schedule still places by
//! depth, as `FewerBarriers` ranks its free passes.
//!
//! It runs in O((passes + edges) log passes): per queue, a heap of ready passes by the time
//! their inputs finish, and a heap of those startable now by rank.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Scheduler;
use crate::plan::versions::Preds;

/// A queue's ready passes, split by whether they can start at its clock.
#[derive(Debug, Default)]
pub(super) struct LaneQueue {
    /// Ready passes whose inputs on other queues finish after the clock, by that time.
    pending: BinaryHeap<Reverse<(u64, u32)>>,
    /// Ready passes that can start at the clock, by rank (ties: declared first).
    now: BinaryHeap<(u64, Reverse<u32>)>,
    /// When the queue's last placed pass finishes, estimated.
    clock: u64,
}

impl LaneQueue {
    fn clear(&mut self) {
        self.pending.clear();
        self.now.clear();
        self.clock = 0;
    }

    /// When this queue can start its next pass, and that pass's rank; `None` when it has
    /// nothing ready.
    fn next(&self, rank: &[u64]) -> Option<(u64, u64)> {
        match (self.now.peek(), self.pending.peek()) {
            (Some(&(r, _)), _) => Some((self.clock, r)),
            (None, Some(&Reverse((t, p)))) => Some((t.max(self.clock), rank[p as usize])),
            (None, None) => None,
        }
    }

    /// Move to `now` every pending pass that can start by `time`, the clock advanced to it.
    fn advance(&mut self, time: u64, rank: &[u64]) {
        self.clock = self.clock.max(time);
        while let Some(&Reverse((t, p))) = self.pending.peek() {
            if t > self.clock {
                break;
            }
            self.pending.pop();
            self.now.push((rank[p as usize], Reverse(p)));
        }
    }
}

impl Scheduler {
    /// Each pass's rank: its estimated cost plus the longest rank among its successors.
    pub(super) fn ranks(&mut self, topo: &[u32], cost: &[u64]) {
        self.rank.clear();
        self.rank.resize(topo.len(), 0);
        for &a in topo.iter().rev() {
            let a = a as usize;
            let succ = &self.succ[self.starts[a] as usize..self.starts[a + 1] as usize];
            let longest = succ.iter().map(|&b| self.rank[b as usize]).max();
            self.rank[a] = cost[a].saturating_add(longest.unwrap_or(0));
        }
    }

    /// Write into `out` the overlap order of the passes costed `cost` (state reset for
    /// `lanes` lanes).
    pub(super) fn timed(&mut self, preds: &Preds, cost: &[u64], lanes: usize, out: &mut Vec<u32>) {
        let n = cost.len();
        self.finish.clear();
        self.finish.resize(n, 0);
        self.lane_queues.iter_mut().for_each(LaneQueue::clear);
        self.lane_queues.resize_with(lanes, LaneQueue::default);
        for p in 0..n {
            if self.waiting_on[p] == 0 {
                self.timed_ready(preds, p, lanes);
            }
        }
        while out.len() < n {
            let mut best: Option<(u64, Reverse<u64>, usize)> = None;
            for (q, lane) in self.lane_queues.iter().enumerate() {
                if let Some((start, rank)) = lane.next(&self.rank) {
                    let key = (start, Reverse(rank), q);
                    best = Some(best.map_or(key, |b| b.min(key)));
                }
            }
            // Every pass is placed or ready once its predecessors are: with passes left and
            // none ready the edges had a cycle, which compile refused.
            let (start, _, q) = best.expect("a graph compile ordered has no cycle");
            let lane = &mut self.lane_queues[q];
            lane.advance(start, &self.rank);
            let (_, Reverse(p)) = lane.now.pop().expect("a pass that can start now");
            let p = p as usize;
            lane.clock = start.saturating_add(cost[p]);
            self.finish[p] = lane.clock;
            self.learn(p, lanes, out);
            self.place_timed(preds, p, lanes, out);
        }
    }

    /// Pass `p`'s predecessors are all placed: note what it needs and when those finish.
    fn timed_ready(&mut self, preds: &Preds, p: usize, lanes: usize) {
        let q = self.lane[p];
        let need = &mut self.need[p * lanes..(p + 1) * lanes];
        let mut inputs = 0;
        for &a in preds.of(p) {
            let l = usize::from(self.lane[a as usize]);
            need[l] = need[l].max(self.place[a as usize]);
            if self.lane[a as usize] != q {
                inputs = inputs.max(self.finish[a as usize]);
            }
        }
        self.state[p] = 1;
        let lane = &mut self.lane_queues[usize::from(q)];
        lane.pending.push(Reverse((inputs, p as u32)));
    }

    /// Place pass `p`: its lane knows itself complete up to here and its successors may
    /// become ready.
    fn place_timed(&mut self, preds: &Preds, p: usize, lanes: usize, out: &mut Vec<u32>) {
        self.record(p, lanes, out);
        for i in self.starts[p] as usize..self.starts[p + 1] as usize {
            let s = self.succ[i] as usize;
            self.waiting_on[s] -= 1;
            if self.waiting_on[s] == 0 {
                self.timed_ready(preds, s, lanes);
            }
        }
    }
}
