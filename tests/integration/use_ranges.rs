//! A use's own `range` (EB-6): the subresources of a texture it names directly, checked at
//! load against the texture, saved and loaded back unchanged.

use bevy_ecs::prelude::*;
use fastframe::scene::{self, SceneError};

fn scene(uses: &str) -> String {
    format!(
        r#"Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "pyramid", texture: (format: R32Float, extent: (64, 64), mips: 3, array_size: 2, flags: (unordered_access: true))),
        (name: "pyramid_srv", view: (of: "pyramid", kind: Srv)),
        (name: "vb", buffer: (size: 256)),
        (name: "p", pass: (uses: [(target: "swapchain", access: RenderTarget), {uses}], work: Draw(draws: 1, vertices: 3, pixels: 4096))),
    ],
)"#
    )
}

fn load(text: &str) -> Result<World, SceneError> {
    let mut world = World::new();
    scene::load_str(text, "r.ron", &mut world).map(|()| world)
}

/// The error's text, which starts with its `file:line:col`.
fn error(uses: &str) -> String {
    match load(&scene(uses)) {
        Ok(_) => panic!("loaded, but should fail: {uses}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_range_within_the_texture_loads() {
    let ok = r#"(target: "pyramid", access: ShaderRead, range: (first_mip: 1, mip_count: 2, first_slice: 1))"#;
    let world = load(&scene(ok)).expect("loads");
    let pass = (world.iter_entities())
        .find_map(|e| e.get::<fastframe::model::Pass>())
        .expect("a pass");
    let r = pass.uses[1].range.expect("a range");
    assert_eq!((r.first_mip, r.mip_count, r.first_slice), (1, 2, 1));
    assert_eq!(r.slice_count, u32::MAX, "to the end");
}

#[test]
fn a_range_beyond_the_texture_is_located_at_the_range() {
    let e =
        error(r#"(target: "pyramid", access: ShaderRead, range: (first_mip: 2, mip_count: 2))"#);
    assert!(e.starts_with("r.ron:7:"), "{e}");
    assert!(
        e.contains("first_mip 2 + mip_count 2 is beyond the texture's 3 mip(s)"),
        "{e}"
    );
    let e = error(r#"(target: "pyramid", access: ShaderRead, range: (first_plane: 1))"#);
    assert!(
        e.contains("first_plane 1 is beyond the texture's 1 plane(s)"),
        "{e}"
    );
}

#[test]
fn a_range_on_a_buffer_or_through_a_view_is_refused() {
    let e = error(r#"(target: "vb", access: VertexBuffer, range: (first_mip: 1))"#);
    assert!(e.contains("only a texture has subresources"), "{e}");
    let e = error(r#"(target: "pyramid_srv", access: ShaderRead, range: (first_mip: 1))"#);
    assert!(e.contains("takes the view's range"), "{e}");
    let e = error(r#"(target: "swapchain", access: ShaderRead, range: (first_mip: 0))"#);
    assert!(e.contains("used whole"), "{e}");
}
