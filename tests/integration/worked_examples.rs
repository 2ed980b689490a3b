//! The seed's worked example EB-9(a) end to end, on `scenes/eb9a_srv_to_rtv.ron` with compute
//! on the graphics queue (as in the seed): the texture goes from shader resource (read by a
//! compute pass) back to render target every frame. The legacy transition, translated by the
//! driver (EB-10), drains vertex and compute work; the enhanced barrier drains compute only.

use fastframe::Runtime;
use fastframe::model::BarrierMode;
use fastframe::report::RunStats;

fn flushes(mode: BarrierMode) -> (u64, u64, u64) {
    let mut rt = Runtime::from_scene("scenes/eb9a_srv_to_rtv.ron").expect("scene loads");
    rt.set_validation(true);
    {
        let mut s = rt.settings_mut();
        s.barriers = mode;
        s.async_compute = false;
    }
    rt.run(20).expect("runs");
    assert!(
        rt.diagnostics().is_empty(),
        "{:?}",
        rt.diagnostics().first()
    );
    let h = rt.world.resource::<RunStats>().hardware;
    (h.vs_partial_flushes, h.cs_partial_flushes, h.idles)
}

#[test]
fn eb9a_legacy_drains_vertex_and_compute_enhanced_compute_only() {
    let (legacy_vs, legacy_cs, _) = flushes(BarrierMode::Legacy);
    let (enhanced_vs, enhanced_cs, _) = flushes(BarrierMode::Enhanced);
    assert!(
        legacy_vs >= 19,
        "legacy drains vertex work every frame ({legacy_vs})"
    );
    assert!(legacy_cs >= 19);
    assert_eq!(enhanced_vs, 0, "enhanced never drains vertex work");
    assert!(
        enhanced_cs >= 19,
        "enhanced drains the compute read every frame ({enhanced_cs})"
    );
}

#[test]
fn conservative_baseline_idles_where_enhanced_does_not() {
    let (_, _, conservative_idle) = flushes(BarrierMode::Conservative);
    let (_, _, enhanced_idle) = flushes(BarrierMode::Enhanced);
    assert!(
        conservative_idle > 10 * enhanced_idle.max(1),
        "{conservative_idle} vs {enhanced_idle}"
    );
}

fn deferred(mode: BarrierMode) -> fastframe::report::SyncCounts {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("scene loads");
    rt.settings_mut().barriers = mode;
    rt.run(120).expect("runs");
    rt.world.resource::<RunStats>().hardware
}

#[test]
fn on_deferred_enhanced_flushes_less_than_legacy_and_legacy_less_than_conservative() {
    let total = |h: fastframe::report::SyncCounts| {
        h.vs_partial_flushes + h.ps_partial_flushes + h.cs_partial_flushes + h.idles
    };
    let (e, l, c) = (
        deferred(BarrierMode::Enhanced),
        deferred(BarrierMode::Legacy),
        deferred(BarrierMode::Conservative),
    );
    assert!(
        total(e) < total(l),
        "enhanced {} vs legacy {}",
        total(e),
        total(l)
    );
    assert!(
        total(l) < total(c),
        "legacy {} vs conservative {}",
        total(l),
        total(c)
    );
    // EB-9(d): transients are activated with DISCARD and no global stall by enhanced barriers,
    // with an aliasing barrier (a full idle each) by legacy ones.
    assert!(e.discards > 0 && l.discards == 0);
    assert!(
        l.idles > 5 * e.idles.max(1),
        "legacy idles {} vs enhanced {}",
        l.idles,
        e.idles
    );
}

#[test]
fn eb9b_uav_barriers_legacy_drain_every_shader_stage_enhanced_compute_only() {
    let run = |mode: BarrierMode| {
        let mut rt = Runtime::from_scene("scenes/eb9b_mip_chain.ron").expect("scene loads");
        rt.set_validation(true);
        rt.settings_mut().barriers = mode;
        rt.run(20).expect("runs");
        assert!(
            rt.diagnostics().is_empty(),
            "{mode:?}: {:?}",
            rt.diagnostics().first()
        );
        rt.world.resource::<RunStats>().hardware
    };
    let (l, e) = (run(BarrierMode::Legacy), run(BarrierMode::Enhanced));
    // Two UAV barriers per frame between the three dispatches.
    assert!(
        l.vs_partial_flushes >= 40 && l.ps_partial_flushes >= 40 && l.cs_partial_flushes >= 40,
        "{l:?}"
    );
    // Enhanced: no vertex flush at all, and the only pixel flush is the one per frame where
    // the next frame's first dispatch overwrites what the draw sampled (20 frames).
    assert_eq!(e.vs_partial_flushes, 0, "{e:?}");
    assert!(e.ps_partial_flushes <= 20, "{e:?}");
    assert!(e.cs_partial_flushes >= 40, "{e:?}");
}

