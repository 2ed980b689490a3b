//! More patterns of real frames, each a fixture in `tests/data/real_frames/` cut down from
//! the frame that showed it: transients and uploads a DMA engine writes and two queues read
//! (barrier-spec A5, EB-5, EB-9d), a depth test beside an async read (FS-1), render targets
//! read on one queue only (EB-4), a pass reading and writing one texture (EB-1, refused at
//! load), Resident Evil 2's reads of last frame's images on both queues at the start of the
//! frame (FS-1, EB-11), and Red Dead Redemption 2's copy of one slice into cube faces
//! (barrier-spec A3.8) and its clouds read by a compute copy beside a pixel shader (FS-1).
//! Each validates clean under every barrier strategy, async compute on and off, or is refused
//! at load where the scene says it.

use fastframe::Runtime;

use fastframe::model::BarrierMode;

use super::real_frames::{STRATEGIES, clean_everywhere};

/// FS-1, barrier-spec A5: a transient a DMA engine writes first each frame and that ends the
/// frame read on two queues is read in COMMON, which the next frame's copy takes as it is;
/// a transition after either read would race the other queue's.
#[test]
fn a_transient_a_dma_engine_writes_first_is_read_in_common_by_two_queues() {
    clean_everywhere("dma_first_transient_shared_read.ron");
}

/// EB-5, EB-9d: a DMA engine that uploads into an imported texture and uses no transient can
/// take over no transient's bytes, so the graphics queue's transients share memory by their
/// lifetimes there (`a` is done before `c` begins) rather than each keeping its own because
/// the next frame's upload is not ordered after them. Clean everywhere, with the bytes
/// handed over under the strategies that alias.
#[test]
fn a_dma_upload_that_uses_no_transient_leaves_aliasing_on() {
    clean_everywhere("dma_upload_beside_transients.ron");
    for barriers in [BarrierMode::Enhanced, BarrierMode::Conservative] {
        let mut rt = Runtime::from_scene("tests/data/real_frames/dma_upload_beside_transients.ron")
            .expect("fixture loads");
        rt.set_validation(true);
        rt.settings_mut().barriers = barriers;
        rt.run(6).expect("runs");
        let plan = rt.world.resource::<fastframe::plan::AliasPlan>().clone();
        assert!(
            plan.peak_bytes < plan.unaliased_bytes,
            "{barriers:?}: peak {} of {} unaliased",
            plan.peak_bytes,
            plan.unaliased_bytes
        );
        let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
        assert!(found.is_empty(), "{barriers:?}: {found:#?}");
    }
}

/// FS-1 (V0511), barrier-spec A1, A5, A6: a depth buffer bound read-only by a graphics pass
/// while async compute samples it, with no fence between the two reads. The conservative
/// strategy used to leave it in the graphics reader's DEPTH_STENCIL_READ and move it to a
/// shader resource after that reader for the compute queue, a transition no fence ordered
/// against the compute read; now the phase is read in one layout both queues use, entered
/// by the writer.
#[test]
fn a_depth_test_beside_an_async_read_shares_one_layout() {
    clean_everywhere("depth_test_beside_async_read.ron");
}

/// EB-6, barrier-spec A5 (V0403, V0521): a DMA upload into one mip of one slice of an array
/// the graphics queue samples whole. The copy is recorded into that subresource alone, a
/// CopyTextureRegion into subresource 2 (mip 0 + 2 mips x slice 1), as the planner planned
/// it, not as a copy of the whole array.
#[test]
fn a_dma_upload_into_one_subresource_is_recorded_into_it() {
    clean_everywhere("dma_upload_into_one_subresource.ron");
    let mut rt = Runtime::from_scene("tests/data/real_frames/dma_upload_into_one_subresource.ron")
        .expect("loads");
    use fastframe::device::{Command, Device};
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(1).expect("runs");
    let trace = rt.world.resource_mut::<Device>().trace.take();
    let copies: Vec<u32> = (trace.iter().flatten())
        .filter_map(|s| match &s.command {
            Command::CopyTextureRegion { to, .. } => Some(to.subresource),
            Command::CopyResource { .. } => Some(u32::MAX),
            _ => None,
        })
        .collect();
    assert_eq!(copies, [2], "one region copy into subresource 2");
}

