//! Pass ordering: the dependency rules of a frame graph, as a pure function.
//!
//! Uses of one resource are ordered as they are declared, as a frame graph that renames a
//! resource on every write does (Frostbite's): each write makes a new version, a read sees
//! the latest version written before it in declaration order, and a write waits for the
//! reads of the version it replaces. So "post reads HDR, then the UI composites into HDR" is
//! two versions of HDR, not a cycle. A pass that reads and writes a resource counts as a
//! writer. Explicit `after` edges add to these.
//!
//! A read declared before any write of the frame sees what was there when the frame began:
//! for a resource that keeps its contents (imported), the previous frame's last version, which
//! is how history is read (TAA, the previous depth pyramid); the next write of the frame waits
//! for it. A transient or a swap chain's buffer keeps nothing from the previous frame, so such
//! a read sees the frame's final version instead, as if declared after the last write.
//!
//! With these rules a cycle means the declarations contradict each other (an `after` edge
//! against declaration order, or a transient read late by the rule above feeding a pass that
//! its writer depends on); it is reported with the passes on it and, through [`reason`], the
//! resource and rule behind each step.

use bevy_ecs::entity::{Entity, EntityHashMap};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::parts::Parts;
use crate::model::Pass;
use crate::plan::{CycleEdge, PlanError, PlannedUse};

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

/// One resource's versions so far, in the walk over the nodes.
#[derive(Default)]
struct Versions {
    /// The pass that wrote the latest version.
    writer: Option<usize>,
    /// Passes that read the latest version (or the frame's starting contents) since.
    readers: Vec<usize>,
    /// Reads of a resource that keeps nothing, declared before its first write: they see
    /// the frame's final version.
    late: Vec<usize>,
}

