//! Pass ordering: the dependency rules of a frame graph, as a pure function.
//!
//! Within a frame a resource is written first and read afterwards: every writer of a resource
//! runs before every pure reader of it, writers among themselves in declaration order, plus
//! any explicit `after` edges. A pass that reads and writes a resource counts as a writer.
//! With these rules a cycle means the declarations contradict each other (A reads what B
//! writes while B reads what A writes); it is reported with the passes on it.

use bevy_ecs::entity::Entity;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One pass as the ordering sees it. The index in the slice is its declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphNode {
    /// Resources (or swap chains) read and not written.
    pub reads: Vec<Entity>,
    /// Resources (or swap chains) written, including read-write.
    pub writes: Vec<Entity>,
    /// Indices of passes that must run before this one.
    pub after: Vec<usize>,
}

/// The passes of a dependency cycle, by index, in edge order (first depends on last).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle(pub Vec<usize>);

/// Every edge `(before, after)` implied by the nodes, deduplicated, sorted.
pub fn edges(nodes: &[GraphNode]) -> Vec<(usize, usize)> {
    let mut writers: hashbrown::HashMap<Entity, Vec<usize>> = hashbrown::HashMap::new();
    let mut readers: hashbrown::HashMap<Entity, Vec<usize>> = hashbrown::HashMap::new();
    for (i, n) in nodes.iter().enumerate() {
        for &w in &n.writes {
            writers.entry(w).or_default().push(i);
        }
        for &r in &n.reads {
            if !n.writes.contains(&r) {
                readers.entry(r).or_default().push(i);
            }
        }
    }
    let mut out = Vec::new();
    for (res, ws) in &writers {
        for pair in ws.windows(2) {
            out.push((pair[0], pair[1]));
        }
        if let (Some(&last), Some(rs)) = (ws.last(), readers.get(res)) {
            out.extend(rs.iter().map(|&r| (last, r)));
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        out.extend(
            n.after
                .iter()
                .filter(|&&a| a < nodes.len())
                .map(|&a| (a, i)),
        );
    }
    out.retain(|(a, b)| a != b);
    out.sort_unstable();
    out.dedup();
    out
}

/// A topological order of the nodes, preferring declaration order, or the cycle that
/// prevents one.
pub fn order(nodes: &[GraphNode]) -> Result<Vec<usize>, Cycle> {
    let n = nodes.len();
    let edges = edges(nodes);
    let mut succ = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    for &(a, b) in &edges {
        succ[a].push(b);
        indegree[b] += 1;
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&i| indegree[i] == 0).map(Reverse).collect();
    let mut out = Vec::with_capacity(n);
    while let Some(Reverse(i)) = ready.pop() {
        out.push(i);
        for &s in &succ[i] {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                ready.push(Reverse(s));
            }
        }
    }
    if out.len() == n {
        return Ok(out);
    }
    Err(find_cycle(&succ, &indegree))
}

/// Walk backwards-free: from any node left with indegree > 0, follow successors that are
/// also left until a node repeats.
fn find_cycle(succ: &[Vec<usize>], indegree: &[usize]) -> Cycle {
    let left = |i: usize| indegree[i] > 0;
    let start = (0..succ.len()).find(|&i| left(i)).unwrap_or(0);
    let mut path = vec![start];
    let mut seen = vec![usize::MAX; succ.len()];
    seen[start] = 0;
    let mut cur = start;
    loop {
        let Some(&next) = succ[cur].iter().find(|&&s| left(s)) else {
            return Cycle(path);
        };
        if seen[next] != usize::MAX {
            return Cycle(path[seen[next]..].to_vec());
        }
        seen[next] = path.len();
        path.push(next);
        cur = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: u32) -> Entity {
        Entity::from_raw_u32(i).unwrap()
    }

    #[test]
    fn writers_precede_readers_and_keep_declaration_order() {
        // 0 reads A, 1 writes A, 2 writes A, 3 unrelated.
        let nodes = vec![
            GraphNode {
                reads: vec![e(1)],
                ..Default::default()
            },
            GraphNode {
                writes: vec![e(1)],
                ..Default::default()
            },
            GraphNode {
                writes: vec![e(1)],
                ..Default::default()
            },
            GraphNode::default(),
        ];
        assert_eq!(order(&nodes).unwrap(), vec![1, 2, 0, 3]);
    }

    #[test]
    fn contradicting_declarations_are_a_cycle() {
        let nodes = vec![
            GraphNode {
                reads: vec![e(1)],
                writes: vec![e(2)],
                ..Default::default()
            },
            GraphNode {
                reads: vec![e(2)],
                writes: vec![e(1)],
                ..Default::default()
            },
            GraphNode::default(),
        ];
        let cycle = order(&nodes).unwrap_err();
        let mut members = cycle.0.clone();
        members.sort();
        assert_eq!(members, vec![0, 1]);
    }

    #[test]
    fn explicit_after_edges_count() {
        let nodes = vec![
            GraphNode {
                after: vec![1],
                ..Default::default()
            },
            GraphNode::default(),
        ];
        assert_eq!(order(&nodes).unwrap(), vec![1, 0]);
        let looped = vec![
            GraphNode {
                after: vec![1],
                ..Default::default()
            },
            GraphNode {
                after: vec![0],
                ..Default::default()
            },
        ];
        assert!(order(&looped).is_err());
    }
}
