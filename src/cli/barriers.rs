//! `fastframe barriers`: every Barrier call of one frame as a tool shows a barrier event
//! (EB-12): where it was submitted (queue, pass, position in the frame), each barrier's sync,
//! access and layout before and after, and what the call lowers to on the hardware: the
//! drains and blocks, the sync packets, the caches written back and invalidated, and the
//! compression work. It reads the device's submission log, as the trace's Barrier slices do
//! (`report::barrier_args`), so both say the same.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::overrides::load;
use super::{Overrides, after_output, fail, out};
use crate::device::{Command, Device};

/// Run `scene` through `frame` and print that frame's Barrier calls.
pub fn barriers(scene: &PathBuf, frame: u64, as_json: bool, overrides: &Overrides) -> i32 {
    let mut rt = match load(scene, Some(overrides)) {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    let result = rt.run(frame.saturating_add(1));
    let device = rt.world.resource::<Device>();
    let log = device.trace.as_deref().unwrap_or_default();
    let calls: Vec<Value> = (log.iter())
        .filter(|s| s.frame == frame)
        .filter_map(|s| match &s.command {
            Command::Barrier(g) => Some((s, g)),
            _ => None,
        })
        .enumerate()
        .map(|(n, (s, g))| {
            let mut call = crate::report::barrier_args(device, s.queue, g);
            call["call"] = json!(n);
            call["queue"] = json!(s.queue.to_string());
            call["pass"] = json!(device.label_name(s.label));
            call
        })
        .collect();
    let text = match as_json {
        true => calls.iter().map(|c| format!("{c}\n")).collect(),
        false => render(rt.scene_name(), frame, &calls),
    };
    let code = match result {
        Err(e) => fail(&e),
        Ok(()) if calls.is_empty() && log.iter().all(|s| s.frame < frame) => {
            out::eprint(&format!("error: the run ended before frame {frame}\n"));
            1
        }
        Ok(()) => 0,
    };
    after_output(out::print(&text), code)
}

/// The calls as text: a header per call, a line per barrier, then what the call lowers to.
fn render(scene: &str, frame: u64, calls: &[Value]) -> String {
    let mut s = format!("{scene}: frame {frame}, {} Barrier call(s)\n", calls.len());
    // An empty set of stages is NONE (barrier-spec A3.1), an empty access COMMON (A1).
    let pair = |v: &Value, empty: &str| match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => {
            let name = |x: &Value| Some(plain(x)).filter(|n| !n.is_empty());
            let [a, b] = [a, b].map(|x| name(x).unwrap_or_else(|| empty.to_owned()));
            format!("{a} -> {b}")
        }
        _ => String::new(),
    };
    for c in calls {
        s += &format!(
            "\n#{} {} pass {}\n",
            c["call"],
            plain(&c["queue"]),
            plain(&c["pass"])
        );
        for b in c["barriers"].as_array().into_iter().flatten() {
            s += &format!("  {} {}\n", plain(&b["type"]), plain(&b["resource"]));
            if let Some(r) = b.get("range") {
                let f = |k: &str| r[k].as_u64().unwrap_or(0);
                s += &format!(
                    "    range   mips {}+{}, slices {}+{}, planes {}+{}\n",
                    f("first_mip"),
                    f("mip_count"),
                    f("first_slice"),
                    f("slice_count"),
                    f("first_plane"),
                    f("plane_count")
                );
            }
            s += &format!("    sync    {}\n", pair(&b["sync"], "NONE"));
            s += &format!("    access  {}\n", pair(&b["access"], "COMMON"));
            if b.get("layout").is_some() {
                let discard = if b["discard"] == json!(true) {
                    " (DISCARD)"
                } else {
                    ""
                };
                s += &format!("    layout  {}{discard}\n", pair(&b["layout"], "-"));
            }
        }
        let hw = &c["hardware"];
        for key in [
            "drains",
            "blocks",
            "front_end",
            "events",
            "write_back",
            "invalidate",
            "compression",
        ] {
            let v = &hw[key];
            let empty = v.is_null()
                || v.as_array().is_some_and(Vec::is_empty)
                || v.as_str().is_some_and(str::is_empty)
                || v == &json!(0);
            if !empty {
                s += &format!("  {key:<11} {}\n", plain(v));
            }
        }
    }
    s
}

/// A JSON value without the quotes around a string.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => other.to_string(),
    }
}
