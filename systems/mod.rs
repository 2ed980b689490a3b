//! The verbs: one bevy_ecs system (or a few tightly related ones) per file, in frame order.
//! Systems are glue: they read components, call the nouns and algorithms of `src/` (the
//! compiler and planners in `plan/`, the recorder in `record/`, the device, the validator),
//! and store the result as the stage's output resource.
//!
//! One tick of the runtime is this chain of system sets. Each set reads what the previous
//! ones wrote (plans, recorded lists, fences) and nothing runs out of order. Every stream goes
//! to the device through the [`Submitter`], which shows it to the validation layer first; a
//! system that fails returns its error to one handler, which stops the run:
//!
//! | set | what happens | rules |
//! |---|---|---|
//! | `Begin` | timeline events; GPU objects for new entities | FS-6 |
//! | `Retire` | wait if too many frames are in flight; fences that passed | FN-2 |
//! | `Acquire` | which buffer is at index 0 of each swap chain | RL-5..RL-7 |
//! | `WaitOnPresent` | wait on present before the first write of each back buffer | FS-5, RL-1, RL-2 |
//! | `Rotate` | the view through which passes write the back buffer | FS-9 |
//! | `Compile` | cull, order, assign queues, plan cross-queue fences (cached) | FN-2 |
//! | `Barriers` | barriers for every use transition (cached with the graph) | EB-1, EB-8a |
//! | `Record` | one command list per pass on deferred contexts, all state set | CTX-2, FS-8, FS-12 |
//! | `Submit` | lists onto queues with fence waits and inserts, kickoffs | FN-1, FN-3 |
//! | `Present` | decompress, transition, present, end-of-frame fences | RL-1, FS-4, FS-11 |
//! | `Release` | destroy what was released once its fence passed | FS-6 |
//! | `Simulate` | run the GPU; fences signal; timings recorded | |
//! | `Report` | validation results, statistics, Tracy | RL-4 |
//!
//! A scene's frame script (`script.rs`) stands in for `Acquire` to `Submit`: while it exists
//! those stages do not run and the script's commands are submitted in `Submit`; a pass
//! script re-records its pass in `Record`.

#![expect(
    clippy::too_many_arguments,
    clippy::type_complexity,
    reason = "systems take their queries and resources as parameters: long lists and query tuples are the idiom"
)]

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_ecs::schedule::SingleThreadedExecutor;

use crate::error::RuntimeError;
use crate::frame::{Fatal, healthy};

pub use submitter::{Sink, Submitter};

mod acquire;
mod alias;
mod barriers;
mod begin;
mod compile;
mod present;
mod queries;
mod record;
mod release;
mod report;
mod retire;
mod rotate;
mod script;
mod simulate;
mod submit;
mod submitter;
mod wait_present;

/// The frame schedule's label.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame;

/// The stages of one tick, in order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameSet {
    Begin,
    Retire,
    Acquire,
    WaitOnPresent,
    Rotate,
    Compile,
    Barriers,
    Record,
    Submit,
    Present,
    Release,
    Simulate,
    Report,
}

/// Build the frame schedule. It runs on one thread: the systems are a strict chain, and the
/// one stage with parallel work (recording, CTX-2) fans out itself.
pub fn frame_schedule() -> Schedule {
    use FrameSet::*;
    let mut schedule = Schedule::new(Frame);
    schedule.set_executor(SingleThreadedExecutor::new());
    schedule.configure_sets(
        (
            Begin,
            Retire,
            Acquire,
            WaitOnPresent,
            Rotate,
            Compile,
            Barriers,
            Record,
            Submit,
            Present,
            Release,
            Simulate,
            Report,
        )
            .chain()
            // Per set: a condition on the whole chain is evaluated once, before Begin, and
            // would let a tick whose planning failed record, submit and present anyway.
            .distributive_run_if(healthy),
    );
    // A frame script replaces the graph stages; it submits in their place (systems/script.rs).
    schedule.configure_sets(
        (Acquire, WaitOnPresent, Rotate, Compile, Barriers, Record)
            .distributive_run_if(script::no_frame_script),
    );
    // Systems that can fail return their error to the one handler, `stop`.
    schedule.add_systems((
        (
            begin::start_frame,
            begin::apply_timeline.pipe(stop),
            begin::materialize.pipe(stop),
        )
            .chain()
            .in_set(Begin),
        retire::retire_frames.pipe(stop).in_set(Retire),
        acquire::acquire_back_buffers.in_set(Acquire),
        rotate::rotate_views.pipe(stop).in_set(Rotate),
        (
            compile::compile_system.pipe(stop),
            alias::place_transients.pipe(stop),
        )
            .chain()
            .in_set(Compile),
        barriers::barrier_system.pipe(stop).in_set(Barriers),
        wait_present::wait_on_present.in_set(WaitOnPresent),
        (
            record::record_passes.pipe(stop),
            script::record_pass_scripts.pipe(stop),
        )
            .chain()
            .in_set(Record),
        (queries::read_pass_queries, submit::submit_passes.pipe(stop))
            .chain()
            .in_set(Submit)
            .run_if(script::no_frame_script),
        script::run_frame_script
            .pipe(stop)
            .in_set(Submit)
            .run_if(script::has_frame_script),
        present::present_frame.pipe(stop).in_set(Present),
        (
            release::release_objects.pipe(stop),
            alias::retire_placements.pipe(stop),
        )
            .chain()
            .in_set(Release),
        simulate::simulate_gpu.pipe(stop).in_set(Simulate),
        report::report_frame.in_set(Report),
    ));
    schedule
}

/// The one error handler of the frame schedule: the first error of a run stops it. The
/// remaining systems of the tick do not run (every set runs only while the run is
/// [`healthy`]) and [`crate::Runtime::tick`] returns the error.
fn stop(In(result): In<Result<(), RuntimeError>>, mut fatal: ResMut<Fatal>) {
    if let Err(e) = result {
        fatal.set(e);
    }
}
