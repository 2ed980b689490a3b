//! D3D12 bundles in scripts (`bundles`, `ExecuteBundle`): a bundle replays its commands in
//! place, with the state of the list that executes it, is recorded once, and may not hold a
//! barrier (EB-11: "the list is not a bundle", V0805). `scenes/ports/d3d12_bundles.ron`
//! is the public sample that records one bundle per frame resource.

use std::path::Path;

use fastframe::Runtime;

use crate::ports::{run_clean, run_twin};

const PORT: &str = "scenes/ports/d3d12_bundles.ron";

fn port_text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PORT);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// The port with every `ExecuteBundle` written out as the bundle's commands, as the sample
/// draws with `UseBundles` false.
fn inline(text: &str) -> String {
    let mut out = text.to_owned();
    for r in 0..3 {
        let open = format!("(name: \"bundle{r}\", commands: [\n");
        let start = text.find(&open).unwrap_or_else(|| panic!("no bundle{r}")) + open.len();
        let len = text[start..]
            .find("        ]),")
            .unwrap_or_else(|| panic!("bundle{r}"));
        let body = &text[start..start + len];
        out = out.replace(&format!("ExecuteBundle(\"bundle{r}\"),\n"), body);
    }
    out
}

fn run(text: &str, tag: &str, frames: u64) -> Runtime {
    let path = std::env::temp_dir().join(format!("fastframe-{tag}-{}.ron", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    rt.set_validation(true);
    rt.run(frames).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.diagnostics().is_empty(), "{tag}: {:?}", rt.diagnostics());
    rt
}

#[test]
fn the_bundles_port_runs_clean_and_replays_what_it_recorded_once() {
    const FRAMES: u64 = 12;
    let mut rt = run_clean("d3d12_bundles.ron", FRAMES);
    let bundled = rt.summary().stats;
    assert_eq!(bundled.presents, FRAMES);

    // Written out inline, the frames run the same commands, less one ExecuteBundle marker
    // per frame, and just as clean.
    let text = port_text();
    let written = inline(&text);
    assert_eq!(written.matches("ExecuteBundle(").count(), 0);
    let mut rt = run(&written, "bundles-inline", FRAMES);
    let inline = rt.summary().stats;
    assert_eq!(
        bundled.executed_commands,
        inline.executed_commands + FRAMES,
        "each frame runs the bundle's commands, and the ExecuteBundle"
    );

    // Each bundle is recorded once, by the first frame that executes it (frames 0 to 2):
    // later frames record nothing, and queue one call where the inline list queues 66.
    let mut rt = run(&text, "bundles-three", 3);
    assert!(rt.summary().stats.cpu_record_ns > 0);
    assert_eq!(bundled.cpu_record_ns, rt.summary().stats.cpu_record_ns);
    assert_eq!(inline.cpu_record_ns, 0);
    assert!(
        bundled.cpu_submit_ns < inline.cpu_submit_ns,
        "{} ns bundled, {} ns inline",
        bundled.cpu_submit_ns,
        inline.cpu_submit_ns
    );
}

#[test]
fn the_barrier_in_bundle_mistake_is_only_eb11_and_its_twin_is_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = "eb11_barrier_in_bundle.ron";
    let mistake = std::fs::read_to_string(root.join("scenes/mistakes").join(name))
        .unwrap_or_else(|e| panic!("{e}"));
    let (run, found) = run_twin("bundle-barrier", &mistake);
    assert_eq!((run, found), (Ok(()), vec!["V0805".to_owned()]));
    let twin = std::fs::read_to_string(root.join("tests/data/scripts").join(name))
        .unwrap_or_else(|e| panic!("{e}"));
    let (run, found) = run_twin("bundle-barrier-twin", &twin);
    assert_eq!((run, found), (Ok(()), Vec::<String>::new()));
    // The mistake differs from its twin only in where the one barrier is made.
    let barrier = |t: &str| {
        (t.lines())
            .filter(|l| l.contains("resource: \"vertices\", sync_before: \"COPY\""))
            .count()
    };
    assert_eq!((barrier(&mistake), barrier(&twin)), (1, 1));
}

#[test]
fn a_bundle_replayed_after_an_object_it_named_was_released_is_refused() {
    // A recorded bundle keeps the objects its calls named (FS-6): releasing the index
    // buffer after the first frames, then replaying a bundle recorded before, uses a
    // destroyed object, which the device refuses when the list is submitted.
    let text = port_text();
    let release = "                Release(\"texture_upload\"),\n";
    assert_eq!(text.matches(release).count(), 1);
    let flushed = "            (queue: Graphics, label: \"OnUpdate\", commands: [\n                GetCompletedValue(fence: \"fence\"),\n                WaitForFenceCpu(fence: \"fence\", back: 2),\n";
    let at = text.find(flushed).expect("frame 3's OnUpdate");
    let gone = "                Signal(fence: \"fence\"),\n                WaitForFenceCpu(fence: \"fence\"),\n                Release(\"index_buffer\"),\n";
    let released = format!(
        "{}            (queue: Graphics, label: \"Flush\", commands: [\n{gone}            ]),\n{}",
        &text[..at],
        &text[at..]
    );
    let (run, _) = run_twin("bundle-released", &released);
    let err = run.expect_err("the device refuses a destroyed object");
    assert!(err.contains("FS-6") && err.contains("destroyed"), "{err}");
    assert!(
        err.contains("frame 3"),
        "the first replay after the release: {err}"
    );
}
