//! One thread's share of a plan: a run of consecutive resources walked over the frame's
//! copies, into barriers and working memory of its own. A worker appends another's results
//! after its own as if it had walked those resources too, so a plan is the same whether one
//! worker walked it or two.

use bevy_ecs::prelude::*;

use super::Builder;
use super::frames::{Bounds, Later, Steady, walk_resource};
use super::phases::ResUse;
use super::track::Track;
use super::{Barrier, COPIES, Walk};
use crate::barrier::Layout;
use crate::plan::CompiledGraph;
use crate::plan::barriers::{TextureStart, WholeTexture};

pub(super) struct Worker {
    /// Each copy's own barriers.
    pub(super) frames: [Builder; COPIES],
    /// Hand-overs into the first and second frames (see [`Walk::handovers`]).
    pub(super) handovers: [Vec<(usize, Barrier)>; COPIES - 1],
    /// Transitions before the plan's first frame (see [`Walk::prologue`]).
    pub(super) prologue: Vec<WholeTexture>,
    pub(super) steady: Steady,
    pub(super) bounds: Bounds,
    /// Resources whose steady copy repeated the second, and those of them whose second
    /// copy converged to the first.
    pub(super) repeated: usize,
    pub(super) converged: usize,
    track: Track,
    /// The track as the second copy started, to tell when the steady copy repeats it.
    snap: Track,
}

impl Default for Worker {
    fn default() -> Self {
        Worker {
            frames: Default::default(),
            handovers: Default::default(),
            prologue: Vec::new(),
            steady: Steady::default(),
            bounds: Bounds::default(),
            repeated: 0,
            converged: 0,

            track: Track::new(false, Layout::Common),
            snap: Track::new(false, Layout::Common),
        }
    }
}

/// The resources a worker walks: their entities in order, where each one's uses start
/// (one more entry ends the last), and those uses, which the walk merges in place.
pub(super) struct Share<'a> {
    pub(super) order: &'a [Entity],
    pub(super) spans: &'a [u32],
    pub(super) uses: &'a mut [ResUse],
}

impl Worker {
    /// Walk a share of a graph of `n` passes.
    pub(super) fn walk(
        &mut self,
        graph: &CompiledGraph,
        share: Share,
        start: &impl Fn(Entity) -> TextureStart,
        walk_steady: bool,
    ) -> Result<(), crate::plan::PlanError> {
        let n = graph.passes.len();
        for f in &mut self.frames {
            f.reset(n);
        }
        for h in &mut self.handovers {
            h.clear();
        }
        self.prologue.clear();
        self.steady.reset();
        self.bounds.clear();
        self.repeated = 0;
        self.converged = 0;

        let mut w = Walk {
            n,
            frames: &mut self.frames,
            copy: 0,
            first: 0,
            handovers: &mut self.handovers,
            wrap_end: None,
            walk_steady,
            steady: &mut self.steady,
            prologue: &mut self.prologue,
            prologue_allowed: false,
        };
        let base = share.spans.first().copied().unwrap_or(0);
        for (r, &e) in share.order.iter().enumerate() {
            let span = (share.spans[r] - base) as usize..(share.spans[r + 1] - base) as usize;
            let planned = &mut share.uses[span];
            let (t, snap) = (&mut self.track, &mut self.snap);
            let later = walk_resource(&mut w, graph, &mut self.bounds, e, planned, start, t, snap)?;
            self.repeated += (later != Later::Walked) as usize;
            self.converged += (later == Later::Converged) as usize;
        }
        Ok(())
    }

    /// Take `later`'s results, for the resources after this worker's, behind its own.
    pub(super) fn append(&mut self, later: &mut Worker) {
        if self.steady.walked() || later.steady.walked() {
            // Some steady copy was walked: both steady frames are built, one after the other.
            self.steady.walking(&mut self.frames);
            later.steady.walking(&mut later.frames);
            for (mine, theirs) in self.frames.iter_mut().zip(&later.frames) {
                mine.append(theirs);
            }
        } else {
            // Every steady copy repeats: the later repeats' marks move with their frame.
            let at = self.frames[1].mark();
            for (mine, theirs) in self.frames.iter_mut().zip(&later.frames) {
                mine.append(theirs);
            }
            self.steady.defer_after(&later.steady, at);
        }
        for (mine, theirs) in self.handovers.iter_mut().zip(&later.handovers) {
            mine.extend_from_slice(theirs);
        }
        self.prologue.extend_from_slice(&later.prologue);
        self.bounds.append(&later.bounds);
        self.repeated += later.repeated;
        self.converged += later.converged;
    }
}
