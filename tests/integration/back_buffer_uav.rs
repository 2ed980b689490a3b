//! Compute writing the back buffer: a swap chain that says `unordered_access: true` is written
//! through a UAV that the runtime rotates beside its render-target view (FS-9), from the
//! graphics queue or async compute. A compute write that nothing on the graphics queue uses
//! afterwards goes to PRESENT on its own queue, and the present waits on that queue's fence
//! (RL-1, FS-1, FS-2).

use fastframe::Runtime;
use fastframe::device::{Command, Device, ObjectDesc, QueueId};
use fastframe::model::{BarrierMode, Rotation, ViewKind};
use fastframe::plan::CompiledGraph;

const SCENES: [&str; 2] = [
    "compute_writes_back_buffer.ron",
    "compute_presents_back_buffer.ron",
];

fn runtime(scene: &str) -> Runtime {
    let mut rt = Runtime::from_scene(format!("tests/data/real_frames/{scene}")).expect("loads");
    rt.set_validation(true);
    rt
}

fn shown(rt: &Runtime) -> Vec<String> {
    rt.diagnostics().iter().map(|d| d.to_string()).collect()
}

#[test]
fn compute_written_back_buffers_validate_clean_in_every_setting() {
    for scene in SCENES {
        for barriers in [
            BarrierMode::Enhanced,
            BarrierMode::Legacy,
            BarrierMode::Conservative,
        ] {
            for async_compute in [true, false] {
                for rotation in [
                    Rotation::SavedViews,
                    Rotation::FencedRing,
                    Rotation::PlaceView,
                ] {
                    let mut rt = runtime(scene);
                    {
                        let mut s = rt.settings_mut();
                        (s.barriers, s.async_compute) = (barriers, async_compute);
                        s.rotation = Some(rotation);
                    }
                    rt.run(8).expect("runs");
                    let found = shown(&rt);
                    assert!(
                        found.is_empty(),
                        "{scene} {barriers:?} async={async_compute} {rotation:?}:\n{}",
                        found[..found.len().min(4)].join("\n")
                    );
                }
            }
        }
    }
}

/// The dispatch binds a UAV of the buffer at index 0 this frame, not last frame's (FS-9).
#[test]
fn the_dispatch_writes_the_current_back_buffer_through_a_rotated_uav() {
    let mut rt = runtime("compute_presents_back_buffer.ron");
    rt.settings_mut().rotation = Some(Rotation::SavedViews);
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(4).expect("runs");
    let trace = rt
        .world
        .resource_mut::<Device>()
        .trace
        .take()
        .expect("traced");
    for frame in 0..4 {
        let dispatch = (trace.iter())
            .find(|s| s.frame == frame && matches!(s.command, Command::Dispatch { .. }))
            .expect("a dispatch each frame");
        let mut named = Vec::new();
        for s in (trace.iter()).filter(|s| s.frame == frame && s.queue == dispatch.queue) {
            s.command.objects(&mut named);
        }
        let device = rt.world.resource::<Device>();
        let uavs: Vec<_> = (named.iter())
            .filter_map(|&v| match device.memory.get(v).map(|o| &o.desc) {
                Ok(ObjectDesc::View { of, kind, .. }) if *kind == ViewKind::Uav => Some(*of),
                _ => None,
            })
            .collect();
        let current = dispatch.back_buffers.first().copied().expect("a chain");
        assert!(!uavs.is_empty(), "frame {frame}: a UAV is bound");
        assert!(
            uavs.iter().all(|&of| of == current),
            "frame {frame}: the UAV views the buffer at index 0, {current:?}, not {uavs:?}"
        );
    }
}

/// The graphics queue waits on the compute pass that wrote the buffer before presenting it;
/// without that wait the validation layer sees the present race the write.
#[test]
fn the_present_waits_on_the_compute_write_and_the_race_is_caught_without_it() {
    let mut rt = runtime("compute_presents_back_buffer.ron");
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(3).expect("runs");
    assert!(shown(&rt).is_empty(), "{:?}", shown(&rt));
    let graph = rt.graph().clone();
    let tonemap = (graph.passes.iter())
        .position(|p| p.name == "tonemap")
        .expect("compiled");
    assert_eq!(graph.present_waits, vec![tonemap]);
    assert!(graph.passes[tonemap].signals);
    let mut device = rt.world.resource_mut::<Device>();
    let present = device.label("present");
    let trace = device.trace.take().expect("traced");
    let waits = (trace.iter()).filter(|s| {
        s.label == present
            && s.queue == QueueId::Graphics
            && matches!(s.command, Command::WaitFence(_))
    });
    assert_eq!(waits.count(), 3, "one wait per frame, before the present");

    // Without the wait the display may scan out a buffer the dispatch still writes, and the
    // next frame's wait on present can come after its present (the device's RL-2 hang).
    let mut rt = runtime("compute_presents_back_buffer.ron");
    rt.run(1).expect("runs");
    rt.world
        .resource_mut::<CompiledGraph>()
        .present_waits
        .clear();
    let _ = rt.run(3);
    assert!(
        shown(&rt).iter().any(|d| d.contains("V0531")),
        "presenting without the wait went unnoticed: {:?}",
        shown(&rt)
    );
}
