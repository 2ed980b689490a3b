//! A command of a named group of commands (a bundle's): the group is found by its name's
//! literal inside a top-level field, and the command by its own name after it, so that a
//! rule about one command of a bundle points at that command, not at the bundle.

use super::super::error::Location;
use super::super::scan::Token;
use super::Locator;

impl Locator<'_> {
    /// The `nth` (from 0) call named `call` after the literal `value` that follows the key
    /// `group` inside the top-level field `key` (`script`, `bundles`, a bundle's name); else
    /// that literal, else [`Locator::top_str`]. A call is its name as a whole word outside
    /// string literals.
    pub fn top_call_after(
        &self,
        (key, group): (&str, &str),
        value: &str,
        call: &str,
        nth: usize,
    ) -> Location {
        let Some(top) = self.top_key(key) else {
            return self.start();
        };
        let end = (self.scan.groups.iter())
            .find(|g| g.open > top)
            .map_or(self.text.len(), |g| g.close);
        let group_at = self.scan.tokens.iter().find_map(|t| match t {
            Token::Key { name, at, .. } if name == group && top < *at && *at < end => Some(*at),
            _ => None,
        });
        let Some(from) = group_at.and_then(|g| self.str_between(g, end, value)) else {
            return self.top_str(key, value);
        };
        let found = (self.text.get(from..end).into_iter())
            .flat_map(|rest| rest.match_indices(call))
            .map(|(at, _)| from + at)
            .filter(|&at| self.is_word(at, call.len()) && !self.in_literal(from, at))
            .nth(nth);
        self.at(found.unwrap_or(from))
    }

    /// Whether the `len` bytes at `at` are a whole identifier.
    fn is_word(&self, at: usize, len: usize) -> bool {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let before = self.text.get(..at).and_then(|t| t.chars().next_back());
        let after = self.text.get(at + len..).and_then(|t| t.chars().next());
        !before.is_some_and(ident) && !after.is_some_and(ident)
    }

    /// Whether `at` is inside a string literal, counting quotes from `from` (a literal's
    /// opening quote).
    fn in_literal(&self, from: usize, at: usize) -> bool {
        let span = self.text.get(from..at).unwrap_or_default();
        let mut quotes = 0;
        let mut escaped = false;
        for c in span.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => quotes += 1,
                _ => escaped = false,
            }
        }
        quotes % 2 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse;

    const TEXT: &str = r#"Scene(
  entities: [(name: "v", buffer: (size: 64))],
  script: (frames: [[(commands: [ExecuteBundle("b"), Draw(draws: 1, vertices: 3, pixels: 1)])]], bundles: [
    (name: "a", commands: [Draw(draws: 1, vertices: 3, pixels: 1)]),
    (name: "b", commands: [SetVertexBuffers(["Draw"]), Draw(draws: 1, vertices: 3, pixels: 1),
      Draw(draws: 2, vertices: 3, pixels: 1)]),
  ]),
)
"#;

    #[test]
    fn a_bundle_s_command_is_found_after_the_bundle_s_name_by_its_own_name() {
        let scene = parse(TEXT, "b.ron").expect("the test scene parses");
        let loc = Locator::new("b.ron", TEXT, &scene);
        let at = ("script", "bundles");
        let first = loc.top_call_after(at, "b", "Draw", 0);
        assert_eq!((first.line, first.column), (5, 56));
        let second = loc.top_call_after(at, "b", "Draw", 1);
        assert_eq!((second.line, second.column), (6, 7));
        // No third: the bundle's name, not its ExecuteBundle in the frame before.
        let none = loc.top_call_after(at, "b", "Draw", 2);
        assert_eq!((none.line, none.column), (5, 12));
    }
}
