//! Lifetimes of transients, measured so that sharing bytes never races across queues.
//!
//! A transient's bytes are in use from its first use until every pass that could take them
//! over is ordered after all its uses. On its own queue, order is submission order (the next
//! occupant's activation barrier waits for the old one's work, EB-9d, V0815). Across queues
//! only a fence orders work (FN-2): a hand-over no fence orders is V0814. So each pass gets a
//! *clock*, per queue the latest pass of that queue it is ordered after (its own queue's
//! previous pass, and through each cross-queue wait, the waited pass and everything it knew),
//! and a transient's *release* is the first pass from which every pass that activates a
//! transient, on every queue, knows all the transient's last uses. Bytes change hands only
//! where a transient is activated, at its first use (EB-5, EB-9d); its later uses read what
//! that use wrote or write after it, so the graph orders them after it. A pass that activates
//! nothing cannot take bytes over and need not know: a DMA engine uploading into imported
//! textures, or copying back a transient another queue activated, does not hold every
//! transient the frame ends with until it next waits on the graphics queue. Queue clocks only
//! grow along a queue, so the passes of one queue that know them are a suffix found by binary
//! search.
//!
//! The frame repeats, so the clocks run over two frames: the second frame's passes also wait
//! on the first's through the graph's previous-frame waits. A release in the second frame
//! means the bytes are still held when the next frame starts.

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

use super::ALIAS_ALIGNMENT;
use crate::device::QUEUE_COUNT;
use crate::plan::{CompiledGraph, ResourceIndex};

const NONE: u32 = u32::MAX;

/// One transient: its bytes and lifetime in passes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    pub resource: Entity,
    /// Its size rounded up to [`ALIAS_ALIGNMENT`]: what it occupies once placed, so the
    /// lower bound, the placement and the unaliased sum all count the same bytes.
    pub bytes: u64,
    pub first: u32,
    pub last: u32,
    /// First pass (`n + i`: the next frame's pass `i`) every pass from which is ordered after
    /// all its uses; `2n` when none is.
    pub release: u32,
    /// Dense number of the queue of its first use, where it is activated.
    pub queue: u8,
}

/// Per-queue releases: which transients whose lifetimes meet by their releases (the latest
/// over every queue) may still share bytes, because the one activated later is activated on
/// a queue already ordered after all of the other's uses, and the other's activation the next
/// frame after all of its uses (EB-9d on one queue, a fence across queues, FN-2).
///
/// A release is one pass for every queue: a transient the graphics queue uses last is
/// released for the next frame's graphics passes at once, but for async compute passes that
/// wait on nothing of the graphics queue only when one does. A transient the next frame
/// activates on the graphics queue may take its bytes all the same.
#[derive(Clone, Copy, Debug)]
pub(super) struct Known<'a> {
    /// [`Lifetimes::release_on`].
    pub release_on: &'a [u32],
    pub queues: usize,
    /// Passes in a frame.
    pub n: u32,
}

impl Known<'_> {
    /// True when slots `a` and `b` may share bytes whatever their releases say: the later
    /// activated one's first pass is ordered after every use of the other, and the other's
    /// first pass the next frame after every use of it.
    #[inline]
    pub fn apart(&self, slots: &[Slot], a: usize, b: usize) -> bool {
        let (a, b) = if slots[a].first <= slots[b].first {
            (a, b)
        } else {
            (b, a)
        };
        let (sa, sb, q) = (&slots[a], &slots[b], self.queues);
        sa.first < sb.first
            && sb.first >= self.release_on[a * q + sb.queue as usize]
            && sa.first + self.n >= self.release_on[b * q + sa.queue as usize]
    }

    /// True when slots `a` and `b` may not share bytes: their lifetimes meet on the frame's
    /// circle and their queues do not set them apart.
    #[inline]
    pub fn meet(&self, slots: &[Slot], a: usize, b: usize) -> bool {
        let life = |s: &Slot| (s.first, s.release);
        super::greedy::meet(life(&slots[a]), life(&slots[b]), self.n) && !self.apart(slots, a, b)
    }
}

