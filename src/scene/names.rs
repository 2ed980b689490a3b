//! "Did you mean ...?": the closest existing names to a name that does not exist.
//!
//! Most unknown names in a hand-written scene are typos of a name a few lines away, so the
//! error suggests the nearest names by edit distance (insertions, deletions, substitutions
//! and swaps of neighbouring letters each cost one). A suggestion is only useful when it is
//! plausibly what was meant, so candidates further than about a third of the name's length
//! are dropped, and at most three are offered, nearest first.

/// At most this many suggestions.
const MAX_SUGGESTIONS: usize = 3;

/// Edit distance between `a` and `b`, counting characters (not bytes): Levenshtein with
/// adjacent transpositions (optimal string alignment), since swapped letters are the most
/// common typo after a missing one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the dynamic-programming table: d[i][j] = distance(a[..i], b[..j]).
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j - 1] + cost).min(prev[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut row);
    }
    prev[b.len()]
}

/// The largest distance still worth suggesting for a name of `len` characters: one edit for
/// short names, about a third of the length for longer ones, never more than four.
fn tolerance(len: usize) -> usize {
    (len / 3).clamp(1, 4)
}

/// Up to three of `candidates` close to `wanted`, nearest first (ties alphabetical). A
/// candidate equal to `wanted` but for letter case always counts as close.
pub fn suggest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let limit = tolerance(wanted.chars().count());
    let wanted_lower = wanted.to_lowercase();
    let mut close: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != wanted)
        .filter_map(|c| {
            let d = edit_distance(&wanted_lower, &c.to_lowercase()).min(edit_distance(wanted, c));
            (d <= limit).then_some((d, c))
        })
        .collect();
    close.sort_unstable();
    close.dedup();
    close
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_single_edits() {
        assert_eq!(edit_distance("albdo", "albedo"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("same", "same"), 0);
        assert_eq!(edit_distance("ü", "u"), 1);
        assert_eq!(edit_distance("mian", "main"), 1);
        assert_eq!(edit_distance("swapchian", "swapchain"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }

    #[test]
    fn suggestions_are_close_sorted_and_few() {
        let names = ["albedo", "normal", "depth", "albedo_srv", "swapchain"];
        assert_eq!(suggest("albdo", names), vec!["albedo"]);
        assert_eq!(suggest("dpth", names), vec!["depth"]);
        assert!(suggest("completely_else", names).is_empty());
        let many = ["a1", "a2", "a3", "a4"];
        assert_eq!(suggest("a0", many), vec!["a1", "a2", "a3"]);
    }

    #[test]
    fn letter_case_alone_is_close() {
        assert_eq!(
            suggest("GBUFFER_ALBEDO", ["gbuffer_albedo"]),
            vec!["gbuffer_albedo"]
        );
    }

    #[test]
    fn short_names_allow_one_edit() {
        assert_eq!(suggest("vb", ["ib", "cb0", "hdr"]), vec!["ib"]);
    }
}
