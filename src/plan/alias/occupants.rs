//! Which placed transients share bytes, and which held a transient's bytes just before it:
//! what the hand-overs need from the placement (EB-9d).
//!
//! The previous occupants come from a sweep in order of first use that paints each
//! transient's byte range with its index and, before painting, reads which indices the range
//! held. The byte axis is cut at every placement's start and end into pieces. Where each
//! transient covers few pieces, as with a frame's few target sizes, an array of each piece's
//! latest holder does it in time linear in the pieces covered. Otherwise a segment tree over
//! the pieces keeps, per node, the one index its whole range holds or that its children
//! differ: a range is read and painted in time logarithmic in the pieces plus what it reads,
//! and every node read is overwritten, so the sweep costs n log n overall. Both are flat
//! arrays, kept between placements, so a warm sweep allocates nothing.

use super::AliasPlan;

/// A node whose range no transient has held yet.
const NONE: u32 = u32::MAX;
/// A node whose children hold different transients.
const MIXED: u32 = u32::MAX - 1;

/// The sweeps' working memory, kept between placements.
#[derive(Debug, Default)]
pub(super) struct Occupancy {
    by_offset: Vec<u32>,
    shares: Vec<bool>,
    /// Placement starts and ends, sorted, once each: the pieces' bounds.
    cuts: Vec<u64>,
    /// Per sharing placement: the pieces it covers.
    ranges: Vec<(u32, u32)>,
    /// Each piece's latest holder; or, where transients cover many pieces each, the segment
    /// tree over the pieces, from node 1 (children of `k` are `2k` and `2k + 1`).
    tree: Vec<u32>,
}

impl Occupancy {
    /// The placements (indices, ascending) whose bytes another placement also uses, into `out`.
    pub(super) fn sharing(&mut self, alias: &AliasPlan, out: &mut Vec<u32>) {
        let placements = &alias.placements;
        self.by_offset.clear();
        self.by_offset.extend(0..placements.len() as u32);
        (self.by_offset).sort_unstable_by_key(|&i| placements[i as usize].offset);
        self.shares.clear();
        self.shares.resize(placements.len(), false);
        let (mut end, mut owner) = (0u64, None::<u32>);
        for &i in &self.by_offset {
            let p = &placements[i as usize];
            if p.offset < end {
                self.shares[i as usize] = true;
                if let Some(o) = owner {
                    self.shares[o as usize] = true;
                }
            }
            if p.offset + p.bytes > end {
                (end, owner) = (p.offset + p.bytes, Some(i));
            }
        }
        out.clear();
        out.extend((0..placements.len() as u32).filter(|&i| self.shares[i as usize]));
    }

    /// For each sharing placement (`sharing`, in order of first use), the placements that held
    /// its bytes just before it on the frame's circle: the sweep runs twice, so that the
    /// frame's first transients see the last ones of the frame before. Each (placement,
    /// previous occupant) pair goes to `visit`, at least once.
    pub(super) fn for_each_previous_occupant(
        &mut self,
        alias: &AliasPlan,
        sharing: &[u32],
        visit: impl FnMut(u32, u32),
    ) {
        self.sweep(alias, sharing, None, visit);
    }

    /// The sweep, on the array of holders or the tree as `flat` says (by cost when `None`).
    fn sweep(
        &mut self,
        alias: &AliasPlan,
        sharing: &[u32],
        flat: Option<bool>,
        mut visit: impl FnMut(u32, u32),
    ) {
        let placements = &alias.placements;
        self.cuts.clear();
        for &i in sharing {
            let p = &placements[i as usize];
            self.cuts.extend([p.offset, p.offset + p.bytes]);
        }
        self.cuts.sort_unstable();
        self.cuts.dedup();
        let pieces = self.cuts.len().saturating_sub(1);
        let cut = |x: u64| self.cuts.partition_point(|&c| c < x) as u32;
        self.ranges.clear();
        (self.ranges).extend(sharing.iter().map(|&i| {
            let p = &placements[i as usize];
            (cut(p.offset), cut(p.offset + p.bytes))
        }));
        // Where transients cover few pieces each, as with a frame's few target sizes, an
        // array of each piece's holder is cheaper than the tree.
        let covered: usize = (self.ranges.iter()).map(|&(l, r)| (r - l) as usize).sum();
        let flat = flat.unwrap_or(covered <= 8 * sharing.len() + 4096);
        self.tree.clear();
        match flat {
            true => self.tree.resize(pieces, NONE),
            false => self.tree.resize(4 * pieces.max(1), NONE),
        }
        for round in 0..2 {
            for (&i, &(l, r)) in sharing.iter().zip(&self.ranges) {
                let mut read = |o: u32| {
                    if round == 1 && o != i {
                        visit(i, o);
                    }
                };
                if flat {
                    for holder in &mut self.tree[l as usize..r as usize] {
                        if *holder != NONE {
                            read(*holder);
                        }
                        *holder = i;
                    }
                } else {
                    let range = (l as usize, r as usize);
                    paint(&mut self.tree, (1, 0, pieces), range, i, &mut read);
                }
            }
        }
    }
}

/// Paint pieces `l..r` with `i` under `node` (covering pieces `lo..hi`), giving `read` the
/// transients they held.
fn paint(
    tree: &mut [u32],
    (node, lo, hi): (usize, usize, usize),
    (l, r): (usize, usize),
    i: u32,
    read: &mut impl FnMut(u32),
) {
    if r <= lo || hi <= l {
        return;
    }
    if l <= lo && hi <= r {
        held(tree, node, read);
        tree[node] = i;
        return;
    }
    let (left, right, mid) = (2 * node, 2 * node + 1, (lo + hi) / 2);
    if tree[node] != MIXED {
        // Its children were not kept while it held one transient whole.
        (tree[left], tree[right]) = (tree[node], tree[node]);
    }
    paint(tree, (left, lo, mid), (l, r), i, read);
    paint(tree, (right, mid, hi), (l, r), i, read);
    tree[node] = match tree[left] == tree[right] {
        true => tree[left],
        false => MIXED,
    };
}

/// Give `read` every transient that holds part of `node`'s range.
fn held(tree: &[u32], node: usize, read: &mut impl FnMut(u32)) {
    match tree[node] {
        NONE => {}
        MIXED => {
            held(tree, 2 * node, read);
            held(tree, 2 * node + 1, read);
        }
        o => read(o),
    }
}

/// [`Occupancy::sharing`] on fresh memory.
#[cfg(test)]
pub(super) fn sharing(alias: &AliasPlan) -> Vec<u32> {
    let mut out = Vec::new();
    Occupancy::default().sharing(alias, &mut out);
    out
}

/// [`Occupancy::for_each_previous_occupant`] collected: each sharing placement with its
/// previous occupants, once each, sorted; the array of holders and the tree must agree.
#[cfg(test)]
pub(super) fn previous_occupants(alias: &AliasPlan, sharing: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let found = [true, false].map(|flat| {
        let mut out: Vec<(u32, Vec<u32>)> = sharing.iter().map(|&i| (i, Vec::new())).collect();
        Occupancy::default().sweep(alias, sharing, Some(flat), |i, o| {
            let at = (sharing.iter().position(|&s| s == i)).expect("a sharing placement");
            if !out[at].1.contains(&o) {
                out[at].1.push(o);
            }
        });
        out.iter_mut().for_each(|(_, v)| v.sort_unstable());
        out
    });
    assert_eq!(found[0], found[1], "the array and the tree agree");
    found[0].clone()
}
