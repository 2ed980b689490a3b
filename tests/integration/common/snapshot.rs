//! Snapshots: text a test produces, compared with a file committed beside the tests, so that a
//! failure shows what changed, line by line, rather than that something did. When a change is
//! intended, `FASTFRAME_BLESS=1 cargo test` writes the new text over the old, for review in
//! the diff of the commit that makes the change.

use std::path::Path;

/// The variable that turns a comparison into a rewrite.
const BLESS: &str = "FASTFRAME_BLESS";

/// Differing lines shown when a snapshot does not match; the rest are counted.
const SHOWN: usize = 12;

/// Compares `actual` with the snapshot at `path` (from the package's root), or writes it
/// there when `FASTFRAME_BLESS=1`. Panics with the first differing lines otherwise.
#[track_caller]
pub fn assert_snapshot(path: &str, actual: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var(BLESS).is_ok_and(|v| v == "1") {
        std::fs::write(&file, actual).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("{BLESS}: wrote {path}");
        return;
    }
    let expected = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("cannot read {path} ({e}); {BLESS}=1 writes it"));
    if expected != actual {
        panic!(
            "{path} differs from this run (- the snapshot, + now); if the change is intended, \
             {BLESS}=1 cargo test rewrites it\n{}",
            differences(&expected, actual)
        );
    }
}

/// The first lines that differ between `expected` and `actual`, numbered: the lines both
/// begin and end with are skipped, and what lies between is compared line by line, so a
/// changed line shows as its old and new versions and an added or removed one on its own.
pub fn differences(expected: &str, actual: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let head = (old.iter().zip(&new)).take_while(|(o, n)| o == n).count();
    let (old_rest, new_rest) = (&old[head..], &new[head..]);
    let tail = (old_rest.iter().rev().zip(new_rest.iter().rev()))
        .take_while(|(o, n)| o == n)
        .count();
    let old_mid = &old_rest[..old_rest.len() - tail];
    let new_mid = &new_rest[..new_rest.len() - tail];
    let mut out = Vec::new();
    let mut differing = 0;
    for i in 0..old_mid.len().max(new_mid.len()) {
        let (o, n) = (old_mid.get(i), new_mid.get(i));
        if o == n {
            continue;
        }
        differing += 1;
        if differing > SHOWN {
            continue;
        }
        let line = head + i + 1;
        if let Some(o) = o {
            out.push(format!("{line:>6} - {o}"));
        }
        if let Some(n) = n {
            out.push(format!("{line:>6} + {n}"));
        }
    }
    if differing > SHOWN {
        out.push(format!("       ... and {} more", differing - SHOWN));
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        out.push("       (one ends with a newline, the other not)".to_owned());
    }
    out.push(format!(
        "the snapshot has {} lines, this run {}",
        old.len(),
        new.len()
    ));
    out.join("\n")
}

#[test]
fn a_changed_line_shows_old_and_new_under_its_number() {
    let d = differences("a\nb\nc\nd\n", "a\nb\nC\nd\n");
    assert_eq!(
        d, "     3 - c\n     3 + C\nthe snapshot has 4 lines, this run 4",
        "{d}"
    );
}

#[test]
fn an_inserted_line_shows_alone_and_the_rest_stays_quiet() {
    let d = differences("a\nb\nc\n", "a\nx\nb\nc\n");
    assert_eq!(d, "     2 + x\nthe snapshot has 3 lines, this run 4", "{d}");
    let d = differences("a\nb\nc\n", "a\nc\n");
    assert_eq!(d, "     2 - b\nthe snapshot has 3 lines, this run 2", "{d}");
}

#[test]
fn many_differences_are_cut_short_and_counted() {
    let old: String = (0..40).map(|i| format!("{i}\n")).collect();
    let new: String = (0..40).map(|i| format!("{}\n", i * 2)).collect();
    let d = differences(&old, &new);
    assert!(d.starts_with("     2 - 1\n     2 + 2\n"), "{d}");
    assert!(d.contains("... and 27 more"), "{d}");
}
