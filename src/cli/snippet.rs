//! Compiler-style rendering: a located message shown with the line of the scene it points at
//! and a caret under the column, as rustc shows its errors.
//!
//! ```text
//! error[unknown-name]: entity "gbuffer": unknown name "albdo" (did you mean "albedo"?)
//!   --> scenes/deferred.ron:12:9
//!    |
//! 12 |         (target: "albdo", access: ShaderRead),
//!    |         ^
//! ```
//!
//! Scene load errors carry a [`Location`]; validator findings on script commands carry one as
//! `file:line:col` ([`Diagnostic::located`](crate::validate::Diagnostic::located)). The file
//! is read again for the snippet, once per run however many messages point into it, with the
//! loader's guards (a regular file of at most [`MAX_SCENE_BYTES`]): a FIFO or a device is
//! never opened. Whenever there is no snippet to show (no line, a file that cannot be read or
//! no longer has that line) the message falls back to its plain one-line form, which is also
//! what `--json` carries. Tabs are shown as four spaces and control characters as U+FFFD, so
//! the caret stays under the column and a hostile file cannot drive the terminal; a line
//! longer than [`WIDTH`] characters is shown as a window around the column. Columns count
//! characters, as the loader's do (a double-width character shifts the caret).

use std::collections::HashMap;
use std::fmt::Write;

use crate::error::RuntimeError;
use crate::scene::{Location, MAX_SCENE_BYTES, SceneError};
use crate::validate::Repeated;

/// The most characters of a source line shown; longer lines are cut around the column.
pub const WIDTH: usize = 100;

/// Scene files read for snippets, each once (or found unreadable once).
#[derive(Default)]
pub struct Sources {
    files: HashMap<String, Option<String>>,
}

impl Sources {
    /// The text of `file`, when it is a readable UTF-8 regular file of at most
    /// [`MAX_SCENE_BYTES`].
    pub fn text(&mut self, file: &str) -> Option<&str> {
        let entry = self.files.entry(file.to_string());
        entry.or_insert_with(|| read(file)).as_deref()
    }

    /// `err` rendered with its snippet when it is a located scene error, else `error: err`.
    pub fn runtime_error(&mut self, err: &RuntimeError) -> String {
        match err {
            RuntimeError::Scene(e) => self.scene_error(e),
            other => format!("error: {other}\n"),
        }
    }

    /// A scene error as `error[kind]: message` with its snippet, else `error: err`.
    pub fn scene_error(&mut self, err: &SceneError) -> String {
        let at = err.location();
        let header = format!("error[{}]: {}", err.kind(), err.message());
        (self.text(&at.file))
            .and_then(|text| render(&header, at, "", text))
            .unwrap_or_else(|| format!("error: {err}\n"))
    }

    /// A validator finding with its snippet when its command has a location, else its plain
    /// two-line form.
    pub fn finding(&mut self, r: &Repeated) -> String {
        let rendered = r.first.located().and_then(|at| {
            let text = self.text(&at.file)?;
            render(&r.first.header(), &at, &r.context(), text)
        });
        rendered.unwrap_or_else(|| format!("{r}\n"))
    }
}

/// Reads `file` as the loader does, or nothing.
fn read(file: &str) -> Option<String> {
    use std::io::Read;
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MAX_SCENE_BYTES {
        return None;
    }
    let mut text = String::new();
    let f = std::fs::File::open(file).ok()?;
    f.take(MAX_SCENE_BYTES).read_to_string(&mut text).ok()?;
    Some(text)
}

/// `header`, the arrow to `at`, the line of `text` it names with a caret under its column
/// and `label` after the caret, and a blank line; `None` when `at` names no line of `text`.
pub fn render(header: &str, at: &Location, label: &str, text: &str) -> Option<String> {
    if at.line == 0 {
        return None;
    }
    let line = text.split('\n').nth(at.line - 1)?;
    let line = line.strip_suffix('\r').unwrap_or(line);
    let (shown, pad) = window(line, at.column.max(1) - 1);
    let number = at.line.to_string();
    let gutter = " ".repeat(number.len());
    let mut out = String::new();
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{gutter}--> {at}");
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{number} | {shown}");
    let caret = format!("{}^ {label}", " ".repeat(pad));
    let _ = writeln!(out, "{gutter} | {}", caret.trim_end());
    out.push('\n');
    Some(out)
}

