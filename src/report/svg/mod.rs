//! Pictures a person opens in a browser: one frame's queues as a timeline
//! ([`timeline`]), and frame time and synchronisation per configuration as a bar chart
//! ([`compare`]). Plain SVG text, no dependency: rectangles, lines and text with a `<title>`
//! tooltip each, escaped.

pub mod compare;
pub mod timeline;
pub mod trace_view;

use std::fmt::Write;

/// Text made safe for SVG content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document being written.
pub struct Svg {
    body: String,
    width: f64,
    height: f64,
}

impl Svg {
    pub fn new(width: f64, height: f64) -> Svg {
        Svg {
            body: String::new(),
            width,
            height,
        }
    }

    /// A rectangle of `class` with a tooltip.
    #[expect(
        clippy::too_many_arguments,
        reason = "a rectangle is its geometry and its look"
    )]
    pub fn rect(&mut self, class: &str, x: f64, y: f64, w: f64, h: f64, fill: &str, title: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect class="{class}" x="{x:.2}" y="{y:.2}" width="{:.2}" height="{h:.2}" fill="{fill}"><title>{}</title></rect>"#,
            w.max(0.5),
            escape(title)
        );
    }

    /// A line of `class`; `arrow` ends it with an arrowhead.
    #[expect(
        clippy::too_many_arguments,
        reason = "a line is its two ends and its look"
    )]
    pub fn line(
        &mut self,
        class: &str,
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        style: &str,
        arrow: bool,
    ) {
        let marker = if arrow {
            r#" marker-end="url(#arrow)""#
        } else {
            ""
        };
        let _ = writeln!(
            self.body,
            r#"<line class="{class}" x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" style="{style}"{marker}/>"#
        );
    }

    /// Text at `(x, y)`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.2}" y="{y:.2}" font-size="{size}" text-anchor="{anchor}">{}</text>"#,
            escape(text)
        );
    }

    /// The document.
    pub fn finish(self) -> String {
        format!(
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
                "\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#c0392b\"/></marker></defs>\n",
                "<rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n{body}</svg>\n"
            ),
            w = self.width,
            h = self.height,
            body = self.body
        )
    }
}

/// A colour for a name: the same name always gets the same hue.
pub fn colour(name: &str) -> String {
    let hash = name
        .bytes()
        .fold(2166136261u32, |h, b| (h ^ b as u32).wrapping_mul(16777619));
    format!("hsl({}, 55%, 62%)", hash % 360)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_colours_are_stable() {
        assert_eq!(escape(r#"a<b & "c""#), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(colour("gbuffer"), colour("gbuffer"));
        let mut s = Svg::new(10.0, 10.0);
        s.text(1.0, 1.0, 10.0, "start", "<x>");
        assert!(s.finish().contains("&lt;x&gt;"));
    }
}
