//! The command set: the one language the recorder, the device, the validator and scene
//! scripts speak. Each command knows the engine stages it occupies (for timing) and which
//! objects it touches (for validation); those facts are in `command_facts.rs`.
//!
//! [`Command<R>`] is generic over how it refers to objects ([`ReferenceType`]): the device's
//! commands are `Command` (handles), a scene's script commands are `Command<String>` (names)
//! and, once loaded, `Command<Target>`; one walk (`model::Rename`) turns one into another.
//! So a command is added in one place, and its serde attributes here are its scene form
//! (the form the seed writes): every script command reads as the device command it is.
//! Two commands are written differently in a scene, and their serde form lives with the
//! script command (`model::ScriptCommand`): `Barrier`, a struct variant in a scene
//! (`Barrier(textures: [...])`), which derived serde cannot make of a tuple variant, and
//! `ExecuteCommandList`, which a script gives as the name of one of its lists.

use serde::{Deserialize, Serialize};

use super::command_defaults as defaults;
use super::fast_binding::{FastSet, SharedBatch};
use super::{IndexFormat, MapMode, ObjectKey, PredicationOp, ReferenceType, ShaderStage, Topology};
use crate::barrier::BarrierGroup;
use crate::model::Semantics;

/// One command, naming objects by `R` (the device's handles unless said otherwise).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Command",
    deny_unknown_fields,
    bound(
        serialize = "R: Serialize, R::Chain: Serialize, R::Fence: Serialize, \
                     R::Query: Serialize, R::Region: Serialize",
        deserialize = "R: Deserialize<'de>, R::Chain: Deserialize<'de>, \
                       R::Fence: Deserialize<'de>, R::Query: Deserialize<'de>, \
                       R::Region: Deserialize<'de>"
    )
)]
pub enum Command<R: ReferenceType = ObjectKey> {
    // Binding and state.
    /// Bind render-target views and an optional depth-stencil view.
    SetRenderTargets {
        rtvs: Vec<R>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dsv: Option<R>,
    },
    SetViewport {
        width: u32,
        height: u32,
    },
    /// Bind the pipeline state of a pass (an opaque id).
    SetPipelineState(u32),
    /// Bind views to consecutive slots of a stage (RB-1: at most 8 per call).
    SetResources {
        stage: ShaderStage,
        #[serde(default)]
        first_slot: u32,
        views: Vec<R>,
        /// Whether the shaders write the UAVs among `views`: true unless the scene says
        /// `writes: false`, for the common read-only use of a UAV (SRVs are read either way).
        #[serde(default = "defaults::yes", skip_serializing_if = "defaults::is_true")]
        writes: bool,
    },
    /// A scene writes the list alone: `SetVertexBuffers(["vb"])`.
    #[serde(
        serialize_with = "Serialize::serialize",
        deserialize_with = "Deserialize::deserialize"
    )]
    SetVertexBuffers {
        buffers: Vec<R>,
    },
    SetIndexBuffer(R),
    /// CSSetPlacement…: binds one view at one compute slot, its memory at `base`'s address
    /// plus `offset` bytes, which overrides the base address stored in the view (CC-3). One
    /// slot per call. The view's extent from there must lie inside `base`, at a 4-byte
    /// aligned offset (the validator's V0213, the device's refusal).
    CSSetPlacementResource {
        slot: u32,
        view: R,
        base: R,
        #[serde(default, skip_serializing_if = "defaults::is_zero")]
        offset: u64,
    },
    SetConstantBuffers {
        stage: ShaderStage,
        buffers: Vec<R>,
    },
    /// Unbind everything (what Present and Resume do implicitly, FS-11).
    ClearState,
    /// Read back bound state (a Get* call such as GetRenderTargets): legal on a legacy
    /// context, it fails on a fast one, which shadows no state (FS-7).
    GetState,
    /// SetResourceMinLOD, in whole mip levels. A shader resource view takes its MinLOD from
    /// the resource when it is created; a fast context's views ignore later changes, a legacy
    /// context's defer to the resource, and either way only a rebind applies it (FS-13).
    SetResourceMinLod {
        resource: R,
        lod: u32,
    },
    /// SetShaderResourceViewMinLOD, in whole mip levels: the view's own MinLOD, in effect on
    /// a context only once the view is set there again (FS-13).
    SetShaderResourceViewMinLod {
        view: R,
        lod: u32,
    },
    /// The primitive-reset (strip-cut) index. Fast contexts default to 0xFFFFFFFF; 16-bit
    /// strips must set 0xFFFF explicitly, a value legacy contexts refuse (FS-14).
    SetPrimitiveResetIndex(u32),
    /// The primitive topology of later draws; triangle lists until set (and after a reset).
    SetPrimitiveTopology(Topology),
    /// The format of the bound index buffer's indices: the format argument of
    /// IASetIndexBuffer, given as its own command so that `SetIndexBuffer` keeps one
    /// argument. 32-bit until set (and after a reset). A draw with an index buffer bound is
    /// an indexed draw.
    SetIndexFormat(IndexFormat),

    // Work.
    Draw {
        #[serde(default = "defaults::one")]
        draws: u32,
        #[serde(default)]
        vertices: u64,
        #[serde(default)]
        pixels: u64,
    },
    Dispatch {
        #[serde(default = "defaults::one")]
        dispatches: u32,
        #[serde(default)]
        threads: u64,
    },
    CopyResource {
        src: R,
        dst: R,
        bytes: u64,
    },
    /// Copy a region of one texture subresource into a region of another, or of the same
    /// one: a texture in a common layout may be its own source and destination when the
    /// regions do not intersect (barrier-spec A3.8, EB-9c).
    CopyTextureRegion {
        src: R,
        dst: R,
        bytes: u64,
        from: R::Region,
        to: R::Region,
    },
    ClearRenderTarget(R),
    ClearDepthStencil(R),
    ClearUnorderedAccess(R),
    /// Write `bytes` of CPU data into a resource through the context: legacy contexts only,
    /// unsupported on fast ones (FS-14).
    UpdateSubresource {
        resource: R,
        bytes: u64,
    },
    /// Compute contexts only: copy `bytes` of raw memory from `src` to `dst` at `offset`
    /// (CC-6: graphics memory only, size a multiple of 4).
    RawCopy {
        src: R,
        dst: R,
        #[serde(default)]
        offset: u64,
        bytes: u64,
    },
    /// Compute contexts only: fill `bytes` of raw memory of `dst` at `offset` with the 32-bit
    /// `value` (CC-6: graphics memory only, size a multiple of 4).
    RawFill {
        dst: R,
        #[serde(default)]
        offset: u64,
        bytes: u64,
        #[serde(default)]
        value: u32,
    },

    // Synchronisation.
    /// One barrier call (EB-6). Its scene form is `ScriptCommand`'s (see the essay).
    #[serde(skip)]
    Barrier(BarrierGroup<R>),
    /// Mark a position in this queue's stream; `kickoff` false defers activation (FN-3). In
    /// a scene each insert makes a new fence under `name`, which waits name (FN-1).
    InsertFence {
        #[serde(rename = "name")]
        fence: R::Fence,
        #[serde(default = "defaults::yes")]
        kickoff: bool,
    },
    /// Halt this queue's command processing until `fence` is reached (FN-2). Before any
    /// insert of a scene's fence name it waits on a fence that does not exist yet (FN-3).
    WaitFence(R::Fence),
    /// Flush pending commands to the GPU (activates no-kickoff fences, FN-3).
    Kickoff,
    /// Wait until `buffer` has left presentation (FS-5).
    WaitOnPresent(R),
    /// Decompress a render target or depth buffer in place (FS-4, RL-1).
    Decompress(R),
    /// Re-point a view at the current back buffer (RL-7).
    PlaceSwapChainView {
        view: R,
        buffer: R,
    },
    /// The `DONT_SYNC_ON_COPY` list hint (EB-8d): for the rest of this submission, copies and
    /// clears on this queue are not serialised against each other.
    DontSyncOnCopy(bool),

    // Memory.
    Map {
        resource: R,
        mode: MapMode,
    },
    Unmap(R),

    // Queries and time.
    /// Write the GPU clock (100 MHz ticks, CC-7) to query slot `n` at the bottom of the pipe,
    /// once everything before it on the queue has finished.
    WriteTimestamp(u32),

    // Command lists on the immediate context (CTX-3, CTX-4).
    /// Open a playback scope: the lists executed until `EndCommandListExecution` are one
    /// playback, of one semantics.
    BeginCommandListExecution,
    /// Close the playback scope.
    EndCommandListExecution,
    /// Play back a list recorded on a deferred context of `semantics` (CTX-1). The device
    /// runs its commands in place, labelled `label`. Outside a scope it is a scope of its
    /// own. A fast list starts from whatever state the context has and leaves its own state
    /// behind (FS-12); a legacy list starts cleared and the state before it is restored.
    #[serde(skip)]
    ExecuteCommandList {
        label: u32,
        semantics: Semantics,
        commands: Vec<Command<R>>,
    },
    /// D3D12 `ExecuteBundle` on a direct list: a bundle's commands, recorded once, replayed
    /// in place with the list's state (the bundle sets its own pipeline state and
    /// topology), leaving what it sets behind. Not a list of its own: no scope, no state
    /// restored, no ExecuteCommandLists boundary.
    #[serde(skip)]
    ExecuteBundle {
        label: u32,
        commands: Vec<Command<R>>,
    },
    /// Start query `n`.
    BeginQuery(R::Query),
    /// End query `n`: its data is written when the GPU gets here; the CPU may read it
    /// (GetData) only on the immediate context after that (CTX-6).
    EndQuery(R::Query),

    // Frames.
    /// Show the chain's buffer 0 at the next vertical blank and rotate (RL-5). Resets state
    /// (FS-11) and kicks off the graphics queue.
    Present(R::Chain),
    /// Graphics only: lock the compute and DMA contexts until `Resume`, once their kicked-off
    /// work has finished (CC-8). Saves no state (FS-11). Kicks off.
    Suspend,
    /// Graphics only: unlock the compute and DMA contexts; resets all state and bindings like
    /// ClearState, so everything must be set again (FS-11). Kicks off.
    Resume,

    // Work the ports need (after `Resume` so that earlier variants keep their indices).
    /// Dispatches whose thread-group counts the GPU reads from `args` (DispatchIndirect, or
    /// ExecuteIndirect with a dispatch signature): at most `dispatches`, `threads` in all as
    /// the arguments ask (the simulation does not read memory, so the script says how many).
    DispatchIndirect {
        args: R,
        #[serde(default = "defaults::one")]
        dispatches: u32,
        #[serde(default)]
        threads: u64,
    },
    /// Graphics only: draws whose arguments and count the GPU reads from `args`
    /// (ExecuteIndirect with a draw signature), as many as `draws`, `vertices` and `pixels`
    /// in all.
    ExecuteIndirect {
        args: R,
        #[serde(default = "defaults::one")]
        draws: u32,
        #[serde(default)]
        vertices: u64,
        #[serde(default)]
        pixels: u64,
    },
    /// Graphics only: resolve multisampled `src` into `dst` (ResolveSubresource), reading
    /// it in RESOLVE_SOURCE and writing `dst` in RESOLVE_DEST.
    ResolveSubresource {
        src: R,
        dst: R,
    },
    /// DMA engines only: fill `bytes` of `dst` at `offset` with the 32-bit `value`.
    DmaFill {
        dst: R,
        #[serde(default)]
        offset: u64,
        bytes: u64,
        #[serde(default)]
        value: u32,
    },
    /// DMA engines only: LZ-compress `bytes` of `src` into `dst` (the DMA engine's encoder).
    LzCompress {
        src: R,
        dst: R,
        bytes: u64,
    },
    /// DMA engines only: LZ-decompress `src` into `bytes` of `dst` (the DMA engine's decoder).
    LzDecompress {
        src: R,
        dst: R,
        bytes: u64,
    },
    /// Copy the results of the `count` queries from query `first` on into buffer `dst` from
    /// byte `offset` (ResolveQueryData's AlignedDestinationBufferOffset, a multiple of 8), 8
    /// bytes each, written as a copy (COPY_DEST). The CPU may read them once a fence after
    /// the resolve has passed (CTX-6). The device numbers queries (a pass's ring of slots); a
    /// script names the one query it resolves, as its EndQuery does.
    ResolveQueryData {
        dst: R,
        first: R::Query,
        #[serde(default = "defaults::one")]
        count: u32,
        #[serde(default, skip_serializing_if = "defaults::is_zero")]
        offset: u64,
    },

    // Context calls a fast context refuses (after `LzDecompress` so that earlier variants
    // keep their indices).
    /// Whether the context inserts partial flushes after dispatches by itself: unsupported
    /// on a fast context, where the call fails (FS-3).
    CSEnableAutomaticGpuFlush(bool),
    /// Create a device context state object: fails on a fast context (FS-7).
    CreateDeviceContextState,
    /// Swap the context's state for a saved one: fails on a fast context (FS-7).
    SwapDeviceContextState,
    /// Graphics only: bind stream-output target buffers at byte `offsets`. An offset of -1
    /// appends where the last output stopped, which a fast context does not support: the
    /// call fails (FS-14). (The simulation does not model what draws write through them.)
    SOSetTargets {
        buffers: Vec<R>,
        offsets: Vec<i64>,
    },

    // Fast resource binding (RB-1, RB-2; after the ports' variants, as above).
    /// `SetFastResources`: set-type tokens written straight into the constant-engine command
    /// buffer, one room check for the call, at most eight resources (RB-1).
    SetFastResources(Vec<FastSet<R>>),
    /// `SetFastResourcesFromBatch`: copy a pre-compiled batch inline (RB-2). A scene names the
    /// batch (`model::ScriptCall::SetFastResourcesFromBatch`); the device's command carries
    /// the snippet, with the objects it named when it was built.
    #[serde(skip)]
    SetFastResourcesFromBatch(SharedBatch<R>),
    /// The CPU reads `bytes` of a mapped dynamic buffer (between Map and Unmap). Dynamic
    /// buffers are write-combined on a fast immediate context (FS-15): the read bypasses the
    /// caches and costs far more CPU time than the same read of cached memory.
    ReadMapped {
        resource: R,
        bytes: u64,
    },

    // Compute-context dispatch flags (CC-4; after `ReadMapped`, as above).
    /// Compute contexts only: SetDispatchFlags, for the context's later dispatches until set
    /// again (or Resume resets the state). `bypass_l1`: the dispatches read and write through
    /// L2, not the CUs' L1 caches, so what they read after a fence or barrier needs no L1
    /// invalidation; each pays the longer trips to L2
    /// (`device::compute::L1_BYPASS_WORK_PERCENT`). The three debug flags exist on debug and validated driver
    /// builds only and re-introduce an automatic flush after each dispatch: a compute
    /// partial flush (`debug_partial_flush`), an L1 invalidation (`debug_invalidate_l1`) and
    /// an L2 write-back (`debug_flush_l2`). The device performs them and charges them; the
    /// validator does not count them as ordering, since a retail driver ignores them (V0505).
    SetDispatchFlags {
        #[serde(default, skip_serializing_if = "defaults::is_false")]
        bypass_l1: bool,
        #[serde(default, skip_serializing_if = "defaults::is_false")]
        debug_partial_flush: bool,
        #[serde(default, skip_serializing_if = "defaults::is_false")]
        debug_invalidate_l1: bool,
        #[serde(default, skip_serializing_if = "defaults::is_false")]
        debug_flush_l2: bool,
    },

    // Early-out of long compute work (CC-8; after `SetDispatchFlags`, as above).
    /// Compute contexts only: the context's later dispatches were written with an early-out
    /// path, polling the title's early-out flag (until set again, or Resume resets it). They
    /// end their shading when the CPU raises the flag (`SignalEarlyOut`).
    SetEarlyOutPath(bool),
    /// A CPU write of the title's early-out flag: raised (`true`) or lowered. It takes effect
    /// at the CPU time of the call, not in any queue's order; running or later dispatches
    /// with an early-out path end their shading while it is raised (CC-8). A title raises it
    /// in its suspend handler before Suspend, so that long compute work finishes within the
    /// system's wait at suspend, and lowers it after Resume.
    SignalEarlyOut(bool),

    // DecompressResource's flags (FS-4; after `SignalEarlyOut`, as above).
    /// DecompressResource with its flags: decompress a render target or depth buffer in place
    /// (FS-4). With `propagate_color_clear` (D3D11X_DECOMPRESS_PROPAGATE_COLOR_CLEAR) it also
    /// writes the clear colour into the blocks a fast clear left to the metadata (the
    /// fast-clear elimination); without it, a surface fast-cleared since it was last
    /// eliminated keeps that metadata, which the display engine and a fast context's readers
    /// cannot decode. `Decompress(x)` is the call with the flag, as the seed's render loops
    /// make it.
    DecompressResource {
        resource: R,
        #[serde(default, skip_serializing_if = "defaults::is_false")]
        propagate_color_clear: bool,
    },

    // Predication (after `DecompressResource`, as above).
    /// SetPredication: from here on the list's draws, dispatches, copies, clears and resolves
    /// are skipped while the 64-bit value at byte `offset` of `buffer` compares to zero as
    /// `op` says; `buffer: None` turns predication off. The GPU reads the value when it
    /// executes this call, not at each operation, so the call is the buffer's access:
    /// PREDICATION (the INDIRECT_ARGUMENT bit, legacy state and enhanced access alike) in the
    /// PREDICATION sync scope. `offset` is a multiple of 8 and the value lies inside the
    /// buffer, or the device refuses the call. Queries and barriers are never predicated.
    /// The simulation does not read memory: the operations run and cost as written, the
    /// predicate passing.
    SetPredication {
        buffer: Option<R>,
        #[serde(default, skip_serializing_if = "defaults::is_zero")]
        offset: u64,
        #[serde(default)]
        op: PredicationOp,
    },
}
