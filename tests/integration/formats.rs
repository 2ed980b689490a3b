//! Every texture format loads, round-trips through save, runs validation-clean, and takes
//! the memory its blocks or texels weigh; a 3D texture runs as well.

use bevy_ecs::prelude::*;
use fastframe::Runtime;
use fastframe::device::Device;
use fastframe::model::{Format, GpuObject};
use fastframe::scene;

/// A frame that writes (render targets, depth) or samples (block-compressed) a 64x64
/// texture of `format` with 4 mips, then presents.
fn scene_with(format: Format) -> String {
    let (flags, access) = if format.is_depth() {
        ("depth_stencil: true", "DepthWrite, clear: true")
    } else if format.render_target_problem().is_none() {
        ("render_target: true", "RenderTarget, clear: true")
    } else {
        ("", "ShaderRead")
    };
    format!(
        r#"Scene(entities: [
    (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
    (name: "t", texture: (format: {format:?}, extent: (64, 64), mips: {mips}, flags: ({flags}))),
    (name: "p", pass: (uses: [(target: "t", access: {access}, range: (mip_count: 1))], work: Draw(vertices: 3, pixels: 4096))),
    (name: "show", pass: (uses: [(target: "swapchain", access: RenderTarget, clear: true)], work: Draw(vertices: 3, pixels: 4096))),
])"#,
        // Depth targets keep one mip so the range covers them whole.
        mips = if format.is_depth() { 1 } else { 4 },
    )
}

fn texture_bytes(rt: &mut Runtime, name: &str) -> u64 {
    let key = (rt.world.query::<(&Name, &GpuObject)>().iter(&rt.world))
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, o)| o.0)
        .expect("the texture has a device object");
    rt.world
        .resource::<Device>()
        .memory
        .get(key)
        .expect("live")
        .bytes
}

#[test]
fn every_format_loads_round_trips_and_runs_clean() {
    for format in Format::ALL {
        let text = scene_with(format);
        let file = format!("{format:?}.ron");
        let parsed = scene::parse(&text, &file).expect("parses");
        let written = scene::to_ron(&parsed);
        assert!(written.contains(&format!("{format:?}")), "{written}");
        assert_eq!(scene::parse(&written, &file).expect("re-parses"), parsed);

        let mut rt = Runtime::from_str(&text, &file).unwrap_or_else(|e| panic!("{file}: {e}"));
        rt.set_validation(true);
        rt.run(3).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            rt.diagnostics().is_empty(),
            "{file}: {:?}",
            rt.diagnostics()
        );
        let saved = scene::to_ron(&scene::save(&rt.world));
        assert!(saved.contains(&format!("format: {format:?}")), "{saved}");

        // 64, 32, 16 and 8 texels a side: 4096 + 1024 + 256 + 64 texels, or for a BC
        // format 256 + 64 + 16 + 4 blocks.
        let expected = if format.is_depth() {
            4096 * format.unit_bytes()
        } else if format.is_block_compressed() {
            340 * format.unit_bytes()
        } else {
            5440 * format.unit_bytes()
        };
        assert_eq!(texture_bytes(&mut rt, "t"), expected, "{file}");
    }
}

#[test]
fn the_formats_scene_weighs_its_blocks_and_its_volume() {
    let mut rt = Runtime::from_scene("scenes/formats.ron").expect("loads");
    rt.set_validation(true);
    rt.run(3).expect("runs");
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    // BC7, 2048x2048 with the full 12 mips: 512x512 blocks down to 1, and the 2x2 and 1x1
    // mips take one block each.
    let blocks: u64 = (0..12).map(|m| ((2048u64 >> m).div_ceil(4)).pow(2)).sum();
    assert_eq!(texture_bytes(&mut rt, "albedo"), blocks * 16);
    // BC4: 8 bytes a block.
    let blocks: u64 = (0..11).map(|m| ((1024u64 >> m).div_ceil(4)).pow(2)).sum();
    assert_eq!(texture_bytes(&mut rt, "roughness"), blocks * 8);
    // The 3D froxel volume: 160x90x64 texels of 8 bytes, width, height and depth halving.
    let texels: u64 = (0..4)
        .map(|m| (160u64 >> m).max(1) * (90u64 >> m).max(1) * (64u64 >> m).max(1))
        .sum();
    assert_eq!(texture_bytes(&mut rt, "froxels"), texels * 8);
}
