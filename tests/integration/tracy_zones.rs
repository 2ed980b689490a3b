//! The GPU zones Tracy is sent, checked as plain data against the run's own numbers: one
//! context per queue that ran something, a zone per pass named after it, barriers and waits
//! nested inside, nothing overlapping on a row, and times that agree with the summary.

use fastframe::Runtime;
use fastframe::device::{Device, QueueId};
use fastframe::report::tracy::{ZoneBuilder, ZoneKind, ZoneTree};
use fastframe::report::{Cause, RunStats};
use std::collections::{BTreeMap, BTreeSet};

fn zones_of(scene: &str, frames: u64) -> (Runtime, Vec<ZoneTree>) {
    let mut rt = Runtime::from_scene(scene).expect("scene loads");
    rt.world.resource_mut::<RunStats>().keep_timeline = true;
    rt.run(frames).expect("runs");
    let timeline = rt.world.resource::<RunStats>().timeline.clone();
    let mut b = ZoneBuilder::default();
    // In the pieces the runtime hands over, with a watermark as it would.
    let mut trees = Vec::new();
    for chunk in timeline.chunks(97) {
        b.add(chunk);
        let low = chunk.iter().map(|x| x.start_ns).min().unwrap_or(0);
        trees.extend(b.take(low));
    }
    trees.extend(b.take(u64::MAX));
    (rt, trees)
}

#[test]
fn deferred_zones_match_the_timeline_and_the_summary() {
    let (mut rt, trees) = zones_of("scenes/deferred.ron", 20);
    let summary = rt.summary();
    let times: BTreeMap<QueueId, _> = summary.stats.queue_time().into_iter().collect();
    let queues: BTreeSet<QueueId> = trees.iter().map(|t| t.queue).collect();
    assert_eq!(
        queues,
        times.keys().copied().collect(),
        "one context per queue that ran"
    );
    assert!(queues.len() >= 3, "deferred uses graphics, compute and DMA");
    // Every pass that ran on a queue has zones there, named after it (an instant one, the
    // end-of-frame fence, a zero-length zone).
    let device = rt.world.resource::<Device>();
    let timeline = &summary.stats.timeline;
    for &q in &queues {
        let ran: BTreeSet<&str> = (timeline.iter())
            .filter(|x| x.queue == q)
            .map(|x| device.label_name(x.label))
            .collect();
        let zoned: BTreeSet<&str> = (trees.iter())
            .filter(|t| t.queue == q)
            .filter_map(|t| match t.zone.kind {
                ZoneKind::Pass { label } => Some(device.label_name(label)),
                _ => None,
            })
            .collect();
        assert_eq!(ran, zoned, "{q}");
    }
    for name in ["gbuffer", "ssao", "lighting"] {
        assert!(
            trees.iter().any(|t| matches!(t.zone.kind,
                ZoneKind::Pass { label } if device.label_name(label) == name)),
            "a zone for {name}"
        );
    }
    for &q in &queues {
        let row: Vec<&ZoneTree> = trees.iter().filter(|t| t.queue == q).collect();
        // A row never overlaps itself: Tracy nests zones by order.
        for w in row.windows(2) {
            assert!(w[0].zone.end_ns <= w[1].zone.start_ns, "{q}: {w:?}");
        }
        for t in &row {
            assert!(t.zone.start_ns <= t.zone.end_ns);
            let mut floor = t.zone.start_ns;
            for c in &t.children {
                assert!(floor <= c.start_ns && c.start_ns < c.end_ns);
                assert!(c.end_ns <= t.zone.end_ns, "{q}: child out of its pass");
                floor = c.end_ns;
            }
        }
        // Pass zones cover every busy nanosecond; waits are at most the idle time charged to
        // their cause (the summary's figures, per frame, times the frames).
        let t = times[&q];
        let pass_ns: u64 = (row.iter())
            .filter(|t| matches!(t.zone.kind, ZoneKind::Pass { .. }))
            .map(|t| t.zone.end_ns - t.zone.start_ns)
            .sum();
        assert!(
            pass_ns >= t.busy_ns,
            "{q}: passes {pass_ns} < busy {}",
            t.busy_ns
        );
        for cause in Cause::ALL {
            let waits: u64 = (row.iter())
                .flat_map(|t| std::iter::once(&t.zone).chain(&t.children))
                .filter(|z| z.kind == ZoneKind::Wait(cause))
                .map(|z| z.end_ns - z.start_ns)
                .sum();
            assert!(
                waits <= t.idle(cause),
                "{q} {cause:?}: {waits} > {}",
                t.idle(cause)
            );
        }
    }
    let barriers = (trees.iter())
        .flat_map(|t| &t.children)
        .filter(|c| c.kind == ZoneKind::Barrier)
        .count();
    assert!(barriers > 0, "barriers nest in their passes");
    let fence_waits = (trees.iter())
        .flat_map(|t| std::iter::once(&t.zone).chain(&t.children))
        .filter(|z| z.kind == ZoneKind::Wait(Cause::Fence))
        .count();
    assert!(fence_waits > 0, "deferred waits on fences");
}

/// With the `tracy` feature the zones go to a GPU context per queue that ran (Tracy, on
/// demand and on localhost only, drops them until a viewer connects): the sending path runs,
/// and a context is made for exactly the queues the run used.
#[cfg(feature = "tracy")]
#[test]
fn the_tracy_build_makes_a_context_per_used_queue() {
    let (mut rt, _) = zones_of("scenes/deferred.ron", 10);
    let used: BTreeSet<QueueId> = rt
        .summary()
        .stats
        .queue_time()
        .into_iter()
        .map(|(q, _)| q)
        .collect();
    let made: BTreeSet<QueueId> = fastframe::report::tracy::contexts().into_iter().collect();
    assert!(used.is_subset(&made), "{used:?} {made:?}");
}
