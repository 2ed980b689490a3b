//! `fastframe compare`: one scene under several configurations (barrier strategies, async
//! compute on and off), as a table and an SVG bar chart of GPU frame work per configuration
//! with its synchronisation per frame beside each bar.

use super::{Svg, colour};
use crate::report::Summary;

/// One configuration's figures, per frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: String,
    pub frame_work_us: f64,
    pub efficiency: f64,
    pub barrier_us: f64,
    pub barriers: f64,
    pub partial_flushes: f64,
    pub fence_waits: f64,
}

impl Row {
    /// The figures of a run labelled `label`.
    pub fn of(label: &str, s: &Summary) -> Row {
        let g = s.gpu_frames();
        let st = &s.stats;
        let f = st.frames.max(1) as f64;
        let h = &st.hardware;
        Row {
            label: label.to_owned(),
            frame_work_us: g.work_us.mean,
            efficiency: g.efficiency,
            barrier_us: g.barrier_us,
            barriers: st.barriers as f64 / f,
            partial_flushes: (h.vs_partial_flushes
                + h.ps_partial_flushes
                + h.cs_partial_flushes
                + h.idles) as f64
                / f,
            fence_waits: st.fence_waits as f64 / f,
        }
    }
}

/// The rows as a table.
pub fn table(rows: &[Row]) -> String {
    // The label column is as wide as the longest label, so the figures stay in columns.
    let w = rows
        .iter()
        .map(|r| r.label.len())
        .max()
        .unwrap_or(0)
        .max(28);
    let mut out = format!(
        "  {:<w$} {:>12} {:>10} {:>12} {:>9} {:>9} {:>7}\n",
        "configuration", "work (us)", "efficiency", "barriers us", "barriers", "flushes", "waits"
    );
    for r in rows {
        out.push_str(&format!(
            "  {:<w$} {:>12.1} {:>9.1}% {:>12.1} {:>9.1} {:>9.1} {:>7.1}\n",
            r.label,
            r.frame_work_us,
            100.0 * r.efficiency,
            r.barrier_us,
            r.barriers,
            r.partial_flushes,
            r.fence_waits
        ));
    }
    out
}

/// The rows as a bar chart: a bar per configuration, as long as its mean frame work.
pub fn chart(scene: &str, rows: &[Row]) -> String {
    const LEFT: f64 = 230.0;
    const WIDTH: f64 = 600.0;
    const BAR: f64 = 34.0;
    let most = rows.iter().map(|r| r.frame_work_us).fold(1e-9, f64::max);
    let height = 70.0 + BAR * rows.len() as f64 + 30.0;
    let mut svg = Svg::new(LEFT + WIDTH + 330.0, height);
    svg.text(
        10.0,
        24.0,
        15.0,
        "start",
        &format!("{scene}: GPU frame work per configuration"),
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 50.0 + BAR * i as f64;
        let w = r.frame_work_us / most * WIDTH;
        svg.text(LEFT - 8.0, y + BAR / 2.0 + 4.0, 12.0, "end", &r.label);
        let title = format!("{}: {:.1} us a frame", r.label, r.frame_work_us);
        svg.rect(
            "bar",
            LEFT,
            y + 4.0,
            w,
            BAR - 8.0,
            &colour(&r.label),
            &title,
        );
        let note = format!(
            "{:.1} us  |  {:.1} barriers, {:.1} flushes, {:.1} waits a frame, efficiency {:.1}%",
            r.frame_work_us,
            r.barriers,
            r.partial_flushes,
            r.fence_waits,
            100.0 * r.efficiency
        );
        svg.text(LEFT + w + 6.0, y + BAR / 2.0 + 4.0, 11.0, "start", &note);
    }
    let base = 50.0 + BAR * rows.len() as f64;
    svg.line("axis", LEFT, 46.0, LEFT, base, "stroke:#333", false);
    svg.finish()
}