/// Working memory of lifetime measurement.
#[derive(Debug, Default)]
pub(super) struct Lifetimes {
    pub slots: Vec<Slot>,
    /// Per key number of the graph's resource index: its slot, or `NONE`.
    slot_of_key: Vec<u32>,
    slot_of_resource: EntityHashMap<u32>,
    /// Per slot and dense queue: the last pass using it there (`-1`: none).
    last_on: Vec<i64>,
    /// Per pass: its dense queue number.
    queue_of: Vec<u8>,
    /// Per pass: whether it activates a transient (its first use), and so could take over
    /// another's bytes.
    takes: Vec<bool>,
    queues: usize,
    /// Per pass of two frames, per dense queue: the latest pass of that queue it is ordered
    /// after (`-1`: none).
    clock: Vec<i64>,
    /// Passes of two frames that activate a transient, grouped by queue, in order; queue `j`'s at
    /// `by_queue[queue_start[j]..queue_start[j + 1]]`.
    by_queue: Vec<u32>,
    queue_start: Vec<u32>,
    /// Changes in live bytes per pass, for the lower bound.
    live: Vec<i64>,
    /// Per slot and dense queue: the first pass of that queue that activates a transient and
    /// is ordered after all the slot's uses (two frames; `2n`: none), see [`Known`].
    pub release_on: Vec<u32>,
}

impl Lifetimes {
    /// Number the transients of `graph`, find their first and last uses and releases.
    pub fn measure(
        &mut self,
        graph: &CompiledGraph,
        mut transient: impl FnMut(Entity) -> Option<u64>,
    ) {
        let passes = &graph.passes;
        let n = passes.len();
        self.number_queues(graph);
        // Compile's index is trusted when it numbers as many uses as there are and each key's
        // first use names that key (checked as the walk meets it), so the walk reads only the
        // compact numbers per use; a graph not made by compile is numbered here.
        let total: usize = passes.iter().map(|p| p.uses.len()).sum();
        let trusted =
            graph.resources.uses() == total && self.walk(graph, &graph.resources, &mut transient);
        if !trusted {
            let index = ResourceIndex::of(&graph.uses);
            self.walk(graph, &index, &mut transient);
        }
        self.clocks(graph);
        self.release_on.clear();
        self.release_on
            .resize(self.slots.len() * self.queues, (2 * n) as u32);
        for s in 0..self.slots.len() {
            self.slots[s].release = self.release(s, n);
        }
    }

