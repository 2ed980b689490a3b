//! Patterns of real frames (issue 15), each a scene in `tests/data/real_frames/` that must
//! validate clean under every barrier strategy, with async compute on and off: a UAV cleared
//! and then written in one pass (FS-3), a texture a vertex shader reads (FS-3), a dispatch on
//! the graphics queue with its stages left to the default (barrier-spec A1), a buffer that is
//! both index buffer and indirect arguments (barrier-spec B), transients that nothing should
//! decompress after their last use (EB-4, EB-5), textures and depth buffers read by two
//! queues at once (FS-1), reads shared with and rewrites by a DMA engine (barrier-spec A5), a
//! DMA upload into one subresource of an array (EB-6), a compute write read by pixel
//! shaders (barrier-spec B), a DMA readback of a transient compute activated (EB-5, EB-9d),
//! a compute write read by both queues at the end of the frame (FS-1), render targets
//! without DCC read on the graphics queue only (EB-4), and textures that keep their contents
//! read by both queues at the start of the frame (FS-1, EB-11). `scenes/gpu_driven.ron` puts the
//! first of them together in one frame.

use fastframe::Runtime;
use fastframe::model::BarrierMode;

const STRATEGIES: [BarrierMode; 3] = [
    BarrierMode::Enhanced,
    BarrierMode::Legacy,
    BarrierMode::Conservative,
];

/// The diagnostics of `frames` frames of `scene` (in `tests/data/real_frames/`).
fn diagnostics(
    scene: &str,
    barriers: BarrierMode,
    async_compute: bool,
    frames: u64,
) -> Vec<String> {
    let path = format!("tests/data/real_frames/{scene}");
    let mut rt = Runtime::from_scene(&path).expect("fixture loads");
    rt.set_validation(true);
    {
        let mut s = rt.settings_mut();
        s.barriers = barriers;
        s.async_compute = async_compute;
    }
    rt.run(frames).expect("runs");
    rt.diagnostics().iter().map(|d| d.to_string()).collect()
}

/// `scene` validates clean in every strategy, async compute on and off.
fn clean_everywhere(scene: &str) {
    for barriers in STRATEGIES {
        for async_compute in [true, false] {
            let found = diagnostics(scene, barriers, async_compute, 6);
            assert!(
                found.is_empty(),
                "{scene} {barriers:?} async={async_compute}:\n{}",
                found[..found.len().min(4)].join("\n")
            );
        }
    }
}

/// FS-3 (V0503): a UAV clear and the write after it in the same pass are both writes; the
/// pass orders them with a barrier, and the barriers at its boundary cover the clear.
#[test]
fn uav_clear_is_ordered_before_the_write_of_its_pass() {
    clean_everywhere("uav_clear_then_write.ron");
}

/// FS-3 (V0501): a read declared on VERTEX_SHADING is bound on the vertex stage, where the
/// planned barrier made the compute write visible, not on the pixel stage.
#[test]
fn vertex_shading_read_is_bound_on_the_vertex_stage() {
    clean_everywhere("vertex_shader_read.ron");
}

/// Barrier-spec A1: a dispatch's uses are compute shading on any queue, so a graphics-queue
/// dispatch needs no `stages` to validate (V0501, V0503 otherwise).
#[test]
fn graphics_queue_dispatch_defaults_to_compute_shading() {
    clean_everywhere("graphics_dispatch.ron");
}

/// Barrier-spec B: a legacy state combines read states, so a buffer a draw reads as its
/// indirect arguments and as its index buffer is INDEX_BUFFER | INDIRECT_ARGUMENT, not the
/// state of whichever use came first (V0804 for the other, and V0501 against the dispatch
/// that wrote it).
#[test]
fn legacy_state_combines_the_reads_of_one_pass() {
    clean_everywhere("index_and_indirect.ron");
}

