//! Every way a scene can be wrong, each pinned to its error variant, line, column, entity
//! and message, and each next to the corrected scene, which must load.
//!
//! Every case is one line spliced into the same small scene (below), so positions are easy
//! to check by eye: an entity line is line 10 and starts at column 9, the timeline's
//! contents start at line 12, column 16, and the settings' at line 3, column 16.

use std::path::Path;

use bevy_ecs::prelude::*;
use fastframe::scene::{self, Location, SceneError};

/// The parts a case replaces.
#[derive(Clone, Copy, Default)]
struct Parts {
    settings: &'static str,
    entity: &'static str,
    timeline: &'static str,
}

/// An extra entity line (line 10).
fn e(entity: &'static str) -> Parts {
    Parts {
        entity,
        ..Parts::default()
    }
}

/// Timeline contents (line 12).
fn t(timeline: &'static str) -> Parts {
    Parts {
        timeline,
        ..Parts::default()
    }
}

/// Settings contents (line 3).
fn s(settings: &'static str) -> Parts {
    Parts {
        settings,
        ..Parts::default()
    }
}

fn scene(p: Parts) -> String {
    format!(
        r#"// A scene for error tests: each case splices in one line.
Scene(
    settings: ({}),
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "albedo", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true))),
        (name: "depth", texture: (format: D32Float, extent: (64, 64), flags: (depth_stencil: true))),
        (name: "vb", buffer: (size: 256)),
        (name: "main", pass: (uses: [(target: "swapchain", access: RenderTarget)])),
        {}
    ],
    timeline: [{}],
)
"#,
        p.settings, p.entity, p.timeline
    )
}

fn load(text: &str) -> Result<World, SceneError> {
    let mut world = World::new();
    scene::load_str(text, "t.ron", &mut world).map(|()| world)
}

fn variant(e: &SceneError) -> &'static str {
    match e {
        SceneError::Io { .. } => "Io",
        SceneError::Syntax { .. } => "Syntax",
        SceneError::Shape { .. } => "Shape",
        SceneError::DuplicateName { .. } => "DuplicateName",
        SceneError::UnknownName { .. } => "UnknownName",
        SceneError::WrongKind { .. } => "WrongKind",
        SceneError::Misuse { .. } => "Misuse",
        SceneError::OutOfRange { .. } => "OutOfRange",
        SceneError::Cycle { .. } => "Cycle",
    }
}

/// The bad scene fails with exactly this error; the good one loads.
fn check(
    bad: Parts,
    good: Parts,
    kind: &str,
    line: usize,
    column: usize,
    entity: Option<&str>,
    says: &str,
) {
    let text = scene(bad);
    let err = match load(&text) {
        Ok(_) => panic!("loaded, but should fail:\n{text}"),
        Err(err) => err,
    };
    let place = Location {
        file: "t.ron".into(),
        line,
        column,
    };
    assert_eq!(
        (variant(&err), err.location(), err.entity()),
        (kind, &place, entity),
        "{err}"
    );
    let shown = err.to_string();
    assert!(shown.contains(says), "{shown:?} does not say {says:?}");
    assert!(
        shown.starts_with(&format!("t.ron:{line}:{column}: ")),
        "{shown}"
    );
    if let Some(name) = entity {
        assert!(shown.contains(&format!("{name:?}")), "{shown}");
    }
    let good = Parts {
        settings: if good.settings.is_empty() {
            "frames_in_flight: 2"
        } else {
            good.settings
        },
        ..good
    };
    if let Err(e) = load(&scene(good)) {
        panic!("the corrected scene fails: {e}");
    }
}

macro_rules! case {
    ($test:ident, $kind:ident, $line:literal : $column:literal, $entity:expr, $says:expr,
     $bad:expr => $good:expr) => {
        #[test]
        fn $test() {
            check(
                $bad,
                $good,
                stringify!($kind),
                $line,
                $column,
                $entity,
                $says,
            );
        }
    };
}

