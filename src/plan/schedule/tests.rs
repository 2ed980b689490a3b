//! The orderings' unit tests: small graphs with a known best order, and random graphs.

use super::*;

/// Predecessor lists from (before, after) edges.
fn preds(n: usize, edges: &[(u32, u32)]) -> Preds {
    let mut p = Preds::default();
    p.starts.push(0);
    for b in 0..n as u32 {
        p.list
            .extend(edges.iter().filter(|e| e.1 == b).map(|e| e.0));
        p.starts.push(p.list.len() as u32);
    }
    p
}

/// Waits a two-queue order needs: a pass waits when it needs a pass of the other queue
/// placed after the latest its queue has waited for.
fn waits(order: &[u32], queues: &[QueueId], p: &Preds) -> usize {
    let mut place = vec![0i64; order.len()];
    for (k, &i) in order.iter().enumerate() {
        place[i as usize] = k as i64;
    }
    let mut known = [[-1i64; 2]; 2];
    let lane = |q: QueueId| usize::from(q != QueueId::Graphics);
    let mut count = 0;
    for &b in order {
        let q = lane(queues[b as usize]);
        let need = (p.of(b as usize).iter())
            .filter(|&&a| lane(queues[a as usize]) != q)
            .map(|&a| place[a as usize])
            .max()
            .unwrap_or(-1);
        if need > known[q][1 - q] {
            known[q][1 - q] = need;
            count += 1;
        }
    }
    count
}

fn topological(order: &[u32], p: &Preds) -> bool {
    let mut seen = vec![false; order.len()];
    order.iter().all(|&b| {
        let ok = p.of(b as usize).iter().all(|&a| seen[a as usize]);
        seen[b as usize] = true;
        ok
    }) && seen.iter().all(|&s| s)
}

const G: QueueId = QueueId::Graphics;

fn compute() -> QueueId {
    QueueId::Compute { pipe: 0, index: 0 }
}

#[test]
fn declaration_keeps_the_order_it_is_given() {
    let p = preds(3, &[(0, 1)]);
    let mut out = Vec::new();
    let topo = [2, 0, 1];
    Scheduler::default().schedule(Order::Declaration, &p, &[G; 3], &[1; 3], &topo, &mut out);
    assert_eq!(out, topo);
}

/// Graphics passes 0 and 2 feed compute passes 1 and 3. In declaration order each
/// compute pass waits; fewer-barriers runs graphics ahead and waits once for both.
#[test]
fn fewer_barriers_covers_two_needs_with_one_wait() {
    let p = preds(4, &[(0, 1), (2, 3)]);
    let queues = [G, compute(), G, compute()];
    let mut s = Scheduler::default();
    let mut out = Vec::new();
    s.schedule(
        Order::FewerBarriers,
        &p,
        &queues,
        &[1; 4],
        &[0, 1, 2, 3],
        &mut out,
    );
    assert_eq!(out, [0, 2, 3, 1]);
    assert_eq!(
        (waits(&[0, 1, 2, 3], &queues, &p), waits(&out, &queues, &p)),
        (2, 1)
    );
    s.schedule(
        Order::Overlap,
        &p,
        &queues,
        &[1; 4],
        &[0, 1, 2, 3],
        &mut out,
    );
    assert_eq!(out, [0, 2, 1, 3], "overlap waits for no more than it needs");
}

/// The pass with the longest estimated path after it goes first: graphics pass 1 feeds a
/// long compute pass, so it runs before pass 0, which nothing needs.
#[test]
fn overlap_puts_the_critical_path_first() {
    let p = preds(4, &[(1, 2), (2, 3)]);
    let queues = [G, G, compute(), G];
    let mut out = Vec::new();
    let cost = [1, 1, 10, 1];
    Scheduler::default().schedule(Order::Overlap, &p, &queues, &cost, &[0, 1, 2, 3], &mut out);
    assert_eq!(out, [1, 2, 0, 3]);
}

/// Compute pass 0 is long and nothing needs it; compute pass 1 is short and graphics pass 2
/// waits for it. Declared order runs the long one first and graphics idles for it; overlap
/// runs the short one first, then graphics beside the long one.
#[test]
fn overlap_runs_first_what_the_other_queue_waits_for() {
    let p = preds(3, &[(1, 2)]);
    let queues = [compute(), compute(), G];
    let mut out = Vec::new();
    let cost = [10, 5, 20];
    Scheduler::default().schedule(Order::Overlap, &p, &queues, &cost, &[0, 1, 2], &mut out);
    assert_eq!(out, [1, 2, 0]);
}

/// On one queue there is nothing to overlap and no wait to save: the order stays.
#[test]
fn overlap_keeps_one_queue_in_declared_order() {
    let p = preds(4, &[(1, 2), (2, 3)]);
    let mut out = Vec::new();
    let cost = [1, 1, 10, 1];
    Scheduler::default().schedule(Order::Overlap, &p, &[G; 4], &cost, &[0, 1, 2, 3], &mut out);
    assert_eq!(out, [0, 1, 2, 3]);
}

/// Random graphs on two queues: every order is topological, and fewer-barriers never
/// needs more waits than declaration order.
#[test]
fn every_order_is_topological_and_fewer_barriers_waits_least() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    let mut s = Scheduler::default();
    let (mut declared, mut fewer) = (0, 0);
    for _ in 0..200 {
        let n = 2 + next(60) as usize;
        let edges: Vec<(u32, u32)> = (0..n as u32 * 2)
            .filter_map(|_| {
                let b = 1 + next(n as u64 - 1) as u32;
                let a = next(u64::from(b)) as u32;
                (a < b).then_some((a, b))
            })
            .collect();
        let p = preds(n, &edges);
        let queues: Vec<QueueId> = (0..n)
            .map(|_| if next(4) == 0 { compute() } else { G })
            .collect();
        let topo: Vec<u32> = (0..n as u32).collect();
        let cost: Vec<u64> = (0..n).map(|_| 1 + next(100)).collect();
        let mut out = Vec::new();
        for order in [Order::FewerBarriers, Order::Overlap] {
            s.schedule(order, &p, &queues, &cost, &topo, &mut out);
            assert!(topological(&out, &p), "{order:?} {edges:?} -> {out:?}");
        }
        s.schedule(Order::FewerBarriers, &p, &queues, &cost, &topo, &mut out);
        let (d, f) = (waits(&topo, &queues, &p), waits(&out, &queues, &p));
        assert!(f <= d, "{edges:?} {queues:?}: {f} waits, declaration {d}");
        (declared, fewer) = (declared + d, fewer + f);
    }
    assert!(
        fewer * 10 < declared * 8,
        "fewer-barriers {fewer}, declaration {declared}"
    );
}
