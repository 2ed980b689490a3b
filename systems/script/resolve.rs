//! Names to device handles, when a command executes: a script's device command becomes the
//! device's through the one walk over its references (`Command::try_map`), and a script
//! call becomes the step it stands for.
//!
//! A name's meaning is only fixed at execution: a swap chain is the buffer at index 0 right
//! now (RL-5), a `CreateView` name is whichever view the script made last under it (RL-6),
//! a scene view of a swap chain is made the first time it is used (and again for the new
//! buffer after a resize). Resolving also records which entities a frame touched, on which
//! queue, so the end-of-frame fences can gate their release (FS-6). Fence names become fresh
//! device fences at each insert (FN-1); a wait names the latest.

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;

mod chains;
pub(super) use chains::catch_up;

use crate::barrier::CopyRegion;
use crate::device::{Command, Device, FenceId, ObjectDesc, ObjectKey, QueueId, SwapChainKey};
use crate::model::*;

/// What names resolve against.
#[derive(SystemParam)]
pub struct Targets<'w, 's> {
    names: Query<'w, 's, &'static Name>,
    objects: Query<'w, 's, &'static GpuObject>,
    chains: Query<'w, 's, (&'static GpuChain, &'static BackBuffer)>,
    buffers: Query<
        'w,
        's,
        (Entity, &'static SwapChainBuffer, &'static GpuObject),
        Without<ReleaseRequest>,
    >,
    views: Query<'w, 's, (&'static View, Option<&'static ChainBufferIndex>)>,
    swap_chains: Query<'w, 's, &'static SwapChain>,
    heaps: Query<'w, 's, &'static GpuHeap>,
}

/// One command, lowered: for the device, or a CPU-side call.
pub(super) enum Step {
    Device(Command),
    CreateView {
        name: String,
        of: ObjectKey,
        kind: ViewKind,
    },
    /// `None`: a `CreateView` name not made yet (nothing to release).
    Release(Option<ObjectKey>),
    /// The final release of a scene heap, by its device number (FS-6).
    ReleaseHeap(u32),
    /// Play back the script's list of that name (CTX-1).
    ExecuteList(String),
    /// Replay the script's bundle of that name in the list.
    ExecuteBundle(String),
    /// CPU side: a write of a mapped buffer's memory (FS-1): the buffer and the bytes.
    WriteMapped(ObjectKey, u64),
    /// CPU side: GetData of a query (CTX-6): its number and name.
    GetQueryData(u32, String),
    /// CPU side: block until the fence passes (FN-2).
    CpuWait(FenceId),
    /// CPU side: the pending test of a fence (FN-2).
    CpuPoll(FenceId),
    /// Nothing to do (a queue wait on a value the fence already holds, its initial 0).
    Nothing,
    /// CPU side: ResizeBuffers of a chain (its entity and device key) to `texture`.
    Resize {
        chain: Entity,
        key: SwapChainKey,
        texture: Texture,
    },
    /// A legacy `ResourceBarrier` call: the Barrier calls the driver translates it into
    /// (two for an aliasing hand-over), and the call's legacy barriers (EB-7, EB-10).
    Legacy(Vec<Command>, Vec<crate::barrier::LegacyBarrier<ObjectKey>>),
}

/// Resolves names to device handles at execution time.
pub(super) struct Resolver<'a, 'w, 's> {
    pub device: &'a mut Device,
    pub state: &'a mut ScriptState,
    pub targets: &'a Targets<'w, 's>,
    pub queue: QueueId,
    /// In a pass script a swap chain in a view slot is the view the runtime rotated (FS-9).
    pub pass: bool,
    /// Entities touched, for the end-of-frame fences that gate their release (FS-6).
    pub used: Vec<(Entity, QueueId)>,
}