case!(syntax_error_missing_comma, Syntax, 10:20, Some("a"), r#"Expected comma"#,
    e(r#"(name: "a" buffer: (size: 4)),"#) => e(r#"(name: "a", buffer: (size: 4)),"#));
case!(unknown_field, Syntax, 10:21, Some("a"), r#"did you mean `buffer`?"#,
    e(r#"(name: "a", bufer: (size: 4)),"#) => e(r#"(name: "a", buffer: (size: 4)),"#));
case!(unknown_enum_variant, Syntax, 10:39, Some("a"), r#"(did you mean `Rgba8Unorm`"#,
    e(r#"(name: "a", texture: (format: Rgba8Unrom, extent: (4, 4))),"#) => e(r#"(name: "a", texture: (format: Rgba8Unorm, extent: (4, 4))),"#));
case!(unknown_access_variant, Syntax, 10:58, Some("p"), r#"`VertexBuffer`"#,
    e(r#"(name: "p", pass: (uses: [(target: "vb", access: VertexBufer)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "vb", access: VertexBuffer)])),"#));
case!(unknown_timeline_event, Syntax, 12:34, None, r#"in enum `Event`"#,
    t(r#"(frame: 1, event: Explode("main"))"#) => t(r#"(frame: 1, event: Disable("main"))"#));
case!(duplicate_name, DuplicateName, 10:10, Some("vb"), r#"duplicate name "vb" (first defined at line 8, column 10)"#,
    e(r#"(name: "vb", buffer: (size: 4)),"#) => e(r#"(name: "vb2", buffer: (size: 4)),"#));
case!(duplicate_name_in_timeline_add, DuplicateName, 12:39, Some("main"), r#"first defined at line 9, column 10"#,
    t(r#"(frame: 1, event: Add((name: "main", pass: ())))"#) => t(r#"(frame: 1, event: Add((name: "late", pass: ())))"#));
case!(unknown_use_target_suggests, UnknownName, 10:50, Some("gbuffer"), r#"unknown name "albdo" (did you mean "albedo"?)"#,
    e(r#"(name: "gbuffer", pass: (uses: [(target: "albdo", access: RenderTarget)])),"#) => e(r#"(name: "gbuffer", pass: (uses: [(target: "albedo", access: RenderTarget)])),"#));
case!(view_of_missing_resource, UnknownName, 10:32, Some("v"), r#"unknown name "hdr""#,
    e(r#"(name: "v", view: (of: "hdr", kind: Srv)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv)),"#));
case!(unknown_after_suggests, UnknownName, 10:36, Some("p"), r#"(did you mean "main"?)"#,
    e(r#"(name: "p", pass: (after: ["mian"])),"#) => e(r#"(name: "p", pass: (after: ["main"])),"#));
case!(unknown_timeline_name_suggests, UnknownName, 12:48, None, r#"(did you mean "swapchain"?)"#,
    t(r#"(frame: 5, event: Resize(chain: "swapchian", extent: (32, 32)))"#) => t(r#"(frame: 5, event: Resize(chain: "swapchain", extent: (32, 32)))"#));
case!(unknown_release_name, UnknownName, 12:42, None, r#"unknown name "albdo" (did you mean "albedo"?)"#,
    t(r#"(frame: 5, event: Release("albdo"))"#) => t(r#"(frame: 5, event: Release("albedo"))"#));
case!(view_of_a_pass, WrongKind, 10:32, Some("v"), r#""main" is a pass, expected a texture, a buffer or a swap chain"#,
    e(r#"(name: "v", view: (of: "main", kind: Srv)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv)),"#));
case!(view_of_a_view, WrongKind, 10:78, Some("w"), r#""v" is a view"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Srv)), (name: "w", view: (of: "v", kind: Srv)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv)), (name: "w", view: (of: "albedo", kind: Srv)),"#));
case!(use_targeting_a_pass, WrongKind, 10:44, Some("p"), r#""main" is a pass"#,
    e(r#"(name: "p", pass: (uses: [(target: "main", access: ShaderRead)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "albedo", access: ShaderRead)])),"#));
case!(after_naming_a_non_pass, WrongKind, 10:36, Some("p"), r#""vb" is a buffer, expected a pass"#,
    e(r#"(name: "p", pass: (after: ["vb"])),"#) => e(r#"(name: "p", pass: (after: ["main"])),"#));
case!(resize_of_a_texture, WrongKind, 12:48, None, r#"expected a swap chain"#,
    t(r#"(frame: 1, event: Resize(chain: "albedo", extent: (32, 32)))"#) => t(r#"(frame: 1, event: Resize(chain: "swapchain", extent: (32, 32)))"#));
case!(enable_of_a_buffer, WrongKind, 12:41, None, r#""vb" is a buffer, expected a pass"#,
    t(r#"(frame: 1, event: Enable("vb"))"#) => t(r#"(frame: 1, event: Enable("main"))"#));
case!(disable_of_a_swap_chain, WrongKind, 12:42, None, r#"is a swap chain, expected a pass"#,
    t(r#"(frame: 1, event: Disable("swapchain"))"#) => t(r#"(frame: 1, event: Disable("main"))"#));
case!(release_of_a_pass, WrongKind, 12:42, None, r#"expected a texture, a buffer or a view"#,
    t(r#"(frame: 1, event: Release("main"))"#) => t(r#"(frame: 1, event: Release("vb"))"#));
case!(release_of_a_swap_chain, WrongKind, 12:42, None, r#"is a swap chain"#,
    t(r#"(frame: 1, event: Release("swapchain"))"#) => t(r#"(frame: 1, event: Release("depth"))"#));
case!(buffer_as_render_target, Misuse, 10:44, Some("p"), r#"buffer "vb" cannot be used as RenderTarget: RenderTarget is a texture-only access"#,
    e(r#"(name: "p", pass: (uses: [(target: "vb", access: RenderTarget)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "vb", access: VertexBuffer)])),"#));
case!(buffer_as_depth, Misuse, 10:44, Some("p"), r#"texture-only"#,
    e(r#"(name: "p", pass: (uses: [(target: "vb", access: DepthRead)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "depth", access: DepthRead)])),"#));
case!(texture_as_vertex_buffer, Misuse, 10:44, Some("p"), r#"buffer-only"#,
    e(r#"(name: "p", pass: (uses: [(target: "albedo", access: VertexBuffer)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "albedo", access: ShaderRead)])),"#));
case!(render_target_without_flag, Misuse, 10:104, Some("p"), r#"`render_target: true`"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4))), (name: "p", pass: (uses: [(target: "t", access: RenderTarget)])),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), flags: (render_target: true))), (name: "p", pass: (uses: [(target: "t", access: RenderTarget)])),"#));
case!(depth_write_without_flag, Misuse, 10:102, Some("p"), r#"`depth_stencil: true`"#,
    e(r#"(name: "t", texture: (format: D32Float, extent: (4, 4))), (name: "p", pass: (uses: [(target: "t", access: DepthWrite)])),"#) => e(r#"(name: "t", texture: (format: D32Float, extent: (4, 4), flags: (depth_stencil: true))), (name: "p", pass: (uses: [(target: "t", access: DepthWrite)])),"#));
case!(depth_read_of_colour_format, Misuse, 10:44, Some("p"), r#"needs a depth format, but texture "albedo" is Rgba8Unorm"#,
    e(r#"(name: "p", pass: (uses: [(target: "albedo", access: DepthRead)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "depth", access: DepthRead)])),"#));
case!(uav_of_texture_without_flag, Misuse, 10:44, Some("p"), r#"`unordered_access: true`"#,
    e(r#"(name: "p", pass: (uses: [(target: "albedo", access: UnorderedAccess)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "albedo", access: ShaderRead)])),"#));
case!(uav_of_buffer_without_flag, Misuse, 10:60, Some("p"), r#"on the buffer"#,
    e(r#"(name: "p", pass: (queue: Compute, uses: [(target: "vb", access: UnorderedAccess)])),"#) => e(r#"(name: "p", pass: (queue: Compute, uses: [(target: "vb", access: CopyDest)])),"#));
case!(access_not_on_queue, Misuse, 10:70, Some("p"), r#"RenderTarget cannot run on a Compute queue"#,
    e(r#"(name: "p", pass: (queue: Compute, uses: [(target: "albedo", access: RenderTarget)])),"#) => e(r#"(name: "p", pass: (queue: Graphics, uses: [(target: "albedo", access: RenderTarget)])),"#));
case!(dynamic_buffer_on_compute_queue, Misuse, 10:111, Some("p"), r#"cannot use buffer "cb": it is a dynamic buffer, which compute contexts do not support (CC-1)"#,
    e(r#"(name: "cb", buffer: (size: 256, usage: Dynamic)), (name: "p", pass: (queue: Compute, uses: [(target: "cb", access: ConstantBuffer)])),"#) => e(r#"(name: "cb", buffer: (size: 256, usage: Dynamic)), (name: "p", pass: (queue: Graphics, uses: [(target: "cb", access: ConstantBuffer)])),"#));
case!(dispatch_renders_nothing, Misuse, 10:54, Some("p"), r#"a Dispatch cannot use a target as RenderTarget"#,
    e(r#"(name: "p", pass: (uses: [(target: "albedo", access: RenderTarget)], work: Dispatch(threads: 64))),"#) => e(r#"(name: "p", pass: (uses: [(target: "albedo", access: RenderTarget)], work: Draw(pixels: 64))),"#));
case!(dispatch_fetches_no_vertices, Misuse, 10:67, Some("p"), r#"a Dispatch cannot use a target as VertexBuffer"#,
    e(r#"(name: "p", pass: (queue: Graphics, uses: [(target: "vb", access: VertexBuffer)], work: Dispatch(threads: 64))),"#) => e(r#"(name: "p", pass: (queue: Graphics, uses: [(target: "vb", access: ConstantBuffer)], work: Dispatch(threads: 64))),"#));
case!(uav_of_swap_chain, Misuse, 10:60, Some("p"), r#"add `unordered_access: true` to the swap chain"#,
    e(r#"(name: "p", pass: (queue: Compute, uses: [(target: "swapchain", access: UnorderedAccess)])),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), flags: (unordered_access: true))), (name: "p", pass: (queue: Compute, uses: [(target: "t", access: UnorderedAccess)])),"#));
case!(uav_view_of_swap_chain, Misuse, 10:45, Some("v"), r#"add `unordered_access: true` to the swap chain"#,
    e(r#"(name: "v", view: (of: "swapchain", kind: Uav)),"#) => e(r#"(name: "v", view: (of: "swapchain", kind: Rtv)),"#));
case!(copy_queue_draws_nothing, Misuse, 10:67, Some("p"), r#"on a Copy queue"#,
    e(r#"(name: "p", pass: (queue: Copy, uses: [(target: "albedo", access: ShaderRead)])),"#) => e(r#"(name: "p", pass: (queue: Copy, uses: [(target: "albedo", access: CopySource)])),"#));
case!(rtv_of_buffer, Misuse, 10:38, Some("v"), r#"an Rtv cannot view buffer "vb""#,
    e(r#"(name: "v", view: (of: "vb", kind: Rtv)),"#) => e(r#"(name: "v", view: (of: "vb", kind: Srv)),"#));
case!(dsv_of_colour_texture, Misuse, 10:42, Some("v"), r#"a Dsv needs a depth format"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Dsv)),"#) => e(r#"(name: "v", view: (of: "depth", kind: Dsv)),"#));
case!(access_through_wrong_view, Misuse, 10:90, Some("p"), r#"Srv view "v" is bound for ShaderRead, not RenderTarget"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Srv)), (name: "p", pass: (uses: [(target: "v", access: RenderTarget)])),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Rtv)), (name: "p", pass: (uses: [(target: "v", access: RenderTarget)])),"#));
case!(clear_of_a_read, Misuse, 10:44, Some("p"), r#"`clear` needs"#,
    e(r#"(name: "p", pass: (uses: [(target: "albedo", access: ShaderRead, clear: true)])),"#) => e(r#"(name: "p", pass: (uses: [(target: "albedo", access: RenderTarget, clear: true)])),"#));
case!(zero_extent, OutOfRange, 10:51, Some("t"), r#"extent 0x64 is out of range: each side must be 1 to 16384"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (0, 64))),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 64))),"#));
case!(absurd_extent, OutOfRange, 10:51, Some("t"), r#"extent 64x16385"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 16385))),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 16384))),"#));
case!(zero_mips, OutOfRange, 10:69, Some("t"), r#"mips must be 1 to 7"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 32), mips: 0)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 32), mips: 7)),"#));
case!(too_many_mips, OutOfRange, 10:69, Some("t"), r#"not 8"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 32), mips: 8)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (64, 32), mips: 7)),"#));
case!(zero_array_size, OutOfRange, 10:67, Some("t"), r#"array_size must be 1 to 2048"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), array_size: 0)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), array_size: 1)),"#));
case!(absurd_array_size, OutOfRange, 10:67, Some("t"), r#"not 2049"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), array_size: 2049)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), array_size: 2048)),"#));
case!(odd_samples, OutOfRange, 10:67, Some("t"), r#"samples must be 1, 2, 4 or 8"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), samples: 3)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), samples: 4)),"#));
case!(zero_buffer, OutOfRange, 10:30, Some("b"), r#"size must be 1 to 4294967296 bytes"#,
    e(r#"(name: "b", buffer: (size: 0)),"#) => e(r#"(name: "b", buffer: (size: 1)),"#));
case!(absurd_buffer, OutOfRange, 10:30, Some("b"), r#"not 4294967297"#,
    e(r#"(name: "b", buffer: (size: 4294967297)),"#) => e(r#"(name: "b", buffer: (size: 4294967296)),"#));
case!(one_buffer_swap_chain, OutOfRange, 10:35, Some("sc"), r#"2 to 4 buffers, not 1"#,
    e(r#"(name: "sc", swap_chain: (buffers: 1, format: Rgba8Unorm, extent: (64, 64))),"#) => e(r#"(name: "sc", swap_chain: (buffers: 2, format: Rgba8Unorm, extent: (64, 64))),"#));
case!(five_buffer_swap_chain, OutOfRange, 10:35, Some("sc"), r#"not 5"#,
    e(r#"(name: "sc", swap_chain: (buffers: 5, format: Rgba8Unorm, extent: (64, 64))),"#) => e(r#"(name: "sc", swap_chain: (buffers: 4, format: Rgba8Unorm, extent: (64, 64))),"#));
case!(zero_swap_chain_extent, OutOfRange, 10:67, Some("sc"), r#"extent 64x0"#,
    e(r#"(name: "sc", swap_chain: (buffers: 2, format: Rgba8Unorm, extent: (64, 0))),"#) => e(r#"(name: "sc", swap_chain: (buffers: 2, format: Rgba8Unorm, extent: (64, 1))),"#));
case!(no_frames_in_flight, OutOfRange, 3:16, None, r#"frames_in_flight must be 1 to 8, not 0"#,
    s(r#"frames_in_flight: 0"#) => s(r#"frames_in_flight: 1"#));
case!(too_many_frames_in_flight, OutOfRange, 3:34, None, r#"not 9"#,
    s(r#"validation: true, frames_in_flight: 9"#) => s(r#"validation: true, frames_in_flight: 8"#));
case!(zero_cpu_frame, OutOfRange, 3:16, None, r#"cpu_frame_us must be a positive number"#,
    s(r#"cpu_frame_us: 0.0"#) => s(r#"cpu_frame_us: 0.5"#));
case!(nan_cpu_frame, OutOfRange, 3:16, None, r#"not NaN"#,
    s(r#"cpu_frame_us: NaN"#) => s(r#"cpu_frame_us: 16.6"#));
case!(no_record_threads, OutOfRange, 3:16, None, r#"record_threads must be 1 to 64, not 0"#,
    s(r#"record_threads: 0"#) => s(r#"record_threads: 1, binding: PerSlot"#));
case!(misspelt_fault, Syntax, 3:24, None, r#"unknown fault `drop-barier` (did you mean `drop-barrier`?)"#,
    s(r#"fault: "drop-barier=main""#) => s(r#"fault: "drop-barrier=main""#));
case!(compute_pipe_two, OutOfRange, 3:16, None, r#"compute_pipe must be 0 (below graphics) or 1"#,
    s(r#"compute_pipe: 2"#) => s(r#"compute_pipe: 1"#));
case!(resize_to_zero, OutOfRange, 12:61, None, r#"extent 0x32"#,
    t(r#"(frame: 9, event: Resize(chain: "swapchain", extent: (0, 32)))"#) => t(r#"(frame: 9, event: Resize(chain: "swapchain", extent: (16, 32)))"#));
case!(view_beyond_mips, OutOfRange, 10:53, Some("v"), r#"first_mip 1 is beyond the texture's 1 mip(s)"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Srv, first_mip: 1)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv, first_mip: 0)),"#));
case!(view_mip_count_beyond, OutOfRange, 10:131, Some("v"), r#"first_mip 2 + mip_count 3"#,
    e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (8, 8), mips: 4)), (name: "v", view: (of: "t", kind: Srv, first_mip: 2, mip_count: 3)),"#) => e(r#"(name: "t", texture: (format: Rgba8Unorm, extent: (8, 8), mips: 4)), (name: "v", view: (of: "t", kind: Srv, first_mip: 2, mip_count: 2)),"#));
case!(view_beyond_slices, OutOfRange, 10:53, Some("v"), r#"slice(s)"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Srv, slice_count: 2)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv, slice_count: 1)),"#));
case!(negative_min_lod, OutOfRange, 10:53, Some("v"), r#"min_lod must be"#,
    e(r#"(name: "v", view: (of: "albedo", kind: Srv, min_lod: -1.0)),"#) => e(r#"(name: "v", view: (of: "albedo", kind: Srv, min_lod: 1.0)),"#));
case!(no_component, Shape, 10:10, Some("x"), r#"no component"#,
    e(r#"(name: "x"),"#) => e(r#"(name: "x", buffer: (size: 4)),"#));
case!(several_components, Shape, 10:10, Some("x"), r#"several components (texture, buffer)"#,
    e(r#"(name: "x", buffer: (size: 4), texture: (format: Rgba8Unorm, extent: (4, 4))),"#) => e(r#"(name: "x", buffer: (size: 4)),"#));
case!(lifetime_on_a_pass, Shape, 10:31, Some("p"), r#"`lifetime` only applies to textures and buffers, not to a pass"#,
    e(r#"(name: "p", pass: (), lifetime: Transient),"#) => e(r#"(name: "p", pass: ()),"#));
case!(disabled_on_a_buffer, Shape, 10:40, Some("b"), r#"`disabled` only applies to passes"#,
    e(r#"(name: "b", buffer: (size: 4), disabled: true),"#) => e(r#"(name: "b", buffer: (size: 4)),"#));
case!(empty_name, Shape, 10:10, Some(""), r#"the name is empty"#,
    e(r#"(name: "", buffer: (size: 4)),"#) => e(r#"(name: "b", buffer: (size: 4)),"#));
// A transient read before its first write reads the frame's final version (a imported
// texture would be read as last frame's, with no cycle).
case!(read_write_cycle, Cycle, 10:10, Some("a"), r#"dependency cycle: a -> b -> a"#,
    e(r#"(name: "a", pass: (uses: [(target: "gb", access: ShaderRead), (target: "vb", access: CopyDest)])), (name: "b", pass: (uses: [(target: "vb", access: VertexBuffer), (target: "gb", access: RenderTarget)])), (name: "gb", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true)), lifetime: Transient),"#) => e(r#"(name: "a", pass: (uses: [(target: "gb", access: ShaderRead), (target: "vb", access: CopyDest)])), (name: "b", pass: (uses: [(target: "vb", access: VertexBuffer), (target: "depth", access: DepthWrite)])), (name: "gb", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true)), lifetime: Transient),"#));
case!(after_cycle, Cycle, 10:10, Some("a"), r#"dependency cycle: a -> b -> a"#,
    e(r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: (after: ["a"])),"#) => e(r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: ()),"#));
case!(after_itself, Cycle, 10:10, Some("a"), r#"dependency cycle: a -> a"#,
    e(r#"(name: "a", pass: (after: ["a"])),"#) => e(r#"(name: "a", pass: ()),"#));
case!(cycle_through_view, Cycle, 10:52, Some("a"), r#"a -> b -> a"#,
    e(r#"(name: "v", view: (of: "gb", kind: Srv)), (name: "a", pass: (uses: [(target: "v", access: ShaderRead)])), (name: "b", pass: (uses: [(target: "gb", access: RenderTarget)], after: ["a"])), (name: "gb", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true)), lifetime: Transient),"#) => e(r#"(name: "v", view: (of: "gb", kind: Srv)), (name: "a", pass: (uses: [(target: "v", access: ShaderRead)])), (name: "b", pass: (uses: [(target: "gb", access: RenderTarget)])), (name: "gb", texture: (format: Rgba8Unorm, extent: (64, 64), flags: (render_target: true)), lifetime: Transient),"#));

#[test]
fn the_base_scene_loads() {
    assert!(load(&scene(Parts::default())).is_ok());
}

#[test]
fn unknown_names_carry_their_suggestions() {
    let text = scene(e(
        r#"(name: "p", pass: (uses: [(target: "albdo", access: ShaderRead)])),"#,
    ));
    let Err(SceneError::UnknownName {
        name, suggestions, ..
    }) = load(&text)
    else {
        panic!("expected an unknown name");
    };
    assert_eq!(
        (name.as_str(), suggestions),
        ("albdo", vec!["albedo".to_string()])
    );
    let far = scene(e(
        r#"(name: "p", pass: (uses: [(target: "zzzzzz", access: ShaderRead)])),"#,
    ));
    let Err(SceneError::UnknownName { suggestions, .. }) = load(&far) else {
        panic!("expected an unknown name");
    };
    assert!(suggestions.is_empty());
}

#[test]
fn cycles_list_their_passes() {
    let text = scene(e(
        r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: (after: ["a"])),"#,
    ));
    let Err(SceneError::Cycle { path, .. }) = load(&text) else {
        panic!("expected a cycle");
    };
    assert_eq!(path, ["a", "b", "a"]);
}

/// A cycle says why each pass runs before the next: the resource and the ordering rule, or
/// the `after` edge, so the author sees which declaration to change.
#[test]
fn cycles_name_the_resource_and_rule_of_each_edge() {
    let text = scene(e(
        r#"(name: "blur", pass: (uses: [(target: "albedo", access: RenderTarget)], after: ["lens"])), (name: "glass", pass: (uses: [(target: "albedo", access: ShaderRead), (target: "vb", access: CopyDest)])), (name: "lens", pass: (uses: [(target: "vb", access: CopyDest)])),"#,
    ));
    let err = load(&text).expect_err("a cycle");
    let shown = err.to_string();
    let SceneError::Cycle { path, because, .. } = err else {
        panic!("expected a cycle: {shown}");
    };
    assert_eq!(path, ["blur", "glass", "lens", "blur"], "{shown}");
    assert_eq!(
        because,
        [
            r#""blur" writes "albedo", which "glass" reads (a read sees the latest earlier write)"#,
            r#""glass" and "lens" both write "vb" (writes run in declaration order)"#,
            r#""blur" is declared `after` "lens""#,
        ],
        "{shown}"
    );
    assert!(shown.contains(&because[0]), "{shown}");
}

/// A swap chain has no `flags`: its UAV error must not send the author looking for them.
#[test]
fn a_swap_chain_uav_error_does_not_mention_flags() {
    let text = scene(e(
        r#"(name: "p", pass: (queue: Compute, uses: [(target: "swapchain", access: UnorderedAccess)])),"#,
    ));
    let shown = load(&text).expect_err("a misuse").to_string();
    assert!(!shown.contains("in its flags"), "{shown}");
}

#[test]
fn disabled_and_dormant_passes_make_no_cycle() {
    let text = scene(Parts {
        entity: r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: (after: ["a"]), disabled: true),"#,
        timeline: r#"(frame: 1, event: Add((name: "c", pass: (after: ["c"]))))"#,
        ..s("frames_in_flight: 2")
    });
    assert!(load(&text).is_ok());
}

#[test]
fn missing_file_names_the_file_without_a_position() {
    let mut world = World::new();
    let path = Path::new("tests/data/no_such_scene.ron");
    let err = scene::load_file(path, &mut world).expect_err("the file does not exist");
    assert_eq!(variant(&err), "Io");
    assert_eq!(
        err.location(),
        &Location::file_only("tests/data/no_such_scene.ron")
    );
    assert_eq!(err.entity(), None);
    assert!(
        err.to_string()
            .starts_with("tests/data/no_such_scene.ron: cannot read scene file: ")
    );
}

#[test]
fn a_failed_load_leaves_the_world_untouched() {
    let mut world = World::new();
    let before = world.entities().len();
    let text = scene(e(
        r#"(name: "p", pass: (uses: [(target: "vb", access: RenderTarget)])),"#,
    ));
    assert!(scene::load_str(&text, "t.ron", &mut world).is_err());
    assert_eq!(world.entities().len(), before);
    assert!(world.get_resource::<fastframe::model::Timeline>().is_none());
}

#[test]
fn odd_names_still_get_a_location() {
    // A name with an escaped quote is found; the reference inside it too.
    let text = scene(e(r#"(name: "we\"ird", view: (of: "nope", kind: Srv)),"#));
    let err = load(&text).expect_err("unknown name");
    assert_eq!((err.location().line, err.location().column), (10, 38));
    assert_eq!(err.entity(), Some("we\"ird"));
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    for text in [
        "",
        "(",
        "Scene(",
        "Scene(entities: [(name: \"a\"",
        "\"\\u{110000}\"",
        "Scene(entities: [((((((((",
        "))))",
    ] {
        assert!(load(text).is_err(), "{text:?}");
    }
    let deep = format!("Scene(entities: [{}", "(".repeat(10_000));
    assert!(load(&deep).is_err());
}

#[test]
fn a_pass_binds_at_most_one_depth_stencil_view() {
    check(
        e(
            r#"(name: "d2", texture: (format: D32Float, extent: (64, 64), flags: (depth_stencil: true))), (name: "two", pass: (uses: [(target: "depth", access: DepthWrite), (target: "d2", access: DepthRead)]))"#,
        ),
        e(
            r#"(name: "d2", texture: (format: D32Float, extent: (64, 64), flags: (depth_stencil: true))), (name: "two", pass: (uses: [(target: "depth", access: DepthWrite), (target: "d2", access: ShaderRead)]))"#,
        ),
        "Misuse",
        10,
        176,
        Some("two"),
        "at most one depth-stencil view",
    );
}
