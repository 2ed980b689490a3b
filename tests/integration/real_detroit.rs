//! Detroit: Become Human's frame (`scenes/real/detroit_become_human.ron`) crosses queues at
//! almost every stage: a DMA engine uploads the constants, lights and a video frame that async
//! compute decodes; async compute copies last frame's skinned positions aside and skins this
//! frame's, which the graphics queue's motion vectors and shadows read; HBAO, the volumetrics
//! and SSR run on async compute against the graphics queue's depth mips and shadow maps, each
//! filtered against a history it keeps; SSR and TAA read last frame's image on the two queues
//! before a copy replaces it; and the graphics queue's object IDs are read last by async
//! compute's picking, whose result a DMA engine copies back. Those IDs are a transient that a
//! graphics draw activates each frame and a compute read uses last: under the legacy strategy
//! they stay in the compute read's state for the next frame's draw, which discards what they
//! held, rather than being moved to COMMON, one transition a frame that nothing needs (EB-4,
//! EB-5; `tests/data/real_frames/transient_read_last_on_compute.ron`).

use bevy_ecs::entity::Entity;
use bevy_ecs::name::Name;
use fastframe::Runtime;
use fastframe::barrier::{LegacyBarrier, ResourceStates as S};
use fastframe::device::QueueId;
use fastframe::model::BarrierMode;

use super::real_frames::{clean_everywhere, ran_with_edges};

const SCENE: &str = "scenes/real/detroit_become_human.ron";

/// The entity named `name` in `rt`'s world.
fn entity(rt: &mut Runtime, name: &str) -> Entity {
    (rt.world.query::<(Entity, &Name)>().iter(&rt.world))
        .find(|(_, n)| n.as_str() == name)
        .map(|(e, _)| e)
        .expect(name)
}

/// The legacy transitions of `resource` in `list`, as (before, after) states.
fn transitions(list: &[LegacyBarrier<Entity>], resource: Entity) -> Vec<(S, S)> {
    (list.iter())
        .filter_map(|b| match b {
            LegacyBarrier::Transition {
                resource: r,
                before,
                after,
                ..
            } if *r == resource => Some((*before, *after)),
            _ => None,
        })
        .collect()
}

/// `scene` run `frames` frames under the legacy strategy (its `console-2013` profile).
fn legacy(scene: &str, frames: u64) -> Runtime {
    let mut rt = Runtime::from_scene(scene).expect("loads");
    rt.settings_mut().barriers = BarrierMode::Legacy;
    rt.run(frames).expect("runs");
    rt
}

/// EB-4, EB-5 (V0512, V0513 if the next frame's draw were not ordered after the picking): a
/// transient render target the graphics queue draws and async compute reads last. Legacy: the
/// next frame's draw takes it from the compute read's NON_PIXEL_SHADER_RESOURCE, and the
/// compute queue leaves it there; the handover within the frame still goes through COMMON.
#[test]
fn a_transient_read_last_on_compute_is_left_for_its_next_activation() {
    let scene = "tests/data/real_frames/transient_read_last_on_compute.ron";
    clean_everywhere("transient_read_last_on_compute.ron");
    let mut rt = legacy(scene, 3);
    let ids = entity(&mut rt, "ids");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let (draw, pick) = (at("draw"), at("pick"));
    assert_eq!(
        transitions(&steady.legacy_after[pick], ids),
        [],
        "{:?}",
        steady.legacy_after[pick]
    );
    assert_eq!(
        transitions(&steady.legacy_before[draw], ids),
        [(S::NON_PIXEL_SHADER_RESOURCE, S::RENDER_TARGET)],
        "{:?}",
        steady.legacy_before[draw]
    );
    assert_eq!(
        transitions(&steady.legacy_after[draw], ids),
        [(S::RENDER_TARGET, S::COMMON)],
        "{:?}",
        steady.legacy_after[draw]
    );
}

