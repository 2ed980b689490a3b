//! Queries as passes use them (`scenes/queries.ron`): each pass writes timestamps (and the
//! depth pre-pass an occlusion query) and resolves them into a readback buffer it uses as
//! CopyDest; the CPU reads a frame's results frames later. Under every barrier strategy,
//! with async compute on and off, the resolve is recorded after a barrier that makes the
//! buffer a copy destination, the run validates clean, and the statistics count every query
//! resolved and read. Reading too early is `scenes/mistakes/ctx6_pass_queries_read_before_fence.ron`.

use bevy_ecs::prelude::*;
use fastframe::Runtime;
use fastframe::barrier::{Access, Sync};
use fastframe::device::{Command, Device, ObjectKey};
use fastframe::model::{BarrierMode, GpuObject};
use fastframe::report::RunStats;

const FRAMES: u64 = 12;

fn key(rt: &mut Runtime, name: &str) -> ObjectKey {
    (rt.world.query::<(&Name, &GpuObject)>().iter(&rt.world))
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, o)| o.0)
        .expect("the buffer has a device object")
}

#[test]
fn pass_queries_resolve_after_a_copy_barrier_and_are_read_frames_later() {
    for barriers in [
        BarrierMode::Enhanced,
        BarrierMode::Conservative,
        BarrierMode::Legacy,
    ] {
        for async_compute in [true, false] {
            let what = format!("{barriers:?} async={async_compute}");
            let mut rt = Runtime::from_scene("scenes/queries.ron").expect("loads");
            rt.set_validation(true);
            {
                let mut s = rt.settings_mut();
                s.barriers = barriers;
                s.async_compute = async_compute;
            }
            rt.world.resource_mut::<Device>().trace = Some(Vec::new());
            rt.run(FRAMES).unwrap_or_else(|e| panic!("{what}: {e}"));
            let diags: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
            assert!(diags.is_empty(), "{what}:\n{}", diags.join("\n"));
            let timings = key(&mut rt, "occlusion_results");
            let trace = rt
                .world
                .resource_mut::<Device>()
                .trace
                .take()
                .expect("traced");
            // The first frame's resolve: the buffer stays a copy destination afterwards, so
            // its barrier is in the first frame (and again only where the plan moves it).
            let frame: Vec<_> = trace.iter().filter(|s| s.frame == 0).collect();
            let resolve = (frame.iter())
                .position(|s| matches!(s.command, Command::ResolveQueryData { dst, count: 3, .. } if dst == timings))
                .unwrap_or_else(|| panic!("{what}: no resolve of the pre-pass's 3 queries"));
            // Timestamps and the occlusion query come before the resolve.
            let before = &frame[..resolve];
            assert!(
                before
                    .iter()
                    .any(|s| matches!(s.command, Command::EndQuery(_))),
                "{what}"
            );
            let stamps = (before.iter())
                .filter(|s| matches!(s.command, Command::WriteTimestamp(_)))
                .count();
            assert!(stamps >= 2, "{what}");
            let copy_dest = before.iter().any(|s| match &s.command {
                Command::Barrier(g) => {
                    (g.buffers.iter()).any(|b| {
                        b.resource == timings
                            && b.access_after.contains(Access::COPY_DEST)
                            && b.sync_after.expand().contains(Sync::COPY)
                    }) || (g.global.iter()).any(|b| {
                        b.access_after.contains(Access::COPY_DEST)
                            && b.sync_after.expand().contains(Sync::COPY)
                    })
                }
                _ => false,
            });
            assert!(
                copy_dest,
                "{what}: no barrier into COPY_DEST before the resolve"
            );
            // Per frame: 3 + 2 + 2 queries; the pre-pass and ssao are read 2 frames
            // later (frames_in_flight), lighting 3.
            let stats = rt.world.resource::<RunStats>();
            assert_eq!(stats.queries_resolved, 7 * FRAMES, "{what}");
            assert_eq!(
                stats.queries_read,
                5 * (FRAMES - 2) + 2 * (FRAMES - 3),
                "{what}"
            );
        }
    }
}