/// EB-4, EB-5: a transient is discarded by its next activation, so the legacy strategy leaves
/// it where its last use did rather than decompress it on the way to COMMON. Per frame the G-
/// buffer's two colour targets decompress for lighting's reads and the back buffer for
/// presentation (FS-4): three, as under the conservative strategy; the depth buffer, which
/// the decals test last, is not decompressed at all.
#[test]
fn legacy_leaves_a_transient_compressed_after_its_last_use() {
    clean_everywhere("transient_targets.ron");
    for barriers in [BarrierMode::Legacy, BarrierMode::Conservative] {
        let mut rt = Runtime::from_scene("tests/data/real_frames/transient_targets.ron")
            .expect("fixture loads");
        rt.settings_mut().barriers = barriers;
        rt.run(10).expect("runs");
        let json = rt.summary().to_json();
        assert_eq!(json["sync"]["decompressions"], 30, "{barriers:?}");
    }
}

/// FS-1, EB-11 (V0513, V0804): a texture read by the graphics queue and by async compute in
/// one read phase. Legacy: the writer moves it into the phase's combined read state before
/// its fence, so no reader transitions it while the other queue reads. Conservative: a queue
/// that reads a texture another queue moved into the layout declares its own access first.
#[test]
fn a_texture_read_by_two_queues_is_not_transitioned_under_a_reader() {
    clean_everywhere("shared_read.ron");
}

/// EB-11 (A9, V0801): a DMA engine writes a texture every frame and the graphics queue
/// samples it. A DMA engine issues no texture barrier, so the graphics queue's next barrier
/// names as AccessBefore only what its own last barrier declared, not the copy's access.
#[test]
fn a_dma_upload_read_by_graphics_follows_the_readers_declared_access() {
    clean_everywhere("dma_upload_read.ron");
}

/// FS-1, FS-2, barrier-spec A5 (V0512, V0403, V0521): a texture a DMA copy and a compute
/// pass read at once is read by both in COMMON, which the writer moves it into, so no reader
/// transitions it under the copy; the history the copy rewrites is written back for the next
/// frame's reader on another queue.
#[test]
fn a_read_shared_with_a_dma_engine_stays_in_common() {
    clean_everywhere("dma_shared_read.ron");
}

/// FS-1, barrier-spec A5 (V0512): a kept texture whose frame ends with a read by two queues
/// and begins with a DMA write is read in COMMON at the end of the frame, so no reader moves
/// it there under the other queue's read.
#[test]
fn a_read_before_the_next_frames_dma_write_stays_in_common() {
    clean_everywhere("dma_rewrite_after_shared_read.ron");
}

/// FS-1, FS-2 (V0511, V0512, V0513, V0521, V0403): history both queues read at the start of
/// the frame, then rewritten by a copy on a DMA engine. The readers share COMMON, which the
/// copy needs and no reader changes under the other; the copy's write is written back before
/// its fence and invalidated by each reader's queue in the next frame.
#[test]
fn history_two_queues_read_before_a_dma_rewrite_is_read_in_common() {
    clean_everywhere("dma_history_store.ron");
}

/// FS-1, barrier-spec B (V0511, V0512, V0513): a depth buffer a graphics-queue dispatch and
/// async compute read through shaders, then bound read-only for depth testing. Legacy: the
/// writer enters the phase's combined NON_PIXEL_SHADER_RESOURCE | DEPTH_READ state before
/// its fence, and no reader transitions it while the other queue reads.
#[test]
fn a_depth_buffer_read_on_two_queues_is_entered_once_by_its_writer() {
    clean_everywhere("depth_read_on_two_queues.ron");
    let mut rt =
        Runtime::from_scene("tests/data/real_frames/depth_read_on_two_queues.ron").expect("loads");
    rt.settings_mut().barriers = BarrierMode::Legacy;
    rt.run(2).expect("runs");
    use fastframe::barrier::{LegacyBarrier, ResourceStates as S};
    let depth = rt
        .world
        .query::<(bevy_ecs::entity::Entity, &bevy_ecs::name::Name)>()
        .iter(&rt.world)
        .find(|(_, n)| n.as_str() == "depth")
        .map(|(e, _)| e)
        .expect("depth");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let combined = S::NON_PIXEL_SHADER_RESOURCE | S::DEPTH_READ;
    assert!(
        (steady.legacy_after[at("prepass")].iter()).any(|b| matches!(
            b,
            LegacyBarrier::Transition { before: S::DEPTH_WRITE, after, .. } if *after == combined
        )),
        "{:?}",
        steady.legacy_after[at("prepass")]
    );
    for reader in ["reduce", "ao_pass", "shade"] {
        assert!(
            !(steady.legacy_before[at(reader)].iter()).any(
                |b| matches!(b, LegacyBarrier::Transition { resource, .. } if *resource == depth)
            ),
            "{reader}: {:?}",
            steady.legacy_before[at(reader)]
        );
    }
}

