//! Swap-chain resizes in scripts (`ResizeBuffers`): the new buffers' extent and format, as
//! an HDR title switches its back buffers between 8-bit, 10-bit and FP16 formats.

use fastframe::Runtime;

/// A two-buffer 64x64 chain presented once a frame, resized after the first frame with the
/// `first` call and after the second with the `second` one (frames from the third on only
/// present).
fn resized(first: &str, second: &str, frames: u64) -> (Runtime, Result<(), String>) {
    let frame = r#"(queue: Graphics, label: "render", commands: [
                CreateView(name: "rtv", of: "swapchain", kind: Rtv),
                ResourceBarrier([Transition(resource: "swapchain", before: "", after: "RENDER_TARGET")]),
                SetRenderTargets(rtvs: ["rtv"]),
                ClearRenderTarget("rtv"),
                ResourceBarrier([Transition(resource: "swapchain", before: "RENDER_TARGET", after: "")]),
                Present("swapchain"),
                Signal(fence: "frame"),
                WaitForFenceCpu(fence: "frame"),
            ])"#;
    let text = format!(
        r#"Scene(
    settings: (api: D3d12Pc),
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Rgba8Unorm, extent: (64, 64))),
    ],
    script: (repeat_from: 2, frames: [
        [{frame}, (queue: Graphics, label: "resize", commands: [{first}])],
        [{frame}, (queue: Graphics, label: "resize", commands: [{second}])],
        [{frame}],
    ]),
)
"#
    );
    let mut rt = Runtime::from_str(&text, "resize.ron").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    let run = rt.run(frames).map_err(|e| e.to_string());
    (rt, run)
}

/// The buffers a format names are the buffers made: FP16 doubles their memory, and a later
/// ResizeBuffers without a format keeps the chain's current format (DXGI_FORMAT_UNKNOWN),
/// not the one the scene created the chain with.
#[test]
fn resize_buffers_gives_the_new_buffers_its_format_and_keeps_it_after() {
    let live = |first: &str, second: &str| {
        let (mut rt, run) = resized(first, second, 4);
        assert_eq!(run, Ok(()));
        assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
        rt.summary().stats.memory_live_bytes
    };
    let same = r#"ResizeBuffers(chain: "swapchain", extent: (64, 64))"#;
    let fp16 = r#"ResizeBuffers(chain: "swapchain", extent: (64, 64), format: Rgba16Float)"#;
    let ten = r#"ResizeBuffers(chain: "swapchain", extent: (64, 64), format: Rgb10A2Unorm)"#;
    let eight = live(same, same);
    // Two buffers of 64x64 texels, 8 bytes each in FP16 where Rgba8Unorm has 4.
    assert_eq!(live(fp16, same) - eight, 2 * 64 * 64 * 4);
    assert_eq!(live(same, fp16) - eight, 2 * 64 * 64 * 4);
    // R10G10B10A2 is 4 bytes a texel too; back to 8 bits from FP16 frees the difference.
    assert_eq!(live(ten, same), eight);
    assert_eq!(live(fp16, ten), eight);
}

/// A resolve into a chain is checked when the scene loads against the chain as the scene
/// creates it and as the script's resizes make it: which holds at the resolve is the
/// running order's, which the device checks. A resolve that fits none is still refused.
#[test]
fn a_resolve_into_a_resized_chain_is_checked_against_its_new_buffers() {
    let scene = |msaa: &str| {
        format!(
            r#"Scene(
    settings: (api: D3d12Pc),
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Rgba8Unorm, extent: (64, 64))),
        (name: "msaa", texture: ({msaa}, samples: 4, flags: (render_target: true))),
    ],
    script: (frames: [[
        (queue: Graphics, label: "resize", commands: [
            ResizeBuffers(chain: "swapchain", extent: (128, 128), format: Rgba16Float),
        ]),
        (queue: Graphics, label: "render", commands: [
            ResourceBarrier([
                Transition(resource: "msaa", before: "", after: "RESOLVE_SOURCE"),
                Transition(resource: "swapchain", before: "", after: "RESOLVE_DEST"),
            ]),
            ResolveSubresource(src: "msaa", dst: "swapchain"),
            ResourceBarrier([
                Transition(resource: "msaa", before: "RESOLVE_SOURCE", after: ""),
                Transition(resource: "swapchain", before: "RESOLVE_DEST", after: ""),
            ]),
            Present("swapchain"),
        ]),
    ]]),
)
"#
        )
    };
    let fits = scene("format: Rgba16Float, extent: (128, 128)");
    let mut rt = Runtime::from_str(&fits, "fits.ron").unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(3).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    // FP16 at the old size, or R11G11B10 at the new one: no buffer the chain ever has.
    for msaa in [
        "format: Rgba16Float, extent: (64, 32)",
        "format: R11G11B10Float, extent: (128, 128)",
    ] {
        let Err(e) = Runtime::from_str(&scene(msaa), "misfit.ron") else {
            panic!("{msaa}: loaded");
        };
        assert!(e.to_string().contains("ResolveSubresource"), "{msaa}: {e}");
    }
}
