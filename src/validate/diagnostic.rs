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
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        writeln!(f, "{sev}[{}] {}: {}", self.code, self.rule, self.message)?;
        write!(
            f,
            "  --> frame {}, queue {}, command {}, pass {}, resource {}",
            self.frame, self.queue, self.command, self.pass, self.resource
        )
    }
}