/// EB-5, EB-9d (V0814): a DMA copy that reads back a transient async compute activated, and
/// waits only for that compute pass, so the DMA queue is never ordered after the late
/// graphics passes. Only a transient's first use takes bytes over, so the copy holds none:
/// the late transients hand their bytes on to the next frame's, and the heap is the lower
/// bound (it was every transient side by side). Clean everywhere, the bytes handed over
/// under the strategies that alias.
#[test]
fn a_dma_readback_of_a_transient_takes_no_bytes_over() {
    clean_everywhere("dma_readback_beside_transients.ron");
    for barriers in [BarrierMode::Enhanced, BarrierMode::Conservative] {
        let mut rt =
            Runtime::from_scene("tests/data/real_frames/dma_readback_beside_transients.ron")
                .expect("fixture loads");
        rt.set_validation(true);
        rt.settings_mut().barriers = barriers;
        rt.run(6).expect("runs");
        let plan = rt.world.resource::<fastframe::plan::AliasPlan>().clone();
        let feedback = 64 * 1024;
        assert!(
            plan.peak_bytes <= plan.lower_bound_bytes + feedback,
            "{barriers:?}: peak {} against a lower bound of {} ({} unaliased)",
            plan.peak_bytes,
            plan.lower_bound_bytes,
            plan.unaliased_bytes
        );
        let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
        assert!(found.is_empty(), "{barriers:?}: {found:#?}");
    }
}

/// FS-1 (V0512), barrier-spec A5: a texture async compute writes and then reads again while
/// a pixel shader on the graphics queue reads it, unordered with the compute read, and the
/// frame ends there. The legacy strategy widened the compute-nameable state for the pixel
/// shader and then moved the texture to COMMON after the graphics read, a layout change the
/// compute read raced; now the graphics queue gives the widening back in the same layout,
/// which the next frame's compute writer leaves.
#[test]
fn a_shared_read_phase_that_ends_the_frame_keeps_its_layout() {
    clean_everywhere("compute_write_read_by_both_queues_last.ron");
}

/// EB-4, barrier-spec A1: a render target without DCC still holds fast-clear metadata, so
/// one read by pixel shaders on the graphics queue only goes to DIRECT_QUEUE_SHADER_RESOURCE,
/// which keeps it, rather than SHADER_RESOURCE, which forced a fast-clear eliminate of both
/// targets every frame. What is left is the back buffer's decompression at present (FS-4).
#[test]
fn a_render_target_read_on_graphics_only_keeps_its_fast_clear() {
    clean_everywhere("render_target_read_on_graphics.ron");
    let mut rt = Runtime::from_scene("tests/data/real_frames/render_target_read_on_graphics.ron")
        .expect("fixture loads");
    rt.set_validation(true);
    rt.run(10).expect("runs");
    let json = rt.summary().to_json();
    assert_eq!(json["sync"]["decompressions"], 10, "{}", json["sync"]);
    assert!(rt.diagnostics().is_empty());
}

/// EB-1, EB-11: MiniEngine's TAA reads last frame's temporal colour and writes this frame's,
/// two textures it swaps by frame parity. Written as one resource that one dispatch reads
/// and writes, no barrier can give it both layouts; the loader refuses the pass at its second
/// use, where the planner used to emit a plan the validator found broken every frame.
#[test]
fn a_pass_that_reads_and_writes_one_texture_is_refused_where_it_says_so() {
    let path = "tests/data/real_frames/history_read_and_written_in_one_pass.ron";
    let err = match Runtime::from_scene(path) {
        Ok(_) => panic!("{path} loads, but its pass reads and writes one texture"),
        Err(e) => e.to_string(),
    };
    assert!(err.starts_with(&format!("{path}:16:29: ")), "{err}");
    assert!(
        err.contains("\"temporal_color\" is used as ShaderRead and as UnorderedAccess")
            && err.contains("EB-1"),
        "{err}"
    );
    // The engine's own form, two resources, is the real frame, clean everywhere.
    clean_scene_everywhere("scenes/real/miniengine_model_viewer.ron");
}

/// `path` validates clean in every strategy, async compute on and off.
fn clean_scene_everywhere(path: &str) {
    for barriers in STRATEGIES {
        for async_compute in [true, false] {
            let mut rt = Runtime::from_scene(path).expect("scene loads");
            rt.set_validation(true);
            {
                let mut s = rt.settings_mut();
                s.barriers = barriers;
                s.async_compute = async_compute;
            }
            rt.run(6).expect("runs");
            let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
            assert!(
                found.is_empty(),
                "{path} {barriers:?} async={async_compute}: {found:?}"
            );
        }
    }
}
/// FS-1 (V0511), EB-11 (V0804): Resident Evil 2's previous HDR image, read at the start of the
/// frame on async compute (the white point) and on graphics (TAA), then stored by a copy on
/// graphics. The conservative strategy read the opening phase in the layout the frame starts
/// it in only after a reader had changed it under the other queue's read, and the graphics
/// queue, whose last barrier handed the texture over, read without declaring its access.
#[test]
fn a_history_both_queues_read_before_a_copy_rewrites_it() {
    clean_everywhere("history_read_on_two_queues_then_copied.ron");
}