/// Every edge `(before, after)` implied by the nodes, deduplicated, sorted. `keeps` says
/// whether a resource keeps its contents across frames (see the module notes).
pub fn edges(nodes: &[GraphNode], keeps: impl Fn(Entity) -> bool) -> Vec<(usize, usize)> {
    let mut versions: hashbrown::HashMap<Entity, Versions> = hashbrown::HashMap::new();
    let mut out = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        for &w in &n.writes {
            let v = versions.entry(w).or_default();
            out.extend(v.writer.map(|p| (p, i)));
            out.extend(v.readers.drain(..).map(|r| (r, i)));
            v.writer = Some(i);
        }
        for &r in n.reads.iter().filter(|r| !n.writes.contains(r)) {
            let v = versions.entry(r).or_default();
            match v.writer {
                Some(p) => {
                    out.push((p, i));
                    v.readers.push(i);
                }
                None if keeps(r) => v.readers.push(i),
                None => v.late.push(i),
            }
        }
    }
    for v in versions.values() {
        if let Some(last) = v.writer {
            out.extend(v.late.iter().map(|&r| (last, r)));
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

/// Why node `a` runs before node `b` by the rules above, for a cycle's error: the `after`
/// edge, or the resource the two share and how.
pub fn reason(nodes: &[GraphNode], a: usize, b: usize) -> Option<CycleEdge> {
    if nodes[b].after.contains(&a) {
        return Some(CycleEdge::After);
    }
    let (na, nb) = (&nodes[a], &nodes[b]);
    let writes_a = |r: &&Entity| na.writes.contains(r);
    if let Some(&r) = nb.writes.iter().find(writes_a) {
        return Some(CycleEdge::BothWrite(r));
    }
    if let Some(&r) = nb.reads.iter().find(writes_a) {
        return Some(if a < b {
            CycleEdge::Reads(r)
        } else {
            CycleEdge::ReadsFinal(r)
        });
    }
    (nb.writes.iter().find(|r| na.reads.contains(r))).map(|&r| CycleEdge::Rewrites(r))
}

/// A topological order of the nodes, preferring declaration order, or the cycle that
/// prevents one.
pub fn order(nodes: &[GraphNode], keeps: impl Fn(Entity) -> bool) -> Result<Vec<usize>, Cycle> {
    let n = nodes.len();
    let edges = edges(nodes, keeps);
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

/// The cycle that stops `passes` from being ordered, with the reason for each step, found by
/// the readable rules ([`order`]) on a graph already known to have one.
pub(super) fn cycle(
    passes: &[(Entity, &str, &Pass)],
    uses: &[PlannedUse],
    starts: &[u32],
    keeps: &[bool],
    keys: &[Entity],
    parts: &Parts,
) -> PlanError {
    let mut nodes: Vec<GraphNode> = (0..passes.len())
        .map(|i| {
            let mine = &uses[starts[i] as usize..starts[i + 1] as usize];
            let of = |write: bool| {
                mine.iter()
                    .filter(|u| u.access.is_write() == write)
                    .map(|u| u.key)
                    .collect()
            };
            GraphNode {
                reads: of(false),
                writes: of(true),
                after: Vec::new(),
            }
        })
        .collect();
    let index: EntityHashMap<usize> = passes.iter().enumerate().map(|(i, p)| (p.0, i)).collect();
    for (i, (_, _, pass)) in passes.iter().enumerate() {
        nodes[i].after = pass
            .after
            .iter()
            .filter_map(|a| index.get(a).copied())
            .collect();
    }
    let keeps = |e: Entity| keys.iter().position(|&k| k == e).is_some_and(|k| keeps[k]);
    let Err(c) = order(&nodes, keeps) else {
        return PlanError::Cycle {
            passes: Vec::new(),
            because: Vec::new(),
        };
    };
    PlanError::Cycle {
        passes: c.0.iter().map(|&i| passes[i].0).collect(),
        because: (0..c.0.len())
            .map(|k| reason(&nodes, c.0[k], c.0[(k + 1) % c.0.len()]))
            .map(|r| r.map(|r| r.map(|e| parts.get(e).map_or(e, |(t, _)| t))))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: u32) -> Entity {
        Entity::from_raw_u32(i).unwrap()
    }

    fn node(reads: &[u32], writes: &[u32]) -> GraphNode {
        GraphNode {
            reads: reads.iter().map(|&i| e(i)).collect(),
            writes: writes.iter().map(|&i| e(i)).collect(),
            ..Default::default()
        }
    }

    const TRANSIENT: fn(Entity) -> bool = |_| false;
    const IMPORTED: fn(Entity) -> bool = |_| true;

    #[test]
    fn uses_of_a_resource_keep_declaration_order() {
        // Post reads HDR, then the UI composites into it, then present reads it: three
        // versions, no cycle, and the UI waits for post's read.
        let nodes = vec![
            node(&[], &[1]),
            node(&[1], &[2]),
            node(&[], &[1]),
            node(&[1], &[]),
        ];
        assert_eq!(
            edges(&nodes, TRANSIENT),
            vec![(0, 1), (0, 2), (1, 2), (2, 3)]
        );
        assert_eq!(order(&nodes, TRANSIENT).unwrap(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn a_read_before_the_first_write_sees_history_or_the_final_version() {
        // 0 reads A, 1 writes A, 2 writes A, 3 unrelated.
        let nodes = vec![
            node(&[1], &[]),
            node(&[], &[1]),
            node(&[], &[1]),
            node(&[], &[]),
        ];
        // Imported: 0 reads the previous frame's A, and the writes wait for it.
        assert_eq!(order(&nodes, IMPORTED).unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(edges(&nodes, IMPORTED), vec![(0, 1), (1, 2)]);
        // Transient: nothing survives the frame, so 0 reads the last version.
        assert_eq!(order(&nodes, TRANSIENT).unwrap(), vec![1, 2, 0, 3]);
        assert_eq!(edges(&nodes, TRANSIENT), vec![(1, 2), (2, 0)]);
    }

    #[test]
    fn contradicting_declarations_are_a_cycle() {
        // 0 reads B and writes A; 1 reads A and writes B. With history, 0 reads last frame's
        // B and 1 rewrites it: ordered. Transient, 0 must read the B that 1 writes: a cycle.
        let nodes = vec![node(&[2], &[1]), node(&[1], &[2]), node(&[], &[])];
        assert_eq!(order(&nodes, IMPORTED).unwrap(), vec![0, 1, 2]);
        let cycle = order(&nodes, TRANSIENT).unwrap_err();
        let mut members = cycle.0.clone();
        members.sort();
        assert_eq!(members, vec![0, 1]);
        assert_eq!(reason(&nodes, 0, 1), Some(CycleEdge::Reads(e(1))));
        assert_eq!(reason(&nodes, 1, 0), Some(CycleEdge::ReadsFinal(e(2))));
    }

    #[test]
    fn reasons_name_the_rule() {
        let nodes = vec![node(&[1], &[]), node(&[], &[1]), node(&[], &[1])];
        assert_eq!(reason(&nodes, 0, 1), Some(CycleEdge::Rewrites(e(1))));
        assert_eq!(reason(&nodes, 1, 2), Some(CycleEdge::BothWrite(e(1))));
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
        assert_eq!(order(&nodes, TRANSIENT).unwrap(), vec![1, 0]);
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
        assert!(order(&looped, TRANSIENT).is_err());
    }
}
