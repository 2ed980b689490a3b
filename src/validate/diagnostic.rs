//! Diagnostics: what the validation layer reports, with a stable code and the rule it cites.

use serde::Serialize;

use super::Code;
use std::fmt;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

/// One finding of the validation layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// What was found; displayed and serialised as its stable string, e.g. `V0101`.
    pub code: Code,
    pub severity: Severity,
    /// Rule ID from the catalogue (`shared/reference/rules.md`).
    pub rule: &'static str,
    pub frame: u64,
    pub queue: String,
    /// Index of the command within its submission.
    pub command: usize,
    pub pass: String,
    pub resource: String,
    /// What went wrong and what to do about it.
    pub message: String,
    /// Where the command is in the scene file, `file:line:col`, for script commands (empty
    /// for the runtime's own).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub location: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{sev}[{}] {}: {}", self.code, self.rule, self.message)?;
        let at = match self.location.as_str() {
            "" => String::new(),
            loc => format!("{loc}: "),
        };
        write!(
            f,
            "  --> {at}frame {}, queue {}, command {}, pass {}, resource {}",
            self.frame, self.queue, self.command, self.pass, self.resource
        )
    }
}

/// A finding and how many frames repeated it: what `check` prints, once per finding rather
/// than once per frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Repeated {
    /// The first occurrence (its frame is the first frame that found it).
    #[serde(flatten)]
    pub first: Diagnostic,
    /// Frames that found it (1 when it was found once).
    pub frames: u64,
}

/// `diagnostics` with each finding that recurs in later frames (same code, rule, severity,
/// queue, command, pass, resource, location and message) folded into its first occurrence
/// with a count of frames, in the order of first occurrences. Findings that are alike within
/// one frame stay apart: the n-th of a frame joins the n-th of earlier frames.
pub fn repeated(diagnostics: &[Diagnostic]) -> Vec<Repeated> {
    type Key<'a> = (
        Code,
        Severity,
        &'a str,
        &'a str,
        usize,
        &'a str,
        &'a str,
        &'a str,
        &'a str,
    );
    let mut out: Vec<Repeated> = Vec::new();
    let mut groups: std::collections::HashMap<Key, Vec<usize>> = Default::default();
    let mut seen_in_frame: std::collections::HashMap<Key, usize> = Default::default();
    let mut frame = None;
    for d in diagnostics {
        if frame != Some(d.frame) {
            frame = Some(d.frame);
            seen_in_frame.clear();
        }
        let key: Key = (
            d.code,
            d.severity,
            d.rule,
            &d.queue,
            d.command,
            &d.pass,
            &d.resource,
            &d.location,
            &d.message,
        );
        let nth = seen_in_frame.entry(key).or_default();
        let list = groups.entry(key).or_default();
        match list.get(*nth) {
            Some(&g) if out[g].first.frame < d.frame => out[g].frames += 1,
            _ => {
                list.push(out.len());
                out.push(Repeated {
                    first: d.clone(),
                    frames: 1,
                });
            }
        }
        *nth += 1;
    }
    out
}

impl fmt::Display for Repeated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.first;
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{sev}[{}] {}: {}", d.code, d.rule, d.message)?;
        let at = match d.location.as_str() {
            "" => String::new(),
            loc => format!("{loc}: "),
        };
        let frames = match self.frames {
            1 => format!("frame {}", d.frame),
            n => format!("frame {} and {} more ({n} frames)", d.frame, n - 1),
        };
        write!(
            f,
            "  --> {at}{frames}, queue {}, command {}, pass {}, resource {}",
            d.queue, d.command, d.pass, d.resource
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(frame: u64, resource: &str) -> Diagnostic {
        Diagnostic {
            code: Code::ReadAfterWrite,
            severity: Severity::Error,
            rule: "FS-3",
            frame,
            queue: "graphics".into(),
            command: 3,
            pass: "p".into(),
            resource: resource.into(),
            message: "m".into(),
            location: "s.ron:4:5".into(),
        }
    }

    #[test]
    fn a_finding_of_every_frame_is_one_with_its_count() {
        let all: Vec<Diagnostic> = (0..4)
            .flat_map(|f| [finding(f, "a"), finding(f, "b"), finding(f, "a")])
            .collect();
        let r = repeated(&all);
        let shown: Vec<(&str, u64, u64)> = (r.iter())
            .map(|r| (r.first.resource.as_str(), r.first.frame, r.frames))
            .collect();
        // The two findings on "a" within a frame stay two; each repeats in four frames.
        assert_eq!(shown, [("a", 0, 4), ("b", 0, 4), ("a", 0, 4)]);
        assert!(
            r[0].to_string()
                .contains("s.ron:4:5: frame 0 and 3 more (4 frames)")
        );
        let once = repeated(&all[..1]);
        assert!(
            once[0]
                .to_string()
                .contains("--> s.ron:4:5: frame 0, queue")
        );
        let json = serde_json::to_value(&r[0]).unwrap_or_default();
        assert_eq!(
            (json["frames"].as_u64(), json["frame"].as_u64()),
            (Some(4), Some(0))
        );
    }
}
