//! The frame-graph compiler and its working memory.
//!
//! Compile runs on every graph change, and generated graphs reach 100,000 passes, so it is
//! written as a pipeline over flat arrays rather than per-pass lists:
//!
//! 1. **Resolve** every use into one array ([`PlannedUse`]s, each pass's a range of it),
//!    numbering resources densely in order of first use (one table read per use, by entity
//!    index, [`numbering`]), and noting beside it what the later steps need of each use (its
//!    key and whether it writes, whether it needs what was there before), so that at 100,000
//!    passes, where the uses no longer fit the caches, none reads them all again;
//! 2. **split** textures whose uses name different subresources (only when some use does);
//! 3. **order**: the version rules over the dense numbers ([`Versions`]), which give edges as
//!    predecessor lists; declaration order is the order unless an edge points backwards or
//!    the `order` setting asks for another ([`Scheduler`], `schedule`);
//! 4. **cull** backwards from what persists, with flags per number instead of sets;
//! 5. **emit**: the kept passes, their edges, the resource index the planners read and the
//!    cross-queue fences, written into the caller's [`CompiledGraph`] in place.
//!
//! Every array lives in [`Compiler`] between compiles, and the output graph's lists are
//! refilled rather than rebuilt, so a warm recompile of a graph of the same shape allocates
//! nothing (a counting-allocator test holds it to that). Only a graph that splits textures or
//! orders passes against their declaration pays for it. On error the output is untouched.

use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

use super::compile::{TargetInfo, assign_queue, copies_to_self, resolve_use};
use super::fences::Fences;
use super::order as graph;
use super::parts::{Dims, Parts};
use super::schedule::Scheduler;
use super::versions::{Preds, Versions, touch};
use crate::device::QueueId;
use crate::model::{Lifetime, Pass, Settings};
use crate::plan::{CompiledGraph, CompiledPass, PlanError, PlannedUse};

/// What compile knows of a resource its passes use.
#[derive(Clone, Copy, Debug)]
pub(super) struct ResourceInfo {
    pub entity: Entity,
    /// `None` for a swap chain, which persists but keeps nothing for the next frame.
    pub lifetime: Option<Lifetime>,
    /// A texture's mips, slices and planes; `None` for what is never split.
    pub dims: Option<Dims>,
}

/// The compiler, with the working memory it keeps between compiles. The runtime keeps one
/// as a resource; [`compile_graph`](super::compile_graph) makes a fresh one.
#[derive(Resource, Debug, Default)]
pub struct Compiler {
    /// The device profile queue assignment estimates passes with (`async_min_us`), kept so
    /// that a warm compile does not build it again.
    profile: Option<crate::device::Profile>,
    /// Every use of every pass, resolved, in declaration order.
    uses: Vec<PlannedUse>,
    /// Pass `i`'s uses are `uses[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    queues: Vec<QueueId>,
    /// Per use: its resource's number, then (after splitting) its key's.
    numbers: Vec<u32>,
    numbering: numbering::Numbering,
    /// Key numbers of split textures' parts.
    number_of: EntityHashMap<u32>,
    resources: Vec<ResourceInfo>,
    /// Per use: its key's number and whether it writes ([`touch`]).
    touches: Vec<u32>,
    /// Per use: whether it needs what its key held before (a read, or a write that does not
    /// clear), which keeps the key's earlier writers from being culled.
    reads_before: Vec<bool>,
    /// Whether some use names part of a texture, so that textures are split.
    ranged: bool,
    /// Whether some pass names passes it runs after.
    ordered: bool,
    /// Per key number: the key, whether it keeps last frame's contents, whether its writes
    /// outlive the frame (it is not transient), whether a kept pass needs it.
    keys: Vec<Entity>,
    keeps: Vec<bool>,
    lasting: Vec<bool>,
    needed: Vec<bool>,
    /// Explicit `after` edges as (before, after) passes, and the passes some pass follows.
    after: Vec<(u32, u32)>,
    followed: Vec<bool>,
    pass_of: EntityHashMap<u32>,
    versions: Versions,
    preds: Preds,
    order: Vec<u32>,
    keep: Vec<bool>,
    kept: Vec<u32>,
    /// Per pass: its place among the kept ones.
    place: Vec<u32>,
    scratch: Vec<u32>,
    fences: Fences,
    /// The swap chains the passes use, for the present's waits.
    chains: Vec<Entity>,
    scheduler: Scheduler,
    /// Per pass: its estimated GPU time, ns, for `Order::Overlap` ([`super::pass_ns`]).
    cost: Vec<u64>,
    /// Passes and culled names the output had no room for, kept for a larger graph.
    spare: Vec<CompiledPass>,
    spare_names: Vec<String>,
}