impl Resolver<'_, '_, '_> {
    fn name(&self, e: Entity) -> String {
        (self.targets.names.get(e)).map_or_else(|_| e.to_string(), |n| n.as_str().to_string())
    }
    /// The device object `target` stands for in `slot` now.
    fn key(&mut self, slot: Slot, target: &Target) -> Result<ObjectKey, String> {
        let q = self.queue;
        let e = match target {
            Target::Local(name) => {
                let view = (self.state.views.get(name).copied())
                    .ok_or_else(|| format!("view {name:?} is used before CreateView made it"))?;
                // A view outlives nothing it views (FS-6): after ResizeBuffers, or a release
                // of its resource, the title makes the view again before using it.
                if let Ok(obj) = self.device.memory.get(view)
                    && let ObjectDesc::View { of, .. } = obj.desc
                    && !self.device.memory.is_live(of)
                {
                    return Err(format!(
                        "FS-6: view {name:?} views a resource released since CreateView made it (a swap-chain buffer ResizeBuffers replaced, or a released resource): make the view again with CreateView first"
                    ));
                }
                return Ok(view);
            }
            Target::ChainBuffer { chain, index } => {
                let (b, key) = self.chain_buffer(*chain, *index)?;
                self.used.extend([(*chain, q), (b, q)]);
                return Ok(key);
            }
            Target::Entity(e) => *e,
        };
        self.used.push((e, q));
        if let Ok(obj) = self.targets.objects.get(e) {
            if let Ok((view, _)) = self.targets.views.get(e) {
                self.used.push((view.of, q));
            }
            return Ok(obj.0);
        }
        if let Ok((gpu, back)) = self.targets.chains.get(e) {
            if slot == Slot::View && self.pass {
                return (back.view.map(|v| v.rtv))
                    .ok_or_else(|| format!("swap chain {} has no view this frame", self.name(e)));
            }
            let gpu = *gpu;
            return self.back_buffer(e, &gpu);
        }
        if let Ok((view, index)) = self.targets.views.get(e)
            && let Ok((gpu, _)) = self.targets.chains.get(view.of)
        {
            let (view, index, gpu) = (view.clone(), index.copied(), *gpu);
            self.used.push((view.of, q));
            return self.chain_view(e, &view, index.as_ref(), &gpu);
        }
        Err(format!(
            "{} has no device object: it is dormant, or its release completed",
            self.name(e)
        ))
    }

    /// The number of query `name`, given at its first mention.
    fn query_number(&mut self, name: &str) -> u32 {
        let next = self.state.queries.len() as u32;
        *self.state.queries.entry(name.to_owned()).or_insert(next)
    }

    /// Lower one command.
    pub fn lower(&mut self, cmd: &ScriptCommand<Target>) -> Result<Step, String> {
        let call = match cmd {
            // Seed 004: the enhanced Barrier API exists on Xbox Series only (EB-11).
            ScriptCommand::Device(Command::Barrier(_))
                if !self.device.profile.enhanced_barriers =>
            {
                return Err(format!(
                    "Barrier: the {} profile has no enhanced barriers (they exist on the Xbox Series only, seed 004): use ResourceBarrier, which its driver runs as legacy barriers",
                    self.device.profile.name
                ));
            }
            ScriptCommand::Device(c) => return Ok(Step::Device(c.try_map(self)?)),
            ScriptCommand::Call(call) => call,
        };
        Ok(match call {
            ScriptCall::CreateView { name, of, kind } => Step::CreateView {
                name: name.clone(),
                of: self.key(Slot::ViewOf, of)?,
                kind: *kind,
            },
            ScriptCall::Release(Target::Local(name)) => {
                Step::Release(self.state.views.get(name).copied())
            }
            // A scene heap: the title's last reference to it (FS-6).
            ScriptCall::Release(Target::Entity(e)) if self.targets.heaps.contains(*e) => {
                match self.targets.heaps.get(*e) {
                    Ok(h) => Step::ReleaseHeap(h.0),
                    Err(_) => return Err(format!("heap {} has no device heap", self.name(*e))),
                }
            }
            ScriptCall::Release(target) => Step::Release(Some(self.key(Slot::Release, target)?)),
            ScriptCall::ExecuteCommandList(name) => Step::ExecuteList(name.clone()),
            ScriptCall::ExecuteBundle(name) => Step::ExecuteBundle(name.clone()),
            ScriptCall::ResizeBuffers {
                chain,
                extent,
                format,
            } => self.resize(chain, *extent, *format)?,
            // The batch keeps the objects its names hold now (RB-2).
            ScriptCall::SetFastResourcesIntoBatch { name, sets } => {
                let from = self.used.len();
                let sets = (sets.iter())
                    .map(|s| crate::model::fast_set(s, self))
                    .collect::<Result<_, String>>()?;
                let entities = self.used[from..].iter().map(|(e, _)| *e).collect();
                let batch = std::sync::Arc::new(crate::device::FastBatch { sets });
                self.state.batches.insert(name.clone(), (batch, entities));
                Step::Nothing
            }
            ScriptCall::SetFastResourcesFromBatch(name) => {
                let (batch, entities) = (self.state.batches.get(name)).ok_or_else(|| {
                    format!("no batch {name:?}: SetFastResourcesIntoBatch builds one first")
                })?;
                let q = self.queue;
                self.used.extend(entities.iter().map(|e| (*e, q)));
                Step::Device(Command::SetFastResourcesFromBatch(batch.clone()))
            }
            ScriptCall::WriteMapped { resource, bytes } => {
                Step::WriteMapped(self.key(Slot::Buffer, resource)?, *bytes)
            }
            ScriptCall::GetQueryData(name) => {
                Step::GetQueryData(self.query_number(name), name.clone())
            }
            ScriptCall::ResourceBarrier(list) => {
                let mut keyed = Vec::with_capacity(list.len());
                for b in list {
                    keyed.push(match b {
                        LegacyScriptBarrier::Transition {
                            resource,
                            subresource,
                            before,
                            after,
                        } => LegacyScriptBarrier::Transition {
                            resource: self.key(Slot::Copy, resource)?,
                            subresource: *subresource,
                            before: *before,
                            after: *after,
                        },
                        LegacyScriptBarrier::Uav(r) => {
                            LegacyScriptBarrier::Uav(self.key(Slot::Copy, r)?)
                        }
                        LegacyScriptBarrier::UavAll => LegacyScriptBarrier::UavAll,
                        LegacyScriptBarrier::Aliasing { before, after } => {
                            LegacyScriptBarrier::Aliasing {
                                before: self.key(Slot::Copy, before)?,
                                after: self.key(Slot::Copy, after)?,
                            }
                        }
                    });
                }
                let (calls, legacy) =
                    super::legacy::translate_script(self.device, self.state, &keyed)?;
                Step::Legacy(calls.into_iter().map(Command::Barrier).collect(), legacy)
            }
            ScriptCall::Signal { fence, value } => {
                let id = self.device.next_fence(self.queue);
                self.state.fences.insert(fence.clone(), id);
                let signals = self.state.values.entry(fence.clone()).or_default();
                let last = signals.last().map_or(0, |(v, _)| *v);
                let value = match *value {
                    0 => last.checked_add(1).ok_or_else(|| {
                        format!(
                            "fence {fence:?} is at its last value, {last}: it has no next value"
                        )
                    })?,
                    v => v,
                };
                // D3D12 lets a queue signal the value a fence already holds (a title that
                // bumps its value only when it has something new to announce signals the
                // same one every frame); a wait for it is met by the first Signal to reach
                // it. A value going down is not modelled: waits are "the first Signal to N
                // or more" (FN-2).
                if value < last {
                    return Err(format!(
                        "fence {fence:?} signalled to {value}, below its last value {last}: a fence's values never decrease"
                    ));
                }
                signals.push((value, id));
                Step::Device(Command::InsertFence {
                    fence: id,
                    kickoff: true,
                })
            }
            ScriptCall::Wait { fence, .. } => match self.fence_at(fence, call.fence_value()) {
                Some(id) => Step::Device(Command::WaitFence(id)),
                None => Step::Nothing,
            },
            ScriptCall::WaitForFenceCpu { fence, .. } => self
                .fence_at(fence, call.fence_value())
                .map_or(Step::Nothing, Step::CpuWait),
            ScriptCall::IsFencePending { fence, .. }
            | ScriptCall::GetCompletedValue { fence, .. } => self
                .fence_at(fence, call.fence_value())
                .map_or(Step::Nothing, Step::CpuPoll),
        })
    }

    /// The device fence that reaches `(value, back)` of fence `name` first (see
    /// `ScriptCall::Wait`): `None` for the initial value, which is reached at once; a value
    /// not signalled yet is a fence that does not exist (a queue waiting on it deadlocks,
    /// FN-3).
    fn fence_at(&mut self, name: &str, (value, back): (u64, u64)) -> Option<FenceId> {
        if value > 0 {
            let found = (self.state.values.get(name))
                .and_then(|s| s.iter().find(|(at, _)| *at >= value))
                .map(|(_, f)| *f);
            return Some(found.unwrap_or_else(|| self.device.next_fence(self.queue)));
        }
        let Some(signals) = self.state.values.get(name) else {
            // A name only `InsertFence` makes has no values: the latest fence of the name.
            return if back == 0 {
                self.state.fences.get(name).copied()
            } else {
                None
            };
        };
        let latest = self.state.fences.get(name).copied();
        if back == 0 && latest != signals.last().map(|(_, f)| *f) {
            // An `InsertFence` of the name after its last Signal: that fence is the latest.
            return latest;
        }
        let i = (signals.len() as u64).checked_sub(back)?.checked_sub(1)?;
        // `back` names a value; a wait for it is met by the first Signal to reach it, which
        // is an earlier one when a Signal repeated the value the fence held.
        let value = signals.get(i as usize)?.0;
        (signals.iter().find(|(at, _)| *at >= value)).map(|(_, f)| *f)
    }
}

/// A loaded script's references as the device's, now.
impl<'a> Rename<'a, Target, ObjectKey> for Resolver<'_, '_, '_> {
    type Error = String;

    fn object(&mut self, slot: Slot, target: &'a Target) -> Result<ObjectKey, String> {
        self.key(slot, target)
    }

    fn chain(&mut self, target: &'a Target) -> Result<SwapChainKey, String> {
        self.swap_chain(target)
    }

    /// Each insert makes a fresh device fence under the name (FN-1); a wait before any
    /// insert of the name waits on a fence that does not exist yet (FN-3).
    fn fence(&mut self, name: &'a String, insert: bool) -> Result<FenceId, String> {
        if insert {
            let fence = self.device.next_fence(self.queue);
            self.state.fences.insert(name.clone(), fence);
            return Ok(fence);
        }
        Ok(match self.state.fences.get(name) {
            Some(f) => *f,
            None => self.device.next_fence(self.queue),
        })
    }

    fn query(&mut self, name: &'a String) -> Result<u32, String> {
        Ok(self.query_number(name))
    }

    fn region(&mut self, region: &'a CopyBox) -> CopyRegion {
        region.region()
    }
}
