//! `fastframe trace-view`: a trace file drawn as a track view, the picture Perfetto shows of
//! it, for a README or a review where no trace viewer is at hand.
//!
//! What it draws comes from the file alone ([`TraceFile`]), so the picture shows what a
//! viewer will: a track per thread in its sort order, labelled with its name, slices nested
//! by depth as a viewer nests them (a slice inside another sits a row below), a track per
//! counter with its samples as steps, and an arrow per flow from its `s` event to its `f`
//! event (the fence arrows of `run --trace`). Only a window is drawn, by default the span of
//! the last frame's commands; slices that cross its edges are cut at them.

use std::collections::BTreeMap;

use super::{Svg, colour};
use crate::report::trace::read::{Slice, TraceFile};

const LEFT: f64 = 170.0;
const WIDTH: f64 = 1200.0;
const TOP: f64 = 46.0;
const DEPTH: f64 = 15.0;
const GAP: f64 = 6.0;
const COUNTER: f64 = 34.0;

/// A slice to draw and its row in its track (0 at the top).
struct Placed<'a> {
    slice: &'a Slice,
    depth: usize,
}

/// Draw `trace` from `from_us` to `to_us`; `title` heads the picture.
pub fn render(trace: &TraceFile, title: &str, (from_us, to_us): (f64, f64)) -> String {
    let span = (to_us - from_us).max(1e-3);
    let x = |t: f64| LEFT + (t.clamp(from_us, to_us) - from_us) / span * WIDTH;

    // Nesting is decided over every slice of a track, so a slice keeps its depth however the
    // window cuts its parent.
    let mut by_track: BTreeMap<(u64, u64), Vec<&Slice>> = BTreeMap::new();
    for s in &trace.slices {
        by_track.entry(s.track).or_default().push(s);
    }
    let mut placed: BTreeMap<(u64, u64), (Vec<Placed>, usize)> = BTreeMap::new();
    for (track, mut slices) in by_track {
        slices.sort_by(|a, b| a.ts.total_cmp(&b.ts).then(b.dur.total_cmp(&a.dur)));
        let mut open: Vec<f64> = Vec::new();
        let mut shown = Vec::new();
        let mut depths = 0;
        for s in slices {
            while open.last().is_some_and(|&end| end <= s.ts) {
                open.pop();
            }
            let depth = open.len();
            open.push(s.ts + s.dur);
            if s.ts + s.dur >= from_us && s.ts <= to_us {
                depths = depths.max(depth + 1);
                shown.push(Placed { slice: s, depth });
            }
        }
        // A track with nothing in the window is still drawn, empty, as a viewer shows it.
        placed.insert(track, (shown, depths.max(1)));
    }
    let mut order: Vec<(u64, u64)> = placed.keys().copied().collect();
    order.sort_by_key(|t| {
        let th = trace.threads.get(t);
        (th.and_then(|t| t.sort_index).unwrap_or(i64::MAX), *t)
    });
    let mut counters: BTreeMap<(&str, &str), Vec<(f64, f64)>> = BTreeMap::new();
    for c in &trace.counters {
        for (key, v) in &c.values {
            counters.entry((&c.name, key)).or_default().push((c.ts, *v));
        }
    }

    let mut rows: BTreeMap<(u64, u64), f64> = BTreeMap::new();
    let mut y = TOP;
    for t in &order {
        rows.insert(*t, y);
        y += placed[t].1 as f64 * DEPTH + GAP;
    }
    let counters_top = y;
    let height = counters_top + counters.len() as f64 * (COUNTER + GAP) + 20.0;
    let mut svg = Svg::new(LEFT + WIDTH + 20.0, height);
    svg.text(10.0, 18.0, 14.0, "start", title);
    axis(&mut svg, from_us, to_us, height);

    for t in &order {
        let top = rows[t];
        let (shown, depths) = &placed[t];
        let name = (trace.threads.get(t).and_then(|th| th.name.clone()))
            .unwrap_or_else(|| format!("{} / {}", t.0, t.1));
        svg.text(LEFT - 6.0, top + 11.0, 11.0, "end", &name);
        let band = *depths as f64 * DEPTH;
        svg.rect("track", LEFT, top, WIDTH, band, "#f4f6f7", &name);
        for p in shown {
            let s = p.slice;
            let (x0, x1) = (x(s.ts), x(s.ts + s.dur));
            let fill = match s.cat.as_str() {
                "barrier" => "#c0392b".to_owned(),
                "wait" => "#b2babb".to_owned(),
                _ if s.name.starts_with("wait") => "#b2babb".to_owned(),
                _ => colour(&s.name),
            };
            let top = top + p.depth as f64 * DEPTH;
            let tip = format!("{} ({:.3} us at {:.3} us)", s.name, s.dur, s.ts);
            svg.rect("slice", x0, top + 1.0, x1 - x0, DEPTH - 2.0, &fill, &tip);
            let fits = ((x1 - x0 - 4.0) / 6.0).floor() as usize;
            if fits >= 3 {
                let label: String = s.name.chars().take(fits).collect();
                svg.text(x0 + 2.0, top + DEPTH - 4.0, 9.0, "start", &label);
            }
        }
    }

    let mut cy = counters_top;
    for ((name, key), samples) in &counters {
        let label = if *key == "value" || counters.keys().filter(|k| k.0 == *name).count() == 1 {
            format!("{name} ({key})")
        } else {
            format!("{name}.{key}")
        };
        svg.text(LEFT - 6.0, cy + COUNTER / 2.0 + 4.0, 11.0, "end", &label);
        svg.rect("counter-track", LEFT, cy, WIDTH, COUNTER, "#fbfcfc", &label);
        counter(&mut svg, samples, (from_us, to_us), cy, &label, &x);
        cy += COUNTER + GAP;
    }

    for f in &trace.flows {
        let (Some(&ya), Some(&yb)) = (rows.get(&f.from.0), rows.get(&f.to.0)) else {
            continue;
        };
        let (a, b) = (f.from.1, f.to.1);
        if b < from_us || a > to_us {
            continue;
        }
        let (ya, yb) = (ya + DEPTH / 2.0, yb + DEPTH / 2.0);
        svg.line(
            "flow",
            x(a),
            ya,
            x(b),
            yb,
            "stroke:#c0392b;stroke-width:1.2",
            true,
        );
    }
    svg.finish()
}