mod emit;
mod numbering;

impl Compiler {
    /// Compile `passes` (enabled, sorted by declaration order) into `out`, whose memory is
    /// reused; `out.generation` is the caller's to set.
    pub fn compile_into(
        &mut self,
        passes: &[(Entity, &str, &Pass)],
        target: impl Fn(Entity) -> TargetInfo,
        settings: &Settings,
        out: &mut CompiledGraph,
    ) -> Result<(), PlanError> {
        if passes.len() >= u32::MAX as usize {
            return Err(PlanError::TooManyPasses {
                count: passes.len(),
            });
        }
        self.resolve(passes, &target, settings)?;
        let parts = if self.ranged {
            super::split::split_uses(
                &mut self.uses,
                &mut self.starts,
                &mut self.numbers,
                &self.resources,
            )
        } else {
            super::parts::Parts::default()
        };
        self.number_keys(&parts);
        self.note_after(passes);
        let n = passes.len();
        let (starts, touches) = (&self.starts, &self.touches);
        let backward = self.versions.build(
            self.keys.len(),
            &self.keeps,
            (0..n).map(|i| &touches[starts[i] as usize..starts[i + 1] as usize]),
            &self.after,
            &mut self.preds,
        );
        self.order.clear();
        if backward {
            if self.versions.order(&self.preds, &mut self.order).is_err() {
                return Err(graph::cycle(
                    passes,
                    &self.uses,
                    &self.starts,
                    &self.keeps,
                    &self.keys,
                    &parts,
                ));
            }
        } else {
            self.order.extend(0..n as u32);
        }
        if settings.order != crate::model::Order::Declaration {
            // The schedulers read only `preds`: a late read must follow the write it sees.
            if backward {
                self.versions.add_late(&mut self.preds);
            }
            // The order the edges gave becomes the scheduler's input.
            std::mem::swap(&mut self.order, &mut self.scratch);
            self.cost.clear();
            if settings.order == crate::model::Order::Overlap {
                let profile = self.profile.get_or_insert_with(Default::default);
                let (uses, starts) = (&self.uses, &self.starts);
                let pass_uses = (0..n).map(|i| &uses[starts[i] as usize..starts[i + 1] as usize]);
                super::estimate::pass_costs(
                    passes,
                    pass_uses,
                    &self.queues,
                    profile,
                    &mut self.cost,
                );
            }
            let (preds, queues, cost, topo) =
                (&self.preds, &self.queues, &self.cost, &self.scratch);
            (self.scheduler).schedule(settings.order, preds, queues, cost, topo, &mut self.order);
        }
        self.cull();
        self.emit(passes, out);
        out.parts = parts;
        Ok(())
    }

