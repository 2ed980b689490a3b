//! Scene text layout: a saved scene should read like a hand-written one.
//!
//! RON's pretty printer puts every field on its own line at every depth, which turns a
//! twenty-entity scene into five hundred lines nobody wants to review. Scenes are laid out
//! the way the examples are written instead: one line per resource, view and timeline event;
//! a pass spread over a few lines with one line per use, since uses are what a reader scans
//! and what diffs touch; one line per script command, for the same reason. Each piece is
//! still produced by serde (RON's pretty printer with a depth limit of zero writes a value
//! on one line), so quoting, escapes and field defaults are exactly what parsing expects;
//! this file only decides where the line breaks go.

use std::fmt::Write as _;

use ron::ser::PrettyConfig;
use serde::Serialize;

use super::format::{EntityDef, EventKindDef, SceneFile, ron_options};
use crate::barrier::BarrierGroup;
use crate::device::Command;
use crate::model::{Script, ScriptCommand, Semantics, Work};

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
    if let Some(script) = &scene.script {
        frame_script(&mut out, script)?;
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
    if let Some(cost) = &pass.cost {
        let _ = writeln!(out, "{inner}cost: {},", one_line(cost)?);
    }
    if let Some(queue) = &pass.compute_queue {
        let _ = writeln!(out, "{inner}compute_queue: {},", one_line(queue)?);
    }
    if let Some(queries) = &pass.queries {
        let _ = writeln!(out, "{inner}queries: {},", one_line(queries)?);
    }
    if !pass.after.is_empty() {
        let _ = writeln!(out, "{inner}after: {},", one_line(&pass.after)?);
    }
    if let Some(script) = &pass.script {
        let _ = writeln!(out, "{inner}script: [");
        commands(&mut out, script, level + 2)?;
        let _ = writeln!(out, "{inner}],");
    }
    let _ = write!(out, "{})", INDENT.repeat(level));
    if let Some(disabled) = def.disabled {
        let _ = write!(out, ", disabled: {disabled}");
    }
    out.push(')');
    Ok(out)
}

/// The frame script: one line per command, each frame's submissions grouped.
fn frame_script(out: &mut String, script: &Script<String>) -> Result<(), ron::Error> {
    let _ = writeln!(out, "{INDENT}script: (");
    let _ = writeln!(out, "{INDENT}{INDENT}frames: [");
    for (i, frame) in script.frames.iter().enumerate() {
        let _ = writeln!(out, "{}[ // frame {i}", INDENT.repeat(3));
        for s in frame {
            let mut head = format!("queue: {}", one_line(&s.queue)?);
            if let Some(label) = &s.label {
                let _ = write!(head, ", label: {}", one_line(label)?);
            }
            let _ = writeln!(out, "{}({head}, commands: [", INDENT.repeat(4));
            commands(out, &s.commands, 5)?;
            let _ = writeln!(out, "{}]),", INDENT.repeat(4));
        }
        let _ = writeln!(out, "{}],", INDENT.repeat(3));
    }
    let _ = writeln!(out, "{INDENT}{INDENT}],");
    if script.repeat_from != 0 {
        let _ = writeln!(out, "{INDENT}{INDENT}repeat_from: {},", script.repeat_from);
    }
    if !script.lists.is_empty() {
        let _ = writeln!(out, "{INDENT}{INDENT}lists: [");
        for l in &script.lists {
            let mut head = format!("name: {}", one_line(&l.name)?);
            if l.semantics != Semantics::Fast {
                let _ = write!(head, ", semantics: {}", one_line(&l.semantics)?);
            }
            let _ = writeln!(out, "{}({head}, commands: [", INDENT.repeat(3));
            commands(out, &l.commands, 4)?;
            let _ = writeln!(out, "{}]),", INDENT.repeat(3));
        }
        let _ = writeln!(out, "{INDENT}{INDENT}],");
    }
    if !script.bundles.is_empty() {
        let _ = writeln!(out, "{INDENT}{INDENT}bundles: [");
        for b in &script.bundles {
            let head = format!("name: {}", one_line(&b.name)?);
            let _ = writeln!(out, "{}({head}, commands: [", INDENT.repeat(3));
            commands(out, &b.commands, 4)?;
            let _ = writeln!(out, "{}]),", INDENT.repeat(3));
        }
        let _ = writeln!(out, "{INDENT}{INDENT}],");
    }
    if !script.pipelines.is_empty() {
        let _ = writeln!(out, "{INDENT}{INDENT}pipelines: [");
        for p in &script.pipelines {
            let _ = writeln!(out, "{}{},", INDENT.repeat(3), one_line(p)?);
        }
        let _ = writeln!(out, "{INDENT}{INDENT}],");
    }
    let _ = writeln!(out, "{INDENT}),");
    Ok(())
}

/// Script commands, one per line at indent level `level`; a barrier call carrying several
/// barriers takes one line per barrier.
fn commands(
    out: &mut String,
    commands: &[ScriptCommand<String>],
    level: usize,
) -> Result<(), ron::Error> {
    let pad = INDENT.repeat(level);
    for c in commands {
        let ScriptCommand::Device(Command::Barrier(BarrierGroup {
            global,
            buffers,
            textures,
        })) = c
        else {
            let _ = writeln!(out, "{pad}{},", one_line(c)?);
            continue;
        };
        if global.len() + buffers.len() + textures.len() <= 1 {
            let _ = writeln!(out, "{pad}{},", one_line(c)?);
            continue;
        }
        let _ = writeln!(out, "{pad}Barrier(");
        let lists = [
            ("global", lines(global)?),
            ("buffers", lines(buffers)?),
            ("textures", lines(textures)?),
        ];
        for (key, list) in lists.iter().filter(|(_, l)| !l.is_empty()) {
            let _ = writeln!(out, "{pad}{INDENT}{key}: [");
            for item in list {
                let _ = writeln!(out, "{pad}{INDENT}{INDENT}{item},");
            }
            let _ = writeln!(out, "{pad}{INDENT}],");
        }
        let _ = writeln!(out, "{pad}),");
    }
    Ok(())
}

/// Each value on its own line.
fn lines<T: Serialize>(values: &[T]) -> Result<Vec<String>, ron::Error> {
    values.iter().map(one_line).collect()
}