/// FS-1 (V0512): the same history with its read phase opening on graphics and closing on
/// async compute before the graphics copy rewrites it. The legacy strategy handed the texture
/// over through COMMON at the end of the compute read, a transition under the graphics read
/// of the phase; the copy, ordered after both reads, makes it now.
#[test]
fn a_history_read_on_graphics_then_compute_before_a_copy_rewrites_it() {
    clean_everywhere("history_read_on_graphics_then_compute_then_copied.ron");
}

/// FS-1 (V0511), barrier-spec A5: a field stepped on async compute, read by pixel shading at
/// the end of one frame and on both queues at the start of the next. The end and the start
/// are one read phase; the legacy strategy handed the field over through COMMON at the start
/// under the compute probe's read. The phase now spans the boundary: the pixel reader's
/// widening is given back in SHADER_RESOURCE's layout before the frame ends, and no layout
/// changes between the step's write and the next.
#[test]
fn a_read_phase_across_the_frame_boundary_keeps_one_layout_under_legacy() {
    clean_everywhere("field_read_on_both_queues_across_frames.ron");
    let mut rt =
        Runtime::from_scene("tests/data/real_frames/field_read_on_both_queues_across_frames.ron")
            .expect("fixture loads");
    rt.settings_mut().barriers = BarrierMode::Legacy;
    rt.run(4).expect("runs");
    let field = (rt
        .world
        .query::<(bevy_ecs::entity::Entity, &bevy_ecs::name::Name)>())
    .iter(&rt.world)
    .find_map(|(e, n)| (n.as_str() == "field").then_some(e))
    .expect("field");
    let g = rt.graph();
    let step = g
        .passes
        .iter()
        .position(|p| p.name == "step")
        .expect("step");
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let layouts = |states: fastframe::barrier::ResourceStates| {
        let texture = fastframe::barrier::ResourceInfo::Texture(Default::default());
        fastframe::barrier::enhanced_state(states, &texture).map(|s| s.layout)
    };
    for (i, slot) in (steady.legacy_before.iter().enumerate())
        .flat_map(|(i, b)| b.iter().map(move |b| (i, b)))
        .chain(
            (steady.legacy_after.iter().enumerate())
                .flat_map(|(i, b)| b.iter().map(move |b| (i, b))),
        )
    {
        if let fastframe::barrier::LegacyBarrier::Transition {
            resource,
            before,
            after,
            ..
        } = slot
            && *resource == field
            && i != step
        {
            assert_eq!(
                layouts(*before).ok(),
                layouts(*after).ok(),
                "pass {i} moves the field's layout outside the step: {slot:?}"
            );
        }
    }
}

/// FS-1 (V0511): Resident Evil 2's shadow-map array, one slice redrawn and the array read
/// whole on both queues. The slices nothing of the frame writes open it with a read phase
/// both queues share; the conservative strategy no longer moves them under the other
/// queue's read in the first frame.
#[test]
fn array_slices_no_pass_writes_read_on_two_queues() {
    clean_everywhere("array_slices_read_on_two_queues.ron");
}

/// FS-1 (V0512, V0513), barrier-spec A1: last frame's depth buffer, sampled on async compute
/// and depth-tested on graphics at the start of the frame, then rewritten by a pre-pass. The
/// conservative strategy let each reader move it into its own layout under the other's
/// read; the frame's last writer now enters the shared layout for the next frame, and the
/// plan's first frame moves it in its prologue.
#[test]
fn a_depth_history_both_queues_read_is_entered_by_the_last_writer() {
    clean_everywhere("depth_history_read_on_two_queues.ron");
}