/// EB-9(c) on `scenes/eb9c_copy_to_self.ron`: a tile copied between two regions of one
/// texture. Enhanced barriers put the atlas in COMMON for the copy, so it is its own source
/// and destination: one texture, no temporary. Legacy states cannot express it, and
/// intersecting regions are refused when the scene loads.
#[test]
fn eb9c_copy_to_self_needs_no_temporary_texture_and_refuses_overlap() {
    use fastframe::barrier::{Access, Layout, Sync};
    use fastframe::plan::BarrierPlan;

    let path = "scenes/eb9c_copy_to_self.ron";
    let mut rt = Runtime::from_scene(path).expect("scene loads");
    rt.set_validation(true);
    rt.run(20).expect("runs");
    assert!(
        rt.diagnostics().is_empty(),
        "{:?}",
        rt.diagnostics().first()
    );
    let copy = (rt.graph().passes.iter())
        .position(|p| p.name == "duplicate_tile")
        .expect("the copy pass is compiled");
    let graph = rt.graph();
    let atlas = graph.uses_of(&graph.passes[copy])[0].resource;
    let plan = rt.world.resource::<BarrierPlan>();
    let this = rt.world.resource::<fastframe::plan::PlanFrame>().0;
    let before = plan.groups(this, copy).0;
    let into_copy: Vec<_> = (before.textures.iter())
        .filter(|b| b.resource == atlas)
        .collect();
    assert_eq!(into_copy.len(), 1, "{before:?}");
    let b = into_copy[0];
    assert_eq!(
        (b.layout_before, b.layout_after),
        (Layout::RenderTarget, Layout::Common)
    );
    assert_eq!(
        (b.sync_before, b.sync_after),
        (Sync::RENDER_TARGET, Sync::COPY)
    );
    assert_eq!(b.access_after, Access::COPY_SOURCE | Access::COPY_DEST);
    // The pass uses nothing but the atlas: no temporary texture in the frame.
    assert!((rt.graph().uses_of(&rt.graph().passes[copy]).iter()).all(|u| u.resource == atlas));

    let mut legacy = Runtime::from_scene(path).expect("scene loads");
    legacy.settings_mut().barriers = BarrierMode::Legacy;
    let err = legacy
        .run(2)
        .expect_err("legacy states cannot copy a texture onto itself");
    assert!(err.to_string().contains("EB-9c"), "{err}");

    let text = std::fs::read_to_string(path).expect("scene reads");
    let overlapping = text.replace("to: (origin: (512, 0)", "to: (origin: (128, 64)");
    assert_ne!(overlapping, text);
    let err = Runtime::from_str(&overlapping, "overlap.ron")
        .err()
        .expect("intersecting regions are refused");
    let message = err.to_string();
    assert!(
        message.contains("overlap.ron:")
            && message.contains("EB-9c")
            && message.contains("intersect"),
        "{message}"
    );
}

/// EB-9c under the legacy strategy: legacy states cannot make one texture both copy source
/// and destination, so planning fails with a typed error naming the pass, by its id in the
/// error and by its name in the message.
#[test]
fn copy_to_self_cannot_be_planned_with_legacy_states() {
    let mut rt = Runtime::from_scene("scenes/eb9c_copy_to_self.ron").expect("scene loads");
    rt.settings_mut().barriers = fastframe::model::BarrierMode::Legacy;
    let err = rt
        .run(2)
        .expect_err("legacy states cannot express a copy onto itself");
    let fastframe::RuntimeError::Plan {
        message, source, ..
    } = &err
    else {
        panic!("not a planning error: {err}");
    };
    let fastframe::plan::PlanError::LegacyCopyToSelf { pass } = source else {
        panic!("not a copy to self: {source:?}");
    };
    let name = rt
        .world
        .get::<bevy_ecs::name::Name>(*pass)
        .expect("the pass");
    assert_eq!(name.as_str(), "duplicate_tile");
    assert!(
        message.starts_with("pass duplicate_tile copies a texture onto itself"),
        "{message}"
    );
    assert_eq!(err.exit_code(), 1);
}
