//! Run settings: the knobs a scene or the command line turns. One ECS resource.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::Rotation;

/// How the runtime synchronises passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BarrierMode {
    /// Minimal enhanced barriers: exact sync, access and layout per resource (EB-1..EB-5).
    #[default]
    Enhanced,
    /// A global ALL -> ALL barrier with full cache write-back and invalidation between
    /// dependent passes, plus the layout transitions textures need. Correct, never minimal:
    /// the baseline other strategies are measured against.
    Conservative,
    /// Legacy resource-state transitions, UAV and aliasing barriers, translated by the driver
    /// into enhanced barriers (EB-10) and priced as legacy barriers.
    Legacy,
}

/// How the recorder binds a pass's resources (RB-1, RB-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BindingMode {
    /// A batch per pass (at most eight resources each), built once and copied inline every
    /// frame by `SetFastResourcesFromBatch` (RB-2): a pass's bindings are only known at run
    /// time.
    #[default]
    Batches,
    /// `SetFastResources` calls of at most eight resources, written every frame (RB-1).
    Calls,
    /// The legacy per-stage calls (`SetResources`, `SetVertexBuffers`,
    /// `SetConstantBuffers`), each slot its own packet: the baseline.
    PerSlot,
}

/// Which valid order of the passes a frame runs in (`plan::schedule`). Every one computes
/// the same frame; they differ in where fences and hand-overs fall.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Order {
    /// The passes as the scene declares them (moved only where a late read needs it).
    #[default]
    Declaration,
    /// Queues run as far as they can alone and meet rarely: fewer cross-queue fences, at the
    /// price of some overlap.
    FewerBarriers,
    /// Each queue on a clock of estimated pass costs: the pass that can start earliest goes
    /// next, the longest remaining path first, and no queue waits for more than it needs.
    Overlap,
}

/// Fast or legacy semantics, chosen per context (CTX-4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Semantics {
    #[default]
    Fast,
    Legacy,
}

/// The device creation flags a fast immediate context implies (FS-15, seed 000:
/// `D3D11_CREATE_DEVICE_FAST_KICKOFFS`, `_WRITE_COMBINED_COMMAND_BUFFERS`,
/// `_WRITE_COMBINED_DYNAMIC_BUFFERS`). A legacy immediate context has only those the scene
/// asks for; a fast one always has all three ([`DeviceFlags::effective`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeviceFlags {
    /// Kickoffs skip the kernel round trip a legacy kickoff makes.
    pub fast_kickoffs: bool,
    /// Command buffers are write-combined: the driver's stores stream past the CPU caches.
    pub write_combined_command_buffers: bool,
    /// Dynamic buffers are write-combined: writes stream, CPU reads are uncached and slow.
    pub write_combined_dynamic_buffers: bool,
}

impl DeviceFlags {
    /// All three flags.
    pub const ALL: DeviceFlags = DeviceFlags {
        fast_kickoffs: true,
        write_combined_command_buffers: true,
        write_combined_dynamic_buffers: true,
    };

    /// The flags a device created with `self` has when its immediate context has
    /// `semantics`: a fast immediate context always uses all three (FS-15).
    pub fn effective(self, semantics: Semantics) -> DeviceFlags {
        match semantics {
            Semantics::Fast => DeviceFlags::ALL,
            Semantics::Legacy => self,
        }
    }
}

/// Which API's rules a stream is written to, and so checked by (scripts and command lists;
/// the runtime's own streams keep every rule of the strictest, `D3d11x`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Api {
    /// D3D11.X fast semantics (seed 000): an explicit Decompress before Present (FS-4) and
    /// views set again after a clear, map or decompression (FS-8).
    #[default]
    D3d11x,
    /// Xbox Series D3D12 with enhanced barriers (seed 004): a barrier into COMMON/PRESENT
    /// decompresses, a clear unbinds nothing, every command list starts with nothing bound,
    /// and nothing is flushed at an ExecuteCommandLists boundary (EB-8a).
    D3d12x,
    /// PC D3D12: as `D3d12x`, but every ExecuteCommandLists boundary drains the queue and
    /// flushes its caches, and access declarations start again at COMMON (barrier-spec A8).
    D3d12Pc,
}