/// Barrier-spec A3.8: Red Dead Redemption 2 copies a wall light's 1024x1536 spot map into six
/// 512x512 faces of a cube array. As one copy from one slice into six, it was recorded one
/// subresource a call, the i-th into the i-th, filling five faces from slices the pass never
/// named and the plan never made copy sources (V0521 every frame); the loader now refuses it
/// at the destination. Through a buffer, as the frame does it, it is clean everywhere.
#[test]
fn a_copy_from_one_slice_into_six_faces_is_refused_where_it_says_so() {
    let path = "tests/data/real_frames/slice_copied_into_cube_faces.ron";
    let err = match Runtime::from_scene(path) {
        Ok(_) => panic!("{path} loads, but its copy pairs one subresource with six"),
        Err(e) => e.to_string(),
    };
    assert!(err.starts_with(&format!("{path}:18:29: ")), "{err}");
    assert!(
        err.contains("1 source subresource(s) and 6 destination subresource(s)")
            && err.contains("A3.8")
            && err.contains("through a buffer"),
        "{err}"
    );
    clean_everywhere("slice_copied_into_cube_faces_through_buffer.ron");
}

/// FS-1 (V0513): Red Dead Redemption 2's clouds, written on async compute, then read there by
/// a copy into next frame's history while the graphics queue's sky pass samples them, nothing
/// ordering the two. Under `legacy` the pixel read could not widen the compute queue's
/// NON_PIXEL_SHADER_RESOURCE | COPY_SOURCE within its layout, and the shared phase was
/// dropped: each queue transitioned the clouds under the other's read. The phase is now
/// COMMON.
#[test]
fn a_compute_copy_beside_a_pixel_read_shares_its_read_phase() {
    clean_everywhere("compute_copy_beside_pixel_read.ron");
}

/// FS-2 (V0521): a UAV written on async compute and then on graphics, fenced, in one legacy
/// state. No transition was due, so nothing wrote the compute queue's caches back or
/// invalidated the graphics queue's; the legacy strategy now hands it over through COMMON.
#[test]
fn a_uav_written_on_one_queue_then_the_other_is_handed_over() {
    clean_everywhere("uav_written_on_compute_then_graphics.ron");
}

/// EB-1 (V0403), FS-3 (V0501): a DMA engine copies into six slices of a shadow array no barrier
/// has moved yet while graphics draws into six others; the validation layer takes untouched
/// slices to be in COMMON, where textures are created, not where the other slices' barrier
/// left them. The engine's copy into a staging buffer and out of it is ordered by a barrier
/// under the legacy strategy, where no state change orders it.
#[test]
fn slices_no_barrier_moved_are_in_common_and_one_engines_copies_are_ordered() {
    clean_everywhere("copy_into_slices_beside_depth_draw.ron");
}

/// EB-11 (V0801), barrier-spec A5, B: a volume written and copied on async compute and read by
/// dispatches on graphics. Its shared read state, NON_PIXEL_SHADER_RESOURCE | COPY_SOURCE, is a
/// layout only a direct queue may move into; the compute writer made that move under the
/// legacy strategy, and now enters COMMON instead.
#[test]
fn a_compute_writer_does_not_enter_a_direct_queue_read_layout() {
    clean_everywhere("volume_copied_on_compute_and_read_on_graphics.ron");
}

/// FS-3 (V0503): a kept texture rewritten through a UAV by one pass each frame on the graphics
/// queue, with nothing between one frame's write and the next in the `fewer-barriers` order
/// and async compute off: the legacy strategy now puts a UAV barrier across the frame
/// boundary, as between two passes of a frame. Clean in every strategy and order.
#[test]
fn a_uav_rewritten_each_frame_is_ordered_across_the_frame_boundary() {
    use fastframe::model::Order;
    let path = "tests/data/real_frames/uav_rewritten_every_frame.ron";
    for barriers in STRATEGIES {
        for order in [Order::Declaration, Order::FewerBarriers, Order::Overlap] {
            let mut rt = Runtime::from_scene(path).expect("fixture loads");
            rt.set_validation(true);
            {
                let mut s = rt.settings_mut();
                s.barriers = barriers;
                s.async_compute = false;
                s.order = order;
            }
            rt.run(6).expect("runs");
            let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
            assert!(found.is_empty(), "{barriers:?} {order:?}: {found:#?}");
        }
    }
}

/// FS-1 (V0512), barrier-spec A5: a transient a graphics copy rewrites, read by a compute pass
/// and a pixel shader at once, then written on compute first thing next frame. Under the
/// legacy strategy the pixel reader moved it to COMMON for the compute queue, which cannot
/// leave PIXEL_SHADER_RESOURCE, under the compute read; the phase is now entered without the
/// pixel state. Clean everywhere.
#[test]
fn a_pixel_read_beside_a_compute_read_leaves_a_state_compute_can_leave() {
    clean_everywhere("pixel_read_beside_compute_before_compute_write.ron");
}
