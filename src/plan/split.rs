//! The compile step that splits textures into subresource parts (see [`Parts`]): each use of
//! a split texture becomes one use per part it covers, keyed by the part.

use super::PlannedUse;
use super::compiler::ResourceInfo;
use super::parts::{Cell, Parts, range_of, resolve};
use crate::barrier::SubresourceRange;

/// Split every texture (in order of first use) whose uses name different ranges, and give
/// each use its key and range: the texture and every subresource when it is not split, else
/// one use per part it covers (the first of them `bound`, which recording binds once).
///
/// `uses` are every pass's, pass `i`'s at `starts[i]..starts[i + 1]`, and `numbers[j]` is the
/// number of use `j`'s resource in `resources`; all three are rewritten to the split uses.
/// Graphs without ranged uses return at once, allocating nothing.
pub fn split_uses(
    uses: &mut Vec<PlannedUse>,
    starts: &mut [u32],
    numbers: &mut Vec<u32>,
    resources: &[ResourceInfo],
) -> Parts {
    let mut parts = Parts::default();
    if uses.iter().all(|u| u.range.is_all()) {
        return parts;
    }
    let mut used: Vec<Vec<Cell>> = vec![Vec::new(); resources.len()];
    for (u, &n) in uses.iter().zip(numbers.iter()) {
        if let Some(d) = resources[n as usize].dims {
            used[n as usize].push(resolve(&u.range, d));
        }
    }
    let splits: Vec<Option<Vec<_>>> = (resources.iter().zip(&used))
        .map(|(r, cells)| parts.split(r.entity, r.dims?, cells))
        .collect();
    let (mut out, mut out_numbers) = (Vec::with_capacity(uses.len()), Vec::new());
    for p in 0..starts.len().saturating_sub(1) {
        let (from, to) = (starts[p] as usize, starts[p + 1] as usize);
        starts[p] = out.len() as u32;
        for j in from..to {
            let (u, n) = (uses[j], numbers[j]);
            let (Some(cells), Some(d)) = (&splits[n as usize], resources[n as usize].dims) else {
                out.push(PlannedUse {
                    range: SubresourceRange::ALL,
                    ..u
                });
                out_numbers.push(n);
                continue;
            };
            let within = resolve(&u.range, d);
            let inside = |c: &Cell| {
                (0..3).all(|k| within[k].start <= c[k].start && c[k].end <= within[k].end)
            };
            for (i, (key, c)) in cells.iter().filter(|(_, c)| inside(c)).enumerate() {
                out.push(PlannedUse {
                    key: *key,
                    range: range_of(c),
                    bound: i == 0,
                    ..u
                });
                out_numbers.push(n);
            }
        }
    }
    if let Some(last) = starts.last_mut() {
        *last = out.len() as u32;
    }
    (*uses, *numbers) = (out, out_numbers);
    parts
}
