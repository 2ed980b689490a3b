//! Cross-queue fences (FS-1, FN-2): which pass waits on which, planned once per compile.
//!
//! A pass waits on the latest pass of another queue it depends on within the frame (a
//! dependency edge), and on the latest pass of another queue that used a shared resource in a
//! conflicting way later in the previous frame (the frame wraps around). Then waits that are
//! already implied are removed: a queue executes in order, and a fence wait makes everything
//! the signalling queue knew complete known to the waiter, so knowledge is propagated as a
//! vector of "latest pass known complete" per queue (previous-frame passes count as
//! index - n). A wait is dropped when the rest already implies it. Every remaining wait is
//! necessary, which is what lets the validation layer catch any single dropped wait.

use bevy_ecs::entity::Entity;

use crate::device::{QUEUE_COUNT, QueueId};
use crate::plan::present::present_candidates;
use crate::plan::{CompiledPass, ResourceIndex};

type Known = [i64; QUEUE_COUNT];
const NOTHING: i64 = i64::MIN / 2;

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

/// `a` learns what `b` knows, `b`'s positions moved back by `shift`. Without a branch: an
/// entry of `b` that knows nothing is NOTHING, which less `shift` stays below every entry of
/// `a` (none is below NOTHING), so the maximum ignores it.
/// Only the first `lanes.width` entries are kept: the queues the graph uses, numbered densely.
fn join(a: &mut Known, b: &Known, shift: i64, lanes: Lanes) {
    for (x, y) in a[..lanes.width].iter_mut().zip(&b[..lanes.width]) {
        *x = (*x).max(y - shift);
    }
}

/// The queues a graph uses, numbered densely: knowledge vectors keep an entry per used queue
/// only (a graph on graphics and one compute queue joins two entries, not one per queue the
/// device has).
#[derive(Clone, Copy)]
struct Lanes<'a> {
    /// Per pass: its queue's entry.
    lane: &'a [u8],
    width: usize,
    /// The passes the graphics queue waits on before it presents (`plan::present`): what the
    /// next frame's graphics queue knows complete beside its own last pass.
    present: &'a [usize],
}

