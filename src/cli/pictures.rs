//! `fastframe timeline` and `fastframe compare`: the pictures of `report::svg`, made from
//! runs of a scene. Output files are created before the runs, so a bad path fails at once.

use std::path::PathBuf;

use super::overrides::load;
use super::{BarriersArg, OrderArg, Overrides, Switch, create, fail, out, write_file};
use crate::device::Device;
use crate::model::BarrierMode;
use crate::report::RunStats;
use crate::report::TraceFile;
use crate::report::svg::{compare, timeline, trace_view};

/// Run `frames` frames and draw the last one's queues to `path`.
pub fn timeline(scene: &PathBuf, frames: u64, path: &PathBuf, overrides: &Overrides) -> i32 {
    if frames == 0 {
        out::eprint("error: --frames must be at least 1: the picture is of the last frame\n");
        return 2;
    }
    let file = match create(Some(path)) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let mut rt = match load(scene, Some(overrides)) {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    rt.world.resource_mut::<RunStats>().keep_timeline = true;
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    if let Err(e) = rt.run(frames) {
        return fail(&e);
    }
    let stats = rt.world.resource::<RunStats>();
    let Some((last, window)) = stats.frames_log.newest_window() else {
        out::eprint("error: the GPU ran nothing to draw\n");
        return 1;
    };
    let device = rt.world.resource::<Device>();
    let label = |l: u32| device.label_name(l).to_owned();
    let picture = timeline::FramePicture {
        scene: rt.scene_name(),
        frame: last,
        window,
        vsync_ns: device.profile.vsync_period_ns,
        records: &stats.timeline,
        log: device.trace.as_deref().unwrap_or_default(),
        label: &label,
    };
    let svg = timeline::render(&picture);
    match file {
        Some(f) => write_file(path, f, &svg).err().unwrap_or(0),
        None => 0,
    }
}

/// Run the scene under every combination of `barriers` and `async_compute`; print a table,
/// and write a bar chart to `path` when given.
pub fn compare(
    scene: &PathBuf,
    barriers: &[BarriersArg],
    async_compute: &[Switch],
    orders: &[OrderArg],
    frames: u64,
    path: Option<&PathBuf>,
) -> i32 {
    let file = match create(path) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let mut rows = Vec::new();
    for &b in barriers {
        for &a in async_compute {
            for &o in orders {
                let mut rt = match load(scene, None) {
                    Ok(rt) => rt,
                    Err(e) => return fail(&e),
                };
                let mode = BarrierMode::from(b);
                rt.settings_mut().barriers = mode;
                rt.settings_mut().async_compute = a == Switch::On;
                rt.settings_mut().order = o.into();
                if let Err(e) = rt.run(frames) {
                    return fail(&e);
                }
                // The strategy that ran: a device without enhanced barriers runs legacy (EB-11).
                let ran = rt.summary().settings;
                let name = match ran.barriers_requested {
                    Some(asked) => format!("{} ({asked} asked)", ran.barriers),
                    None => ran.barriers.to_owned(),
                };
                let on = if a == Switch::On { "on" } else { "off" };
                let mut label = format!("{name}, async {on}");
                if orders.len() > 1 {
                    label += &format!(", {}", rt.summary().settings.order);
                }
                rows.push(compare::Row::of(&label, &rt.summary()));
            }
        }
    }
    let written = out::print(&compare::table(&rows));
    if let (Some(p), Some(f)) = (path, file) {
        let svg = compare::chart(&scene.display().to_string(), &rows);
        if let Err(code) = write_file(p, f, &svg) {
            return code;
        }
    }
    written.err().unwrap_or(0)
}

/// Draw the trace file at `trace` to `path`: `window` in microseconds, or the span of
/// `frame`'s slices (the last frame's by default).
pub fn trace_view(
    trace: &PathBuf,
    path: &PathBuf,
    frame: Option<u64>,
    window: Option<(f64, f64)>,
) -> i32 {
    let file = match create(Some(path)) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let read = std::fs::File::open(trace).map_err(|e| e.to_string());
    let parsed = read.and_then(|f| {
        // serde_json's message ends with the line and column.
        TraceFile::read(f).map_err(|e| e.to_string())
    });
    let file_trace = match parsed {
        Ok(t) => t,
        Err(e) => {
            out::eprint(&format!("error: {}: {e}\n", trace.display()));
            return 2;
        }
    };
    let frame = frame.or(file_trace.last_frame());
    let (window, title) = match (window, frame) {
        (Some((a, b)), _) if a.is_finite() && b.is_finite() && a < b => {
            (Some((a, b)), format!("{}: {a} to {b} us", trace.display()))
        }
        (Some(_), _) => {
            out::eprint("error: --from-us must be less than --to-us\n");
            return 2;
        }
        (None, Some(f)) => (
            file_trace.frame_window(f),
            format!("{}: frame {f}", trace.display()),
        ),
        (None, None) => (None, String::new()),
    };
    let Some(window) = window else {
        let what = frame.map_or(
            "no slice has a frame argument: give --from-us and --to-us".to_owned(),
            |f| format!("no slice belongs to frame {f}"),
        );
        out::eprint(&format!("error: {}: {what}\n", trace.display()));
        return 2;
    };
    let svg = trace_view::render(&file_trace, &title, window);
    match file {
        Some(f) => write_file(path, f, &svg).err().unwrap_or(0),
        None => 0,
    }
}
