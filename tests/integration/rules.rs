//! The rule table (`docs/rules.md`) against the code and the scenes: the table lists every
//! rule of the catalogue, every rule it does not mark `not started` is cited in `src/` or
//! `systems/`, every scene in `scenes/mistakes/` fails `check` (exit 1) with its rule, and
//! every scene in `scenes/warnings/` raises its warning and passes (exit 0).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The catalogue's families and how many rules each has (`shared/reference/rules.md`).
const FAMILIES: [(&str, u32); 7] = [
    ("CTX", 7),
    ("FS", 15),
    ("RL", 7),
    ("FN", 3),
    ("RB", 2),
    ("CC", 8),
    ("EB", 12),
];

/// The table's rows: rule ID and status cell.
fn rows() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("docs/rules.md")).expect("docs/rules.md");
    let mut rows = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| ID | enforced | status | tests |` splits into six cells, empty at both ends.
        if cells.len() < 5 {
            continue;
        }
        let id = cells[1];
        let is_id = FAMILIES.iter().any(|(f, _)| {
            id.strip_prefix(f)
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|n| n.parse::<u32>().is_ok())
        });
        if is_id {
            rows.push((id.to_string(), cells[3].to_string()));
        }
    }
    rows
}

/// Whether `text` cites `id` as a word: `FS-1` is not cited by `FS-10`, `EB-9` is by `EB-9d`.
fn cites(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_table_lists_every_rule_of_the_catalogue_once() {
    let ids: Vec<String> = rows().into_iter().map(|(id, _)| id).collect();
    for (family, count) in FAMILIES {
        for n in 1..=count {
            let id = format!("{family}-{n}");
            let times = ids.iter().filter(|i| **i == id).count();
            assert_eq!(times, 1, "docs/rules.md lists {id} {times} times");
        }
    }
    let total: u32 = FAMILIES.iter().map(|(_, n)| n).sum();
    assert_eq!(ids.len(), total as usize, "{ids:?}");
}

#[test]
fn every_rule_not_marked_not_started_is_cited_in_the_code() {
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    sources(&root().join("systems"), &mut files);
    let code: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let uncited: Vec<String> = rows()
        .into_iter()
        .filter(|(id, status)| !status.starts_with("not started") && !cites(&code, id))
        .map(|(id, _)| id)
        .collect();
    assert!(
        uncited.is_empty(),
        "cited nowhere in src/ or systems/: {uncited:?}"
    );
}

#[test]
fn citing_is_by_whole_rule_id() {
    assert!(cites("checks FS-1.", "FS-1"));
    assert!(!cites("checks FS-10.", "FS-1"));
    assert!(cites("the EB-9d example", "EB-9"));
    assert!(!cites("XFS-1", "FS-1"));
}

/// The `.ron` files directly in `dir`, sorted.
fn scenes(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths
}

/// The rule and code a scene declares on its first line (`// expect: RULE CODE`).
fn declared(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let first = text.lines().next().unwrap_or_default();
    let mut words = first.trim_start_matches("// expect: ").split_whitespace();
    let rule = words.next().unwrap_or_default().to_string();
    (rule, words.next().unwrap_or_default().to_string())
}

/// `fastframe check` on `path`: exit code and standard output.
fn check(path: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .arg("check")
        .arg(path)
        .output()
        .expect("fastframe runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn every_mistake_scene_fails_check() {
    let mistakes = scenes("scenes/mistakes");
    assert!(mistakes.len() >= 40, "{} mistakes", mistakes.len());
    for path in mistakes {
        let (rule, code) = declared(&path);
        let (exit, out) = check(&path);
        assert_eq!(exit, 1, "{}: check exits {exit}:\n{out}", path.display());
        // The finding that fails it is an error with the declared code and rule.
        let wanted = format!("error[{code}] {rule}");
        assert!(
            out.contains(&wanted),
            "{}: no {wanted}:\n{out}",
            path.display()
        );
    }
}

#[test]
fn every_warning_scene_warns_and_passes_check() {
    let warnings = scenes("scenes/warnings");
    assert_eq!(warnings.len(), 5);
    for path in warnings {
        let (rule, code) = declared(&path);
        let (exit, out) = check(&path);
        assert_eq!(exit, 0, "{}: check exits {exit}:\n{out}", path.display());
        let wanted = format!("warning[{code}] {rule}");
        assert!(
            out.contains(&wanted),
            "{}: no {wanted}:\n{out}",
            path.display()
        );
    }
}
