//! Diagnostics: what the validation layer reports, with a stable code and the rule it cites.
//!
//! Display gives the plain two-line form (header, then `  --> file:line:col: frame ...`);
//! the command line shows a finding on a script command compiler-style from the same parts
//! ([`Diagnostic::header`], [`Diagnostic::located`], [`Repeated::context`]) with the command's
//! line and a caret under it (`cli/snippet.rs`).

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

impl Diagnostic {
    /// The first line of every rendering: `error[V0401] FS-4: message`.
    pub fn header(&self) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!("{sev}[{}] {}: {}", self.code, self.rule, self.message)
    }

    /// `, resource x` when the finding names a resource; nothing for one about no resource
    /// (a query, a playback scope), rather than a dangling `resource`.
    fn resource_part(&self) -> String {
        match self.resource.as_str() {
            "" => String::new(),
            r => format!(", resource {r}"),
        }
    }

    /// [`Diagnostic::location`] as file, line and column, when it is one (`file:line:col`;
    /// the file may itself hold colons).
    pub fn located(&self) -> Option<crate::scene::Location> {
        let mut parts = self.location.rsplitn(3, ':');
        let column = parts.next()?.parse().ok()?;
        let line = parts.next()?.parse().ok()?;
        let file = parts.next().filter(|f| !f.is_empty())?;
        Some(crate::scene::Location {
            file: file.to_string(),
            line,
            column,
        })
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.header())?;
        let at = match self.location.as_str() {
            "" => String::new(),
            loc => format!("{loc}: "),
        };
        write!(
            f,
            "  --> {at}frame {}, queue {}, command {}, pass {}{}",
            self.frame,
            self.queue,
            self.command,
            self.pass,
            self.resource_part()
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

impl Repeated {
    /// Which frames, queue, command, pass and resource, without the file position:
    /// `frame 0 and 3 more (4 frames), queue graphics, command 9, pass render, resource x`.
    pub fn context(&self) -> String {
        let d = &self.first;
        let frames = match self.frames {
            1 => format!("frame {}", d.frame),
            n => format!("frame {} and {} more ({n} frames)", d.frame, n - 1),
        };
        format!(
            "{frames}, queue {}, command {}, pass {}{}",
            d.queue,
            d.command,
            d.pass,
            d.resource_part()
        )
    }
}

impl fmt::Display for Repeated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.first.header())?;
        let at = match self.first.location.as_str() {
            "" => String::new(),
            loc => format!("{loc}: "),
        };
        write!(f, "  --> {at}{}", self.context())
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

    #[test]
    fn a_location_parses_from_the_right() {
        let mut d = finding(0, "a");
        d.location = "C:/scenes/s.ron:12:9".into();
        let at = d.located().map(|l| (l.file, l.line, l.column));
        assert_eq!(at, Some(("C:/scenes/s.ron".to_string(), 12, 9)));
        for bad in ["", "s.ron", "s.ron:x:1", ":1:2"] {
            d.location = bad.into();
            assert_eq!(d.located(), None, "{bad}");
        }
        assert_eq!(d.header(), "error[V0501] FS-3: m");
    }

    #[test]
    fn a_finding_about_no_resource_names_none() {
        let d = finding(0, "");
        assert!(d.to_string().ends_with("command 3, pass p"), "{d}");
        let r = repeated(std::slice::from_ref(&d));
        assert!(r[0].context().ends_with("pass p"), "{}", r[0].context());
        assert!(finding(0, "a").to_string().ends_with("pass p, resource a"));
    }
}
