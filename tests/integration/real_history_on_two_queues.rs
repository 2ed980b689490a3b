//! God of War's frame (`scenes/real/god_of_war_2018.ron`) keeps two things across frames that
//! both queues read. Its reflection cube is drawn on the graphics queue, read by GI on async
//! compute at the end of the frame and by the Forward+ shading on the graphics queue at the
//! start of the next, before the sky rewrites it: one read phase that spans the frame boundary
//! on two queues. Its wind field is stepped on async compute and stored back by a copy there,
//! then read by the particles on compute and by vertex shading on graphics. The cube must be
//! read in one layout by both queues (FS-1: a layout change is a write, and no fence orders
//! the compute read of one frame against the graphics read of the next), and every rewrite
//! must wait for the reads of the version before it.

use bevy_ecs::entity::Entity;
use bevy_ecs::name::Name;
use fastframe::Runtime;
use fastframe::barrier::Layout;
use fastframe::device::QueueId;
use fastframe::model::BarrierMode;

const SCENE: &str = "scenes/real/god_of_war_2018.ron";

/// The entity named `name` in `rt`'s world.
fn entity(rt: &mut Runtime, name: &str) -> Entity {
    (rt.world.query::<(Entity, &Name)>().iter(&rt.world))
        .find(|(_, n)| n.as_str() == name)
        .map(|(e, _)| e)
        .expect(name)
}

/// Each rewrite of what the frame keeps waits for the reads of the version before it, on
/// either queue, and each read of this frame's version waits for its write across queues.
#[test]
fn kept_resources_are_rewritten_after_their_reads_on_either_queue() {
    let rt = super::real_frames::ran_with_edges(
        SCENE,
        &[
            ("forward_plus_shading", "sky_cubemap"),
            ("sky_cubemap", "gi_compute"),
            ("wind_motors", "wind_store"),
            ("wind_store", "particles_simulate"),
            ("wind_store", "depth_prepass"),
            ("taa", "taa_history_store"),
            ("particles_compact", "late_particles"),
        ],
    );
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let queue = |name: &str| g.passes[at(name)].queue;
    assert_eq!(queue("sky_cubemap"), QueueId::Graphics);
    assert_eq!(queue("forward_plus_shading"), QueueId::Graphics);
    assert!(matches!(queue("gi_compute"), QueueId::Compute { .. }));
    assert!(matches!(queue("wind_store"), QueueId::Compute { .. }));
}

/// FS-1, EB-11: under enhanced barriers the cube stays in SHADER_RESOURCE from the sky's write
/// to the next rewrite: the graphics queue moves it there after drawing it, async compute
/// reads it without changing its layout and leaves no barrier behind, and the next frame's
/// graphics read declares its access without a layout change. Validated clean.
#[test]
fn the_reflection_cube_is_read_in_one_layout_across_the_frame_boundary() {
    let mut rt = Runtime::from_scene(SCENE).expect("loads");
    rt.set_validation(true);
    {
        let mut s = rt.settings_mut();
        s.profile = "console-2020".to_owned();
        s.barriers = BarrierMode::Enhanced;
    }
    rt.run(6).expect("runs");
    let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    assert!(found.is_empty(), "{found:#?}");
    let cube = entity(&mut rt, "env_cube");
    let g = rt.graph();
    let at = |name: &str| g.passes.iter().position(|p| p.name == name).expect(name);
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let on_cube = |slot: fastframe::barrier::BarrierGroupRef<'_, Entity>| {
        (slot.textures.iter())
            .filter(|t| t.resource == cube)
            .map(|t| (t.layout_before, t.layout_after))
            .collect::<Vec<_>>()
    };
    let gi = at("gi_compute");
    let compute_side = [
        on_cube(steady.barriers.before(gi)),
        on_cube(steady.barriers.after(gi)),
    ];
    assert!(
        compute_side.iter().flatten().all(|(b, a)| b == a),
        "async compute changed the cube's layout: {compute_side:?}"
    );
    assert!(
        on_cube(steady.barriers.after(gi)).is_empty(),
        "{compute_side:?}"
    );
    let sky = at("sky_cubemap");
    assert_eq!(
        on_cube(steady.barriers.after(sky)),
        [(Layout::RenderTarget, Layout::ShaderResource)]
    );
    let shading = at("forward_plus_shading");
    assert!(
        (on_cube(steady.barriers.before(shading)).iter()).all(|(b, a)| b == a),
        "{:?}",
        on_cube(steady.barriers.before(shading))
    );
}

/// FS-1, barrier-spec B: under the legacy strategy (the scene's console-2013) the cube's read
/// phase spans the frame boundary too. The sky's pass moves it into
/// NON_PIXEL_SHADER_RESOURCE after drawing it, GI on async compute and the next frame's
/// shading read it there, and the next sky moves it back to RENDER_TARGET: two transitions a
/// frame, both on the graphics queue, none through COMMON. Validated clean.
#[test]
fn under_legacy_the_cube_is_entered_once_for_both_queues_reads() {
    use fastframe::barrier::{LegacyBarrier, ResourceStates as S};
    let mut rt = Runtime::from_scene(SCENE).expect("loads");
    rt.set_validation(true);
    rt.run(6).expect("runs");
    let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    assert!(found.is_empty(), "{found:#?}");
    let cube = entity(&mut rt, "env_cube");
    let g = rt.graph();
    let name = |i: usize| g.passes[i].name.clone();
    let plan = rt.world.resource::<fastframe::plan::BarrierPlan>();
    let steady = plan.frames.last().expect("a plan");
    let on_cube = |side: &str, lists: &[Vec<LegacyBarrier<Entity>>]| {
        (lists.iter().enumerate())
            .flat_map(|(i, list)| list.iter().map(move |b| (i, b)))
            .filter_map(|(i, b)| match b {
                LegacyBarrier::Transition {
                    resource,
                    before,
                    after,
                    ..
                } if *resource == cube => Some((side.to_owned(), name(i), *before, *after)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let mut moves = on_cube("before", &steady.legacy_before);
    moves.extend(on_cube("after", &steady.legacy_after));
    let sky = "sky_cubemap".to_owned();
    assert_eq!(
        moves,
        [
            (
                "before".to_owned(),
                sky.clone(),
                S::NON_PIXEL_SHADER_RESOURCE,
                S::RENDER_TARGET
            ),
            (
                "after".to_owned(),
                sky,
                S::RENDER_TARGET,
                S::NON_PIXEL_SHADER_RESOURCE
            ),
        ]
    );
}
