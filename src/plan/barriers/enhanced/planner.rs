//! The enhanced planner: gathers a graph's uses per resource, has workers walk them (two, on
//! the compute task pool, once a graph is large enough and two have been measured to pay on
//! this machine), joins their barriers in resource order and finishes the plan's frames.
//!
//! When two workers walk, the second's task is handed to the pool before the gather and waits
//! for its share of resources: waking an idle core is the hand-off's cost, and it overlaps
//! the gather that way instead of the walk.

use bevy_ecs::prelude::*;
use bevy_tasks::{ComputeTaskPool, TaskPool};

use super::COPIES;
use super::gather::ByResource;
use super::pace::Pace;
use super::worker::{Share, Worker};
use crate::device::QUEUE_COUNT;
use crate::plan::barriers::{TextureRecord, TextureStart, full_flush};
use crate::plan::{BarrierPlan, CompiledGraph, FramePlan, PlanError};
use std::sync::mpsc::TryRecvError;
use std::time::Instant;

/// Uses from which walking two halves on the compute task pool may pay for handing one to
/// another thread: an idle core takes tens of microseconds to start the pool's task, the
/// gather (short, because compile indexes resources) hides little of it, and two threads
/// sharing a core's caches each walk slower than one alone. Above it, [`Pace`] picks one
/// thread or two from what each has cost on this machine (a loaded 2-core machine loses with
/// two); `benches/plan.rs` measures both sides.
const PARALLEL_USES: usize = 3_200;

const _: () = assert!(
    QUEUE_COUNT <= 32,
    "the first frame's flushes mark queues in 32 bits"
);

/// The enhanced planner with its working memory, kept between plans: the runtime re-plans
/// on every graph change and keeps one, so a plan costs its walk, not its allocations.
pub struct EnhancedPlanner {
    by: ByResource,
    workers: [Worker; 2],
    /// The third frame of the last plan when that plan needed two.
    spare: Option<FramePlan>,
    /// Walk two halves on the task pool from this many uses when that pays (None: always
    /// on one thread).
    pub(super) parallel_from: Option<usize>,
    /// What walks on one thread and on two have cost.
    pub(super) pace: Pace,
    /// Walk the steady copy even when it repeats the second (tests compare both ways).
    pub(super) walk_steady: bool,
    /// Resources whose steady copy repeated the second, in the last plan, and those of them
    /// whose second copy converged to the first.
    pub(super) repeated: usize,
    pub(super) converged: usize,
}

impl Default for EnhancedPlanner {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        EnhancedPlanner {
            by: ByResource::default(),
            workers: Default::default(),
            spare: None,
            parallel_from: (cores > 1).then_some(PARALLEL_USES),
            pace: Pace::default(),
            walk_steady: false,
            repeated: 0,
            converged: 0,
        }
    }
}

impl EnhancedPlanner {
    /// A planner that walks every graph on the calling thread, never on the compute task
    /// pool: for callers that are already spread over every core (and for the bench that
    /// compares both).
    pub fn on_one_thread() -> Self {
        EnhancedPlanner {
            parallel_from: None,
            ..Default::default()
        }
    }

    /// Plan minimal enhanced barriers for a compiled graph.
    pub fn plan(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart + Sync,
    ) -> Result<BarrierPlan, crate::plan::PlanError> {
        let mut out = BarrierPlan::default();
        self.plan_into(graph, start, &mut out)?;
        Ok(out)
    }

    /// [`plan`](Self::plan) into `out`, reusing the memory of the plan it replaces (a plan
    /// of thousands of barriers would otherwise fault fresh pages in every time). `out` keeps
    /// its generation; on an error it is left empty.
    pub fn plan_into(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart + Sync,
        out: &mut BarrierPlan,
    ) -> Result<(), crate::plan::PlanError> {
        if out.frames.len() < COPIES {
            out.frames.extend(self.spare.take());
        }
        out.frames.resize_with(COPIES, FramePlan::default);
        for f in &mut out.frames {
            f.start.clear();
            f.end.clear();
            f.legacy_before.clear();
            f.legacy_after.clear();
            f.legacy_end.clear();
        }
        match self.walk_into(graph, start, &mut out.frames) {
            Ok(kept) => {
                // Kept aside, not dropped: the next plan may need three frames again.
                if kept < COPIES {
                    self.spare = out.frames.pop();
                }
                Ok(())
            }
            Err(e) => {
                out.frames.clear();
                Err(e)
            }
        }
    }

    /// Walk every resource, on this thread or two of the pool's (as [`Pace`] finds pays),
    /// into the first worker.
    fn walk(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart + Sync,
    ) -> Result<(), crate::plan::PlanError> {
        let uses: usize = graph.passes.iter().map(|p| p.uses.len()).sum();
        let two = self.pace.two_threads(uses, self.parallel_from);
        let began = Instant::now();
        let walked = match two {
            true => self.walk_two(graph, start),
            false => {
                self.by.gather(graph);
                let (all, _) = self.by.shares(self.by.order.len());
                self.workers[0].walk(graph, all, &start, self.walk_steady)
            }
        };
        self.pace.record(two, uses, began.elapsed());
        walked
    }

