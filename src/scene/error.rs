//! Scene errors, each with the place in the file that caused it.
//!
//! A scene is written by hand, so an error is only useful when it says where to look: every
//! variant carries a [`Location`] (file, 1-based line and column) and, when the problem
//! belongs to one entity, that entity's name. The Display form is the one compilers use,
//! `file:line:column: message`, so editors and terminals can jump to it:
//!
//! ```text
//! scenes/deferred.ron:12:9: entity "gbuffer": unknown name "albdo" (did you mean "albedo"?)
//! ```
//!
//! The command line shows the same message as rustc shows its errors, `error[kind]: message`,
//! an arrow to the location, and the line with a caret under the column
//! (`cli/snippet.rs`, from [`SceneError::kind`] and [`SceneError::message`]).
//!
//! The variants sort problems by what the author has to do about them (fix the syntax, rename
//! something, pick another target, change a number, break a cycle) rather than by which
//! check found them; the message says the rest.

use std::fmt;
use thiserror::Error;

/// Where in a scene file a problem is. Lines and columns are 1-based and count characters,
/// like RON's own error positions; line 0 means the problem is with the file as a whole
/// (it could not be read), and Display then prints only the file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// The whole file, for problems that have no position (line and column 0).
    pub fn file_only(file: &str) -> Self {
        Self {
            file: file.to_string(),
            line: 0,
            column: 0,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.file)
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        }
    }
}

/// A scene that cannot be loaded. Exit code 1 at the command line.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SceneError {
    /// The file could not be read; the location is the file alone (line 0, column 0).
    #[error("{location}: cannot read scene file: {message}")]
    Io { location: Location, message: String },
    /// The text is not RON, or not the scene format: bad syntax, an unknown field or variant,
    /// a value of the wrong type (reported by the RON parser at its own position).
    #[error("{location}: {}{message}", Prefix(.entity))]
    Syntax {
        location: Location,
        entity: Option<String>,
        message: String,
    },
    /// An entity has no component or several, or a field its kind does not take.
    #[error("{location}: {}{message}", Prefix(.entity))]
    Shape {
        location: Location,
        entity: Option<String>,
        message: String,
    },
    /// Two entities share a name; names are how everything refers to everything.
    #[error("{location}: duplicate name {entity:?} (first defined at line {}, column {})", .first.line, .first.column)]
    DuplicateName {
        location: Location,
        entity: String,
        first: Location,
    },
    /// A reference names no entity of the scene.
    #[error("{location}: {}unknown name {name:?}{}", Prefix(.entity), Suggest(.suggestions))]
    UnknownName {
        location: Location,
        entity: Option<String>,
        name: String,
        suggestions: Vec<String>,
    },
    /// A reference names an entity of the wrong kind (a view of a pass, `after` a texture...).
    #[error("{location}: {}{name:?} is {found}, expected {expected}", Prefix(.entity))]
    WrongKind {
        location: Location,
        entity: Option<String>,
        name: String,
        expected: &'static str,
        found: &'static str,
    },
    /// A use or a view does not fit its target: access, flags, format, view kind or queue.
    #[error("{location}: {}{message}", Prefix(.entity))]
    Misuse {
        location: Location,
        entity: Option<String>,
        message: String,
    },
    /// A size, count, range or setting is zero, absurd or outside what the device supports.
    #[error("{location}: {}{message}", Prefix(.entity))]
    OutOfRange {
        location: Location,
        entity: Option<String>,
        message: String,
    },
    /// The passes enabled at load depend on each other in a circle; `path` lists it by name,
    /// each pass having to run before the next, the first repeated at the end, and `because`
    /// says why each runs before the next (the resource and ordering rule, or `after`).
    #[error(
        "{location}: {}dependency cycle: {} ({})",
        Prefix(.entity),
        .path.join(" -> "),
        .because.join("; ")
    )]
    Cycle {
        location: Location,
        entity: Option<String>,
        path: Vec<String>,
        because: Vec<String>,
    },
}

impl SceneError {
    /// Where the problem is.
    pub fn location(&self) -> &Location {
        match self {
            SceneError::Io { location, .. }
            | SceneError::Syntax { location, .. }
            | SceneError::Shape { location, .. }
            | SceneError::DuplicateName { location, .. }
            | SceneError::UnknownName { location, .. }
            | SceneError::WrongKind { location, .. }
            | SceneError::Misuse { location, .. }
            | SceneError::OutOfRange { location, .. }
            | SceneError::Cycle { location, .. } => location,
        }
    }