/// A counter's samples in the window as steps, scaled to the largest value shown.
fn counter(
    svg: &mut Svg,
    samples: &[(f64, f64)],
    (from, to): (f64, f64),
    top: f64,
    label: &str,
    x: &dyn Fn(f64) -> f64,
) {
    // The value at the window's start is the last sample before it.
    let before = samples.iter().rev().find(|s| s.0 <= from).copied();
    let inside = samples.iter().filter(|s| s.0 > from && s.0 <= to).copied();
    let steps: Vec<(f64, f64)> = before.into_iter().chain(inside).collect();
    let max = steps.iter().map(|s| s.1).fold(0.0f64, f64::max);
    if steps.is_empty() || max <= 0.0 {
        return;
    }
    let y = |v: f64| top + COUNTER - 2.0 - v / max * (COUNTER - 6.0);
    for (i, &(t, v)) in steps.iter().enumerate() {
        let end = steps.get(i + 1).map_or(to, |n| n.0);
        let tip = format!("{label}: {v}");
        svg.rect(
            "counter",
            x(t),
            y(v),
            x(end) - x(t),
            top + COUNTER - 2.0 - y(v),
            "#5d6d7e",
            &tip,
        );
    }
    svg.text(
        LEFT + WIDTH - 4.0,
        top + 10.0,
        9.0,
        "end",
        &format!("max {max}"),
    );
}

/// A time axis: about ten round steps from the window's start, in microseconds.
fn axis(svg: &mut Svg, from: f64, to: f64, height: f64) {
    let span = (to - from).max(1e-3);
    let raw = span / 10.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut k = 0.0;
    while k * step <= span {
        let px = LEFT + k * step / span * WIDTH;
        svg.line(
            "axis",
            px,
            TOP - 8.0,
            px,
            height - 16.0,
            "stroke:#d5d8dc",
            false,
        );
        svg.text(
            px,
            TOP - 12.0,
            9.0,
            "middle",
            &format!("+{} us", round3(k * step)),
        );
        k += 1.0;
    }
}

/// A number to three decimals, without trailing zeros.
fn round3(v: f64) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_nest_and_the_window_cuts() {
        let trace = TraceFile::read(
            r#"[{"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"graphics"}},
            {"name":"pass","cat":"pass","ph":"X","pid":1,"tid":1,"ts":0,"dur":10},
            {"name":"Barrier","cat":"barrier","ph":"X","pid":1,"tid":1,"ts":1,"dur":2},
            {"name":"late","ph":"X","pid":1,"tid":1,"ts":50,"dur":2},
            {"name":"m","ph":"C","pid":1,"tid":0,"ts":0,"args":{"MiB":3}},
            {"name":"f","cat":"fence","ph":"s","pid":1,"tid":1,"ts":9,"id":1},
            {"name":"f","cat":"fence","ph":"f","pid":1,"tid":1,"ts":12,"id":1}]"#
                .as_bytes(),
        )
        .unwrap();
        let svg = render(&trace, "t", (0.0, 20.0));
        assert_eq!(
            svg.matches(r#"class="slice""#).count(),
            2,
            "late is outside"
        );
        assert!(svg.contains(">graphics<"));
        // The barrier nests one row below its pass.
        let ys: Vec<f64> = svg
            .lines()
            .filter(|l| l.contains(r#"class="slice""#))
            .map(|l| {
                l.split("y=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(ys[1] - ys[0], DEPTH);
        assert_eq!(svg.matches(r#"class="flow""#).count(), 1);
        assert_eq!(svg.matches(r#"class="counter""#).count(), 1);
    }
}
