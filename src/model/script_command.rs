//! One command of a script: a device command with names instead of handles, or one of the
//! calls a render loop makes that are not device commands.
//!
//! The device's command set is [`Command<R>`] itself, with `R` a [`ScriptRef`]: a name in a
//! scene file, a [`Target`] once loaded. Nothing mirrors it, so a command added to the device
//! is a script command at once, written in a scene as the device's variant is named.
//!
//! What a script does besides device commands is a [`ScriptCall`], kept apart from
//! [`Command`] rather than added to it as variants, because the device, the recorder and the
//! validator match on the command set and should never see a script's own calls: making a
//! view (RL-6), the final release of an object (FS-6), reading query data on the CPU
//! (CTX-6), and playing back one of the script's own lists by name, which becomes a device
//! `ExecuteCommandList` only once the list is recorded (CTX-1). A scene writes both kinds
//! the same way, `Name(...)`, so the wrapper has no form of its own in a file
//! (`script_serde.rs`).

use serde::{Deserialize, Serialize};

use super::{CopyBox, Target, ViewKind};
use crate::barrier::ResourceStates;
use crate::device::{Command, FastSet, ReferenceType};

/// How a script names things: objects by `Self`, swap chains like other objects, fences,
/// queries and lists by name, copy regions as boxes of a 2D subresource.
pub trait ScriptRef:
    ReferenceType<Chain = Self, Fence = String, Query = String, Region = CopyBox>
{
}

/// A scene file's references: names, resolved when the scene loads.
impl ReferenceType for String {
    type Chain = String;
    type Fence = String;
    type Query = String;
    type Region = CopyBox;
}

impl ScriptRef for String {}

/// A loaded script's references: targets, turned into handles when a command executes.
impl ReferenceType for Target {
    type Chain = Target;
    type Fence = String;
    type Query = String;
    type Region = CopyBox;
}

impl ScriptRef for Target {}

/// One script command.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptCommand<R: ScriptRef> {
    /// A device command, executed as written (names resolved when it executes).
    Device(Command<R>),
    /// A call that is not a device command.
    Call(ScriptCall<R>),
}

/// What a script does besides device commands, named like the calls a title makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Command",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub enum ScriptCall<R> {
    /// CPU side: make a view now, under a name later commands use (RL-6). Making one under
    /// a name that still holds a live view releases that view first, as assigning a smart
    /// pointer would (and is checked like `Release`).
    CreateView { name: String, of: R, kind: ViewKind },
    /// CPU side: the final release of an object, now (FS-6, RL-3). A view name `CreateView`
    /// has not made yet releases nothing, like releasing a null pointer.
    Release(R),
    /// Play back the script's list of that name (`lists`), recorded on a deferred context of
    /// the list's semantics. Outside a Begin/EndCommandListExecution scope it is a scope of
    /// its own. Fast lists neither start from a cleared state nor restore the immediate
    /// context's state after them (FS-12).
    ExecuteCommandList(String),
    /// D3D12 `ExecuteBundle`: replay the script's bundle of that name (`bundles`) here, in
    /// the list being recorded. The bundle inherits the list's bindings, targets, viewport
    /// and predication, not its pipeline state or primitive topology, and what it sets
    /// stays set after it.
    ExecuteBundle(String),
    /// CPU side: read the data of the latest `EndQuery` of that name (GetData). Only on the
    /// immediate context, after the list that ended it was executed and the GPU processed it
    /// (a fence after it has passed) (CTX-6).
    GetQueryData(String),
    /// CPU side: the CPU writes `bytes` of a buffer through a pointer it keeps mapped (a
    /// D3D12 upload heap's `memcpy`, as a title fills its frame's constants). Nothing waits:
    /// every GPU use of the buffer must be covered by a fence the CPU has seen pass (FS-1,
    /// FN-2), or the write races it.
    WriteMapped { resource: R, bytes: u64 },
    /// D3D12 `ID3D12CommandQueue::Signal`: the queue sets fence `fence` to `value` when it
    /// gets here (a fence inserted with kickoff, FN-1..FN-3). Values of a name never
    /// decrease: a Signal may repeat the value the fence holds, as D3D12 allows, and a wait
    /// for it is met by the first; without one, the next value (the idiom
    /// `Signal(fence, ++value)`).
    Signal {
        fence: String,
        #[serde(default, skip_serializing_if = "is_zero")]
        value: u64,
    },
    /// D3D12 `ID3D12CommandQueue::Wait`: the queue waits until fence `fence` reaches a value
    /// (FN-2): `value: N`, the first Signal to N or more; or `back: K`, the value signalled K
    /// Signals before the latest (0: the latest; a frame loop's `back: 1` is the previous
    /// frame's). A value before the first Signal is the initial one, reached at once. Waiting on a value no Signal before it reaches waits on a
    /// fence that does not exist yet (FN-3).
    Wait {
        fence: String,
        #[serde(default, skip_serializing_if = "is_zero")]
        value: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        back: u64,
    },
    /// CPU side: block until fence `fence` reaches a value (`SetEventOnCompletion` and
    /// `WaitForSingleObject`). Everything the fence covers happens before what the CPU
    /// submits after (FN-2).
    WaitForFenceCpu {
        fence: String,
        #[serde(default, skip_serializing_if = "is_zero")]
        value: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        back: u64,
    },
    /// CPU side: the free-threaded pending test (FN-2). A fence found passed orders what it
    /// covers before what the CPU submits after, as a wait would.
    IsFencePending {
        fence: String,
        #[serde(default, skip_serializing_if = "is_zero")]
        value: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        back: u64,
    },
    /// A legacy `ResourceBarrier` call (barrier-spec B): the driver translates it into one
    /// enhanced Barrier call (EB-10).
    ResourceBarrier(Vec<LegacyScriptBarrier<R>>),
    /// CPU side: `ID3D12Fence::GetCompletedValue` compared with a value: a poll, as
    /// `IsFencePending`.
    GetCompletedValue {
        fence: String,
        #[serde(default, skip_serializing_if = "is_zero")]
        value: u64,
        #[serde(default, skip_serializing_if = "is_zero")]
        back: u64,
    },
    /// CPU side: `SetFastResourcesIntoBatch`, a batch built now under `name` from set-type
    /// tokens (RB-2). It keeps the objects its names hold now, whatever the names hold
    /// later; building one again under the name replaces it.
    SetFastResourcesIntoBatch { name: String, sets: Vec<FastSet<R>> },
    /// `SetFastResourcesFromBatch`: copy the batch of that name inline (RB-2). Every object
    /// it was built with must still exist.
    SetFastResourcesFromBatch(String),
    /// CPU side: `IDXGISwapChain::ResizeBuffers`, the chain's buffers replaced now by new
    /// ones of `extent`, the same count, and `format` when given (an HDR title switching
    /// its back buffers to 10-bit or FP16), the chain's current format otherwise
    /// (DXGI_FORMAT_UNKNOWN keeps it). As D3D12 requires, nothing on the GPU may still use
    /// the old buffers (a title flushes its queues first, FS-6, RL-3): they are released at
    /// the call, so the validation layer and the device judge each as a release. The
    /// chain's back buffer is its buffer 0 again; views of the old buffers are stale and are
    /// made again (a scene view of `chain[i]` at its next use, a `CreateView` name by the
    /// script).
    ResizeBuffers {
        chain: R,
        extent: (u32, u32),
        #[serde(default, skip_serializing_if = "Option::is_none")]
        format: Option<super::Format>,
    },
}

