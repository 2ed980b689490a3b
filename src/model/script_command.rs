//! One command of a script: the device's command set with names instead of handles, plus
//! the CPU-side calls a render loop makes between commands (making a view, RL-6, the
//! final release of an object, FS-6, and reading query data, CTX-6).
//!
//! The variants are named, and take their fields, as in [`crate::device::Command`], so that a
//! stream reads the same in a scene, a trace and the seed. Each reference to an object sits
//! in a [`super::Slot`] that says what it is used for; `try_map` (in `script_map.rs`) is the
//! one walk over the references. Names that are not objects (fences, queries, command lists)
//! are plain strings, checked by the loader.

use serde::{Deserialize, Serialize};

use super::script_barrier::{BufferBarrierDef, GlobalBarrierDef, TextureBarrierDef};
use super::{CopyBox, ViewKind};
use crate::device::{IndexFormat, MapMode, ShaderStage, Topology};

/// `ShaderStage`'s serde form, in the command set's names.
#[derive(Serialize, Deserialize)]
#[serde(remote = "ShaderStage", rename = "ShaderStage")]
enum ShaderStageDef {
    Vertex,
    Pixel,
    Compute,
}

/// `MapMode`'s serde form (CTX-5).
#[derive(Serialize, Deserialize)]
#[serde(remote = "MapMode", rename = "MapMode")]
enum MapModeDef {
    WriteDiscard,
    NoOverwrite,
}

/// `Topology`'s serde form.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Topology", rename = "Topology")]
enum TopologyDef {
    TriangleList,
    TriangleStrip,
    LineList,
    LineStrip,
    PointList,
}

/// `IndexFormat`'s serde form (FS-14).
#[derive(Serialize, Deserialize)]
#[serde(remote = "IndexFormat", rename = "IndexFormat")]
enum IndexFormatDef {
    R16Uint,
    R32Uint,
}

