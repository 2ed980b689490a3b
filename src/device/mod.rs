//! The simulated device: contexts, command lists, queues, fences and kickoffs, the present
//! engine, memory, and a deterministic timing model.
//!
//! It behaves like hardware with fast semantics: it executes commands and nothing more. It
//! knows nothing about passes or graphs, tracks no hazards and restores no state. Two things
//! it does refuse, because the alternative would be a crash rather than a wrong picture:
//! using a destroyed object, and destroying an object the GPU may still reference (FS-6).
//! A GPU that can never make progress is reported as a deadlock or a hang (FN-3, RL-2, CC-8),
//! not looped on.
//!
//! Time has two clocks on one time base. The CPU clock advances as the runtime records
//! frames; the GPU is a discrete-event simulation (`sim`) that runs up to the latest CPU
//! time the device has been told about (by a submission, a fence test, a destruction), since
//! work submitted later may compete for the GPU from then on. Waiting for a fence lets it run
//! until the fence passes. Every call that takes a CPU time therefore answers exactly, and
//! `&self` queries advance the simulation through a lock. Timestamps read the same time base
//! on a 100 MHz clock (CC-7).

mod barrier_cost;
mod command;
mod command_args;
mod command_defaults;
mod command_facts;
mod command_list;
mod compression;
pub mod compute;
mod context;
mod cost;
pub mod cpu_cost;
mod error;
mod fast;
mod fast_binding;
mod fence;
mod min_lod;
mod object;
mod pipeline;
pub mod predicate;
mod present;
mod profile;
mod queue;
mod reference;
pub mod resolve;
mod run;
mod settings;
mod shader_slots;
mod sim;
mod submit;
mod swap_chains;

pub use barrier_cost::{BarrierWork, Lowered, barrier_work};
pub use command::Command;
pub use command_args::{IndexFormat, MapMode, PredicationOp, ShaderStage, Topology};
pub use command_list::CommandList;
pub use compression::Compression;
pub use context::{ContextKind, DeferredContext};
pub use error::DeviceError;
pub use fast_binding::{
    BindingCount, CE_DWORD_PS, FastBatch, FastSet, HEADER_DWORDS, MAX_FAST_RESOURCES, SharedBatch,
    binding_dwords, count_binding, front_ns, legacy_slots,
};
pub use fence::{FENCE_SEQUENCE_BITS, FenceId};
pub use object::{HeapInfo, Memory, Object, ObjectDesc, ObjectKey, Placement};
pub use pipeline::ShaderCost;
pub use present::{PresentEngine, SwapChainKey, SwapChainState};
pub use profile::{
    COMPUTE_WORKLOAD_GUIDANCE_NS, CacheCost, CacheCosts, DEFAULT_PROFILE, PROFILE_NAMES, Profile,
    has_enhanced_barriers,
};
pub use queue::{COMPUTE_QUEUES_PER_PIPE, DMA_ENGINES, QUEUE_COUNT, QueueId};
pub use reference::ReferenceType;
pub use shader_slots::ShaderSlots;
pub use sim::record::{Executed, Stall};

use bevy_ecs::prelude::Resource;
use std::sync::{Mutex, MutexGuard};

use crate::model::{Api, Semantics};
use sim::Gpu;

/// The GPU timestamp clock, ticks per second (CC-7).
pub const TIMESTAMP_HZ: u64 = 100_000_000;

/// A synchronised GPU/CPU timestamp pair (CC-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampPair {
    /// GPU clock, 100 MHz ticks.
    pub gpu_ticks: u64,
    /// CPU clock, ns.
    pub cpu_ns: u64,
}

/// One submitted command as the device saw it on the CPU side, kept when tracing is on: for
/// tests and tools that check streams without trusting the runtime that produced them.
#[derive(Clone, Debug, PartialEq)]
pub struct Submitted {
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub command: Command,
    /// Resources written through render-target views by this command (views resolved at
    /// submission, after any earlier PlaceSwapChainView).
    pub writes: Vec<ObjectKey>,
    /// The buffer at index 0 of every swap chain at submission, before this command.
    pub back_buffers: Vec<ObjectKey>,
}