/// One barrier of a legacy `ResourceBarrier` call, as a scene writes it. States are the
/// `D3D12_RESOURCE_STATES` names joined by `|`; `""` is COMMON (= PRESENT).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "LegacyBarrier",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub enum LegacyScriptBarrier<R> {
    /// A state change of one subresource (`subresource: N`) or of all of them (default).
    Transition {
        resource: R,
        #[serde(default = "all_subresources", skip_serializing_if = "is_all")]
        subresource: u32,
        before: ResourceStates,
        after: ResourceStates,
    },
    /// Order the UAV accesses of one resource (a UAV barrier).
    Uav(R),
    /// Order every UAV access (a UAV barrier with no resource).
    UavAll,
    /// Hand placed memory from `before` to `after` (an aliasing barrier: a full stall).
    Aliasing { before: R, after: R },
}

fn all_subresources() -> u32 {
    crate::barrier::ALL_SUBRESOURCES
}

fn is_all(s: &u32) -> bool {
    *s == crate::barrier::ALL_SUBRESOURCES
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl<R: ScriptRef> ScriptCommand<R> {
    /// The command's name, as in the file.
    pub fn name(&self) -> &'static str {
        match self {
            ScriptCommand::Device(c) => c.name(),
            ScriptCommand::Call(c) => c.name(),
        }
    }
}

impl<R> ScriptCall<R> {
    /// The call's name, as in the file.
    pub fn name(&self) -> &'static str {
        match self {
            ScriptCall::CreateView { .. } => "CreateView",
            ScriptCall::Release(_) => "Release",
            ScriptCall::ExecuteCommandList(_) => "ExecuteCommandList",
            ScriptCall::ExecuteBundle(_) => "ExecuteBundle",
            ScriptCall::GetQueryData(_) => "GetQueryData",
            ScriptCall::WriteMapped { .. } => "WriteMapped",
            ScriptCall::Signal { .. } => "Signal",
            ScriptCall::ResourceBarrier(_) => "ResourceBarrier",
            ScriptCall::Wait { .. } => "Wait",
            ScriptCall::WaitForFenceCpu { .. } => "WaitForFenceCpu",
            ScriptCall::IsFencePending { .. } => "IsFencePending",
            ScriptCall::GetCompletedValue { .. } => "GetCompletedValue",
            ScriptCall::SetFastResourcesIntoBatch { .. } => "SetFastResourcesIntoBatch",
            ScriptCall::SetFastResourcesFromBatch(_) => "SetFastResourcesFromBatch",
            ScriptCall::ResizeBuffers { .. } => "ResizeBuffers",
        }
    }

    /// The value a fence wait or test means (`value`, `back`), as in `Wait`.
    pub fn fence_value(&self) -> (u64, u64) {
        match self {
            ScriptCall::Wait { value, back, .. }
            | ScriptCall::WaitForFenceCpu { value, back, .. }
            | ScriptCall::IsFencePending { value, back, .. }
            | ScriptCall::GetCompletedValue { value, back, .. } => (*value, *back),
            _ => (0, 0),
        }
    }

    /// The fence a fence call names, and whether it sets it (`Signal`).
    pub fn fence(&self) -> Option<(&str, bool)> {
        match self {
            ScriptCall::Signal { fence, .. } => Some((fence, true)),
            ScriptCall::Wait { fence, .. }
            | ScriptCall::WaitForFenceCpu { fence, .. }
            | ScriptCall::IsFencePending { fence, .. }
            | ScriptCall::GetCompletedValue { fence, .. } => Some((fence, false)),
            _ => None,
        }
    }
}

impl<R: ScriptRef> From<Command<R>> for ScriptCommand<R> {
    fn from(c: Command<R>) -> Self {
        ScriptCommand::Device(c)
    }
}

impl<R: ScriptRef> From<ScriptCall<R>> for ScriptCommand<R> {
    fn from(c: ScriptCall<R>) -> Self {
        ScriptCommand::Call(c)
    }
}
