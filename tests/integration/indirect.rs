//! Indirect work in passes (`scenes/indirect.ron`): an ExecuteIndirect draw and a
//! DispatchIndirect read argument buffers that compute passes of the same frame write. Under
//! every barrier strategy, with async compute on and off, each buffer is moved into
//! INDIRECT_ARGUMENT with sync EXECUTE_INDIRECT (a buffer barrier, or the conservative
//! strategy's global flush that covers every access) before the indirect command that names it,
//! the run validates clean, and dropping that barrier is caught as READ_AFTER_WRITE (FS-3), on
//! a compute queue as the DispatchIndirect's unordered argument buffer (CC-4, V0504).

use bevy_ecs::prelude::*;
use fastframe::Runtime;
use fastframe::barrier::{Access, Sync};
use fastframe::device::{Command, Device, ObjectKey, Submitted};
use fastframe::model::{BarrierMode, Fault, GpuObject};

const SCENE: &str = "scenes/indirect.ron";
const MODES: [BarrierMode; 3] = [
    BarrierMode::Enhanced,
    BarrierMode::Conservative,
    BarrierMode::Legacy,
];

fn runtime(barriers: BarrierMode, async_compute: bool, fault: Option<Fault>) -> Runtime {
    let mut rt = Runtime::from_scene(SCENE).expect("scene loads");
    rt.set_validation(true);
    {
        let mut s = rt.settings_mut();
        s.barriers = barriers;
        s.async_compute = async_compute;
        s.fault = fault;
    }
    rt
}

fn key(rt: &mut Runtime, name: &str) -> ObjectKey {
    (rt.world.query::<(&Name, &GpuObject)>().iter(&rt.world))
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, o)| o.0)
        .expect("the buffer has a device object")
}

/// Whether, in `frame`, a barrier moves `args` into INDIRECT_ARGUMENT for EXECUTE_INDIRECT
/// before the indirect command reading it: on the reader's queue, or at the end of the
/// writer's pass on another queue, before the fence the reader waits on.
fn planned_before_read(trace: &[Submitted], frame: u64, args: ObjectKey) -> bool {
    let frame: Vec<&Submitted> = trace.iter().filter(|s| s.frame == frame).collect();
    let read = frame.iter().position(|s| match s.command {
        Command::ExecuteIndirect { args: a, .. } | Command::DispatchIndirect { args: a, .. } => {
            a == args
        }
        _ => false,
    });
    let Some(read) = read else { return false };
    let into = |sync: Sync, access: Access| {
        access.contains(Access::INDIRECT_ARGUMENT) && sync.expand().contains(Sync::EXECUTE_INDIRECT)
    };
    frame[..read].iter().any(|s| match &s.command {
        Command::Barrier(g) => {
            (g.buffers.iter()).any(|b| b.resource == args && into(b.sync_after, b.access_after))
                || (g.global.iter()).any(|b| into(b.sync_after, b.access_after))
        }
        _ => false,
    })
}

#[test]
fn indirect_arguments_are_planned_and_validate_clean_under_every_strategy() {
    for barriers in MODES {
        for async_compute in [true, false] {
            let what = format!("{barriers:?} async={async_compute}");
            let mut rt = runtime(barriers, async_compute, None);
            rt.world.resource_mut::<Device>().trace = Some(Vec::new());
            rt.run(6).unwrap_or_else(|e| panic!("{what}: {e}"));
            let diags: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
            assert!(diags.is_empty(), "{what}:\n{}", diags.join("\n"));
            let draw_args = key(&mut rt, "draw_args");
            let dispatch_args = key(&mut rt, "dispatch_args");
            let trace = rt
                .world
                .resource_mut::<Device>()
                .trace
                .take()
                .expect("traced");
            for args in [draw_args, dispatch_args] {
                assert!(planned_before_read(&trace, 4, args), "{what}: {args:?}");
            }
            // The draw's cost comes from its declared maxima, recorded as they are.
            assert!(trace.iter().any(|s| matches!(s.command,
                Command::ExecuteIndirect { args, draws: 2048, vertices: 3_000_000, pixels: 921_600 }
                    if args == draw_args)));
            assert!(trace.iter().any(|s| matches!(s.command,
                Command::DispatchIndirect { args, dispatches: 1, threads: 262_144 }
                    if args == dispatch_args)));
        }
    }
}

#[test]
fn dropping_the_argument_barrier_is_caught_under_every_strategy() {
    for barriers in MODES {
        for async_compute in [true, false] {
            let what = format!("{barriers:?} async={async_compute}");
            let fault = Fault::DropBarrier(Some("simulate".into()));
            let mut rt = runtime(barriers, async_compute, Some(fault));
            // A hazard may also end the run (the device refuses what it cannot execute);
            // the diagnostics are what count.
            let _ = rt.run(4);
            // With async compute the writer and the DispatchIndirect share a compute queue,
            // which inserts no pipeline flush between dispatches: CC-4 names it (V0504).
            // Without, both run on the graphics queue: a plain READ_AFTER_WRITE (FS-3).
            let (code, rule) = match async_compute {
                true => ("V0504", "CC-4"),
                false => ("V0501", "FS-3"),
            };
            let caught = rt.diagnostics().iter().any(|d| {
                d.code.to_string() == code && d.rule == rule && d.resource == "dispatch_args"
            });
            let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
            assert!(caught, "{what}: {}", found.join("\n"));
        }
    }
}
