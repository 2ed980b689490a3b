//! The validator's findings as the command line prints them, and what it leaves out.
//!
//! A finding repeated frame after frame is printed once with its frame count
//! ([`crate::validate::repeated`]); `run --validate` prints the first [`RUN_SHOWN`] of those,
//! `check` all of them. Two things can still go unprinted: the folded findings past the first
//! [`RUN_SHOWN`], and the findings past the [`DIAGNOSTICS_KEPT`] the validator keeps in full
//! (it only counts those, by severity and rule). A reader who sees twenty findings must not
//! take them for all of them, so a last line says how many were not shown and why; the
//! error and warning totals count every finding either way.

use super::snippet::Sources;
use crate::Runtime;
use crate::validate::{DIAGNOSTICS_KEPT, Repeated, Validator, repeated};

/// Folded findings `run --validate` prints (its summary table comes first; `check` prints
/// them all).
pub const RUN_SHOWN: usize = 20;

/// What `run --validate` prints after its summary: the first [`RUN_SHOWN`] findings.
pub fn of_run(rt: &Runtime) -> String {
    let all = repeated(rt.diagnostics());
    let totals = "the validation totals count them, --json by rule";
    let dropped = rt.world.resource::<Validator>().dropped();
    print(
        &all,
        Some(RUN_SHOWN),
        dropped,
        totals,
        &mut Sources::default(),
    )
}

/// What `check` prints before its totals: every finding kept, `all` folded.
pub fn of_check(rt: &Runtime, all: &[Repeated]) -> String {
    let totals = "the error and warning counts include them";
    let dropped = rt.world.resource::<Validator>().dropped();
    print(all, None, dropped, totals, &mut Sources::default())
}

/// The first `limit` of `all` (all of them without a limit), each compiler-style when it can
/// be, then the line saying how many findings were not shown, if any: those folded into the
/// findings past the limit (each counted as often as it was found) and the `dropped` ones the
/// validator only counted. `totals` says where the count of everything can be read.
pub fn print(
    all: &[Repeated],
    limit: Option<usize>,
    dropped: u64,
    totals: &str,
    sources: &mut Sources,
) -> String {
    let limit = limit.unwrap_or(usize::MAX);
    let mut text = String::new();
    for r in all.iter().take(limit) {
        text.push_str(&sources.finding(r));
    }
    let rest = all.get(limit..).unwrap_or_default();
    let unprinted: u64 = rest.iter().map(|r| r.frames).sum();
    if unprinted + dropped == 0 {
        return text;
    }
    let mut why = Vec::new();
    if !rest.is_empty() {
        why.push(format!(
            "{unprinted} in {} finding(s) after the first {limit}",
            rest.len()
        ));
    }
    if dropped > 0 {
        why.push(format!(
            "{dropped} past the {DIAGNOSTICS_KEPT} the validator keeps"
        ));
    }
    text.push_str(&format!(
        "{} more finding(s) not shown ({}; {totals})\n",
        unprinted + dropped,
        why.join(", ")
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{Code, Diagnostic, Severity};

    fn folded(frames: u64, resource: &str) -> Repeated {
        Repeated {
            first: Diagnostic {
                code: Code::ReadAfterWrite,
                severity: Severity::Error,
                rule: "FS-3",
                frame: 0,
                queue: "graphics".into(),
                command: 1,
                pass: "p".into(),
                resource: resource.into(),
                message: "m".into(),
                location: String::new(),
            },
            frames,
        }
    }

    #[test]
    fn the_last_line_counts_every_finding_left_out() {
        let all: Vec<Repeated> = (0..5).map(|i| folded(i + 1, &format!("r{i}"))).collect();
        let mut sources = Sources::default();
        let text = print(&all, Some(2), 0, "t", &mut sources);
        assert_eq!(text.matches("error[V0501]").count(), 2, "{text}");
        // Findings 3, 4 and 5 repeat in 3, 4 and 5 frames.
        assert!(
            text.ends_with(
                "12 more finding(s) not shown (12 in 3 finding(s) after the first 2; t)\n"
            ),
            "{text}"
        );
        let text = print(&all, None, 7, "t", &mut sources);
        assert_eq!(text.matches("error[V0501]").count(), 5, "{text}");
        let kept = format!("7 past the {DIAGNOSTICS_KEPT} the validator keeps; t)\n");
        assert!(text.ends_with(&kept), "{text}");
        let text = print(&all, Some(5), 0, "t", &mut sources);
        assert!(!text.contains("not shown"), "{text}");
    }
}
