//! Where each command of a frame script is in the scene text, so that the validation
//! layer's findings on a script command can name its `file:line:col` as load errors do.
//!
//! The parsed script has no positions. Its commands are found again in the text: the
//! `commands: [...]` arrays inside the top-level `script` group, those under `frames` in
//! text order (which is the order of the frame lists' submissions), and within an array
//! each element, `Name` or `Name(...)`, at the offset where its name starts. Whenever the
//! text does not match the parsed script (a count that differs), that submission gets no
//! locations: its findings keep the frame, queue and command index they always carry.
//!
//! A pass's own script (`pass: (..., script: [...])`) is found the same way: the arrays
//! under `script` keys, in text order, are those of the passes that have one, in the order
//! of the entities.

use std::sync::Arc;

use super::format::SceneFile;
use super::scan::{Token, scan};
use crate::model::{PassScriptLocations, ScriptLocations};

/// The locations of every frame-script command of `scene`, parsed from `text`.
pub fn locate(scene: &SceneFile, text: &str, file: &str) -> ScriptLocations {
    let Some(script) = &scene.script else {
        return ScriptLocations::default();
    };
    let s = scan(text);
    let group_after = |at: usize| s.groups.iter().position(|g| g.open > at);
    let key = |name: &str, depth: Option<usize>, group: Option<usize>| {
        s.tokens.iter().find_map(|t| match t {
            Token::Key {
                name: n,
                at,
                depth: d,
                group: g,
            } if n == name
                && depth.is_none_or(|x| x == *d)
                && group.is_none_or(|x| Some(x) == *g) =>
            {
                Some(*at)
            }
            _ => None,
        })
    };
    let Some(script_group) = key("script", Some(1), None).and_then(group_after) else {
        return ScriptLocations::default();
    };
    let Some(frames) = key("frames", None, Some(script_group))
        .and_then(group_after)
        .and_then(|g| s.groups.get(g).copied())
    else {
        return ScriptLocations::default();
    };
    let arrays: Vec<usize> = (s.tokens.iter())
        .filter_map(|t| match t {
            Token::Key { name, at, .. }
                if name == "commands" && frames.open < *at && *at < frames.close =>
            {
                group_after(*at)
            }
            _ => None,
        })
        .collect();
    let lines = LineIndex::new(text);
    let mut arrays = arrays.into_iter();
    let frames = (script.frames.iter())
        .map(|list| {
            (list.iter())
                .map(|sub| {
                    let starts = arrays
                        .next()
                        .map(|g| elements(text, &s.groups, g))
                        .unwrap_or_default();
                    if starts.len() != sub.commands.len() {
                        return Vec::new();
                    }
                    (starts.into_iter())
                        .map(|at| {
                            let (line, column) = lines.at(text, at);
                            Arc::from(format!("{file}:{line}:{column}"))
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    ScriptLocations { frames }
}

/// The locations of every pass-script command of `scene`, by pass name, parsed from `text`.
pub fn locate_passes(scene: &SceneFile, text: &str, file: &str) -> PassScriptLocations {
    let s = scan(text);
    let arrays = (s.tokens.iter()).filter_map(|t| match t {
        Token::Key { name, at, .. } if name == "script" => {
            let g = s.groups.iter().position(|g| g.open > *at)?;
            (text.as_bytes().get(s.groups[g].open) == Some(&b'[')).then_some(g)
        }
        _ => None,
    });
    let scripted = (scene.entities.iter())
        .filter_map(|e| Some((&e.name, e.pass.as_ref()?.script.as_ref()?.len())));
    let lines = LineIndex::new(text);
    let passes = (scripted.zip(arrays))
        .filter_map(|((name, count), g)| {
            let starts = elements(text, &s.groups, g);
            (starts.len() == count).then(|| {
                let at = |o| {
                    let (line, column) = lines.at(text, o);
                    Arc::from(format!("{file}:{line}:{column}"))
                };
                (name.clone(), starts.into_iter().map(at).collect())
            })
        })
        .collect();
    PassScriptLocations { passes }
}

/// The byte offsets where the elements of array group `g` start: each is `Name` or
/// `Name(...)`, separated by commas, with comments and whitespace between.
fn elements(text: &str, groups: &[super::scan::Group], g: usize) -> Vec<usize> {
    let Some(array) = groups.get(g) else {
        return Vec::new();
    };
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = array.open + 1;
    while i < array.close.min(b.len()) {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b',' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = (i..b.len()).find(|&j| b[j] == b'\n').unwrap_or(b.len());
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = (i + 2..b.len().saturating_sub(1))
                    .find(|&j| b[j] == b'*' && b[j + 1] == b'/')
                    .map_or(b.len(), |j| j + 2);
            }
            _ => {
                out.push(i);
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                match groups.iter().find(|g| g.open == i) {
                    Some(call) => i = call.close + 1,
                    // Not a command: give up on this array (its count will not match).
                    None if b.get(i) != Some(&b',') && i < array.close => return Vec::new(),
                    None => {}
                }
            }
        }
    }
    out
}

/// Line starts, for turning byte offsets into 1-based lines and character columns.
struct LineIndex(Vec<usize>);

impl LineIndex {
    fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self(starts)
    }

    fn at(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.0.partition_point(|&s| s <= offset).max(1);
        let start = self.0[line - 1];
        let column = 1 + text.get(start..offset).map_or(0, |s| s.chars().count());
        (line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse;

    #[test]
    fn every_command_of_every_submission_has_its_line_and_column() {
        let text = "Scene(\n  entities: [],\n  script: (frames: [[\n    (queue: Graphics, commands: [\n      Kickoff, // a comment, with a comma\n      SetViewport(width: 1, height: 1),\n    ]),\n    (commands: [ClearState]),\n  ]]),\n)\n";
        let scene = parse(text, "s.ron").expect("parses");
        let found = locate(&scene, text, "s.ron");
        let all: Vec<Vec<String>> = (found.frames[0].iter())
            .map(|s| s.iter().map(|l| l.to_string()).collect())
            .collect();
        assert_eq!(all, [vec!["s.ron:5:7", "s.ron:6:7"], vec!["s.ron:8:17"]]);
    }

    #[test]
    fn every_command_of_a_pass_script_has_its_line_and_column() {
        let text = "Scene(\n  entities: [\n    (name: \"plain\", pass: (queue: Graphics)),\n    (name: \"p\", pass: (queue: Graphics, script: [\n      ClearState,\n      SetViewport(width: 1, height: 1),\n    ])),\n  ],\n)\n";
        let scene = parse(text, "s.ron").expect("parses");
        let found = locate_passes(&scene, text, "s.ron");
        let p: Vec<String> = found.passes["p"].iter().map(|l| l.to_string()).collect();
        assert_eq!(p, ["s.ron:5:7", "s.ron:6:7"]);
        assert!(!found.passes.contains_key("plain"));
    }
}
