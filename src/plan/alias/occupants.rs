//! Which placed transients share bytes, and which held a transient's bytes just before it:
//! what the hand-overs need from the placement (EB-9d).

use std::collections::BTreeMap;

use super::AliasPlan;

/// The placements (indices) whose bytes another placement also uses.
pub(super) fn sharing(alias: &AliasPlan) -> Vec<u32> {
    let mut by_offset: Vec<u32> = (0..alias.placements.len() as u32).collect();
    by_offset.sort_unstable_by_key(|&i| alias.placements[i as usize].offset);
    let mut shares = vec![false; alias.placements.len()];
    let (mut end, mut owner) = (0u64, None::<u32>);
    for &i in &by_offset {
        let p = &alias.placements[i as usize];
        if p.offset < end {
            shares[i as usize] = true;
            if let Some(o) = owner {
                shares[o as usize] = true;
            }
        }
        if p.offset + p.bytes > end {
            (end, owner) = (p.offset + p.bytes, Some(i));
        }
    }
    (0..alias.placements.len() as u32)
        .filter(|&i| shares[i as usize])
        .collect()
}

/// For each sharing placement, the placements that held its bytes just before it on the
/// frame's circle: a sweep in order of first use over a map of byte ranges to their latest
/// occupant, twice, so that the frame's first transients see the last ones of the frame
/// before. Each (placement, previous occupant) pair goes to `visit`, a pair whose occupant
/// held several ranges of the placement's bytes once per range.
pub(super) fn for_each_previous_occupant(
    alias: &AliasPlan,
    sharing: &[u32],
    mut visit: impl FnMut(u32, u32),
) {
    // Start of a range -> (its end, its occupant).
    let mut map: BTreeMap<u64, (u64, u32)> = BTreeMap::new();
    let mut hit: Vec<(u64, (u64, u32))> = Vec::new();
    for round in 0..2 {
        for &i in sharing {
            let p = &alias.placements[i as usize];
            let (lo, hi) = (p.offset, p.offset + p.bytes);
            // Ranges that overlap [lo, hi): one starting before lo and reaching past it, and
            // those starting inside.
            hit.clear();
            if let Some((&s, &(e, o))) = map.range(..lo).next_back()
                && e > lo
            {
                hit.push((s, (e, o)));
            }
            hit.extend(map.range(lo..hi).map(|(&s, &v)| (s, v)));
            // Edited in place where a range keeps its start: a transient taking exactly the
            // bytes of one before it, the common case, changes no node of the tree.
            for &(s, (e, o)) in &hit {
                if round == 1 && o != i {
                    visit(i, o);
                }
                if s < lo {
                    map.insert(s, (lo, o));
                } else if s > lo {
                    map.remove(&s);
                }
                if e > hi {
                    map.insert(hi, (e, o));
                }
            }
            map.insert(lo, (hi, i));
        }
    }
}

/// [`for_each_previous_occupant`] collected: each sharing placement with its previous
/// occupants, once each.
#[cfg(test)]
pub(super) fn previous_occupants(alias: &AliasPlan, sharing: &[u32]) -> Vec<(u32, Vec<u32>)> {
    let mut out: Vec<(u32, Vec<u32>)> = sharing.iter().map(|&i| (i, Vec::new())).collect();
    for_each_previous_occupant(alias, sharing, |i, o| {
        let at = sharing
            .iter()
            .position(|&s| s == i)
            .expect("a sharing placement");
        if !out[at].1.contains(&o) {
            out[at].1.push(o);
        }
    });
    out
}
