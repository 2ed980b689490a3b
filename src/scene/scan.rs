//! A forgiving tokenizer for RON text, just enough to find where things are.
//!
//! RON reports positions for its own errors, but serde hands the loader values without
//! spans, so a problem found later (a duplicate name, an unknown reference) has to be found
//! again in the text. This scanner walks the text once and records the two things that
//! anchor such a search: field keys (an identifier followed by `:`) with the bracket group
//! they sit in, and string literals with their decoded value. It skips comments, raw strings
//! and character literals so that a `"name"` inside a comment is never mistaken for a
//! reference, and it never fails: unterminated strings or unbalanced brackets just end at
//! the end of the text, because it also runs on text RON has already rejected.

/// One token the locator cares about.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    /// `ident:` with the byte offset of the identifier and the group it is a field of.
    Key {
        name: String,
        at: usize,
        group: Option<usize>,
        depth: usize,
    },
    /// A string literal at byte offset `at` (its opening quote, or the `r`/`b` prefix).
    /// `value` is `None` when an escape could not be decoded.
    Str { value: Option<String>, at: usize },
}

/// A bracketed group, `(...)`, `[...]` or `{...}`: byte offsets of its opening bracket and
/// of its closing one (the end of the text when it never closes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub open: usize,
    pub close: usize,
}

/// The tokens and groups of a text, in text order.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    pub tokens: Vec<Token>,
    pub groups: Vec<Group>,
}

/// Scans `text`. Runs in one pass, allocates only for tokens, never panics.
pub fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut out = Scan::default();
    let mut stack: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            b'"' => {
                let (value, end) = string(text, i + 1);
                out.tokens.push(Token::Str { value, at: i });
                i = end;
            }
            b'r' if raw_string_hashes(b, i + 1).is_some() => {
                let hashes = raw_string_hashes(b, i + 1).unwrap_or(0);
                let (value, end) = raw_string(text, i + 2 + hashes, hashes);
                out.tokens.push(Token::Str { value, at: i });
                i = end;
            }
            b'b' if b.get(i + 1) == Some(&b'"') => {
                let (_, end) = string(text, i + 2);
                out.tokens.push(Token::Str { value: None, at: i });
                i = end;
            }
            b'\'' => i = char_end(b, i + 1),
            b'(' | b'[' | b'{' => {
                stack.push(out.groups.len());
                out.groups.push(Group {
                    open: i,
                    close: b.len(),
                });
                i += 1;
            }
            b')' | b']' | b'}' => {
                if let Some(g) = stack.pop().and_then(|g| out.groups.get_mut(g)) {
                    g.close = i;
                }
                i += 1;
            }
            _ if is_ident_start(c) => {
                let start = i;
                let raw = c == b'r' && b.get(i + 1) == Some(&b'#');
                i += if raw { 2 } else { 1 };
                while i < b.len() && is_ident_continue(b[i]) {
                    i += 1;
                }
                let after = skip_trivia(b, i);
                if b.get(after) == Some(&b':') {
                    let name_start = if raw { start + 2 } else { start };
                    out.tokens.push(Token::Key {
                        name: text.get(name_start..i).unwrap_or_default().to_string(),
                        at: start,
                        group: stack.last().copied(),
                        depth: stack.len(),
                    });
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Offset of the newline ending the line comment at `i` (or the end of the text).
fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p)
}

/// Offset just past the block comment starting at `i`; RON block comments nest.
fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth = depth.saturating_sub(1);
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    b.len()
}

/// Offset past whitespace and comments from `i`.
fn skip_trivia(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_whitespace() => i += 1,
            Some(b'/') if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            Some(b'/') if b.get(i + 1) == Some(&b'*') => i = block_comment_end(b, i),
            _ => return i,
        }
    }
}

/// For `r` at `i - 1`: the number of `#` before a `"` starting at `i`, if this is a raw
/// string (and not a raw identifier like `r#type`).
fn raw_string_hashes(b: &[u8], i: usize) -> Option<usize> {
    let hashes = b.get(i..)?.iter().take_while(|&&c| c == b'#').count();
    (b.get(i + hashes) == Some(&b'"')).then_some(hashes)
}

