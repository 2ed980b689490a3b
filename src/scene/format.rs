//! The scene file as serde data: what a `.ron` scene says, before any name is resolved.
//!
//! The model's components hold `Entity` references, which mean nothing in a file, so views,
//! passes, uses and timeline events get their own definitions here that refer to other
//! entities by name. Everything that has no references (`Texture`, `Buffer`, `SwapChain`,
//! `Work`, `Settings`, `Lifetime`) is embedded as is: the model's serde form *is* the file
//! format, so the two cannot drift apart.
//!
//! Every struct denies unknown fields: a misspelt optional field would otherwise be ignored
//! silently and the scene would run with a default the author never meant. Optional fields
//! are written bare (`texture: (...)`, not `Some(...)`): scenes are parsed and written with
//! RON's `implicit_some` extension on by default (see [`ron_options`]), and fields at their
//! default are left out when writing so saved scenes read like hand-written ones. The serde
//! names are the format's own (`Entity`, `Pass`, `Event`...), which is what RON's messages
//! about unknown fields and variants then say.

use glam::UVec2;
use ron::extensions::Extensions;
use serde::{Deserialize, Serialize};

use crate::barrier::Sync;
use crate::model::{
    Buffer, ComputeQueue, Format, Heap, Lifetime, PassCost, PassQueries, QueueKind, Script,
    ScriptCommand, Settings, SwapChain, Texture, UseAccess, ViewKind, Work,
};

/// The RON options scenes are read and written with: `implicit_some` by default, so that
/// optional fields take their value without a `Some(...)` wrapper, and the default recursion
/// limit, so that absurdly nested input is an error rather than a stack overflow.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

/// A whole scene file: `Scene(settings: ..., entities: [...], timeline: [...])`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct SceneFile {
    /// Run settings; every field has a default.
    #[serde(default)]
    pub settings: Settings,
    /// The entities alive from the first frame.
    #[serde(default)]
    pub entities: Vec<EntityDef>,
    /// Scripted changes, in any order (they are sorted by frame when loaded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<EventDef>,
    /// A command script run instead of the frame graph: one list of submissions per frame
    /// of the loop (see [`crate::model::Script`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<Script<String>>,
}

/// One entity: a name and exactly one of the six kinds. The kinds are separate optional
/// fields (not an enum) so the file reads `(name: "hdr", texture: (...))`; the loader checks
/// that exactly one is given.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Entity", deny_unknown_fields)]
pub struct EntityDef {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<Texture>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<Buffer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<ViewDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass: Option<PassDef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap_chain: Option<SwapChain>,
    /// A block of memory placed resources share (EB-5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap: Option<Heap>,
    /// Textures and buffers only: placed in a heap at an offset, sharing its memory with
    /// whatever else overlaps that range (aliasing, EB-9d).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placed: Option<PlacedDef>,
    /// Textures and buffers only; `Imported` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifetime: Option<Lifetime>,
    /// Passes only; a disabled pass is skipped until a timeline `Enable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled: Option<bool>,
}

/// Where a placed resource lives: `placed: (heap: "transient", offset: 65536)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Placed", deny_unknown_fields)]
pub struct PlacedDef {
    pub heap: String,
    #[serde(default)]
    pub offset: u64,
}

/// A view of a texture, buffer or swap chain, by name. The range fields default to every
/// subresource; counts are optional because "all" is not a number the author should write.
/// `of: "chain[i]"` views buffer `i` of a swap chain by creation index, for scripts (RL-5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "View", deny_unknown_fields)]
pub struct ViewDef {
    pub of: String,
    pub kind: ViewKind,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_mip: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mip_count: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_slice: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_count: Option<u32>,
    /// Minimum LOD an SRV clamps to (FS-13).
    #[serde(default, skip_serializing_if = "is_zero_f32")]
    pub min_lod: f32,
    /// Textures only: the format the view sees the texels as, one of the texture's family
    /// (an sRGB view of a UNORM texture); the texture's own when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
}

