//! One command of a script: the device's command set with names instead of handles, plus
//! the two CPU-side calls a render loop makes between commands (making a view, RL-6, and the
//! final release of an object, FS-6).
//!
//! The variants are named, and take their fields, as in [`crate::device::Command`], so that a
//! stream reads the same in a scene, a trace and the seed. Each reference to an object sits
//! in a [`Slot`] that says what it is used for: the loader checks a name against the kinds its
//! slot takes, and the runtime resolves a swap chain by slot (a view slot of a pass script
//! means the view the runtime rotated). [`ScriptCommand::try_map`] is the one walk over the
//! references that both use, so a new command cannot be checked one way and run another.

use serde::{Deserialize, Serialize};

use super::ViewKind;
use super::script::Slot;
use super::script_barrier::{BufferBarrierDef, GlobalBarrierDef, TextureBarrierDef};
use crate::device::{MapMode, ShaderStage};

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
        }
    }

    /// The same command with every reference renamed by `f`, told the slot of each; stops
    /// at the first reference `f` refuses.
    pub fn try_map<'a, S, E>(
        &'a self,
        mut f: impl FnMut(Slot, &'a R) -> Result<S, E>,
    ) -> Result<ScriptCommand<S>, E> {
        use ScriptCommand as C;
        let mut all = |slot: Slot, list: &'a [R]| -> Result<Vec<S>, E> {
            list.iter().map(|r| f(slot, r)).collect()
        };
        Ok(match self {
            C::SetRenderTargets { rtvs, dsv } => C::SetRenderTargets {
                rtvs: all(Slot::View, rtvs)?,
                dsv: match dsv {
                    Some(d) => all(Slot::View, std::slice::from_ref(d))?.pop(),
                    None => None,
                },
            },
            C::SetResources {
                stage,
                first_slot,
                views,
            } => C::SetResources {
                stage: *stage,
                first_slot: *first_slot,
                views: all(Slot::View, views)?,
            },
            C::SetVertexBuffers(b) => C::SetVertexBuffers(all(Slot::Buffer, b)?),
            C::SetConstantBuffers { stage, buffers } => C::SetConstantBuffers {
                stage: *stage,
                buffers: all(Slot::Buffer, buffers)?,
            },
            C::SetIndexBuffer(b) => C::SetIndexBuffer(f(Slot::Buffer, b)?),
            C::CopyResource { src, dst, bytes } => C::CopyResource {
                src: f(Slot::Copy, src)?,
                dst: f(Slot::Copy, dst)?,
                bytes: *bytes,
            },
            C::UpdateSubresource { resource, bytes } => C::UpdateSubresource {
                resource: f(Slot::Copy, resource)?,
                bytes: *bytes,
            },
            C::RawCopy {
                src,
                dst,
                offset,
                bytes,
            } => C::RawCopy {
                src: f(Slot::Copy, src)?,
                dst: f(Slot::Copy, dst)?,
                offset: *offset,
                bytes: *bytes,
            },
            C::RawFill {
                dst,
                offset,
                bytes,
                value,
            } => C::RawFill {
                dst: f(Slot::Copy, dst)?,
                offset: *offset,
                bytes: *bytes,
                value: *value,
            },
            C::ClearRenderTarget(v) => C::ClearRenderTarget(f(Slot::View, v)?),
            C::ClearDepthStencil(v) => C::ClearDepthStencil(f(Slot::View, v)?),
            C::ClearUnorderedAccess(v) => C::ClearUnorderedAccess(f(Slot::View, v)?),
            C::Barrier {
                global,
                buffers,
                textures,
            } => C::Barrier {
                global: global.clone(),
                buffers: (buffers.iter())
                    .map(|b| b.try_map(|r| f(Slot::Buffer, r)))
                    .collect::<Result<_, _>>()?,
                textures: (textures.iter())
                    .map(|t| t.try_map(|r| f(Slot::Texture, r)))
                    .collect::<Result<_, _>>()?,
            },
            C::WaitOnPresent(b) => C::WaitOnPresent(f(Slot::BackBuffer, b)?),
            C::Decompress(r) => C::Decompress(f(Slot::Decompress, r)?),
            C::PlaceSwapChainView { view, buffer } => C::PlaceSwapChainView {
                view: f(Slot::View, view)?,
                buffer: f(Slot::BackBuffer, buffer)?,
            },
            C::Map { resource, mode } => C::Map {
                resource: f(Slot::Buffer, resource)?,
                mode: *mode,
            },
            C::Unmap(r) => C::Unmap(f(Slot::Buffer, r)?),
            C::Present(c) => C::Present(f(Slot::Chain, c)?),
            C::CreateView { name, of, kind } => C::CreateView {
                name: name.clone(),
                of: f(Slot::ViewOf, of)?,
                kind: *kind,
            },
            C::Release(r) => C::Release(f(Slot::Release, r)?),
            C::SetViewport { width, height } => C::SetViewport {
                width: *width,
                height: *height,
            },
            C::SetPipelineState(p) => C::SetPipelineState(*p),
            C::ClearState => C::ClearState,
            C::GetState => C::GetState,
            C::SetPrimitiveResetIndex(i) => C::SetPrimitiveResetIndex(*i),
            C::Draw {
                draws,
                vertices,
                pixels,
            } => C::Draw {
                draws: *draws,
                vertices: *vertices,
                pixels: *pixels,
            },
            C::Dispatch {
                dispatches,
                threads,
            } => C::Dispatch {
                dispatches: *dispatches,
                threads: *threads,
            },
            C::InsertFence { name, kickoff } => C::InsertFence {
                name: name.clone(),
                kickoff: *kickoff,
            },
            C::WaitFence(name) => C::WaitFence(name.clone()),
            C::Kickoff => C::Kickoff,
            C::DontSyncOnCopy(on) => C::DontSyncOnCopy(*on),
            C::WriteTimestamp(slot) => C::WriteTimestamp(*slot),
            C::Suspend => C::Suspend,
            C::Resume => C::Resume,
        })
    }

    /// Every reference with its slot, in order.
    pub fn refs(&self) -> Vec<(Slot, &R)> {
        let mut out = Vec::new();
        let _ = self.try_map(|slot, r| {
            out.push((slot, r));
            Ok::<(), ()>(())
        });
        out
    }
}

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_come_with_their_slots() {
        let c: ScriptCommand<String> = ScriptCommand::PlaceSwapChainView {
            view: "v".into(),
            buffer: "sc".into(),
        };
        let refs: Vec<(Slot, &str)> = c.refs().into_iter().map(|(s, r)| (s, r.as_str())).collect();
        assert_eq!(refs, vec![(Slot::View, "v"), (Slot::BackBuffer, "sc")]);
        assert_eq!(c.name(), "PlaceSwapChainView");
    }
}