/// The whole frame validates clean in every strategy, async compute on and off, on its own
/// profile and on `console-2020` (where the enhanced strategy and transient aliasing run).
#[test]
fn the_frame_validates_clean_in_every_strategy_on_both_profiles() {
    for profile in ["console-2013", "console-2020"] {
        for barriers in super::real_frames::STRATEGIES {
            for async_compute in [true, false] {
                let mut rt = Runtime::from_scene(SCENE).expect("loads");
                rt.set_validation(true);
                {
                    let mut s = rt.settings_mut();
                    s.profile = profile.to_owned();
                    s.barriers = barriers;
                    s.async_compute = async_compute;
                }
                rt.run(6).expect("runs");
                let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
                assert!(
                    found.is_empty(),
                    "{profile} {barriers:?} async={async_compute}: {found:#?}"
                );
            }
        }
    }
}

/// Every cross-queue hand-over the study's order implies is an edge of the compiled graph:
/// the DMA uploads before async compute's decode and clustering, the skinned positions before
/// the graphics queue's motion vectors, the depth texture's half-resolution mip before HBAO,
/// HBAO before the forward pass, the shadows before the volumetrics, the volumetrics before
/// the transparent surfaces, SSR's read of last frame's image before the copy that replaces
/// it, and the picking before its copy back on the DMA engine.
#[test]
fn work_crosses_queues_where_the_study_hands_it_over() {
    let rt = ran_with_edges(
        SCENE,
        &[
            ("video_upload", "video_decode"),
            ("skin_copy", "skinning"),
            ("skinning", "motion_vectors_skinned"),
            ("depth_texture_half", "hbao_compute"),
            ("hbao_compute", "forward_all_geometry"),
            ("vol_final_integration", "transparency"),
            ("ssr_trace", "ssr_composite"),
            ("taa", "taa_history_store"),
            ("object_picking", "picking_copy_back"),
        ],
    );
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let queue = |name: &str| g.passes[at(name)].queue;
    assert!(matches!(queue("ssr_trace"), QueueId::Compute { .. }));
    assert_eq!(queue("taa"), QueueId::Graphics);
    assert!(matches!(queue("picking_copy_back"), QueueId::Dma { .. }));
    // The copy that replaces last frame's image runs after SSR read it on async compute,
    // through the composite's wait if not directly.
    let reaches = |from: usize, to: usize| {
        let mut seen = vec![false; g.passes.len()];
        let mut stack = vec![from];
        while let Some(p) = stack.pop() {
            if p == to {
                return true;
            }
            for &(a, b) in &g.edges {
                if a == p && !seen[b] {
                    seen[b] = true;
                    stack.push(b);
                }
            }
        }
        false
    };
    assert!(reaches(at("ssr_trace"), at("taa_history_store")));
}

/// FS-1, EB-6: the graphics queue draws the depth texture's low-resolution mip while async
/// compute's HBAO may read the half-resolution one: under legacy barriers the draw's
/// transitions name mip 2 alone, never the mips compute reads; and the object IDs the picking
/// reads last on async compute stay there for the next frame's draw (EB-5).
#[test]
fn the_low_resolution_depth_is_drawn_without_touching_the_mip_compute_reads() {
    let mut rt = legacy(SCENE, 3);
    let depth_texture = entity(&mut rt, "depth_texture");
    let ids = entity(&mut rt, "object_ids");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let low = at("depth_texture_low");
    let on_depth: Vec<_> = (steady.legacy_before[low].iter())
        .chain(&steady.legacy_after[low])
        .filter_map(|b| match b {
            LegacyBarrier::Transition {
                resource,
                subresource,
                ..
            } if *resource == depth_texture => Some(*subresource),
            _ => None,
        })
        .collect();
    assert!(!on_depth.is_empty());
    assert!(
        on_depth.iter().all(|&s| s == 2),
        "{:?}",
        steady.legacy_before[low]
    );
    assert_eq!(
        transitions(&steady.legacy_after[at("object_picking")], ids),
        []
    );
}
