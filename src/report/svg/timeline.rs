//! `fastframe timeline`: one frame's queues as an SVG. A row per queue that ran something in
//! the frame, with the zones Tracy gets (`report::tracy::zones`): a block per pass, a red
//! band per Barrier command, a block per wait coloured by its cause; red arrows from each
//! fence's signal to each wait on it (FN-2), dashed blue lines at vertical blanks.
//!
//! The frame is the interval `gpu.frame_us` measures, from the previous frame's end to this
//! one's (the first frame: from its first command), the time `gpu.queue_time` divides into
//! busy and idle by cause; what other frames ran in it is drawn too.

use hashbrown::HashMap;

use super::{Svg, colour};
use crate::device::{Command, Executed, FenceId, QueueId, Submitted};
use crate::report::Cause;
use crate::report::tracy::{ZoneBuilder, ZoneKind};

/// What a timeline picture is made of.
pub struct FramePicture<'a> {
    pub scene: &'a str,
    pub frame: u64,
    /// The frame's interval, ns.
    pub window: (u64, u64),
    pub vsync_ns: u64,
    /// Every record of the run up to the frame (earlier frames give the waits their start).
    pub records: &'a [Executed],
    /// The device's submission log of the same run (for the fences).
    pub log: &'a [Submitted],
    pub label: &'a dyn Fn(u32) -> String,
}

const LEFT: f64 = 120.0;
const WIDTH: f64 = 1100.0;
const TOP: f64 = 50.0;
const ROW: f64 = 44.0;

/// The colour of a wait's cause.
pub fn cause_colour(c: Cause) -> &'static str {
    match c {
        Cause::Fence => "#e67e22",
        Cause::Present => "#3498db",
        Cause::Submit => "#95a5a6",
        Cause::Drain => "#9b59b6",
        Cause::Block => "#8e44ad",
        Cause::Suspend => "#34495e",
        Cause::Full => "#16a085",
        Cause::FrontEnd => "#bdc3c7",
        Cause::Done => "#ecf0f1",
    }
}

/// Signal and wait times of each fence, linked: (signalling queue, when), (waiting queue, when).
type Link = ((QueueId, u64), (QueueId, u64));

fn fence_links(records: &[Executed], log: &[Submitted]) -> Vec<Link> {
    let mut counts: HashMap<QueueId, u64> = HashMap::new();
    let mut ops: HashMap<(QueueId, u64), (bool, FenceId)> = HashMap::new();
    for s in log {
        let n = counts.entry(s.queue).or_default();
        match s.command {
            Command::InsertFence { fence, .. } => drop(ops.insert((s.queue, *n), (true, fence))),
            Command::WaitFence(fence) => drop(ops.insert((s.queue, *n), (false, fence))),
            _ => {}
        }
        *n += 1;
    }
    let mut signals: HashMap<FenceId, (QueueId, u64)> = HashMap::new();
    let mut waits = Vec::new();
    for x in records {
        match ops.get(&(x.queue, x.seq)) {
            Some(&(true, f)) => drop(signals.insert(f, (x.queue, x.end_ns))),
            Some(&(false, f)) => waits.push((f, (x.queue, x.start_ns))),
            None => {}
        }
    }
    (waits.into_iter())
        .filter_map(|(f, w)| signals.get(&f).map(|&s| (s, w)))
        .collect()
}

