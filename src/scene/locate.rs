//! Where a definition, a field or a reference is in the scene text.
//!
//! Validation works on parsed values, which have no positions, but every error must point at
//! a line and column. The [`Locator`] ties the two together after the fact: it scans the
//! text ([`super::scan`]) and pairs each entity definition with its `name: "x"` key (the
//! k-th definition in text order with the k-th key), and each timeline event with its
//! `frame:` key. The bracket group around such a key is the definition's extent, and
//! anything the validator complains about (a field, the quoted target of the third use) is
//! searched for inside it. Whenever the text does not match the expectation (a name the
//! scanner could not decode, say), the answer falls back to the enclosing definition, then to
//! the start of the file: a slightly vaguer location, never a panic.

mod call;
mod named_call;

use super::error::Location;
use super::format::{EventKindDef, SceneFile};
use super::scan::{Group, Scan, Token, scan};

/// The extent of one definition: its anchor key and the group around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Anchor {
    /// Byte offset of the anchor key (`name` or `frame`).
    at: usize,
    /// The definition's bracket group.
    span: Group,
}

/// Positions of a scene's definitions in its text. Definitions are numbered as
/// [`super::index::SceneIndex`] numbers them: `entities` first, then timeline `Add`s.
pub struct Locator<'a> {
    file: &'a str,
    text: &'a str,
    scan: Scan,
    defs: Vec<Option<Anchor>>,
    events: Vec<Option<Anchor>>,
}

impl<'a> Locator<'a> {
    /// A locator for syntax errors, when there are no parsed definitions to pair.
    pub fn unparsed(file: &'a str, text: &'a str) -> Self {
        Self {
            file,
            text,
            scan: scan(text),
            defs: Vec::new(),
            events: Vec::new(),
        }
    }

    /// A locator for `scene`, parsed from `text`.
    pub fn new(file: &'a str, text: &'a str, scene: &SceneFile) -> Self {
        let mut this = Self::unparsed(file, text);
        let names: Vec<&str> = scene
            .entities
            .iter()
            .map(|d| d.name.as_str())
            .chain(scene.timeline.iter().filter_map(|e| match &e.event {
                EventKindDef::Add(d) => Some(d.name.as_str()),
                _ => None,
            }))
            .collect();
        // Definition ids in text order: the `timeline` field may come before `entities`.
        let live = scene.entities.len();
        let mut text_order: Vec<usize> = (0..names.len()).collect();
        if let (Some(timeline), Some(entities)) =
            (this.top_key("timeline"), this.top_key("entities"))
            && timeline < entities
        {
            let mid = live.min(text_order.len());
            text_order.rotate_left(mid);
        }
        let name_keys = this.entity_name_keys();
        this.defs = vec![None; names.len()];
        let mut seen: hashbrown::HashMap<&str, usize> = hashbrown::HashMap::new();
        for (pos, &id) in text_order.iter().enumerate() {
            let name = names[id];
            let k = seen.entry(name).or_default();
            let paired = name_keys
                .get(pos)
                .filter(|&&t| this.key_value(t) == Some(name))
                .or_else(|| {
                    let mut same = name_keys
                        .iter()
                        .filter(|&&t| this.key_value(t) == Some(name));
                    same.nth(*k)
                });
            *k += 1;
            this.defs[id] = paired.and_then(|&t| this.anchor(t));
        }
        let frame_keys = this.keys_named("frame");
        this.events = (0..scene.timeline.len())
            .map(|i| frame_keys.get(i).and_then(|&t| this.anchor(t)))
            .collect();
        this
    }

    /// The location of byte offset `offset`: 1-based line and column, counting characters.
    pub fn at(&self, offset: usize) -> Location {
        let before = self.text.get(..offset).unwrap_or(self.text);
        let line = 1 + before.matches('\n').count();
        let column = 1 + before.rsplit('\n').next().unwrap_or("").chars().count();
        Location {
            file: self.file.to_string(),
            line,
            column,
        }
    }

