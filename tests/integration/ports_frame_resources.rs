//! The frame-resource pattern of `scenes/ports/d3d12_dynamic_indexing.ron`: the CPU writes
//! each frame's constants through a mapping it keeps (`WriteMapped`), into the buffer of a
//! frame resource whose last GPU use a fence it waited for covers (FS-1, FN-2).

use std::path::Path;

use crate::ports::{run_clean, run_twin};

#[test]
fn the_dynamic_indexing_port_writes_each_frame_resource_after_its_fence() {
    const FRAMES: u64 = 12;
    let mut rt = run_clean("d3d12_dynamic_indexing.ron", FRAMES);
    assert_eq!(rt.summary().stats.presents, FRAMES);

    // UpdateConstantBuffers moved after the frame's submission: the CPU rewrites the matrices
    // the frame's draws have not read yet, with no fence between (FS-1, V0514), at its line.
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/d3d12_dynamic_indexing.ron");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let submitted =
        "                Present(\"swapchain\"),\n                Signal(fence: \"fence\"),\n";
    assert!(text.contains(submitted));
    let late =
        format!("{submitted}                WriteMapped(resource: \"constants1\", bytes: 7680),\n");
    let (run, found) = run_twin("dynamic-indexing-late", &text.replacen(submitted, &late, 1));
    assert_eq!((run, found), (Ok(()), vec!["V0514".to_owned()]));

    // Without OnUpdate's poll and wait the CPU has seen no frame's fence pass when frame 3
    // rewrites frame 0's constants: a race, whether or not the GPU has finished by then.
    let wait = "                WaitForFenceCpu(fence: \"fence\", back: 2),\n";
    let poll = "                GetCompletedValue(fence: \"fence\"),\n";
    assert_eq!(text.matches(wait).count(), 3);
    let blind = text.replace(wait, "").replace(poll, "");
    let (run, found) = run_twin("dynamic-indexing-blind", &blind);
    assert_eq!((run, found), (Ok(()), vec!["V0514".to_owned()]));
}
