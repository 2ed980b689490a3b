//! A script command's own arguments: a rule about one call (a resolve of two particular
//! textures, say) points at that call's quoted argument, not at the first place the name
//! appears in the script (typically a barrier before it).
//!
//! Commands are found as `Call(field: "value", ...)`: a bracket group preceded by the call's
//! name, holding the field keys with their string literals. A command whose fields do not
//! all match is not the one meant; when none matches, the caller's broader location stands.

use super::super::error::Location;
use super::super::scan::{Group, Token};
use super::Locator;

impl Locator<'_> {
    /// The literal of field `want` in the first `call(...)` inside the top-level field `key`
    /// whose fields match `fields` (each `(field, literal)`), else the first literal equal to
    /// `want`'s value in that field ([`Locator::top_str`]).
    pub fn top_call_str(
        &self,
        key: &str,
        call: &str,
        fields: &[(&str, &str)],
        want: &str,
    ) -> Location {
        let value = field_value(fields, want);
        let span = self.top_key(key).and_then(|at| {
            let g = self.scan.groups.iter().find(|g| g.open > at)?;
            Some(Group {
                open: at,
                close: g.close,
            })
        });
        match span.and_then(|s| self.call_field(s, call, fields, want)) {
            Some(at) => self.at(at),
            None => self.top_str(key, value),
        }
    }

    /// The same inside the field `key` of definition `id` (a pass's script), else the first
    /// literal equal to `want`'s value after that field ([`Locator::def_key_str`]).
    pub fn def_call_str(
        &self,
        id: usize,
        key: &str,
        call: &str,
        fields: &[(&str, &str)],
        want: &str,
    ) -> Location {
        let value = field_value(fields, want);
        let span = self.defs.get(id).copied().flatten().map(|a| a.span);
        match span.and_then(|s| self.call_field(s, call, fields, want)) {
            Some(at) => self.at(at),
            None => self.def_key_str(id, key, value),
        }
    }

    /// Byte offset of the literal of field `want` in the first `call(...)` group inside
    /// `span` whose fields match `fields`.
    fn call_field(
        &self,
        span: Group,
        call: &str,
        fields: &[(&str, &str)],
        want: &str,
    ) -> Option<usize> {
        let calls = self.scan.groups.iter().filter(|g| {
            span.open < g.open
                && g.close <= span.close
                && self
                    .text
                    .get(..g.open)
                    .is_some_and(|t| t.trim_end().ends_with(call))
        });
        calls.into_iter().find_map(|g| {
            let literal = |field: &str| self.field_literal(*g, field);
            let all = fields
                .iter()
                .all(|(f, v)| literal(f).is_some_and(|(_, s)| s == *v));
            all.then(|| literal(want).map(|(at, _)| at)).flatten()
        })
    }

    /// The offset and value of the literal that follows key `field` directly in group `g`.
    fn field_literal(&self, g: Group, field: &str) -> Option<(usize, &str)> {
        let tokens = &self.scan.tokens;
        (0..tokens.len()).find_map(|t| match (&tokens[t], tokens.get(t + 1)) {
            (
                Token::Key { name, at, .. },
                Some(Token::Str {
                    value: Some(v),
                    at: s,
                }),
            ) if name == field && g.open < *at && *at < g.close => Some((*s, v.as_str())),
            _ => None,
        })
    }
}

/// The literal `fields` gives field `want` (empty when it gives none).
fn field_value<'a>(fields: &[(&str, &'a str)], want: &str) -> &'a str {
    fields
        .iter()
        .find(|(f, _)| *f == want)
        .map_or("", |(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse;

    // The texture is named first by a copy, then by the resolve meant, in the frame script
    // and in the pass's script alike.
    const TEXT: &str = r#"Scene(
  entities: [
    (name: "m", texture: (format: Rgba8Unorm, extent: (4, 4), samples: 4, flags: (render_target: true))),
    (name: "t", texture: (format: Rgba8Unorm, extent: (4, 4))),
    (name: "p", pass: (uses: [(target: "t", access: CopyDest)], script: [
      CopyResource(src: "m", dst: "t", bytes: 4), ResolveSubresource(src: "m", dst: "t"),
    ])),
  ],
  script: (frames: [[(commands: [
    CopyResource(src: "m", dst: "t", bytes: 4), ResolveSubresource(src: "m", dst: "t"),
  ])]]),
)
"#;

    #[test]
    fn a_call_s_argument_is_found_in_that_call_not_at_the_name_s_first_use() {
        let scene = parse(TEXT, "c.ron").expect("the test scene parses");
        let loc = Locator::new("c.ron", TEXT, &scene);
        let fields = [("src", "m"), ("dst", "t")];
        let dst = loc.top_call_str("script", "ResolveSubresource", &fields, "dst");
        assert_eq!((dst.line, dst.column), (10, 83));
        let src = loc.def_call_str(2, "script", "ResolveSubresource", &fields, "src");
        assert_eq!((src.line, src.column), (6, 75));
        // No such call: the first literal of the value, as before.
        let other = [("src", "t"), ("dst", "m")];
        let fallback = loc.top_call_str("script", "ResolveSubresource", &other, "dst");
        assert_eq!(fallback, loc.top_str("script", "m"));
    }
}
