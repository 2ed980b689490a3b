//! Command scripts: a frame, or one pass, given as the explicit device commands a title
//! issues, executed as written.
//!
//! A frame graph describes what a frame needs and lets the runtime decide how; a title being
//! ported already has its own stream and wants to know whether *that* is legal under fast
//! semantics (RL-4: port on a validated device first). A script is that stream, written in
//! the device's own command set ([`crate::device::Command`]) with names instead of handles,
//! plus the calls a render loop makes between commands ([`super::ScriptCall`]): creating a
//! view (RL-6 makes one every frame), the final release of an object (FS-6, RL-3), reading
//! query data, and playing back the script's own command lists. The validation layer sees a
//! script's stream exactly as it sees the runtime's own, so the seed's loops and mistakes can
//! be checked as the seed writes them.
//!
//! The types are generic over how an object is named: `String` in a scene file, [`Target`]
//! once the loader has resolved names to entities. Device handles are only looked up when a
//! command executes, because what a name stands for changes while a frame runs: a swap chain
//! means the buffer at index 0 *at that moment* (each Present rotates it, RL-5), and a view
//! made by `CreateView` exists from the moment it is made.
//!
//! [`Script::frames`] holds one command list per frame of a loop; frame `i` runs list `i`
//! and, past the end, the lists cycle from [`Script::repeat_from`]. That is how a script
//! says what a title keeps in its own per-frame index: one list per back buffer for saved
//! views (RL-5), one per ring slot for fenced views (RL-6), a prologue before the loop.

use bevy_ecs::prelude::*;
use hashbrown::HashMap;
use serde::{Deserialize, Serialize};

use super::script_command::{ScriptCommand, ScriptRef};
use super::{QueueKind, Semantics};
use crate::device::{FenceId, ObjectKey};

/// A frame script: one list of submissions per frame of the loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Script",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct Script<R: ScriptRef> {
    pub frames: Vec<Vec<Submission<R>>>,
    /// After the last list, frames cycle over `frames[repeat_from..]` (0: the whole list),
    /// so the lists before it run once, as a prologue.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub repeat_from: usize,
    /// Command lists recorded on deferred contexts, played back on the immediate context by
    /// `ExecuteCommandList(name)` (CTX-1). A list is recorded, its names resolved, each time
    /// it is played back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<ListDef<R>>,
    /// D3D12 bundles: short lists of draw-time commands recorded once, the first time an
    /// `ExecuteBundle(name)` of a frame list replays them, and replayed in place by every
    /// `ExecuteBundle` after.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bundles: Vec<BundleDef<R>>,
    /// Which view slots pipeline states' shaders access, where the title describes them: a
    /// draw or dispatch with a described pipeline touches only the views bound at its
    /// slots, one with any other every bound view (`device::ShaderSlots`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pipelines: Vec<PipelineDef>,
}

/// The view slots one pipeline state's shaders access (`SetPipelineState(id)`): each a
/// stage and a slot, as `SetResources` numbers them (`first_slot` and up).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Pipeline", deny_unknown_fields)]
pub struct PipelineDef {
    pub id: u32,
    pub views: Vec<(crate::device::ShaderStage, u32)>,
}

/// A bundle (`ID3D12GraphicsCommandList` of type BUNDLE): what it records, once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Bundle",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct BundleDef<R: ScriptRef> {
    pub name: String,
    pub commands: Vec<ScriptCommand<R>>,
}

/// A command list recorded on a deferred context of the given semantics (CTX-4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "List",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct ListDef<R: ScriptRef> {
    pub name: String,
    /// The semantics of the deferred context that records it; `Fast` by default.
    #[serde(default, skip_serializing_if = "is_fast")]
    pub semantics: Semantics,
    pub commands: Vec<ScriptCommand<R>>,
}

impl<R: ScriptRef> Script<R> {
    /// The list frame `frame` runs, or `None` for a script without frames.
    pub fn list_for(&self, frame: u64) -> Option<usize> {
        let len = self.frames.len() as u64;
        if frame < len {
            return Some(frame as usize);
        }
        let from = (self.repeat_from as u64).min(len.checked_sub(1)?);
        Some((from + (frame - from) % (len - from)) as usize)
    }
}

/// Commands played back on one queue, as one command list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(
    rename = "Submission",
    deny_unknown_fields,
    bound(deserialize = "R: Deserialize<'de>")
)]
pub struct Submission<R: ScriptRef> {
    /// `Graphics`, `Compute` (the asynchronous compute queue of `compute_pipe`, CC-2) or
    /// `Copy` (a DMA engine).
    #[serde(default)]
    pub queue: QueueKind,
    /// Which queue of its kind: the compute queue's index on its pipe (CC-2: 6 on pipe 0,
    /// 3 on pipe 1) or the DMA engine (0 or 1); 0 by default.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub engine: u8,
    /// What diagnostics call the list (their "pass"); `script` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub commands: Vec<ScriptCommand<R>>,
}

/// What a loaded script's name stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A texture, buffer, view or swap chain of the scene. A swap chain means the buffer at
    /// index 0 when the command executes (or, in a pass script's view slot, the view the
    /// runtime rotated for this frame, FS-9).
    Entity(Entity),
    /// `"chain[i]"`: buffer `i` of a swap chain, by creation index.
    ChainBuffer { chain: Entity, index: u32 },
    /// A view made by the script's own `CreateView`.
    Local(String),
}