    /// Walk two halves of the resources at once, the second on the compute task pool.
    fn walk_two(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart + Sync,
    ) -> Result<(), crate::plan::PlanError> {
        let walk_steady = self.walk_steady;
        let start = &start;
        let by = &mut self.by;
        let [first, second] = &mut self.workers;
        let (handing, later) = std::sync::mpsc::sync_channel::<Share>(1);
        let pool = ComputeTaskPool::get_or_init(TaskPool::default);
        let mut mine = Ok(());
        let theirs = pool.scope(|s| {
            // The pool's task is handed over before the gather, so the wake-up of an idle
            // core (tens of microseconds on a virtual machine) overlaps the gather instead of
            // the walk: it waits, spinning, only while this thread gathers.
            s.spawn(async move {
                let share = loop {
                    match later.try_recv() {
                        Ok(share) => break share,
                        Err(TryRecvError::Empty) => std::hint::spin_loop(),
                        // One resource: this thread walks it alone.
                        Err(TryRecvError::Disconnected) => return Ok(false),
                    }
                };
                second.walk(graph, share, start, walk_steady).map(|()| true)
            });
            by.gather(graph);
            let resources = by.order.len();
            let (earlier, later) = if resources < 2 {
                (by.shares(resources).0, None)
            } else {
                let (earlier, later) = by.shares(by.middle());
                (earlier, Some(later))
            };
            // The channel holds one share, so this never blocks.
            if let Some(later) = later {
                let _ = handing.send(later);
            }
            drop(handing);
            mine = first.walk(graph, earlier, start, walk_steady);
        });
        // The first error in resource order, as one thread would have met it.
        mine?;
        let walked = theirs
            .into_iter()
            .collect::<Result<Vec<bool>, crate::plan::PlanError>>()?;
        if walked.contains(&true) {
            let [first, second] = &mut self.workers;
            first.append(second);
        }
        Ok(())
    }

    fn walk_into(
        &mut self,
        graph: &CompiledGraph,
        start: impl Fn(Entity) -> TextureStart + Sync,
        frames: &mut [FramePlan],
    ) -> Result<usize, crate::plan::PlanError> {
        let n = graph.passes.len();
        // Passes are numbered in 32 bits across the walked copies.
        if n > i32::MAX as usize / COPIES {
            return Err(PlanError::TooLargeToPlan { count: n });
        }
        self.walk(graph, start)?;
        let w = &mut self.workers[0];
        (self.repeated, self.converged) = (w.repeated, w.converged);
        let repeats = w.steady.finish(&mut w.frames);
        let [first, second, steady] = &mut w.frames;
        for (frame, handovers) in [&mut *first, &mut *second].into_iter().zip(&w.handovers) {
            for &(pass, b) in handovers {
                b.push_to(frame, pass, true);
            }
        }
        // The steady frame is the second when every resource's steady copy repeated it and
        // every texture ends the second frame where it started it.
        w.bounds.follow();
        let two = repeats && w.bounds.start[1] == w.bounds.end[1];
        if !two {
            for &(pass, b) in &w.handovers[1] {
                b.push_to(steady, pass, true);
            }
        }
        // Nothing is known about accesses before the plan's first frame: flush each queue once
        // (queues seen kept as bits, not a list: a warm planner allocates nothing).
        let mut seen = 0u32;
        for (i, p) in graph.passes.iter().enumerate() {
            let bit = 1 << p.queue.index();
            if seen & bit == 0 {
                seen |= bit;
                first.global(i, false, full_flush(p.queue));
            }
        }
        let kept = if two { COPIES - 1 } else { COPIES };
        for (k, f) in frames.iter_mut().enumerate().take(kept) {
            f.prologue.clear();
            if k == 0 {
                f.prologue.extend(w.prologue.iter().map(|t| t.texture()));
            }
            w.frames[k].finish_into(&mut f.barriers);
            // The plan takes the bounds; the worker keeps the old plan's memory for its next.
            std::mem::swap(&mut f.start, &mut w.bounds.start[k]);
            std::mem::swap(&mut f.end, &mut w.bounds.end[k]);
        }
        Ok(kept)
    }
}

/// Plan minimal enhanced barriers for a compiled graph, with a planner of its own.
pub fn plan_enhanced(
    graph: &CompiledGraph,
    start: impl Fn(Entity) -> TextureStart + Sync,
) -> Result<BarrierPlan, crate::plan::PlanError> {
    EnhancedPlanner::default().plan(graph, start)
}