/// Each pass's predecessor on its queue: this frame's (false), or the previous frame's last
/// pass on the queue (true).
fn predecessors(passes: &[CompiledPass], out: &mut Vec<Option<(usize, bool)>>) {
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

/// What pass `i` knows complete from its own queue alone: the queue's previous pass (this
/// frame, or the last one of the previous frame) and all it knew.
fn from_queue(
    passes: &[CompiledPass],
    prev: &[Option<(usize, bool)>],
    known: &[Known],
    i: usize,
    lanes: Lanes,
) -> Known {
    let n = passes.len() as i64;
    let q = lanes.lane[i] as usize;
    let mut k = [NOTHING; QUEUE_COUNT];
    if let Some((j, previous)) = prev[i] {
        let shift = if previous { n } else { 0 };
        join(&mut k, &known[j], shift, lanes);
        k[q] = k[q].max(j as i64 - shift);
    }
    if passes[i].queue == QueueId::Graphics && prev[i].is_none_or(|(_, previous)| previous) {
        for &w in lanes.present {
            join(&mut k, &known[w], n, lanes);
            let lane = lanes.lane[w] as usize;
            k[lane] = k[lane].max(w as i64 - n);
        }
    }
    k
}

fn with_waits(
    passes: &[CompiledPass],
    known: &[Known],
    i: usize,
    mut k: Known,
    skip: Option<(bool, usize)>,
    lanes: Lanes,
) -> Known {
    let n = passes.len() as i64;
    for (previous, list) in [(false, &passes[i].waits), (true, &passes[i].waits_previous)] {
        for &w in list {
            if skip == Some((previous, w)) {
                continue;
            }
            let shift = if previous { n } else { 0 };
            join(&mut k, &known[w], shift, lanes);
            let q = lanes.lane[w] as usize;
            k[q] = k[q].max(w as i64 - shift);
        }
    }
    k
}

/// Fence planning's working memory, kept between compiles so that a warm compile allocates
/// nothing.
#[derive(Debug, Default)]
pub struct Fences {
    queues: Vec<QueueId>,
    /// Each use as (pass, writes), grouped by resource through the index.
    grouped: Vec<(usize, bool)>,
    pairs: Vec<(usize, usize)>,
    prev: Vec<Option<(usize, bool)>>,
    known: Vec<Known>,
    /// Per pass: the latest pass of its own queue known complete when it starts.
    own: Vec<Option<i64>>,
    waited: Vec<bool>,
    lane: Vec<u8>,
}

impl Fences {
    /// Plan every pass's waits, the present's (into `present`), and which passes signal a
    /// fence. `index` describes `out`'s uses; the wrap-around waits are found through it.
    /// `chains` are the swap chains the passes use: each frame writes another of their
    /// buffers, and the wait on present orders a buffer's reuse (FS-5), so they need no
    /// wrap-around wait.
    pub fn plan(
        &mut self,
        out: &mut [CompiledPass],
        edges: &[(usize, usize)],
        index: &ResourceIndex,
        chains: &[Entity],
        present: &mut Vec<usize>,
    ) {
        present_candidates(out, chains, present);
        // On one queue, order is execution order: no pass waits, and nothing is known
        // complete through a round trip of fences; only the present may wait.
        if out.windows(2).all(|w| w[0].queue == w[1].queue) {
            for (i, p) in out.iter_mut().enumerate() {
                (p.own_complete, p.signals) = (None, present.contains(&i));
            }
            return;
        }
        let queues = &mut self.queues;
        queues.clear();
        queues.extend(out.iter().map(|p| p.queue));
        for &(a, b) in edges {
            if queues[a] != queues[b] {
                add_wait(out, queues, b, a, false);
            }
        }
        // Frame wrap-around, per resource: a later conflicting use on another queue must
        // finish before an earlier-ordered use of the next frame.
        let grouped = &mut self.grouped;
        grouped.clear();
        grouped.resize(index.uses(), (0, false));
        let flat = out
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.uses.iter().map(move |u| (i, u)));
        for ((i, u), &place) in flat.zip(index.places()) {
            grouped[place as usize] = (i, u.access.is_write());
        }
        // Only the latest conflicting use per queue matters (a wait keeps the latest producer
        // per queue), and the latest after `y` is the resource's last one on that queue if it
        // comes after `y`: linear in uses, however many passes share a resource.
        let pairs = &mut self.pairs;
        pairs.clear();
        for r in 0..index.resources().len() {
            if chains.contains(&index.resources()[r]) {
                continue;
            }
            let uses = &grouped[index.span(r)];
            let mut last_use = [None::<usize>; QUEUE_COUNT];
            let mut last_write = [None::<usize>; QUEUE_COUNT];
            for &(x, wx) in uses {
                last_use[queues[x].index()] = Some(x);
                if wx {
                    last_write[queues[x].index()] = Some(x);
                }
            }
            for &(y, wy) in uses {
                let latest = if wy { &last_use } else { &last_write };
                for (q, &x) in latest.iter().enumerate() {
                    if let Some(x) = x.filter(|&x| x > y && q != queues[y].index()) {
                        pairs.push((y, x));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        for &(y, x) in pairs.iter() {
            add_wait(out, queues, y, x, true);
        }
        predecessors(out, &mut self.prev);
        let prev = &self.prev;
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
        let lanes = Lanes {
            lane: &self.lane,
            width,
            present,
        };
        // Knowledge in the steady state: two sweeps, the second seeing the first's last
        // passes as the previous frame.
        let known = &mut self.known;
        sweep(out, prev, known, lanes);
        // Drop implied waits, previous-frame ones first; dropping an implied wait changes no
        // pass's knowledge, so the vectors stay valid. A pass waits once per queue, so its
        // waits are distinct.
        let n = out.len() as i64;
        for i in 0..out.len() {
            if out[i].waits.is_empty() && out[i].waits_previous.is_empty() {
                continue;
            }
            // What its own queue tells the pass, which no wait of its changes.
            let base = from_queue(out, prev, known, i, lanes);
            for previous in [true, false] {
                let mut k = 0;
                while let Some(&w) = list(&mut out[i], previous).get(k) {
                    let rest = with_waits(out, known, i, base, Some((previous, w)), lanes);
                    let pos = if previous { w as i64 - n } else { w as i64 };
                    if rest[lanes.lane[w] as usize] >= pos {
                        list(&mut out[i], previous).remove(k);
                    } else {
                        k += 1;
                    }
                }
            }
        }
        // What each pass knows complete of its own queue: only a round trip tells (its queue
        // signalled, another waited on it, and this pass or an earlier one of its queue
        // waited on that one). Two sweeps, as for `known`, carry it over the frame boundary.
        sweep(out, prev, known, lanes);
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
                if let Some((j, previous)) = prev[i] {
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
            waited[w] = last_graphics.is_none_or(|g| known[g][lanes.lane[w] as usize] < w as i64);
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

/// A pass's waits within the frame, or across the frame boundary.
fn list(pass: &mut CompiledPass, previous: bool) -> &mut Vec<usize> {
    match previous {
        true => &mut pass.waits_previous,
        false => &mut pass.waits,
    }
}

/// What every pass knows complete in the steady state, into `known`: two sweeps, the second
/// seeing the first's last passes as the previous frame.
fn sweep(
    out: &[CompiledPass],
    prev: &[Option<(usize, bool)>],
    known: &mut Vec<Known>,
    lanes: Lanes,
) {
    known.clear();
    known.resize(out.len(), [NOTHING; QUEUE_COUNT]);
    for _ in 0..2 {
        for i in 0..out.len() {
            let base = from_queue(out, prev, known, i, lanes);
            known[i] = with_waits(out, known, i, base, None, lanes);
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy_ecs::prelude::*;

    use super::*;
    use crate::model::{Lifetime, QueueKind, Settings, Use, UseAccess};
    use crate::plan::{TargetInfo, compile_dispatches};

    /// The wait across the frame boundary is found by walking each resource's uses through
    /// the resource index, and the index compile renumbers for fence planning and keeps for
    /// the barrier planners is the one the compiled passes would give.
    #[test]
    fn wrap_around_waits_are_found_through_the_index_compile_keeps() {
        let res = |i: u32| Entity::from_raw_u32(100 + i).expect("valid index");
        let use_ = |r, access| Use {
            target: res(r),
            access,
            stages: None,
            clear: false,
            range: None,
        };
        // Compute writes what graphics reads after it (to write another texture, so neither
        // pass is culled), and writes it again next frame: a wait within the frame, and one
        // across the frame boundary, which only the per-resource pass over the index finds.
        let passes = [
            (
                QueueKind::Compute,
                vec![use_(0, UseAccess::UnorderedAccess)],
            ),
            (
                QueueKind::Graphics,
                vec![
                    use_(0, UseAccess::ShaderRead),
                    use_(1, UseAccess::RenderTarget),
                ],
            ),
        ];
        let target = |_| TargetInfo::texture(Lifetime::Imported);
        let g = compile_dispatches(passes, target, &Settings::default()).expect("compiles");
        assert!(
            g.passes.iter().any(|p| !p.waits.is_empty()),
            "some pass waits"
        );
        assert!(
            g.passes.iter().any(|p| !p.waits_previous.is_empty()),
            "and across frames"
        );
        let mut again = g.passes.clone();
        for p in &mut again {
            (p.waits, p.waits_previous, p.signals, p.own_complete) = (vec![], vec![], false, None);
        }
        let index = ResourceIndex::of(&again);
        Fences::default().plan(&mut again, &g.edges, &index, &[], &mut Vec::new());
        assert_eq!(again, g.passes);
        assert_eq!(index, g.resources);
        assert!(g.resources.indexes(&g.passes));
    }
}