/// What a reference is used for; decides which kinds of object it may name (checked when
/// loading) and how a swap chain resolves (when executing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A view bound or cleared: render targets, depth, shader resources, Clear*View,
    /// PlaceSwapChainView's view.
    View,
    /// A buffer bound or mapped, or a buffer barrier's resource.
    Buffer,
    /// A texture barrier's resource, a resolve's source or destination: a texture or a
    /// swap-chain buffer.
    Texture,
    /// A copy's source or destination: a texture, buffer or swap-chain buffer.
    Copy,
    /// A back buffer: WaitOnPresent, PlaceSwapChainView's buffer.
    BackBuffer,
    /// What Decompress names: a texture, a swap-chain buffer, or a view of one.
    Decompress,
    /// What Present names: a swap chain (FS-11, RL-5).
    Chain,
    /// What CreateView views: a texture, buffer or swap-chain buffer.
    ViewOf,
    /// What Release frees: a texture, buffer or view (FS-6, RL-3).
    Release,
}

/// The loaded frame script of a scene. While it exists the runtime runs it instead of the
/// frame graph (no compile, barriers, record, submit or present of passes).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct FrameScript(pub Script<Target>);

/// Where each command of the frame script is in the scene file (`file:line:col`): per frame
/// list, per submission, per command; a submission the loader could not locate has none.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct ScriptLocations {
    pub frames: Vec<Vec<Vec<std::sync::Arc<str>>>>,
}

/// Where each command of each pass script is in the scene file (`file:line:col`), by pass
/// name; a pass the loader could not locate has none.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct PassScriptLocations {
    pub passes: HashMap<String, Vec<std::sync::Arc<str>>>,
}

/// A pass whose recorded body is this script instead of what the runtime would generate
/// from its uses; the planned barriers, fences and waits still surround it.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct PassScript(pub Vec<ScriptCommand<Target>>);

/// On a view of a swap chain: it views buffer `index` by creation index (`"chain[1]"`), not
/// whichever buffer is at index 0. Only scripts may use such a view (RL-5 saved views).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainBufferIndex(pub u32);

/// What scripts have made while running: device objects the runtime does not author.
#[derive(Resource, Debug, Default)]
pub struct ScriptState {
    /// Views made by `CreateView`, by name, while alive.
    pub views: HashMap<String, ObjectKey>,
    /// The latest fence inserted or signalled under each name (FN-1).
    pub fences: HashMap<String, FenceId>,
    /// The values each name was signalled to (`Signal`), in order, with their fences.
    pub values: HashMap<String, Vec<(u64, FenceId)>>,
    /// The legacy state a script's `ResourceBarrier` transitions left each resource in, per
    /// subresource index (`ALL_SUBRESOURCES` for all), as the driver keeps it (EB-10).
    pub legacy: HashMap<(ObjectKey, u32), crate::barrier::ResourceStates>,
    /// Query numbers by name (CTX-6).
    pub queries: HashMap<String, u32>,
    /// Device views of scene views of swap chains, made at first use: the view, and the
    /// buffer it was made for (made again when a resize replaced that buffer).
    pub chain_views: HashMap<Entity, (ObjectKey, ObjectKey)>,
    /// Batches built by `SetFastResourcesIntoBatch`, by name, with the entities they name
    /// (a `FromBatch` uses them, which gates their release, FS-6; RB-2).
    pub batches: HashMap<String, (crate::device::SharedBatch<ObjectKey>, Vec<Entity>)>,
    /// Buffers a script's `ResizeBuffers` made, by chain and creation index: what
    /// `"chain[i]"` names from the call on, before the buffer entities catch up.
    pub resized: HashMap<(Entity, u32), ObjectKey>,
    /// The extent and format each chain a `ResizeBuffers` resized has now.
    pub resized_to: HashMap<Entity, (glam::UVec2, super::Format)>,
    /// Bundles recorded so far, by name: their commands, with the names resolved when they
    /// were recorded, and the entities those name (each replay uses them, FS-6).
    pub bundles: HashMap<String, (Vec<crate::device::Command>, Vec<Entity>)>,
}

fn is_zero_u8(v: &u8) -> bool {
    *v == 0
}

fn is_zero(v: &usize) -> bool {
    *v == 0
}

fn is_fast(s: &Semantics) -> bool {
    *s == Semantics::Fast
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_cycle_from_repeat_from() {
        let list = |n: usize, from: usize| Script::<String> {
            frames: vec![Vec::new(); n],
            repeat_from: from,
            lists: Vec::new(),
            bundles: Vec::new(),
            pipelines: Vec::new(),
        };
        let run = |s: &Script<String>| (0..7).map(|f| s.list_for(f)).collect::<Vec<_>>();
        let some = |v: &[usize]| v.iter().map(|&i| Some(i)).collect::<Vec<_>>();
        assert_eq!(run(&list(3, 0)), some(&[0, 1, 2, 0, 1, 2, 0]));
        assert_eq!(run(&list(3, 1)), some(&[0, 1, 2, 1, 2, 1, 2]));
        assert_eq!(run(&list(3, 2)), some(&[0, 1, 2, 2, 2, 2, 2]));
        assert_eq!(run(&list(2, 9)), some(&[0, 1, 1, 1, 1, 1, 1]));
        assert_eq!(list(0, 0).list_for(5), None);
    }
}