/// The picture.
pub fn render(p: &FramePicture) -> String {
    let (w0, w1) = (p.window.0, p.window.1.max(p.window.0 + 1));
    let x = |t: u64| LEFT + (t.clamp(w0, w1) - w0) as f64 / (w1 - w0) as f64 * WIDTH;
    let mut zones = ZoneBuilder::default();
    zones.add(p.records);
    let trees: Vec<_> = (zones.take(u64::MAX).into_iter())
        .filter(|t| t.zone.end_ns > w0 && t.zone.start_ns < w1)
        .collect();
    let mut queues: Vec<QueueId> = trees.iter().map(|t| t.queue).collect();
    queues.sort();
    queues.dedup();
    let row = |q: QueueId| queues.iter().position(|&r| r == q);
    let height = TOP + ROW * queues.len() as f64 + 90.0;
    let mut svg = Svg::new(LEFT + WIDTH + 30.0, height);
    svg.text(
        10.0,
        22.0,
        15.0,
        "start",
        &format!(
            "{}: frame {}, {:.1} us",
            p.scene,
            p.frame,
            (w1 - w0) as f64 / 1000.0
        ),
    );
    for (i, q) in queues.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        svg.text(10.0, y + ROW / 2.0 + 4.0, 12.0, "start", &q.to_string());
        svg.line(
            "row",
            LEFT,
            y + ROW,
            LEFT + WIDTH,
            y + ROW,
            "stroke:#ddd",
            false,
        );
    }
    for t in &trees {
        let Some(r) = row(t.queue) else { continue };
        let y = TOP + ROW * r as f64;
        for z in std::iter::once(&t.zone).chain(&t.children) {
            let (x0, x1) = (x(z.start_ns), x(z.end_ns));
            let us = (z.end_ns - z.start_ns) as f64 / 1000.0;
            match z.kind {
                ZoneKind::Pass { label } => {
                    let name = (p.label)(label);
                    let title = format!("{name}: {us:.1} us on {}", t.queue);
                    svg.rect(
                        "pass",
                        x0,
                        y + 4.0,
                        x1 - x0,
                        ROW - 8.0,
                        &colour(&name),
                        &title,
                    );
                    if x1 - x0 > 8.0 * name.len() as f64 {
                        svg.text((x0 + x1) / 2.0, y + 18.0, 11.0, "middle", &name);
                    }
                }
                ZoneKind::Barrier => {
                    let title = format!("Barrier: {us:.2} us");
                    svg.rect(
                        "barrier",
                        x0,
                        y + ROW - 14.0,
                        x1 - x0,
                        9.0,
                        "#c0392b",
                        &title,
                    );
                }
                ZoneKind::Wait(c) => {
                    let title = format!("wait: {} {us:.1} us", c.key());
                    svg.rect(
                        "wait",
                        x0,
                        y + 12.0,
                        x1 - x0,
                        ROW - 24.0,
                        cause_colour(c),
                        &title,
                    );
                }
            }
        }
    }
    for ((sq, st), (wq, wt)) in fence_links(p.records, p.log) {
        let (Some(a), Some(b)) = (row(sq), row(wq)) else {
            continue;
        };
        if wt < w0 || st > w1 {
            continue;
        }
        let ya = TOP + ROW * a as f64 + ROW / 2.0;
        let yb = TOP + ROW * b as f64 + ROW / 2.0;
        svg.line(
            "fence",
            x(st),
            ya,
            x(wt),
            yb,
            "stroke:#c0392b;stroke-width:1.5",
            true,
        );
    }
    let bottom = TOP + ROW * queues.len() as f64;
    if p.vsync_ns > 0 {
        let mut v = w0.div_ceil(p.vsync_ns) * p.vsync_ns;
        while v <= w1 {
            svg.line(
                "vsync",
                x(v),
                TOP - 6.0,
                x(v),
                bottom,
                "stroke:#2980b9;stroke-dasharray:4 3",
                false,
            );
            v += p.vsync_ns;
        }
    }
    let span_us = (w1 - w0) as f64 / 1000.0;
    let step = nice_step(span_us / 8.0);
    let mut t = 0.0;
    while t <= span_us {
        let px = LEFT + t / span_us * WIDTH;
        svg.line("tick", px, bottom, px, bottom + 5.0, "stroke:#555", false);
        svg.text(px, bottom + 18.0, 10.0, "middle", &format!("{t:.0} us"));
        t += step;
    }
    let mut lx = LEFT;
    for c in Cause::ALL.into_iter().filter(|&c| c != Cause::Done) {
        svg.rect(
            "legend",
            lx,
            bottom + 40.0,
            12.0,
            12.0,
            cause_colour(c),
            c.key(),
        );
        svg.text(
            lx + 16.0,
            bottom + 50.0,
            11.0,
            "start",
            &format!("wait: {}", c.key()),
        );
        lx += 120.0;
    }
    svg.finish()
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.max(1e-3).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(nice_step(1.3), 2.0);
        assert_eq!(nice_step(180.0), 200.0);
        assert_eq!(nice_step(2000.0), 2000.0);
    }
}