    /// The per-queue releases of the last measure, for the placements.
    pub fn known(&self) -> Known<'_> {
        Known {
            release_on: &self.release_on,
            queues: self.queues,
            n: self.queue_of.len() as u32,
        }
    }

    /// Every use's key through `index`: first and last uses per transient and queue. False
    /// when a key's first use does not name it (the index is not this graph's).
    fn walk(
        &mut self,
        graph: &CompiledGraph,
        index: &ResourceIndex,
        transient: &mut impl FnMut(Entity) -> Option<u64>,
    ) -> bool {
        let q = self.queues;
        self.slots.clear();
        self.slot_of_resource.clear();
        self.slot_of_key.clear();
        self.slot_of_key.resize(index.resources().len(), NONE);
        self.last_on.clear();
        self.takes.clear();
        self.takes.resize(graph.passes.len(), false);
        let (numbers, keys) = (index.numbers(), index.resources());
        let mut k = 0;
        for (p, pass) in graph.passes.iter().enumerate() {
            let j = self.queue_of[p] as usize;
            for (i, &key) in numbers[k..k + pass.uses.len()].iter().enumerate() {
                let key = key as usize;
                let mut s = self.slot_of_key[key];
                if s == NONE {
                    let u = &graph.uses_of(pass)[i];
                    if keys[key] != u.key {
                        return false;
                    }
                    s = self.slot_for(u.resource, p as u32, transient);
                    self.slot_of_key[key] = s;
                }
                if s == NONE - 1 {
                    continue;
                }
                self.slots[s as usize].last = p as u32;
                self.last_on[s as usize * q + j] = p as i64;
            }
            k += pass.uses.len();
        }
        true
    }

    /// The slot of `resource` first used at pass `p`: a new one for a transient met for the
    /// first time, its existing one for another part of a split texture, `NONE - 1` for what
    /// is not transient.
    fn slot_for(
        &mut self,
        resource: Entity,
        p: u32,
        transient: &mut impl FnMut(Entity) -> Option<u64>,
    ) -> u32 {
        if let Some(&s) = self.slot_of_resource.get(&resource) {
            return s;
        }
        let s = match transient(resource) {
            Some(bytes) => {
                // Its first use activates it: the one pass where it takes bytes over.
                self.takes[p as usize] = true;
                self.slots.push(Slot {
                    resource,
                    bytes: bytes.div_ceil(ALIAS_ALIGNMENT) * ALIAS_ALIGNMENT,
                    first: p,
                    last: p,
                    release: p + 1,
                    queue: self.queue_of[p as usize],
                });
                self.last_on.extend(std::iter::repeat_n(-1, self.queues));
                self.slots.len() as u32 - 1
            }
            None => NONE - 1,
        };
        self.slot_of_resource.insert(resource, s);
        s
    }

    /// Number the queues the passes use densely, in order of first use.
    fn number_queues(&mut self, graph: &CompiledGraph) {
        let mut dense = [u8::MAX; QUEUE_COUNT];
        self.queues = 0;
        self.queue_of.clear();
        for pass in &graph.passes {
            let d = &mut dense[pass.queue.index()];
            if *d == u8::MAX {
                *d = self.queues as u8;
                self.queues += 1;
            }
            self.queue_of.push(*d);
        }
    }

    /// Every pass's clock over two frames, and the passes that activate a transient grouped
    /// by queue.
    fn clocks(&mut self, graph: &CompiledGraph) {
        let (n, q) = (graph.passes.len(), self.queues);
        self.clock.clear();
        self.clock.resize(2 * n * q, -1);
        self.queue_start.clear();
        self.queue_start.resize(q + 1, 0);
        for (&j, _) in self.queue_of.iter().zip(&self.takes).filter(|(_, t)| **t) {
            self.queue_start[j as usize + 1] += 2;
        }
        for j in 1..=q {
            self.queue_start[j] += self.queue_start[j - 1];
        }
        self.by_queue.clear();
        self.by_queue.resize(self.queue_start[q] as usize, 0);
        // `live` doubles as each queue's fill count here; reset for the lower bound after.
        let fill = &mut self.live;
        fill.clear();
        fill.extend(self.queue_start[..q].iter().map(|&s| i64::from(s)));
        let mut prev = [-1i64; QUEUE_COUNT];
        for x in 0..2 * n {
            let (p, frame) = (x % n, x / n);
            let j = self.queue_of[p] as usize;
            if self.takes[p] {
                self.by_queue[fill[j] as usize] = x as u32;
                fill[j] += 1;
            }
            let row = x * q;
            if prev[j] >= 0 {
                let from = prev[j] as usize * q;
                self.clock.copy_within(from..from + q, row);
                self.clock[row + j] = prev[j];
            }
            prev[j] = x as i64;
            let pass = &graph.passes[p];
            let within = pass.waits.iter().map(|&w| (w, frame * n + w));
            let before = (pass.waits_previous.iter())
                .filter(|_| frame == 1)
                .map(|&w| (w, w));
            for (w, at) in within.chain(before) {
                if at >= x {
                    continue;
                }
                let from = at * q;
                for k in 0..q {
                    let known = self.clock[from + k];
                    let mine = &mut self.clock[row + k];
                    *mine = (*mine).max(known);
                }
                let wq = self.queue_of[w] as usize;
                let mine = &mut self.clock[row + wq];
                *mine = (*mine).max(at as i64);
            }
        }
    }

    /// The release of slot `s`: one past the last pass that activates a transient, on any
    /// queue, not ordered after all its uses (`2n` when a queue's never are within two
    /// frames). A queue that activates no transient has no such pass and does not hold it.
    /// Per queue, the first of its activating passes that is ordered after them goes to
    /// `release_on`.
    fn release(&mut self, s: usize, n: usize) -> u32 {
        let q = self.queues;
        let last = &self.last_on[s * q..(s + 1) * q];
        let latest = self.slots[s].last as usize;
        let knows = |x: u32| {
            let row = &self.clock[x as usize * q..(x as usize + 1) * q];
            row.iter().zip(last).all(|(&c, &l)| c >= l)
        };
        let mut release = latest + 1;
        let mut on = [(2 * n) as u32; QUEUE_COUNT];
        for (j, on) in on[..q].iter_mut().enumerate() {
            let list =
                &self.by_queue[self.queue_start[j] as usize..self.queue_start[j + 1] as usize];
            let after = list.partition_point(|&x| x as usize <= latest);
            let list = &list[after..];
            if list.is_empty() {
                continue;
            }
            let known = list.partition_point(|&x| !knows(x));
            if known == list.len() {
                release = 2 * n;
                continue;
            }
            *on = list[known];
            if known > 0 {
                release = release.max(list[known - 1] as usize + 1);
            }
        }
        self.release_on[s * q..(s + 1) * q].copy_from_slice(&on[..q]);
        release as u32
    }

    /// The most transient bytes in use at once, at one pass (first use to last use).
    pub fn lower_bound(&mut self) -> u64 {
        let n = self.queue_of.len();
        self.live.clear();
        self.live.resize(n + 1, 0);
        for s in &self.slots {
            self.live[s.first as usize] += s.bytes as i64;
            self.live[s.last as usize + 1] -= s.bytes as i64;
        }
        let (mut now, mut most) = (0i64, 0i64);
        for d in &self.live {
            now += d;
            most = most.max(now);
        }
        most as u64
    }
}