/// The part of `line` to show and the width before the character at index `column` in it:
/// the whole line, or [`WIDTH`] characters around the column with `...` where it was cut.
fn window(line: &str, column: usize) -> (String, usize) {
    // Counted, not collected: a minified scene may be one line of many megabytes.
    let len = line.chars().count();
    let column = column.min(len);
    let (from, to) = if len <= WIDTH {
        (0, len)
    } else {
        let from = column.saturating_sub(WIDTH / 2).min(len - WIDTH);
        (from, from + WIDTH)
    };
    let mut shown = String::new();
    let mut pad = 0;
    if from > 0 {
        shown.push_str("...");
        pad += 3;
    }
    for (i, c) in line.chars().skip(from).take(to - from).enumerate() {
        let text = match c {
            '\t' => "    ".to_string(),
            c if c.is_control() => char::REPLACEMENT_CHARACTER.to_string(),
            c => c.to_string(),
        };
        if from + i < column {
            pad += text.chars().count();
        }
        shown.push_str(&text);
    }
    if to < len {
        shown.push_str("...");
    }
    (shown, pad)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Location {
        Location {
            file: "s.ron".into(),
            line,
            column,
        }
    }

    const TEXT: &str = "Scene(\n  entities: [\n    (name: \"a\", buffer: (size: 0)),\n  ],\n)\n";

    #[test]
    fn the_caret_is_under_the_column() {
        let out = render("error[x]: bad", &at(3, 26), "here", TEXT).unwrap_or_default();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "error[x]: bad",
                " --> s.ron:3:26",
                "  |",
                "3 |     (name: \"a\", buffer: (size: 0)),",
                "  |                          ^ here",
                "",
            ]
        );
        // The caret sits under the character the column counts.
        let caret = lines[4].find('^').unwrap_or_default();
        assert_eq!(&lines[3][caret..caret + 5], "size:");
    }

    #[test]
    fn the_gutter_is_as_wide_as_the_line_number() {
        let text = "x\n".repeat(11) + "abc";
        let out = render("e", &at(12, 2), "", &text).unwrap_or_default();
        assert!(
            out.contains("  --> s.ron:12:2\n   |\n12 | abc\n   |  ^\n"),
            "{out}"
        );
    }

    #[test]
    fn no_line_no_snippet() {
        assert_eq!(render("e", &at(0, 0), "", TEXT), None);
        assert_eq!(render("e", &at(99, 1), "", TEXT), None);
        // The empty line after the last newline exists: an error at the end of the file.
        assert!(render("e", &at(6, 1), "", TEXT).is_some());
    }

    #[test]
    fn tabs_and_control_characters_keep_the_caret_aligned() {
        let (shown, pad) = window("\ta\u{1b}b", 3);
        assert_eq!(shown, "    a\u{fffd}b");
        assert_eq!(pad, 6);
        assert_eq!(shown.chars().nth(pad), Some('b'));
    }

    #[test]
    fn a_long_line_is_cut_around_the_column() {
        let line = format!("{}X{}", "a".repeat(500), "b".repeat(500));
        let (shown, pad) = window(&line, 500);
        assert!(
            shown.starts_with("...") && shown.ends_with("..."),
            "{shown}"
        );
        assert_eq!(shown.chars().count(), WIDTH + 6);
        assert_eq!(shown.chars().nth(pad), Some('X'));
        // Near the end, the window ends with the line.
        let (shown, pad) = window(&line, 1000);
        assert!(!shown.ends_with("..."));
        assert_eq!(shown.chars().nth(pad), Some('b'));
    }

    #[test]
    fn an_unreadable_file_falls_back_to_the_plain_form() {
        let err = SceneError::OutOfRange {
            location: Location {
                file: "/nonexistent/scene.ron".into(),
                line: 3,
                column: 4,
            },
            entity: None,
            message: "too big".into(),
        };
        let mut sources = Sources::default();
        assert_eq!(
            sources.scene_error(&err),
            "error: /nonexistent/scene.ron:3:4: too big\n"
        );
        assert_eq!(sources.text("/"), None, "a directory is not read");
    }
}