/// Resource versions: a pass that rewrites what earlier passes read in the same frame is a
/// new version, ordered after those reads (across queues too), not a cycle.
#[test]
fn a_resource_read_then_rewritten_in_one_frame_is_two_versions() {
    clean_everywhere("versions.ron");
    let rt = Runtime::from_scene("tests/data/real_frames/versions.ron").expect("loads");
    let mut rt = rt;
    rt.run(1).expect("runs");
    let g = rt.graph();
    let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["lighting", "bloom", "tonemap", "ui", "blit"]);
    // The UI's rewrite waits for bloom's read on the compute queue.
    let ui = &g.passes[3];
    assert_eq!(ui.waits, [1], "{:?}", g.passes);
}

/// History: reads of imported resources declared before the frame's first write see the
/// previous frame's version, and the frame's rewrite waits for the read.
#[test]
fn a_read_before_the_first_write_reads_the_previous_frame() {
    clean_everywhere("history.ron");
    let mut rt = Runtime::from_scene("tests/data/real_frames/history.ron").expect("loads");
    rt.run(1).expect("runs");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let (cull, build) = (at("cull"), at("hzb_build"));
    let (taa, update) = (at("taa"), at("history_update"));
    assert!(cull < build && taa < update, "{:?}", g.edges);
    // The frame's rewrites wait for the history reads...
    assert!(g.edges.contains(&(cull, build)), "{:?}", g.edges);
    assert!(g.edges.contains(&(taa, update)), "{:?}", g.edges);
    // The reads wait for the previous frame's rewrites through fences that other
    // dependencies already imply here; `plan::compile`'s unit tests check the wait itself.
}

/// FS-1, FS-2 (V0511, V0512, V0521): history read by two queues before the frame rewrites it,
/// and a texture two queues read before a DMA upload, under every strategy. Enhanced: the
/// plan's first frame moves the history into its shared read layout in a prologue every queue
/// is ordered after. Before the upload the readers share the DMA's COMMON layout (state), which
/// no reader changes under the other and a DMA engine needs (barrier-spec A5); a reader that
/// makes no transition after the upload's fence invalidates its caches with a barrier of its
/// own (legacy: an aliasing barrier).
#[test]
fn history_and_uploads_read_by_two_queues_are_never_transitioned_under_a_reader() {
    clean_everywhere("shared_history.ron");
    let mut rt = Runtime::from_scene("tests/data/real_frames/shared_history.ron").expect("loads");
    rt.run(1).expect("runs");
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    assert_eq!(
        plan.frames[0].prologue.len(),
        1,
        "{:?}",
        plan.frames[0].prologue
    );
    assert!(plan.frames[1..].iter().all(|f| f.prologue.is_empty()));
}