    /// Pass `i`'s uses, as a range of the flat arrays.
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        self.starts[i] as usize..self.starts[i + 1] as usize
    }

    /// Resolve every use and number the resources in order of first use; note, while each
    /// pass is at hand, what later steps would otherwise read every use again for.
    fn resolve(
        &mut self,
        passes: &[(Entity, &str, &Pass)],
        target: &impl Fn(Entity) -> TargetInfo,
        settings: &Settings,
    ) -> Result<(), PlanError> {
        self.uses.clear();
        self.starts.clear();
        self.queues.clear();
        self.numbers.clear();
        self.numbering.clear();
        self.resources.clear();
        self.touches.clear();
        self.reads_before.clear();
        (self.ranged, self.ordered) = (false, false);
        if self
            .profile
            .as_ref()
            .is_none_or(|p| p.name != settings.profile)
        {
            self.profile =
                Some(crate::device::Profile::by_name(&settings.profile).unwrap_or_default());
        }
        let profile = self.profile.get_or_insert_with(Default::default);
        for &(e, _, pass) in passes {
            self.queues.push(assign_queue(pass, settings, profile));
            let start = self.uses.len();
            self.starts.push(start as u32);
            let shading = pass.shading();
            for u in &pass.uses {
                let (planned, lifetime, dims) = resolve_use(e, pass, shading, u, target)?;
                let (n, new) = self.numbering.number(planned.resource);
                if new {
                    self.resources.push(ResourceInfo {
                        entity: planned.resource,
                        lifetime,
                        dims,
                    });
                }
                // What later steps need of the use, noted while it is at hand (a copy onto
                // itself below changes only its layout).
                let write = planned.access.is_write();
                self.touches.push(touch(n, write));
                self.reads_before.push(!write || !planned.clear);
                self.ranged |= !planned.range.is_all();
                self.uses.push(planned);
                self.numbers.push(n);
            }
            copies_to_self(&mut self.uses[start..]);
            self.ordered |= !pass.after.is_empty();
        }
        if self.uses.len() >= u32::MAX as usize {
            return Err(PlanError::TooManyPasses {
                count: passes.len(),
            });
        }
        self.starts.push(self.uses.len() as u32);
        Ok(())
    }

    /// Number the keys (resources, or parts of split textures) and note which keep their
    /// contents across frames: only imported resources do (a swap chain's buffer is a
    /// different one each frame, a transient is created anew).
    fn number_keys(&mut self, parts: &Parts) {
        self.keys.clear();
        self.keeps.clear();
        self.lasting.clear();
        let imported = |r: &ResourceInfo| r.lifetime == Some(Lifetime::Imported);
        let lasting = |r: &ResourceInfo| r.lifetime != Some(Lifetime::Transient);
        if parts.is_empty() {
            // Unsplit, every key is its resource.
            self.keys.extend(self.resources.iter().map(|r| r.entity));
            self.keeps.extend(self.resources.iter().map(imported));
            self.lasting.extend(self.resources.iter().map(lasting));
        } else {
            // Resolve numbered resources, and split textures' uses now name parts: number
            // the keys, and note the touches and read-before flags again for the split uses.
            self.number_of.clear();
            for (u, n) in self.uses.iter().zip(self.numbers.iter_mut()) {
                let resource = &self.resources[*n as usize];
                let (keys, keeps) = (&mut self.keys, &mut self.keeps);
                let last = &mut self.lasting;
                *n = *self.number_of.entry(u.key).or_insert_with(|| {
                    keys.push(u.key);
                    keeps.push(imported(resource));
                    last.push(lasting(resource));
                    keys.len() as u32 - 1
                });
            }
            self.touches.clear();
            self.reads_before.clear();
            for (u, &n) in self.uses.iter().zip(&self.numbers) {
                self.touches.push(touch(n, u.access.is_write()));
                self.reads_before.push(!u.access.is_write() || !u.clear);
            }
        }
    }

    /// The passes' explicit `after` edges, by pass index (names of passes not compiled are
    /// ignored), and which passes some pass follows.
    fn note_after(&mut self, passes: &[(Entity, &str, &Pass)]) {
        self.after.clear();
        self.followed.clear();
        self.followed.resize(passes.len(), false);
        if !self.ordered {
            return;
        }
        self.pass_of.clear();
        self.pass_of
            .extend(passes.iter().enumerate().map(|(i, p)| (p.0, i as u32)));
        for (i, (_, _, pass)) in passes.iter().enumerate() {
            for a in pass.after.iter().filter_map(|a| self.pass_of.get(a)) {
                self.after.push((*a, i as u32));
                self.followed[*a as usize] = true;
            }
        }
    }

    /// Cull: walk backwards keeping passes whose results persist or feed a kept pass, and
    /// passes some other pass must follow.
    fn cull(&mut self) {
        self.needed.clear();
        self.needed.resize(self.keys.len(), false);
        // Writes persist unless their resource is transient (a swap chain's do).
        for &t in &self.touches {
            if t & 1 == 1 && self.lasting[(t >> 1) as usize] {
                self.needed[(t >> 1) as usize] = true;
            }
        }
        self.keep.clear();
        self.keep.resize(self.order.len(), false);
        for &i in self.order.iter().rev() {
            let span = self.span(i as usize);
            let writes_needed = (self.touches[span.clone()].iter())
                .any(|&t| t & 1 == 1 && self.needed[(t >> 1) as usize]);
            if self.followed[i as usize] || writes_needed {
                self.keep[i as usize] = true;
                for (&before, &t) in self.reads_before[span.clone()]
                    .iter()
                    .zip(&self.touches[span])
                {
                    if before {
                        self.needed[(t >> 1) as usize] = true;
                    }
                }
            }
        }
        self.kept.clear();
        let keep = &self.keep;
        self.kept
            .extend(self.order.iter().copied().filter(|&i| keep[i as usize]));
    }
}