/// One script command: the device command set ([`crate::device::Command`]) with names, plus
/// the CPU-side `CreateView` and `Release`. Named like the device's commands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Command",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub enum ScriptCommand<R> {
    SetRenderTargets {
        rtvs: Vec<R>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dsv: Option<R>,
    },
    SetViewport {
        width: u32,
        height: u32,
    },
    SetPipelineState(u32),
    /// RB-1: consecutive slots from `first_slot`.
    SetResources {
        #[serde(with = "ShaderStageDef")]
        stage: ShaderStage,
        #[serde(default)]
        first_slot: u32,
        views: Vec<R>,
    },
    SetVertexBuffers(Vec<R>),
    SetIndexBuffer(R),
    SetConstantBuffers {
        #[serde(with = "ShaderStageDef")]
        stage: ShaderStage,
        buffers: Vec<R>,
    },
    /// Unbind everything (FS-11).
    ClearState,
    /// Read back bound state (a Get* call): fails on a fast context (FS-7).
    GetState,
    /// The primitive-reset index; 0xFFFF for 16-bit strips, refused by legacy contexts (FS-14).
    SetPrimitiveResetIndex(u32),
    /// Topology of later draws; `TriangleList` until set.
    SetPrimitiveTopology(#[serde(with = "TopologyDef")] Topology),
    /// Index size of the bound index buffer; `R32Uint` until set. 16-bit strips on a fast
    /// context need `SetPrimitiveResetIndex(0xFFFF)` (FS-14).
    SetIndexFormat(#[serde(with = "IndexFormatDef")] IndexFormat),
    Draw {
        #[serde(default = "one")]
        draws: u32,
        #[serde(default)]
        vertices: u64,
        #[serde(default)]
        pixels: u64,
    },
    Dispatch {
        #[serde(default = "one")]
        dispatches: u32,
        #[serde(default)]
        threads: u64,
    },
    CopyResource {
        src: R,
        dst: R,
        bytes: u64,
    },
    /// A region of a texture into a region of another or the same one (EB-9c).
    CopyTextureRegion {
        src: R,
        dst: R,
        bytes: u64,
        from: CopyBox,
        to: CopyBox,
    },
    /// A clear unbinds its view (FS-8).
    ClearRenderTarget(R),
    ClearDepthStencil(R),
    ClearUnorderedAccess(R),
    /// Unsupported on fast contexts (FS-14).
    UpdateSubresource {
        resource: R,
        bytes: u64,
    },
    /// Compute contexts only: raw memory copy (CC-6).
    RawCopy {
        src: R,
        dst: R,
        #[serde(default)]
        offset: u64,
        bytes: u64,
    },
    /// Compute contexts only: raw memory fill with a 32-bit value (CC-6).
    RawFill {
        dst: R,
        #[serde(default)]
        offset: u64,
        bytes: u64,
        #[serde(default)]
        value: u32,
    },
    /// One barrier call: global, buffer and texture barriers, each list optional (EB-6).
    Barrier {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        global: Vec<GlobalBarrierDef>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        buffers: Vec<BufferBarrierDef<R>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        textures: Vec<TextureBarrierDef<R>>,
    },
    /// Each insert makes a new fence; `WaitFence` names the latest of that name (FN-1).
    /// `kickoff: false` activates it only at a later kickoff (FN-3).
    InsertFence {
        name: String,
        #[serde(default = "yes")]
        kickoff: bool,
    },
    /// Halt this queue until the latest fence of that name is reached (FN-2). Before any
    /// insert of that name it waits on a fence that does not exist yet: a deadlock (FN-3).
    WaitFence(String),
    Kickoff,
    /// Wait until the buffer has left presentation (FS-5).
    WaitOnPresent(R),
    Decompress(R),
    /// Re-point a view at a back buffer (RL-7).
    PlaceSwapChainView {
        view: R,
        buffer: R,
    },
    /// The don't-sync-on-copy hint for the rest of the list (EB-8d).
    DontSyncOnCopy(bool),
    Map {
        resource: R,
        #[serde(with = "MapModeDef")]
        mode: MapMode,
    },
    Unmap(R),
    /// Write the GPU clock to query slot `n` (CC-7).
    WriteTimestamp(u32),
    /// Show the chain's buffer 0 and rotate (RL-5); resets all state (FS-11).
    Present(R),
    /// Lock the compute and DMA contexts until `Resume` (CC-8); saves no state (FS-11).
    Suspend,
    /// Unlock them; resets all state like ClearState (FS-11).
    Resume,
    /// Open a command-list playback scope on the immediate context (CTX-3, CTX-4).
    BeginCommandListExecution,
    /// Close it.
    EndCommandListExecution,
    /// Play back the script's list of that name (`lists`), recorded on a deferred context of
    /// the list's semantics. Outside a Begin/EndCommandListExecution scope it is a scope of
    /// its own. Fast lists neither start from a cleared state nor restore the immediate
    /// context's state after them (FS-12).
    ExecuteCommandList(String),
    /// Start a query of that name (occlusion-style: it generates data when it ends).
    BeginQuery(String),
    /// End it: the GPU writes its data when it gets there.
    EndQuery(String),
    /// CPU side: read the data of the latest `EndQuery` of that name (GetData). Only on the
    /// immediate context, after the list that ended it was executed and the GPU processed it
    /// (a fence after it has passed) (CTX-6).
    GetQueryData(String),
    /// CPU side: make a view now, under a name later commands use (RL-6). Making one under
    /// a name that still holds a live view releases that view first, as assigning a smart
    /// pointer would (and is checked like `Release`).
    CreateView {
        name: String,
        of: R,
        kind: ViewKind,
    },
    /// CPU side: the final release of an object, now (FS-6, RL-3). A view name `CreateView`
    /// has not made yet releases nothing, like releasing a null pointer.
    Release(R),
}

impl<R> ScriptCommand<R> {
    /// The command's name, as in the file.
    pub fn name(&self) -> &'static str {
        match self {
            ScriptCommand::SetRenderTargets { .. } => "SetRenderTargets",
            ScriptCommand::SetViewport { .. } => "SetViewport",
            ScriptCommand::SetPipelineState(_) => "SetPipelineState",
            ScriptCommand::SetResources { .. } => "SetResources",
            ScriptCommand::SetVertexBuffers(_) => "SetVertexBuffers",
            ScriptCommand::SetIndexBuffer(_) => "SetIndexBuffer",
            ScriptCommand::SetConstantBuffers { .. } => "SetConstantBuffers",
            ScriptCommand::ClearState => "ClearState",
            ScriptCommand::GetState => "GetState",
            ScriptCommand::SetPrimitiveResetIndex(_) => "SetPrimitiveResetIndex",
            ScriptCommand::UpdateSubresource { .. } => "UpdateSubresource",
            ScriptCommand::RawCopy { .. } => "RawCopy",
            ScriptCommand::RawFill { .. } => "RawFill",
            ScriptCommand::Draw { .. } => "Draw",
            ScriptCommand::Dispatch { .. } => "Dispatch",
            ScriptCommand::CopyResource { .. } => "CopyResource",
            ScriptCommand::CopyTextureRegion { .. } => "CopyTextureRegion",
            ScriptCommand::ClearRenderTarget(_) => "ClearRenderTarget",
            ScriptCommand::ClearDepthStencil(_) => "ClearDepthStencil",
            ScriptCommand::ClearUnorderedAccess(_) => "ClearUnorderedAccess",
            ScriptCommand::Barrier { .. } => "Barrier",
            ScriptCommand::InsertFence { .. } => "InsertFence",
            ScriptCommand::WaitFence(_) => "WaitFence",
            ScriptCommand::Kickoff => "Kickoff",
            ScriptCommand::WaitOnPresent(_) => "WaitOnPresent",
            ScriptCommand::Decompress(_) => "Decompress",
            ScriptCommand::PlaceSwapChainView { .. } => "PlaceSwapChainView",
            ScriptCommand::Map { .. } => "Map",
            ScriptCommand::Unmap(_) => "Unmap",
            ScriptCommand::Present(_) => "Present",
            ScriptCommand::DontSyncOnCopy(_) => "DontSyncOnCopy",
            ScriptCommand::WriteTimestamp(_) => "WriteTimestamp",
            ScriptCommand::Suspend => "Suspend",
            ScriptCommand::Resume => "Resume",
            ScriptCommand::CreateView { .. } => "CreateView",
            ScriptCommand::Release(_) => "Release",
            ScriptCommand::SetPrimitiveTopology(_) => "SetPrimitiveTopology",
            ScriptCommand::SetIndexFormat(_) => "SetIndexFormat",
            ScriptCommand::BeginCommandListExecution => "BeginCommandListExecution",
            ScriptCommand::EndCommandListExecution => "EndCommandListExecution",
            ScriptCommand::ExecuteCommandList(_) => "ExecuteCommandList",
            ScriptCommand::BeginQuery(_) => "BeginQuery",
            ScriptCommand::EndQuery(_) => "EndQuery",
            ScriptCommand::GetQueryData(_) => "GetQueryData",
        }
    }
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}