/// Bug 4 and subresource ranges (EB-6): a depth pyramid built mip by mip, shadow cascades in
/// the slices of one array and a bloom chain, each use naming its subresources through a view.
/// Planned per subresource, every strategy validates clean.
#[test]
fn passes_that_read_one_mip_and_write_another_are_planned_per_subresource() {
    for barriers in STRATEGIES {
        for async_compute in [true, false] {
            let found = diagnostics("subresources.ron", barriers, async_compute, 6);
            assert!(
                found.is_empty(),
                "{barriers:?} async={async_compute}:\n{}",
                found[..found.len().min(4)].join("\n")
            );
        }
    }
    // One barrier where parts agree: lighting takes the pyramid's mips 0-2 from the SRV layout
    // the next dispatch read them in, with one barrier over the three, and mip 3 from its
    // UAV layout with another.
    let mut rt = Runtime::from_scene("tests/data/real_frames/subresources.ron").expect("loads");
    rt.run(3).expect("runs");
    assert!(!rt.graph().parts.is_empty());
    let hzb = rt
        .world
        .query::<(bevy_ecs::entity::Entity, &bevy_ecs::name::Name)>()
        .iter(&rt.world)
        .find(|(_, n)| n.as_str() == "hzb")
        .map(|(e, _)| e)
        .expect("hzb");
    let g = rt.graph();
    let lighting = g
        .passes
        .iter()
        .position(|p| p.name == "lighting")
        .expect("lighting");
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let on_hzb: Vec<_> = (steady.barriers.before(lighting).textures.iter())
        .filter(|t| t.resource == hzb)
        .collect();
    let mut ranges: Vec<(u32, u32)> = (on_hzb.iter())
        .map(|t| (t.range.first_mip, t.range.mip_count))
        .collect();
    ranges.sort();
    assert_eq!(ranges, [(0, 3), (3, 1)], "{on_hzb:?}");
    // Each dispatch's barriers name its own mip.
    let hzb_2 = g
        .passes
        .iter()
        .position(|p| p.name == "hzb_2")
        .expect("hzb_2");
    let mips: Vec<(u32, u32)> = (steady.barriers.before(hzb_2).textures.iter())
        .filter(|t| t.resource == hzb)
        .map(|t| (t.range.first_mip, t.range.mip_count))
        .collect();
    assert!(
        !mips.is_empty() && mips.iter().all(|m| m.1 == 1),
        "{mips:?}"
    );
}

/// Barrier-spec A5, B, FS-1: a texture async compute writes and reads, then a pixel shader
/// reads on the graphics queue. A compute queue cannot name PIXEL_SHADER_RESOURCE, so the
/// compute writer moves it into NON_PIXEL_SHADER_RESOURCE before its fence, and the graphics
/// reader widens that to PIXEL_SHADER_RESOURCE after its wait, in the same SHADER_RESOURCE
/// layout, so no transition is a write under the compute read. Legacy refused to plan it
/// with async compute.
#[test]
fn a_compute_write_read_by_pixel_shaders_is_widened_on_the_graphics_queue() {
    clean_everywhere("compute_then_pixel_read.ron");
    let mut rt =
        Runtime::from_scene("tests/data/real_frames/compute_then_pixel_read.ron").expect("loads");
    rt.settings_mut().barriers = BarrierMode::Legacy;
    rt.run(2).expect("legacy plans it");
    use fastframe::barrier::{LegacyBarrier, ResourceStates as S};
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let states = |list: &[LegacyBarrier<bevy_ecs::entity::Entity>]| -> Vec<(S, S)> {
        (list.iter())
            .filter_map(|b| match b {
                LegacyBarrier::Transition { before, after, .. } => Some((*before, *after)),
                _ => None,
            })
            .collect()
    };
    assert!(
        states(&steady.legacy_after[at("blur")])
            .contains(&(S::UNORDERED_ACCESS, S::NON_PIXEL_SHADER_RESOURCE)),
        "{:?}",
        steady.legacy_after[at("blur")]
    );
    assert!(
        states(&steady.legacy_before[at("tonemap")])
            .contains(&(S::NON_PIXEL_SHADER_RESOURCE, S::PIXEL_SHADER_RESOURCE)),
        "{:?}",
        steady.legacy_before[at("tonemap")]
    );
}

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
