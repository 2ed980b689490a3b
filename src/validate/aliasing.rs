//! Aliasing: placed resources that share memory (EB-5, EB-9d, barrier-spec A2, A3).
//!
//! Only one of the resources overlapping a range of a heap holds meaningful contents at a
//! time. Handing the memory over takes two steps, and the validation layer checks both,
//! in the order it sees the streams:
//!
//! - the resource used last is *deactivated*: a barrier naming it with AccessAfter
//!   NO_ACCESS, after its last access;
//! - the next one is *activated* in a later Barrier call: a texture barrier from LayoutBefore
//!   UNDEFINED with the DISCARD flag (EB-5: no garbage is ever decompressed, EB-9d), a buffer
//!   barrier with AccessBefore NO_ACCESS (A3.2). A later call because barriers on different
//!   resources in one call are unordered (A3.5).
//!
//! Using a placed resource while an overlapping one was used after this one's last
//! activation, or without the other's deactivation between them, is V0811 (error). After an
//! activation the contents are garbage: reading before writing is V0812 (warning). (A buffer
//! barrier from NO_ACCESS also declares a buffer again after a fence or its own write-back;
//! it leaves garbage only when memory the buffer shares was used since its last use.)
//! Those two follow the order the validator sees commands in. When the hand-over crosses
//! queues, that order is not the GPU's: the activation must also wait, through a fence, for
//! the other resource's last use and deactivation on their queues (FN-2), or the new
//! resource's initialisation races the old one's work and cache write-backs: V0814 (error).

use slotmap::SecondaryMap;

use super::hazard::{HazardTracker, Touch};
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::barrier::{Access, BarrierGroup, Layout};
use crate::device::{ObjectKey, QueueId};

/// What the validator knows about one placed resource; positions count Barrier calls and
/// accesses in the order seen (0: never).
#[derive(Clone, Copy, Debug, Default)]
struct Aliased {
    last_access: u64,
    activated: u64,
    deactivated: u64,
    /// Where in their queues' streams it was last used and last deactivated (see
    /// [`HazardTracker::position`]).
    used_at: Option<(QueueId, u64)>,
    deactivated_at: Option<(QueueId, u64)>,
    /// Written since its last activation.
    written: bool,
}

/// The aliasing model: per placed resource, and a running position.
#[derive(Default)]
pub(super) struct Aliasing {
    resources: SecondaryMap<ObjectKey, Aliased>,
    seq: u64,
}

impl Aliasing {
    /// A Barrier call: activations and deactivations of placed resources. An activation
    /// must be ordered after every overlapping resource's last use and deactivation on
    /// other queues (V0814).
    pub fn barrier(
        &mut self,
        ctx: &Ctx,
        i: usize,
        group: &BarrierGroup<ObjectKey>,
        hazards: &HazardTracker,
        out: &mut Vec<Diagnostic>,
    ) {
        let memory = &ctx.device.memory;
        let here = (ctx.queue, hazards.position(ctx.queue));
        let model = self;
        model.seq += 1;
        let seq = model.seq;
        let mut unfenced = Vec::new();
        // A texture's activation discards (EB-5); a buffer's is a barrier from AccessBefore
        // NO_ACCESS (A3.2), the same barrier that declares a buffer again after a fence or
        // after its own queue wrote it back: its contents are lost only when memory it
        // shares was used since its own last use (or it was never used).
        let textures = (group.textures.iter()).map(|t| {
            let activates = t.layout_before == Layout::Undefined && t.flags.discard;
            (t.resource, activates, true, t.access_after)
        });
        let buffers = (group.buffers.iter()).map(|b| {
            let activates = b.access_before == Access::NO_ACCESS;
            (b.resource, activates, false, b.access_after)
        });
        for (r, activates, discards, access_after) in textures.chain(buffers) {
            if memory.placement(r).is_none() {
                continue;
            }
            if activates {
                for other in memory.aliases(r) {
                    let Some(theirs) = model.resources.get(other) else {
                        continue;
                    };
                    let racing = [theirs.used_at, theirs.deactivated_at]
                        .into_iter()
                        .flatten()
                        .find(|&(q, pos)| !hazards.ordered_before(q, pos, ctx.queue));
                    if let Some((q, _)) = racing {
                        unfenced.push((r, other, q));
                    }
                }
            }
            let mine = model.resources.get(r).map_or(0, |m| m.last_access);
            let taken_over = discards
                || mine == 0
                || (memory.aliases(r).iter()).any(|o| {
                    model
                        .resources
                        .get(*o)
                        .is_some_and(|t| t.last_access > mine)
                });
            let Some(state) = model.resources.entry(r).map(|e| e.or_default()) else {
                continue;
            };
            if activates {
                state.activated = seq;
                state.written &= !taken_over;
            }
            if access_after == Access::NO_ACCESS {
                state.deactivated = seq;
                state.deactivated_at = Some(here);
            }
        }
        for (r, other, queue) in unfenced {
            let (other, q) = (memory.name(other), ctx.queue);
            let message = format!(
                "activated on {q} while {other}, whose memory it shares, was last used or deactivated on {queue} with no fence ordering that before this barrier: insert a fence on {queue} after deactivating {other} and wait on it on {q} before activating this one"
            );
            out.push(ctx.finding(i, Code::AliasHandOverUnfenced, Some(r), message));
        }
    }

