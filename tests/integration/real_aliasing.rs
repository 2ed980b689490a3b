//! Transient aliasing on real frames (issue 19): with async compute, a release is not one pass
//! for every queue. A queue already ordered after a transient's uses takes its bytes though
//! another queue, not yet fenced after them, still counts them held (EB-9d on one queue, a
//! fence across queues, FN-2); and transients whose hand-over no fence orders may not share
//! bytes even when their uses never meet at one pass (V0814), so the lower bound counts the
//! heaviest set of transients no two of which may share.

use fastframe::Runtime;
use fastframe::model::BarrierMode;
use fastframe::plan::AliasPlan;

/// The aliasing plan of `path` after `frames` validated frames under `barriers`, checked
/// clean.
fn plan(path: &str, barriers: BarrierMode, async_compute: bool, frames: u64) -> AliasPlan {
    let mut rt = Runtime::from_scene(path).expect("scene loads");
    rt.set_validation(true);
    {
        let mut s = rt.settings_mut();
        s.barriers = barriers;
        s.async_compute = async_compute;
    }
    rt.run(frames).expect("runs");
    let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    assert!(
        found.is_empty(),
        "{path} {barriers:?} async={async_compute}: {found:#?}"
    );
    rt.world.resource::<AliasPlan>().clone()
}

/// The most bytes of `plan`'s transients in use at one pass, first use to last: the bound
/// as it was before queues were told apart.
fn in_use_at_one_pass(plan: &AliasPlan) -> u64 {
    (0..plan.passes)
        .map(|x| {
            (plan.placements.iter())
                .filter(|p| p.first <= x && x <= p.last)
                .map(|p| p.bytes)
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0)
}

/// The heaviest set of `cand` (largest first) that pairwise may not share bytes, by
/// exhaustive search: independent of the planner's own search.
fn heaviest_by_search(plan: &AliasPlan, cand: &[usize], held: u64, best: &mut u64) {
    *best = (*best).max(held);
    for (k, &i) in cand.iter().enumerate() {
        let rest: u64 = cand[k..].iter().map(|&i| plan.placements[i].bytes).sum();
        if held + rest <= *best {
            return;
        }
        let next: Vec<usize> = (cand[k + 1..].iter().copied())
            .filter(|&j| plan.lifetimes_meet(i, j))
            .collect();
        heaviest_by_search(plan, &next, held + plan.placements[i].bytes, best);
    }
}

/// Every bundled real frame's heap is within 8% of its lower bound, placed within the
/// compiler's per-use budget (Death Stranding's is 7.4% over, Unreal 5's 4.5%, the others at
/// it; with one release for every queue Death Stranding's was 22% over the bytes in use at
/// one pass, Rise of the Tomb Raider's 21%, Unreal 5's 17%, Doom Eternal's 6%). Where async
/// compute passes are fenced to the graphics queue late (Rise of the Tomb Raider's
/// volumetrics, Doom Eternal's, Resident Evil 2's and Red Dead Redemption 2's opening
/// compute, Metro Exodus's volumetrics beside the graphics queue's lighting, Detroit: Become
/// Human's SSR and volumetrics beside its transparent surfaces), the bound is
/// above the bytes in use at one pass, and the heap is the bound; elsewhere the bound is
/// those bytes, within 1%. The bound is the heaviest set of transients that may not share,
/// as an exhaustive search finds it.
#[test]
fn real_frames_place_their_transients_near_the_lower_bound() {
    let mut scenes: Vec<_> = std::fs::read_dir("scenes/real")
        .expect("scenes/real/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 7, "{scenes:?}");
    for scene in &scenes {
        let path = scene.to_str().expect("a UTF-8 path");
        let plan = plan(path, BarrierMode::Enhanced, true, 2);
        let (peak, bound) = (plan.peak_bytes, plan.lower_bound_bytes);
        assert!(bound >= in_use_at_one_pass(&plan), "{path}");
        assert!(
            peak as f64 <= 1.08 * bound as f64,
            "{path}: peak {peak} against a lower bound of {bound} ({:.3})",
            peak as f64 / bound as f64
        );
        let mut order: Vec<usize> = (0..plan.placements.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(plan.placements[i].bytes));
        let mut heaviest = 0;
        heaviest_by_search(&plan, &order, 0, &mut heaviest);
        assert_eq!(bound, heaviest, "{path}");
        let in_use = in_use_at_one_pass(&plan);
        if ["rottr", "doom_eternal", "re2", "rdr2", "metro", "detroit"]
            .iter()
            .any(|f| path.contains(f))
        {
            assert!(bound > in_use, "{path}");
            assert_eq!(peak, bound, "{path}");
        } else {
            // Every other frame can reach the bytes in use at one pass, within 1%.
            assert!(
                bound as f64 <= 1.01 * in_use as f64,
                "{path}: bound {bound}, in use at one pass {in_use}"
            );
        }
    }
}

/// EB-9d, V0814: async compute opens the frame unfenced to the graphics queue's end, so its
/// transient shares with neither end; the graphics queue's first transient takes the bytes
/// of its last all the same, and the heap is the lower bound. Clean under every strategy,
/// with async compute on and off.
#[test]
fn the_graphics_queue_takes_bytes_async_compute_still_holds() {
    let path = "tests/data/real_frames/async_start_beside_graphics_end.ron";
    for barriers in [
        BarrierMode::Enhanced,
        BarrierMode::Legacy,
        BarrierMode::Conservative,
    ] {
        for async_compute in [true, false] {
            let plan = plan(path, barriers, async_compute, 6);
            assert_eq!(plan.placements.len(), 4);
            assert_eq!(
                plan.peak_bytes, plan.lower_bound_bytes,
                "{barriers:?} async={async_compute}: {plan:#?}"
            );
        }
    }
    let plan = plan(path, BarrierMode::Enhanced, true, 6);
    // In order of first use: f, s, g, e.
    let [f, s, g, e] = [0, 1, 2, 3].map(|i| plan.placements[i]);
    let span = |p: &fastframe::plan::AliasPlacement| p.offset..p.offset + p.bytes;
    let overlap = |a, b| {
        let (a, b) = (span(a), span(b));
        a.start < b.end && b.start < a.end
    };
    assert!(overlap(&f, &e), "{plan:#?}");
    for other in [&f, &g, &e] {
        assert!(!overlap(&s, other), "{plan:#?}");
    }
    assert_eq!(plan.lower_bound_bytes, f.bytes + g.bytes + s.bytes);
}
