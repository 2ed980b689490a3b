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