/// A raw string's contents from `start` up to `"` followed by `hashes` `#`s.
fn raw_string(text: &str, start: usize, hashes: usize) -> (Option<String>, usize) {
    let b = text.as_bytes();
    let mut i = start;
    while i < b.len() {
        if b[i] == b'"'
            && b.get(i + 1..i + 1 + hashes)
                .is_some_and(|h| h.iter().all(|&c| c == b'#'))
        {
            return (text.get(start..i).map(str::to_string), i + 1 + hashes);
        }
        i += 1;
    }
    (None, b.len())
}

/// Decodes a quoted string whose contents start at `start`; returns the value (None when an
/// escape is not understood or the string never ends) and the offset past the closing quote.
fn string(text: &str, start: usize) -> (Option<String>, usize) {
    let mut value = Some(String::new());
    let mut chars = text.get(start..).unwrap_or_default().char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return (value, start + k + 1),
            '\\' => {
                let decoded = match chars.next().map(|(_, e)| e) {
                    Some('n') => Some('\n'),
                    Some('t') => Some('\t'),
                    Some('r') => Some('\r'),
                    Some('0') => Some('\0'),
                    Some(e @ ('\\' | '"' | '\'')) => Some(e),
                    Some('u') => unicode_escape(&mut chars),
                    _ => None,
                };
                match (decoded, value.as_mut()) {
                    (Some(d), Some(v)) => v.push(d),
                    _ => value = None,
                }
            }
            _ => {
                if let Some(v) = value.as_mut() {
                    v.push(c);
                }
            }
        }
    }
    (None, text.len())
}

/// `{XXXX}` after `\u`.
fn unicode_escape(chars: &mut std::str::CharIndices<'_>) -> Option<char> {
    if chars.next().map(|(_, c)| c) != Some('{') {
        return None;
    }
    let mut code = 0u32;
    for (_, c) in chars.by_ref() {
        if c == '}' {
            return char::from_u32(code);
        }
        code = code.checked_mul(16)?.checked_add(c.to_digit(16)?)?;
    }
    None
}

/// Offset past a character literal whose contents start at `i` (`'a'`, `'\''`, `'"'`).
fn char_end(b: &[u8], i: usize) -> usize {
    let body = if b.get(i) == Some(&b'\\') {
        i + 2
    } else {
        i + 1
    };
    // Multi-byte characters: find the closing quote within the next few bytes.
    match b
        .get(body..(body + 8).min(b.len()))
        .and_then(|w| w.iter().position(|&c| c == b'\''))
    {
        Some(p) => body + p + 1,
        None => i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(s: &Scan) -> Vec<(&str, usize)> {
        s.tokens
            .iter()
            .filter_map(|t| match t {
                Token::Key { name, depth, .. } => Some((name.as_str(), *depth)),
                _ => None,
            })
            .collect()
    }

    fn strs(s: &Scan) -> Vec<Option<&str>> {
        s.tokens
            .iter()
            .filter_map(|t| match t {
                Token::Str { value, .. } => Some(value.as_deref()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn finds_keys_with_depth_and_strings_with_values() {
        let s = scan(r#"Scene(entities: [(name: "a", view: (of: "b\"c", kind: Srv))])"#);
        assert_eq!(
            keys(&s),
            vec![
                ("entities", 1),
                ("name", 3),
                ("view", 3),
                ("of", 4),
                ("kind", 4)
            ]
        );
        assert_eq!(strs(&s), vec![Some("a"), Some("b\"c")]);
        assert_eq!(s.groups.len(), 4);
        assert_eq!(s.groups[0], Group { open: 5, close: 60 });
    }

    #[test]
    fn comments_and_char_literals_hide_their_contents() {
        let s =
            scan("( // name: \"x\"\n /* a: \"y\" /* nested */ */ b: '\"', c: r#\"raw \"q\"\"#)");
        assert_eq!(keys(&s), vec![("b", 1), ("c", 1)]);
        assert_eq!(strs(&s), vec![Some("raw \"q\"")]);
    }

    #[test]
    fn broken_text_still_scans() {
        let s = scan("(name: \"open");
        assert_eq!(strs(&s), vec![None]);
        assert_eq!(s.groups[0].close, 12);
        let s = scan("))) name : \"\\u{48}\\q\" \"\\u{48}i\"");
        assert_eq!(keys(&s), vec![("name", 0)]);
        assert_eq!(strs(&s), vec![None, Some("Hi")]);
        assert!(scan("'").tokens.is_empty());
        assert!(scan("r#").tokens.is_empty());
    }
}