/// The simulated device, an ECS resource of the runtime.
#[derive(Resource)]
pub struct Device {
    /// When `Some`, every submitted command is appended here.
    pub trace: Option<Vec<Submitted>>,
    pub profile: Profile,
    pub memory: Memory,
    pub present: PresentEngine,
    /// What each surface's compression is, as commands change it (FS-4, EB-4).
    compression: Compression,
    /// The immediate context's semantics (CTX-4): a property of the context, whatever
    /// barriers the runtime plans.
    semantics: Semantics,
    /// Between a Suspend and its Resume on the CPU: compute and DMA calls fail (CC-8).
    suspended: bool,
    /// The device creation flags asked for (FS-15); [`Device::flags`] gives those in effect.
    flags: crate::model::DeviceFlags,
    /// Barriers are legacy ones translated by the driver (EB-10), priced as such.
    legacy_barriers: bool,
    /// False with the loose file `D3D__DisableLegacyResourceBarrierTranslation` (seed 004):
    /// legacy barriers take the driver's previous path (EB-10, [`crate::barrier::LegacyPath`]).
    legacy_barrier_translation: bool,
    /// The API the streams are written to (which rules the validation layer applies).
    api: Api,
    gpu: Mutex<Gpu>,
    fence_sequence: [u64; QUEUE_COUNT],
    /// Interned labels, by number, and each label's number (found in one hash lookup: a
    /// search of the list made the first tick of N passes take N^2 / 2 compares).
    labels: Vec<String>,
    label_ids: hashbrown::HashMap<String, u32>,
    /// Submissions and destructions asked of the device so far, accepted or not: what the
    /// validation layer must have seen as many of (RL-4).
    calls: DeviceCalls,
    /// What each pipeline state's shaders cost, by pipeline id, where the title said so.
    pipeline_costs: hashbrown::HashMap<u32, ShaderCost>,
    /// Which view slots each pipeline state's shaders access, where the title said so.
    pipeline_slots: hashbrown::HashMap<u32, ShaderSlots>,
    /// The pipeline state each queue has bound, as submission goes (FS-11 unbinds it).
    bound_pipeline: [Option<u32>; QUEUE_COUNT],
    /// Each compute context's dispatch flags (CC-4); Resume resets them (FS-11).
    dispatch_flags: [compute::DispatchFlags; QUEUE_COUNT],
    /// Each compute context's dispatches have an early-out path (CC-8); Resume resets it.
    early_out_path: [bool; QUEUE_COUNT],
    /// Resource and view MinLODs, what each context has bound with which, and the bytes
    /// sampled so far (FS-13).
    min_lods: min_lod::MinLods,
}

/// How many times the device was asked to submit and to destroy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceCalls {
    pub submissions: u64,
    pub destructions: u64,
}

impl Default for Device {
    fn default() -> Self {
        Self::new(Profile::default())
    }
}

impl Device {
    /// A device with the given profile.
    pub fn new(profile: Profile) -> Self {
        Self {
            trace: None,
            gpu: Mutex::new(Gpu::new(&profile)),
            profile,
            memory: Memory::default(),
            present: PresentEngine::default(),
            compression: Compression::default(),
            semantics: Semantics::Fast,
            flags: Default::default(),
            suspended: false,
            legacy_barriers: false,
            legacy_barrier_translation: true,
            api: Api::D3d11x,
            fence_sequence: [0; QUEUE_COUNT],
            labels: vec![String::new()],
            label_ids: hashbrown::HashMap::from_iter([(String::new(), 0)]),
            calls: DeviceCalls::default(),
            pipeline_costs: hashbrown::HashMap::new(),
            pipeline_slots: hashbrown::HashMap::new(),
            bound_pipeline: [None; QUEUE_COUNT],
            dispatch_flags: Default::default(),
            early_out_path: [false; QUEUE_COUNT],
            min_lods: Default::default(),
        }
    }

    /// Say what pipeline state `id`'s shaders cost (`None`: the profile's fixed cycles),
    /// for the draws and dispatches submitted from now on while it is bound
    /// ([`ShaderCost`]).
    pub fn set_pipeline_cost(&mut self, id: u32, cost: Option<ShaderCost>) {
        match cost {
            Some(c) => self.pipeline_costs.insert(id, c),
            None => self.pipeline_costs.remove(&id),
        };
    }

    /// Submissions and destructions asked of the device so far.
    pub fn calls(&self) -> DeviceCalls {
        self.calls
    }

