//! HistogramCS for the GDK (`scenes/ports/gdk_histogram_cs.ron`) and its corrected twin. The
//! sample clears the histogram's UAV and dispatches into it with nothing between them; a UAV
//! clear is ordered with the work around it only by barriers (barrier-spec A1: it runs in
//! CLEAR_UNORDERED_ACCESS_VIEW, which no shading scope holds), so the dispatch's adds race the
//! clear (FS-3, V0503). The twin adds the legacy UAV barrier, which the driver translates with
//! that sync (EB-10), and its transitions into and out of UNORDERED_ACCESS order the clear
//! after the previous frame's reads and writes of the buckets.

use std::path::Path;

use fastframe::Runtime;

use crate::ports::{run_clean, run_twin};

const UAV_BARRIER: &str = r#"ResourceBarrier([Uav("histogram")]),"#;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/ports")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` from its `Scene(` on: the scene without its opening comment.
fn body(text: &str) -> &str {
    &text[text.find("Scene(").expect("a scene")..]
}

#[test]
fn the_histogram_twin_is_the_port_plus_one_uav_barrier_after_each_clear() {
    let (port, fixed) = (
        read("gdk_histogram_cs.ron"),
        read("gdk_histogram_cs_fixed.ron"),
    );
    let barriers = fixed.matches(UAV_BARRIER).count();
    assert_eq!(barriers, fixed.matches("ClearUnorderedAccess(").count());
    assert!(barriers >= 2, "{barriers}");
    let kept: Vec<&str> = (fixed.lines())
        .filter(|l| !l.contains(UAV_BARRIER))
        .collect();
    assert_eq!(body(&(kept.join("\n") + "\n")), body(&port));
}

/// The port's one finding is the clear racing the dispatch, reported at the dispatch on the
/// histogram buffer in every frame, and nothing else (not the transitions around it).
#[test]
fn the_histogram_port_races_its_clear_with_its_dispatch_and_nothing_else() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/gdk_histogram_cs.ron");
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    const FRAMES: u64 = 6;
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    let found = rt.diagnostics();
    assert_eq!(found.len() as u64, FRAMES, "{found:?}");
    for d in found {
        assert_eq!((d.code.to_string(), d.rule), ("V0503".to_owned(), "FS-3"));
        assert_eq!(d.resource, "histogram", "{d:?}");
        assert!(d.message.contains("WRITE_AFTER_WRITE"), "{d:?}");
        assert!(d.message.contains("this frame"), "{d:?}");
        let line = d.located().expect("a script command").line;
        let text = read("gdk_histogram_cs.ron");
        let at = text.lines().nth(line - 1).unwrap_or_default();
        assert!(
            at.trim_start().starts_with("Dispatch("),
            "line {line}: {at}"
        );
    }
}

/// With the UAV barrier the frame is clean however long it runs: the barrier waits for the
/// clear, and the ScopedBarrier's transitions order the clear after the last frame's
/// visualisation read and dispatch (EB-10 translated with CLEAR_UNORDERED_ACCESS_VIEW).
#[test]
fn the_histogram_twin_is_clean_and_each_uav_barrier_is_needed() {
    run_clean("gdk_histogram_cs_fixed.ron", 60);
    let fixed = read("gdk_histogram_cs_fixed.ron");
    let first = fixed.find(UAV_BARRIER).expect("a UAV barrier");
    let mut one_less = fixed.clone();
    one_less.replace_range(first..first + UAV_BARRIER.len(), "");
    let (run, found) = run_twin("histogram-one-less", &one_less);
    assert_eq!((run, found), (Ok(()), vec!["V0503".to_owned()]));
}

/// Checked as D3D11.X, the clears unbind the render target and depth views (FS-8): the scene
/// draw after them uses both without setting them again, so it is found there, once for each
/// view, and the histogram's dispatch, which reads neither, is not (V0202 is about the views a
/// draw or dispatch reads).
#[test]
fn as_d3d11x_the_views_a_clear_unbound_are_found_at_the_draw_that_reads_them() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/gdk_histogram_cs_fixed.ron");
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.settings_mut().api = fastframe::model::Api::D3d11x;
    rt.set_validation(true);
    const FRAMES: u64 = 4;
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    let text = read("gdk_histogram_cs_fixed.ron");
    let mut per_frame = vec![Vec::new(); FRAMES as usize];
    for d in rt.diagnostics() {
        assert_eq!(d.code.to_string(), "V0202", "{d:?}");
        let line = d.located().expect("a script command").line;
        let at = text.lines().nth(line - 1).unwrap_or_default().trim_start();
        assert!(
            at.starts_with("Draw(draws: 1, vertices: 30000"),
            "{}: {at}",
            d.resource
        );
        per_frame[d.frame as usize].push(d.resource.clone());
    }
    for (frame, mut views) in per_frame.into_iter().enumerate() {
        views.sort();
        let rtv = format!("rtv{}", frame % 2);
        assert_eq!(views, ["dsv".to_owned(), rtv], "frame {frame}");
    }
}
