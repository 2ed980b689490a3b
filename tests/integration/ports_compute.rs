//! SimpleCompute for the GDK (`scenes/ports/gdk_simple_compute.ron`) and its corrected twin:
//! the twin is the port plus three calls on the compute queue and another state for the
//! gradient colour map, and each is there for one of the port's findings, so undoing any one
//! brings that finding back and no other.

use std::path::Path;

use crate::ports::{run_clean, run_twin};

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

/// `text` without the lines that contain `call`, which must be there.
fn without(text: &str, call: &str) -> String {
    assert!(text.contains(call), "{call}");
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains(call)).collect();
    kept.join("\n") + "\n"
}

const WAIT: &str = r#"Wait(fence: "render_resource"),"#;
const INVALIDATE: &str = r#"Barrier(global: [(sync_before: "", sync_after: "COMPUTE_SHADING""#;
const WRITE_BACK: &str = r#"ResourceBarrier([Uav("fractal"#;
const GRADIENT: &str = r#"Transition(resource: "gradient", before: "COPY_DEST", after: "#;

/// `text` with the gradient colour map's upload leaving it in `state`.
fn gradient_in(text: &str, state: &str) -> String {
    let at = text.find(GRADIENT).expect("the gradient's upload") + GRADIENT.len();
    let end = at + text[at..].find(')').expect("the transition ends");
    format!("{}\"{state}\"{}", &text[..at], &text[end..])
}

#[test]
fn the_gdk_compute_twin_is_the_port_plus_three_calls_each_needed() {
    let fixed = read("gdk_simple_compute_fixed.ron");
    let port = read("gdk_simple_compute.ron");
    let stripped = without(&without(&without(&fixed, WAIT), INVALIDATE), WRITE_BACK);
    let stripped = gradient_in(&stripped, "PIXEL_SHADER_RESOURCE");
    assert_eq!(
        body(&stripped),
        body(&port),
        "the twin keeps in step with the port"
    );
    // The queue wait orders the compute write of frame 3 after the direct queue's
    // transition of frame 2, which Render() marked ReadyCompute without the fence (FS-1).
    let (run, found) = run_twin("gdk-compute-wait", &without(&fixed, WAIT));
    assert_eq!((run, found), (Ok(()), vec!["V0513".to_owned()]));
    // The invalidation lets the compute queue see the colour map the direct queue uploaded
    // (FS-2); no flush at ExecuteCommandLists does it on the console (EB-8a).
    let (run, found) = run_twin("gdk-compute-invalidate", &without(&fixed, INVALIDATE));
    assert_eq!((run, found), (Ok(()), vec!["V0521".to_owned()]));
    // The UAV barrier writes the fractal back before the compute fence's Signal (FS-2).
    let (run, found) = run_twin("gdk-compute-write-back", &without(&fixed, WRITE_BACK));
    assert_eq!((run, found), (Ok(()), vec!["V0521".to_owned()]));
    // A compute shader may read a texture in a legacy state that names non-pixel shaders, not
    // in PIXEL_SHADER_RESOURCE (EB-11, barrier-spec B); both states together serve both.
    let pixel = gradient_in(&fixed, "PIXEL_SHADER_RESOURCE");
    let (run, found) = run_twin("gdk-compute-pixel-state", &pixel);
    assert_eq!((run, found), (Ok(()), vec!["V0804".to_owned()]));
    let both = gradient_in(&fixed, "PIXEL_SHADER_RESOURCE | NON_PIXEL_SHADER_RESOURCE");
    let (run, found) = run_twin("gdk-compute-both-states", &both);
    assert_eq!((run, found), (Ok(()), Vec::<String>::new()));
}

/// The sample signals its render fence with a value it bumps only when a texture changes
/// hands: 1 in both synchronous frames, 2 in frames 2 and 3. The compute thread's Wait in
/// frame 3 is met by frame 2's Signal, the first to reach 2.
#[test]
fn the_gdk_compute_port_repeats_fence_values_as_the_sample_does() {
    const FRAMES: u64 = 30;
    let port = read("gdk_simple_compute.ron");
    assert_eq!(
        port.matches(r#"Signal(fence: "render_resource", value: 1),"#)
            .count(),
        2
    );
    assert_eq!(
        port.matches(r#"Signal(fence: "render_resource", value: 2),"#)
            .count(),
        2
    );
    let mut rt = run_clean("gdk_simple_compute_fixed.ron", FRAMES);
    assert_eq!(rt.summary().stats.presents, FRAMES);
    // Frame 3's wait named by value is the same wait: the twin stays clean.
    let fixed = read("gdk_simple_compute_fixed.ron");
    let first = fixed.find(WAIT).expect("a wait");
    let by_value = format!(
        "{}{}{}",
        &fixed[..first],
        r#"Wait(fence: "render_resource", value: 2),"#,
        &fixed[first + WAIT.len()..]
    );
    let (run, found) = run_twin("gdk-compute-by-value", &by_value);
    assert_eq!((run, found), (Ok(()), Vec::<String>::new()));
}