/// A pass, with its uses and `after` edges by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Pass", deny_unknown_fields)]
pub struct PassDef {
    #[serde(default)]
    pub queue: QueueKind,
    #[serde(default)]
    pub uses: Vec<UseDef>,
    /// What the pass costs; `None` (the default) for passes that only clear.
    #[serde(default = "no_work", skip_serializing_if = "is_no_work")]
    pub work: Work,
    /// Passes that must run before this one besides what the uses imply.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// The pass's body as explicit commands, recorded instead of what the runtime would
    /// generate from the uses and work; planned barriers, fences and waits still surround it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<Vec<ScriptCommand<String>>>,
    /// What the draw or dispatch costs, in place of the profile's fixed cycles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<PassCost>,
    /// Compute passes: the asynchronous compute queue to run on (CC-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_queue: Option<ComputeQueue>,
    /// Timestamp and occlusion queries resolved into a readback buffer (CTX-6, CC-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queries: Option<PassQueries<String>>,
}

/// One use of a texture, buffer, view or swap chain, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Use", deny_unknown_fields)]
pub struct UseDef {
    pub target: String,
    pub access: UseAccess,
    /// Stages performing the access, as bitflag names: `"VERTEX_SHADING | PIXEL_SHADING"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stages: Option<Sync>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub clear: bool,
    /// Textures only: the subresources used, when not all (EB-6). A view's range does the
    /// same for uses through a view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<UseRange>,
}

/// The subresources a use names: `range: (first_mip: 1, mip_count: 1)`. Counts run to the
/// end when absent; planes are 0 (depth) and 1 (stencil) of a depth-stencil format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Range", deny_unknown_fields)]
pub struct UseRange {
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_mip: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mip_count: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_slice: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice_count: Option<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_plane: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plane_count: Option<u32>,
}

impl UseRange {
    /// As a barrier range.
    pub fn range(&self) -> crate::barrier::SubresourceRange {
        crate::barrier::SubresourceRange {
            first_mip: self.first_mip,
            mip_count: self.mip_count.unwrap_or(u32::MAX),
            first_slice: self.first_slice,
            slice_count: self.slice_count.unwrap_or(u32::MAX),
            first_plane: self.first_plane,
            plane_count: self.plane_count.unwrap_or(u32::MAX),
        }
    }

    /// From a barrier range (`None` for every subresource).
    pub fn of(r: &crate::barrier::SubresourceRange) -> Option<UseRange> {
        let count = |c: u32| (c != u32::MAX).then_some(c);
        (!r.is_all()).then(|| UseRange {
            first_mip: r.first_mip,
            mip_count: count(r.mip_count),
            first_slice: r.first_slice,
            slice_count: count(r.slice_count),
            first_plane: r.first_plane,
            plane_count: count(r.plane_count),
        })
    }
}

/// A timeline entry: at the start of `frame`, `event` happens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "TimelineEntry", deny_unknown_fields)]
pub struct EventDef {
    pub frame: u64,
    pub event: EventKindDef,
}

/// A timeline event, by name. `Add` carries a full entity definition, spawned dormant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Event", deny_unknown_fields)]
pub enum EventKindDef {
    Resize {
        chain: String,
        extent: UVec2,
    },
    Enable(String),
    Disable(String),
    Add(Box<EntityDef>),
    Release(String),
    /// Suspend for `frames` display refreshes, then resume (CC-8, FS-11).
    Suspend {
        frames: u32,
    },
}

impl EntityDef {
    /// How many of the six kinds the definition gives (exactly one is valid).
    pub fn kind_count(&self) -> usize {
        usize::from(self.texture.is_some())
            + usize::from(self.buffer.is_some())
            + usize::from(self.view.is_some())
            + usize::from(self.pass.is_some())
            + usize::from(self.swap_chain.is_some())
            + usize::from(self.heap.is_some())
    }
}

fn no_work() -> Work {
    Work::None
}

fn is_no_work(w: &Work) -> bool {
    *w == Work::None
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn is_zero_f32(v: &f32) -> bool {
    *v == 0.0
}

fn is_false(v: &bool) -> bool {
    !*v
}