/// Settings of a run. Scenes give them under `settings: (...)`; the CLI may override.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Frames the CPU may run ahead of the GPU before it waits on a frame fence.
    pub frames_in_flight: u32,
    /// The barrier strategy asked for; what runs is [`Settings::barriers_run`].
    pub barriers: BarrierMode,
    /// Compute passes on an asynchronous compute queue (CC-1); off puts them on graphics.
    pub async_compute: bool,
    /// With async compute on, a compute pass whose estimated GPU time (its dispatches spread
    /// over every compute unit, or its declared cost) is under this many microseconds stays on
    /// the graphics queue: the fence pair and hand-over barriers that moving it would cost
    /// exceed the overlap it could gain (issue 19). 0 sends every compute pass to its queue.
    pub async_min_us: f64,
    /// Compute pipe (0 below graphics, 1 above, CC-2) of the asynchronous compute queue.
    pub compute_pipe: u8,
    /// Compute units each pipe-0 compute queue may use (CC-2: the device starts them at 4
    /// and the limit can be changed); `None` means all of the device's, what an engine sets
    /// (a limit of 4 starves heavy async passes, README); more than the device has means all.
    pub compute_cu_limit: Option<u32>,
    /// The simulated GPU, by name (`console-2013`, `console-2020`; see `device::Profile`).
    pub profile: String,
    /// Check every executed stream with the validation layer.
    pub validation: bool,
    /// Simulated CPU time of one frame (recording and submission), in microseconds.
    pub cpu_frame_us: f64,
    /// Overrides every swap chain's rotation strategy when set.
    pub rotation: Option<Rotation>,
    /// Semantics of the immediate context and of the deferred contexts the runtime records
    /// on (CTX-4); a script's lists say their own. Independent of `barriers`.
    pub semantics: Semantics,
    /// A step the runtime omits on purpose, to see validation catch it (`--fault`).
    pub fault: Option<super::Fault>,
    /// The API whose rules the streams are checked by.
    pub api: Api,
    /// False as when the loose file `D3D__DisableLegacyResourceBarrierTranslation` is
    /// deployed (seed 004): the driver stops translating legacy barriers into enhanced ones
    /// and does not support mixing the two, so a scene whose scripts use both is refused.
    #[serde(skip_serializing_if = "is_true")]
    pub legacy_barrier_translation: bool,
    /// How passes bind their resources (RB-1, RB-2).
    pub binding: BindingMode,
    /// CPU threads recording the frame's deferred contexts in parallel (CTX-2, CTX-7).
    pub record_threads: u32,
    /// The order passes run in (issue 19).
    pub order: Order,
    /// Device creation flags (FS-15): what a legacy immediate context uses; a fast one uses
    /// all of them whatever this says.
    #[serde(skip_serializing_if = "is_default_flags")]
    pub device_flags: DeviceFlags,
    /// True as when the title defines `D3DCOMPILE_NO_DEBUG` to 1 before including
    /// `D3D11_X.H`, as seed 002 advises for retail builds: every `SetFastResources`
    /// invocation loses an if statement and half its code, so half its CPU cost
    /// (`device::cpu_cost`). False, the default, prices the calls as debug builds.
    #[serde(skip_serializing_if = "is_false")]
    pub d3dcompile_no_debug: bool,
    /// Place the frame graph's transients in one shared heap by lifetime (EB-5, EB-9d;
    /// [`crate::plan::alias`]); false gives each its own memory, to compare. Placement runs
    /// with the enhanced and conservative strategies ([`Settings::aliasing_runs`]).
    #[serde(skip_serializing_if = "is_true")]
    pub aliasing: bool,
}

fn is_default_flags(f: &DeviceFlags) -> bool {
    *f == DeviceFlags::default()
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            frames_in_flight: 2,
            barriers: BarrierMode::Enhanced,
            async_compute: true,
            async_min_us: 0.0,
            compute_pipe: 0,
            compute_cu_limit: None,
            profile: crate::device::DEFAULT_PROFILE.to_owned(),
            validation: false,
            cpu_frame_us: 1000.0,
            rotation: None,
            semantics: Semantics::Fast,
            fault: None,
            api: Api::D3d11x,
            legacy_barrier_translation: true,
            binding: BindingMode::Batches,
            record_threads: 4,
            order: Order::Declaration,
            device_flags: DeviceFlags::default(),
            d3dcompile_no_debug: false,
            aliasing: true,
        }
    }
}

impl Settings {
    /// The barrier strategy that runs: the one asked for, or `Legacy` on a device without
    /// the enhanced Barrier API (EB-11, seed 004: the 2013 console), whose driver has
    /// legacy resource-state barriers alone; both other strategies issue enhanced barriers.
    pub fn barriers_run(&self) -> BarrierMode {
        match crate::device::has_enhanced_barriers(&self.profile) {
            true => self.barriers,
            false => BarrierMode::Legacy,
        }
    }

    /// True when the runtime places the frame graph's transients in a shared heap: aliasing
    /// is on and the strategy that runs issues enhanced barriers, which activate and
    /// deactivate each transient per resource (EB-9d). The legacy strategy's aliasing
    /// barrier is the whole-GPU stall of EB-9(d), translated without naming the resources
    /// (EB-10), so under it transients keep their own memory.
    pub fn aliasing_runs(&self) -> bool {
        self.aliasing && self.barriers_run() != BarrierMode::Legacy
    }

    /// The strategy asked for when the device cannot run it (see [`Settings::barriers_run`]),
    /// which the run summary states beside the one that ran.
    pub fn barriers_refused(&self) -> Option<BarrierMode> {
        Some(self.barriers).filter(|b| *b != self.barriers_run())
    }
}

/// The frame the CPU is building, counted from 0.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameIndex(pub u64);