    /// The same error, shown at `at` instead: a check that knows the exact call moves an
    /// error found by a general one there.
    pub fn relocated(mut self, at: Location) -> Self {
        match &mut self {
            SceneError::Io { location, .. }
            | SceneError::Syntax { location, .. }
            | SceneError::Shape { location, .. }
            | SceneError::DuplicateName { location, .. }
            | SceneError::UnknownName { location, .. }
            | SceneError::WrongKind { location, .. }
            | SceneError::Misuse { location, .. }
            | SceneError::OutOfRange { location, .. }
            | SceneError::Cycle { location, .. } => *location = at,
        }
        self
    }

    /// A short stable name of the variant (`unknown-name`, `syntax`...), shown in brackets in
    /// the compiler-style rendering as rustc shows its error codes.
    pub fn kind(&self) -> &'static str {
        match self {
            SceneError::Io { .. } => "io",
            SceneError::Syntax { .. } => "syntax",
            SceneError::Shape { .. } => "shape",
            SceneError::DuplicateName { .. } => "duplicate-name",
            SceneError::UnknownName { .. } => "unknown-name",
            SceneError::WrongKind { .. } => "wrong-kind",
            SceneError::Misuse { .. } => "misuse",
            SceneError::OutOfRange { .. } => "out-of-range",
            SceneError::Cycle { .. } => "cycle",
        }
    }

    /// The message without its location: what follows `file:line:column: ` in Display, for
    /// renderings that show the location on a line of its own.
    pub fn message(&self) -> String {
        let full = self.to_string();
        let prefix = format!("{}: ", self.location());
        match full.strip_prefix(&prefix) {
            Some(rest) => rest.to_string(),
            None => full,
        }
    }

    /// The entity the problem belongs to, when there is one.
    pub fn entity(&self) -> Option<&str> {
        match self {
            SceneError::Io { .. } => None,
            SceneError::DuplicateName { entity, .. } => Some(entity),
            SceneError::Syntax { entity, .. }
            | SceneError::Shape { entity, .. }
            | SceneError::UnknownName { entity, .. }
            | SceneError::WrongKind { entity, .. }
            | SceneError::Misuse { entity, .. }
            | SceneError::OutOfRange { entity, .. }
            | SceneError::Cycle { entity, .. } => entity.as_deref(),
        }
    }
}

/// `entity "x": ` before a message, or nothing.
struct Prefix<'a>(&'a Option<String>);

impl fmt::Display for Prefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(name) => write!(f, "entity {name:?}: "),
            None => Ok(()),
        }
    }
}

/// ` (did you mean "a", "b" or "c"?)`, or nothing without suggestions.
struct Suggest<'a>(&'a [String]);

impl fmt::Display for Suggest<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((last, rest)) = self.0.split_last() else {
            return Ok(());
        };
        f.write_str(" (did you mean ")?;
        for (i, s) in rest.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{s:?}")?;
        }
        if !rest.is_empty() {
            f.write_str(" or ")?;
        }
        write!(f, "{last:?}?)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Location {
        Location {
            file: "scenes/deferred.ron".into(),
            line,
            column,
        }
    }

    #[test]
    fn display_names_file_line_column_and_entity() {
        let e = SceneError::UnknownName {
            location: at(12, 9),
            entity: Some("gbuffer".into()),
            name: "albdo".into(),
            suggestions: vec!["albedo".into()],
        };
        assert_eq!(
            e.to_string(),
            r#"scenes/deferred.ron:12:9: entity "gbuffer": unknown name "albdo" (did you mean "albedo"?)"#
        );
        assert_eq!(e.location(), &at(12, 9));
        assert_eq!(e.kind(), "unknown-name");
        assert_eq!(
            e.message(),
            r#"entity "gbuffer": unknown name "albdo" (did you mean "albedo"?)"#
        );
        assert_eq!(e.entity(), Some("gbuffer"));
    }

    #[test]
    fn several_suggestions_read_as_a_list() {
        let s = Suggest(&["a".into(), "b".into(), "c".into()]).to_string();
        assert_eq!(s, r#" (did you mean "a", "b" or "c"?)"#);
        assert_eq!(Suggest(&[]).to_string(), "");
    }

    #[test]
    fn file_errors_print_the_file_alone() {
        let e = SceneError::Io {
            location: Location::file_only("missing.ron"),
            message: "not found".into(),
        };
        assert_eq!(
            e.to_string(),
            "missing.ron: cannot read scene file: not found"
        );
    }
}
