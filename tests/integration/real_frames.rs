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
//! read by both queues at the start of the frame (FS-1, EB-11); and a whole frame (Metro
//! Exodus) that rewrites what it keeps across frames after the reads of the version before,
//! on either queue. `scenes/gpu_driven.ron` puts the
//! first of them together in one frame. The later patterns are in `real_frame_faults.rs`.

use fastframe::Runtime;
use fastframe::model::BarrierMode;

pub(crate) const STRATEGIES: [BarrierMode; 3] = [
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

/// `scene` after one frame, once each `(before, after)` pair of pass names is checked to be
/// an edge of its compiled graph (the later pass is ordered after the earlier one).
pub(crate) fn ran_with_edges(scene: &str, edges: &[(&str, &str)]) -> Runtime {
    let mut rt = Runtime::from_scene(scene).expect("loads");
    rt.run(1).expect("runs");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    for &(before, after) in edges {
        assert!(
            g.edges.contains(&(at(before), at(after))),
            "{scene}: {before} -> {after}: {:?}",
            g.edges
        );
    }
    rt
}

/// `scene` validates clean in every strategy, async compute on and off.
pub(crate) fn clean_everywhere(scene: &str) {
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

/// History in a whole frame: Metro Exodus reads what it keeps across frames before rewriting
/// it, on both queues. Each rewrite depends on the reads of the version before it: the
/// imposter atlas redrawn after the G-buffer sampled it, last frame's image given its sky
/// after global illumination read it and replaced after TAA and the water read it, the
/// shadow atlas's local tiles redrawn on graphics after the LPV read it on async compute
/// (a fence); and the water reads the ripples async compute stored (a fence).
#[test]
fn a_frame_rewrites_what_it_keeps_after_reading_it_on_either_queue() {
    let rt = ran_with_edges(
        "scenes/real/metro_exodus_4a.ron",
        &[
            ("gbuffer", "imposter_update"),
            ("global_illumination", "skydome"),
            ("taa", "taa_history_store"),
            ("water", "taa_history_store"),
            ("lpv_inject_propagate", "local_shadow_0"),
            ("ripples_store", "water"),
        ],
    );
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    assert_ne!(
        g.passes[at("lpv_inject_propagate")].queue,
        g.passes[at("local_shadow_0")].queue
    );
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
