//! Scene text layout: a saved scene should read like a hand-written one.
//!
//! RON's pretty printer puts every field on its own line at every depth, which turns a
//! twenty-entity scene into five hundred lines nobody wants to review. Scenes are laid out
//! the way the examples are written instead: one line per resource, view and timeline event;
//! a pass spread over a few lines with one line per use, since uses are what a reader scans
//! and what diffs touch. Each piece is still produced by serde (RON's pretty printer with a
//! depth limit of zero writes a value on one line), so quoting, escapes and field defaults
//! are exactly what parsing expects; this file only decides where the line breaks go.

use std::fmt::Write as _;

use ron::ser::PrettyConfig;
use serde::Serialize;

use super::format::{EntityDef, EventKindDef, SceneFile, ron_options};
use crate::model::Work;

/// Indent of one level.
const INDENT: &str = "    ";

/// `scene` as RON text: a leading comment, `Scene(`, settings one per line, one line per
/// entity and event, passes spread over one line per use. Parsing the text gives `scene`
/// back.
pub fn to_ron(scene: &SceneFile) -> String {
    layout(scene).unwrap_or_else(|e| {
        // Serializing plain data cannot fail; should it, the text says why and will not load.
        format!("// fastframe could not write this scene: {e}\n")
    })
}

fn layout(scene: &SceneFile) -> Result<String, ron::Error> {
    let mut out = String::from(
        "// Saved by fastframe: the authored entities, settings and timeline.\nScene(\n",
    );
    let settings =
        ron_options().to_string_pretty(&scene.settings, PrettyConfig::new().depth_limit(1))?;
    let _ = writeln!(
        out,
        "{INDENT}settings: {},",
        settings.replace('\n', "\n    ")
    );
    let _ = writeln!(out, "{INDENT}entities: [");
    for def in &scene.entities {
        let _ = writeln!(out, "{INDENT}{INDENT}{},", entity(def, 2)?);
    }
    let _ = writeln!(out, "{INDENT}],");
    if !scene.timeline.is_empty() {
        let _ = writeln!(out, "{INDENT}timeline: [");
        for e in &scene.timeline {
            let event = match &e.event {
                EventKindDef::Add(def) => format!("Add({})", entity(def, 2)?),
                other => one_line(other)?,
            };
            let _ = writeln!(out, "{INDENT}{INDENT}(frame: {}, event: {event}),", e.frame);
        }
        let _ = writeln!(out, "{INDENT}],");
    }
    out.push_str(")\n");
    Ok(out)
}

/// A value on one line, as RON.
fn one_line<T: Serialize + ?Sized>(value: &T) -> Result<String, ron::Error> {
    ron_options().to_string_pretty(value, PrettyConfig::new().depth_limit(0))
}

/// One entity starting at indent level `level`: on one line, except passes, which take a
/// line per field and per use and end back at `level`.
fn entity(def: &EntityDef, level: usize) -> Result<String, ron::Error> {
    let Some(pass) = &def.pass else {
        return one_line(def);
    };
    let inner = INDENT.repeat(level + 1);
    let mut out = format!("(name: {}, pass: (\n", one_line(&def.name)?);
    let _ = writeln!(out, "{inner}queue: {},", one_line(&pass.queue)?);
    if pass.uses.is_empty() {
        let _ = writeln!(out, "{inner}uses: [],");
    } else {
        let _ = writeln!(out, "{inner}uses: [");
        for u in &pass.uses {
            let _ = writeln!(out, "{inner}{INDENT}{},", one_line(u)?);
        }
        let _ = writeln!(out, "{inner}],");
    }
    if pass.work != Work::None {
        let _ = writeln!(out, "{inner}work: {},", one_line(&pass.work)?);
    }
    if !pass.after.is_empty() {
        let _ = writeln!(out, "{inner}after: {},", one_line(&pass.after)?);
    }
    let _ = write!(out, "{})", INDENT.repeat(level));
    if let Some(disabled) = def.disabled {
        let _ = write!(out, ", disabled: {disabled}");
    }
    out.push(')');
    Ok(out)
}