    /// The accesses of one command: each placed resource must have been activated since
    /// every overlapping resource was last used and deactivated (V0811); reads of an
    /// activated resource need a write first (V0812).
    pub fn access(
        &mut self,
        ctx: &Ctx,
        i: usize,
        touches: &[Touch],
        hazards: &HazardTracker,
        out: &mut Vec<Diagnostic>,
    ) {
        let memory = &ctx.device.memory;
        if touches
            .iter()
            .all(|t| memory.placement(t.resource).is_none())
        {
            return;
        }
        self.seq += 1;
        let seq = self.seq;
        let mut found = Vec::new();
        let mut garbage = Vec::new();
        for t in touches {
            if memory.placement(t.resource).is_none() {
                continue;
            }
            let mine = self.resources.get(t.resource).copied();
            let mine = mine.unwrap_or_default();
            for other in memory.aliases(t.resource) {
                let Some(theirs) = self.resources.get(other).copied() else {
                    continue;
                };
                if theirs.last_access == 0 || theirs.last_access < mine.last_access {
                    continue;
                }
                let problem = if mine.activated <= theirs.last_access {
                    Some("was used more recently, and no barrier activated this resource since")
                } else if theirs.deactivated <= theirs.last_access
                    || theirs.deactivated >= mine.activated
                {
                    Some(
                        "was not deactivated after its last use in a Barrier call before the one that activated this resource",
                    )
                } else {
                    None
                };
                if let Some(problem) = problem {
                    found.push((t.resource, other, problem));
                }
            }
            let Some(state) = self.resources.entry(t.resource).map(|e| e.or_default()) else {
                continue;
            };
            if !t.write && state.activated > 0 && !state.written {
                garbage.push(t.resource);
            }
            state.written = true;
            state.last_access = seq;
            state.used_at = Some((ctx.queue, hazards.position(ctx.queue)));
        }
        for (r, other, problem) in found {
            let other = memory.name(other);
            let message = format!(
                "its memory overlaps {other}, which {problem}: deactivate {other} (AccessAfter NO_ACCESS), then activate this one in a later Barrier call (textures: LayoutBefore UNDEFINED with DISCARD; buffers: AccessBefore NO_ACCESS)"
            );
            out.push(ctx.finding(i, Code::AliasNotActivated, Some(r), message));
        }
        for r in garbage {
            let message = "read after its activation before anything wrote it: the memory it shares with other resources holds garbage; clear or write it first".to_owned();
            out.push(ctx.finding(i, Code::AliasReadBeforeWrite, Some(r), message));
        }
    }
}