    /// The byte offset of a 1-based line and character column (clamped to the text).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let mut offset = 0;
        for (n, l) in self.text.split_inclusive('\n').enumerate() {
            if n + 1 == line {
                let col = l
                    .char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
                return offset + col;
            }
            offset += l.len();
        }
        self.text.len()
    }

    /// The start of the file, the last resort.
    pub fn start(&self) -> Location {
        self.at(0)
    }

    /// Definition `id`'s `name` key.
    pub fn def(&self, id: usize) -> Location {
        self.anchor_at(self.defs.get(id).copied().flatten())
    }

    /// The `nth` field `key` inside definition `id` (falling back to the definition).
    pub fn def_key(&self, id: usize, key: &str, nth: usize) -> Location {
        let anchor = self.defs.get(id).copied().flatten();
        match anchor.and_then(|a| self.key_in(a.span, key, nth)) {
            Some(t) => self.at(self.token_at(t)),
            None => self.anchor_at(anchor),
        }
    }

    /// The string value of the `nth` field `key` inside definition `id` (say, the quoted
    /// target of the third use), falling back to the key, then to the definition.
    pub fn def_key_value(&self, id: usize, key: &str, nth: usize) -> Location {
        let anchor = self.defs.get(id).copied().flatten();
        match anchor.and_then(|a| self.key_in(a.span, key, nth)) {
            Some(t) => match self.scan.tokens.get(t + 1) {
                Some(Token::Str { at, .. }) => self.at(*at),
                _ => self.at(self.token_at(t)),
            },
            None => self.anchor_at(anchor),
        }
    }

    /// The first string literal equal to `value` after the field `key` inside definition
    /// `id` (a name in `after: [...]`), else the first such literal anywhere in it.
    pub fn def_key_str(&self, id: usize, key: &str, value: &str) -> Location {
        let anchor = self.defs.get(id).copied().flatten();
        let found = anchor.and_then(|a| {
            let from = self.token_at(self.key_in(a.span, key, 0)?);
            self.str_between(from, a.span.close, value)
        });
        match found {
            Some(at) => self.at(at),
            None => self.def_str(id, value),
        }
    }

    /// The first string literal equal to `value` inside definition `id`, else the definition.
    pub fn def_str(&self, id: usize, value: &str) -> Location {
        self.str_in(self.defs.get(id).copied().flatten(), value)
    }

    /// The field `key` inside event `i`, else the event.
    pub fn event_key(&self, i: usize, key: &str) -> Location {
        let anchor = self.events.get(i).copied().flatten();
        match anchor.and_then(|a| self.key_in(a.span, key, 0)) {
            Some(t) => self.at(self.token_at(t)),
            None => self.anchor_at(anchor),
        }
    }

    /// The first string literal equal to `value` inside event `i`, else the event.
    pub fn event_str(&self, i: usize, value: &str) -> Location {
        self.str_in(self.events.get(i).copied().flatten(), value)
    }

    /// The field `key` of `settings: (...)`, else the `settings` key, else the start.
    pub fn setting(&self, key: &str) -> Location {
        let Some(settings) = self.top_key("settings") else {
            return self.start();
        };
        let group = self.scan.groups.iter().position(|g| g.open > settings);
        let field = self.scan.tokens.iter().find_map(|t| match t {
            Token::Key {
                name, at, group: g, ..
            } if name == key && *g == group => Some(*at),
            _ => None,
        });
        self.at(field.unwrap_or(settings))
    }

    /// The top-level field `key` (say, `script`), else the start.
    pub fn top(&self, key: &str) -> Location {
        self.at(self.top_key(key).unwrap_or(0))
    }

    /// The first string literal equal to `value` inside the top-level field `key`, else
    /// that field, else the start.
    pub fn top_str(&self, key: &str, value: &str) -> Location {
        let Some(at) = self.top_key(key) else {
            return self.start();
        };
        let end = (self.scan.groups.iter())
            .find(|g| g.open > at)
            .map_or(self.text.len(), |g| g.close);
        self.at(self.str_between(at, end, value).unwrap_or(at))
    }

    /// Token indices of the `name` keys that name entities: not those of commands inside a
    /// `script` (`CreateView(name: ...)`, `InsertFence(name: ...)`).
    fn entity_name_keys(&self) -> Vec<usize> {
        let scripts: Vec<Group> = (self.keys_named("script").into_iter())
            .filter_map(|t| {
                let at = self.token_at(t);
                self.scan.groups.iter().find(|g| g.open > at).copied()
            })
            .collect();
        (self.keys_named("name").into_iter())
            .filter(|&t| {
                let at = self.token_at(t);
                !scripts.iter().any(|g| g.open < at && at < g.close)
            })
            .collect()
    }

    /// The name of the innermost entity definition around `offset`, for syntax errors.
    pub fn entity_at(&self, offset: usize) -> Option<String> {
        self.entity_name_keys()
            .into_iter()
            .filter_map(|t| Some((self.anchor(t)?, self.key_value(t)?)))
            .filter(|(a, _)| a.span.open <= offset && offset <= a.span.close)
            .max_by_key(|(a, _)| a.span.open)
            .map(|(_, name)| name.to_string())
    }

    fn anchor_at(&self, anchor: Option<Anchor>) -> Location {
        anchor.map_or_else(|| self.start(), |a| self.at(a.at))
    }

    fn str_in(&self, anchor: Option<Anchor>, value: &str) -> Location {
        let Some(a) = anchor else {
            return self.start();
        };
        let found = self.str_between(a.span.open, a.span.close, value);
        self.at(found.unwrap_or(a.at))
    }

    /// Offset of the first string literal equal to `value` strictly between two offsets.
    fn str_between(&self, from: usize, to: usize, value: &str) -> Option<usize> {
        self.scan.tokens.iter().find_map(|t| match t {
            Token::Str { value: Some(v), at } if v == value && from < *at && *at < to => Some(*at),
            _ => None,
        })
    }

    /// Byte offset of a top-level (depth 1) key.
    fn top_key(&self, key: &str) -> Option<usize> {
        self.scan.tokens.iter().find_map(|t| match t {
            Token::Key {
                name, at, depth: 1, ..
            } if name == key => Some(*at),
            _ => None,
        })
    }

    /// Token indices of every key named `key`, in text order.
    fn keys_named(&self, key: &str) -> Vec<usize> {
        (self.scan.tokens.iter().enumerate())
            .filter(|(_, t)| matches!(t, Token::Key { name, .. } if name == key))
            .map(|(i, _)| i)
            .collect()
    }

    /// Token index of the `nth` key named `key` within `span`.
    fn key_in(&self, span: Group, key: &str, nth: usize) -> Option<usize> {
        (self.scan.tokens.iter().enumerate())
            .filter(|(_, t)| {
                matches!(t, Token::Key { name, at, .. }
                    if name == key && span.open < *at && *at < span.close)
            })
            .nth(nth)
            .map(|(i, _)| i)
    }

    /// The decoded string right after key token `t`.
    fn key_value(&self, t: usize) -> Option<&str> {
        match self.scan.tokens.get(t + 1)? {
            Token::Str { value, .. } => value.as_deref(),
            Token::Key { .. } => None,
        }
    }

    /// The anchor of key token `t`: its offset and the group it is a field of.
    fn anchor(&self, t: usize) -> Option<Anchor> {
        match self.scan.tokens.get(t)? {
            Token::Key { at, group, .. } => Some(Anchor {
                at: *at,
                span: *self.scan.groups.get((*group)?)?,
            }),
            Token::Str { .. } => None,
        }
    }

    fn token_at(&self, t: usize) -> usize {
        match self.scan.tokens.get(t) {
            Some(Token::Key { at, .. } | Token::Str { at, .. }) => *at,
            None => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse;

    const TEXT: &str = "// test\nScene(\n  entities: [\n    (name: \"a\", buffer: (size: 4)),\n    (name: \"v\", view: (of: \"a\", kind: Srv)),\n  ],\n  timeline: [(frame: 3, event: Release(\"v\"))],\n)\n";

    #[test]
    fn definitions_and_references_have_line_and_column() {
        let scene = parse(TEXT, "t.ron").expect("the test scene parses");
        let loc = Locator::new("t.ron", TEXT, &scene);
        assert_eq!((loc.def(0).line, loc.def(0).column), (4, 6));
        assert_eq!((loc.def(1).line, loc.def(1).column), (5, 6));
        assert_eq!(loc.def_str(1, "a").column, 28);
        assert_eq!(loc.def_key(1, "kind", 0).column, 33);
        assert_eq!(loc.def_key_value(1, "of", 0).column, 28);
        let frame = loc.event_key(0, "frame");
        assert_eq!((frame.line, frame.column), (7, 15));
        assert_eq!(loc.event_str(0, "v").column, 40);
        assert_eq!(loc.entity_at(loc.offset_of(5, 30)), Some("v".to_string()));
        assert_eq!(loc.entity_at(0), None);
    }

    #[test]
    fn missing_things_fall_back_without_panicking() {
        let scene = parse(TEXT, "t.ron").expect("the test scene parses");
        let loc = Locator::new("t.ron", TEXT, &scene);
        assert_eq!(loc.def(99), loc.start());
        assert_eq!(loc.def_key(0, "nothing", 0), loc.def(0));
        assert_eq!(loc.def_str(0, "absent"), loc.def(0));
        assert_eq!(loc.setting("frames_in_flight"), loc.start());
        assert_eq!(loc.offset_of(99, 1), TEXT.len());
        assert_eq!(loc.at(TEXT.len() + 5).line, 9);
    }

    #[test]
    fn columns_count_characters() {
        let loc = Locator::unparsed("u.ron", "\"é\" x");
        assert_eq!(loc.at(5).column, 5);
        assert_eq!(loc.offset_of(1, 5), 5);
    }
}