    fn gpu(&self) -> MutexGuard<'_, Gpu> {
        self.gpu.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn gpu_mut(&mut self) -> &mut Gpu {
        self.gpu.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// Intern a label (a pass name) for commands and diagnostics.
    pub fn label(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.label_ids.get(name) {
            return i;
        }
        let i = u32::try_from(self.labels.len()).unwrap_or(u32::MAX);
        self.labels.push(name.to_owned());
        self.label_ids.insert(name.to_owned(), i);
        i
    }

    /// The text of a label.
    pub fn label_name(&self, label: u32) -> &str {
        self.labels.get(label as usize).map_or("", |s| s.as_str())
    }

    /// Create a texture, buffer or view.
    pub fn create(&mut self, name: &str, desc: ObjectDesc) -> Result<ObjectKey, DeviceError> {
        if let ObjectDesc::View { of, .. } = &desc {
            self.memory.get(*of)?;
        }
        let key = self.memory.create(name, desc);
        // A view takes its resource's MinLOD as it is now (FS-13).
        self.min_lods.created(key, &self.memory);
        Ok(key)
    }

    /// Give `view` its own MinLOD in whole mips, as `SetShaderResourceViewMinLOD` would: a
    /// scene view's `min_lod` (FS-13). Contexts see it from the view's next binding on.
    pub fn set_view_min_lod(&mut self, view: ObjectKey, lod: u32) {
        self.min_lods.set_view(view, lod);
    }

    /// Bytes the samplers of every draw and dispatch so far may have read: the mips at or
    /// coarser than the MinLOD in effect of each texture view bound to their stages (FS-13,
    /// `min_lod.rs`).
    pub fn sampled_bytes(&self) -> u64 {
        self.min_lods.sampled_bytes()
    }

    /// Destroy an object at CPU time `cpu_ns`. Refused while any command referencing it is
    /// unexecuted or finishes after `cpu_ns` (FS-6: the final release waits for the fence).
    pub fn destroy(&mut self, key: ObjectKey, cpu_ns: u64) -> Result<(), DeviceError> {
        self.calls.destructions += 1;
        self.memory.get(key)?;
        if self.is_presenting(key, cpu_ns) {
            return Err(DeviceError::OnScreen {
                object: self.memory.name(key),
            });
        }
        let gpu = self.gpu.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(state) = gpu.refs.get(key).copied() {
            if state.pending > 0 || state.last_end > cpu_ns {
                return Err(DeviceError::InUse {
                    object: self.memory.name(key),
                    pending: state.pending,
                });
            }
            gpu.refs.remove(key);
        }
        gpu.scanout.forget(key);
        self.memory.destroy(key)?;
        Ok(())
    }

    /// IsResourcePending at CPU time `cpu_ns`: whether work that updates resource fences
    /// still references `resource`. Only a legacy context's work does: fast contexts (FS-1)
    /// and compute contexts update none, so the query does not reflect their work (CC-5);
    /// a title polls fences instead.
    pub fn is_resource_pending(&self, resource: ObjectKey, cpu_ns: u64) -> bool {
        let mut gpu = self.gpu();
        gpu.horizon = gpu.horizon.max(cpu_ns);
        let until = gpu.horizon;
        gpu.advance(until, None, &self.profile);
        gpu.refs
            .get(resource)
            .is_some_and(|s| s.tracked_pending > 0 || s.tracked_end > cpu_ns)
    }

    /// The compression query (FS-4, seed 000: "the compression and fast clear state of a
    /// resource may be queried"): the metadata `surface` (or the resource of a view) may
    /// still hold after the commands submitted so far, DCC and FAST_CLEAR for a colour
    /// target, DEPTH and STENCIL for a depth buffer. Empty once decompressed; a draw or clear
    /// makes it live again.
    pub fn compression_state(&self, surface: ObjectKey) -> crate::barrier::Metadata {
        self.compression.query(&self.memory, surface)
    }

    /// Entries in the device's tables that could grow with a run (live objects, labels, the
    /// GPU's fences, items, streams and records) and the bytes they have allocated, for the
    /// memory report of a soak run.
    pub fn footprint(&self) -> (usize, usize) {
        let (gpu_entries, gpu_bytes) = self.gpu().footprint();
        let labels: usize = self.labels.iter().map(|l| l.capacity() * 2).sum();
        (
            self.memory.live_objects() + self.labels.len() + gpu_entries,
            gpu_bytes + labels + self.label_ids.capacity() * size_of::<(String, u32)>(),
        )
    }

    /// Allocate the next fence ID of `queue` (FN-1). It becomes a position in the stream only
    /// when an `InsertFence` carrying it is submitted.
    pub fn next_fence(&mut self, queue: QueueId) -> FenceId {
        let seq = &mut self.fence_sequence[queue.index()];
        *seq += 1;
        FenceId::new(queue, *seq)
    }
}
