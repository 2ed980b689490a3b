//! Scripts and heaps: a frame script releases a heap as a title releases its last reference
//! (`m_textureHeap.Reset()` in D3D12SmallResources), giving its memory back. The device holds
//! no reference counts, so a heap released while a resource is still placed in it is the
//! device's refusal (FS-6), at the call's line; released after them, its bytes are free.

use fastframe::Runtime;

/// A heap with one placed texture; frame 1 flushes the GPU and releases `first` then
/// `second` (the texture and the heap, in either order).
fn scene(first: &str, second: &str) -> String {
    format!(
        r#"Scene(
    settings: (api: D3d12Pc),
    entities: [
        (name: "heap", heap: (size: 65536)),
        (name: "tex", texture: (format: Rgba8Unorm, extent: (32, 32)),
            placed: (heap: "heap", offset: 4096)),
        (name: "upload", buffer: (size: 4096)),
    ],
    script: (repeat_from: 2, frames: [
        [(queue: Copy, label: "upload", commands: [
            CopyTextureRegion(src: "upload", dst: "tex", bytes: 4096,
                from: (extent: (32, 32)), to: (extent: (32, 32))),
            Signal(fence: "f"),
            WaitForFenceCpu(fence: "f"),
        ])],
        [(queue: Graphics, label: "flush", commands: [
            Signal(fence: "f"),
            WaitForFenceCpu(fence: "f"),
            Release("{first}"),
            Release("{second}"),
        ])],
        [(queue: Graphics, label: "idle", commands: [Signal(fence: "f")])],
    ]),
)"#
    )
}

#[test]
fn a_script_releases_a_heap_after_its_resources_and_its_bytes_are_free() {
    let mut rt = Runtime::from_str(&scene("tex", "heap"), "heap_release.ron")
        .unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(1).unwrap_or_else(|e| panic!("{e}"));
    let (before, _) = rt.device().memory.bytes();
    assert!(before >= 65536 + 4096, "{before} bytes before the release");
    rt.run(2).unwrap_or_else(|e| panic!("{e}"));
    let (after, _) = rt.device().memory.bytes();
    // The heap's 64 KiB are given back; the placed texture held none of its own.
    assert_eq!(before - after, 65536, "{before} -> {after}");
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
}

#[test]
fn a_heap_released_before_its_placed_resource_is_refused_at_the_call() {
    let mut rt = Runtime::from_str(&scene("heap", "tex"), "heap_first.ron")
        .unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let err = rt
        .run(3)
        .expect_err("the device refuses the heap's release")
        .to_string();
    assert!(err.contains("FS-6") && err.contains("tex"), "{err}");
    // Located at the Release's line in the scene file.
    assert!(err.contains("heap_first.ron:19:"), "{err}");
}

/// A D3D12 Signal is a queue call between ExecuteCommandLists, so a script that signals in
/// the middle of a submission ended the list there: on PC its caches were flushed at that
/// boundary (barrier-spec A8), and the direct queue's read after the CPU's wait sees the DMA
/// engine's copy (a shader read in COMMON, which the read promotes). Under `d3d12x` the same stream still owes the read a barrier (V0521).
#[test]
fn a_signal_inside_a_d3d12_submission_ends_the_list_before_it() {
    let scene = |api: &str| {
        format!(
            r#"Scene(
    settings: (api: {api}),
    entities: [
        (name: "tex", texture: (format: Rgba8Unorm, extent: (32, 32))),
        (name: "srv", view: (of: "tex", kind: Srv)),
        (name: "upload", buffer: (size: 4096)),
    ],
    script: (frames: [[
        (queue: Copy, label: "upload", commands: [
            CopyTextureRegion(src: "upload", dst: "tex", bytes: 4096,
                from: (extent: (32, 32)), to: (extent: (32, 32))),
            Signal(fence: "f"),
            WaitForFenceCpu(fence: "f"),
        ]),
        (queue: Graphics, label: "draw", commands: [
            SetPipelineState(1),
            SetResources(stage: Compute, views: ["srv"]),
            Dispatch(dispatches: 1, threads: 1024),
            Signal(fence: "f"),
            WaitForFenceCpu(fence: "f"),
        ]),
    ]]),
)"#
        )
    };
    let codes = |api: &str| {
        let mut rt = Runtime::from_str(&scene(api), "signal.ron").unwrap_or_else(|e| panic!("{e}"));
        rt.set_validation(true);
        rt.run(2).unwrap_or_else(|e| panic!("{e}"));
        let mut found: Vec<String> = (rt.diagnostics().iter())
            .map(|d| d.code.to_string())
            .collect();
        found.dedup();
        found
    };
    assert!(codes("D3d12Pc").is_empty(), "{:?}", codes("D3d12Pc"));
    assert_eq!(codes("D3d12x"), ["V0521"]);
}
