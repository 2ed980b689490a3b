//! What each command is called, which pipeline stages it occupies and which objects it
//! names: the facts about a command that traces, the timing model and the liveness checks
//! read, kept apart from the command set itself (`command.rs`), which is its scene form.

use super::{Command, ObjectKey, ReferenceType};
use crate::barrier::Sync;

impl<R: ReferenceType> Command<R> {
    /// Short name for traces and diagnostics, as in a scene.
    pub fn name(&self) -> &'static str {
        match self {
            Command::SetRenderTargets { .. } => "SetRenderTargets",
            Command::SetViewport { .. } => "SetViewport",
            Command::SetPipelineState(_) => "SetPipelineState",
            Command::SetResources { .. } => "SetResources",
            Command::SetVertexBuffers { .. } => "SetVertexBuffers",
            Command::SetIndexBuffer(_) => "SetIndexBuffer",
            Command::CSSetPlacementResource { .. } => "CSSetPlacementResource",
            Command::SetConstantBuffers { .. } => "SetConstantBuffers",
            Command::ClearState => "ClearState",
            Command::GetState => "GetState",
            Command::SetResourceMinLod { .. } => "SetResourceMinLod",
            Command::SetShaderResourceViewMinLod { .. } => "SetShaderResourceViewMinLod",
            Command::SetPrimitiveResetIndex(_) => "SetPrimitiveResetIndex",
            Command::SetPrimitiveTopology(_) => "SetPrimitiveTopology",
            Command::SetIndexFormat(_) => "SetIndexFormat",
            Command::UpdateSubresource { .. } => "UpdateSubresource",
            Command::RawCopy { .. } => "RawCopy",
            Command::RawFill { .. } => "RawFill",
            Command::Draw { .. } => "Draw",
            Command::Dispatch { .. } => "Dispatch",
            Command::CopyResource { .. } => "CopyResource",
            Command::CopyTextureRegion { .. } => "CopyTextureRegion",
            Command::ClearRenderTarget(_) => "ClearRenderTarget",
            Command::ClearDepthStencil(_) => "ClearDepthStencil",
            Command::ClearUnorderedAccess(_) => "ClearUnorderedAccess",
            Command::Barrier(_) => "Barrier",
            Command::InsertFence { .. } => "InsertFence",
            Command::WaitFence(_) => "WaitFence",
            Command::Kickoff => "Kickoff",
            Command::WaitOnPresent(_) => "WaitOnPresent",
            Command::Decompress(_) => "Decompress",
            Command::PlaceSwapChainView { .. } => "PlaceSwapChainView",
            Command::DontSyncOnCopy(_) => "DontSyncOnCopy",
            Command::WriteTimestamp(_) => "WriteTimestamp",
            Command::Suspend => "Suspend",
            Command::Resume => "Resume",
            Command::Map { .. } => "Map",
            Command::Unmap(_) => "Unmap",
            Command::ReadMapped { .. } => "ReadMapped",
            Command::Present(_) => "Present",
            Command::BeginCommandListExecution => "BeginCommandListExecution",
            Command::EndCommandListExecution => "EndCommandListExecution",
            Command::ExecuteCommandList { .. } => "ExecuteCommandList",
            Command::ExecuteBundle { .. } => "ExecuteBundle",
            Command::BeginQuery(_) => "BeginQuery",
            Command::EndQuery(_) => "EndQuery",
            Command::DispatchIndirect { .. } => "DispatchIndirect",
            Command::ExecuteIndirect { .. } => "ExecuteIndirect",
            Command::ResolveSubresource { .. } => "ResolveSubresource",
            Command::DmaFill { .. } => "DmaFill",
            Command::LzCompress { .. } => "LzCompress",
            Command::LzDecompress { .. } => "LzDecompress",
            Command::ResolveQueryData { .. } => "ResolveQueryData",
            Command::CSEnableAutomaticGpuFlush(_) => "CSEnableAutomaticGpuFlush",
            Command::CreateDeviceContextState => "CreateDeviceContextState",
            Command::SwapDeviceContextState => "SwapDeviceContextState",
            Command::SOSetTargets { .. } => "SOSetTargets",
            Command::SetFastResources(_) => "SetFastResources",
            Command::SetFastResourcesFromBatch(_) => "SetFastResourcesFromBatch",
            Command::SetDispatchFlags { .. } => "SetDispatchFlags",
            Command::SetEarlyOutPath(_) => "SetEarlyOutPath",
            Command::SignalEarlyOut(_) => "SignalEarlyOut",
            Command::DecompressResource { .. } => "DecompressResource",
            Command::SetPredication { .. } => "SetPredication",
        }
    }

    /// The pipeline stages the command occupies while it runs (barrier-spec A1 "Commands"),
    /// as sync bits. The timing model works on the hardware
    /// [`crate::barrier::Stages`] they cover ([`crate::barrier::drain::sync_stages`]).
    pub fn stages(&self) -> Sync {
        match self {
            Command::Draw { .. } => Sync::DRAW,
            Command::ExecuteIndirect { .. } => Sync::DRAW | Sync::EXECUTE_INDIRECT,
            Command::Dispatch { .. } => Sync::COMPUTE_SHADING,
            Command::DispatchIndirect { .. } => Sync::COMPUTE_SHADING | Sync::EXECUTE_INDIRECT,
            Command::ResolveSubresource { .. } => Sync::RESOLVE,
            Command::DmaFill { .. }
            | Command::LzCompress { .. }
            | Command::LzDecompress { .. }
            | Command::ResolveQueryData { .. } => Sync::COPY,
            Command::CopyResource { .. }
            | Command::CopyTextureRegion { .. }
            | Command::UpdateSubresource { .. } => Sync::COPY,
            Command::RawCopy { .. } | Command::RawFill { .. } => Sync::COMPUTE_SHADING,
            Command::ClearRenderTarget(_) => Sync::RENDER_TARGET,
            Command::ClearDepthStencil(_) => Sync::DEPTH_STENCIL,
            Command::ClearUnorderedAccess(_) => Sync::CLEAR_UNORDERED_ACCESS_VIEW,
            // The GPU reads the predicate when it executes the call.
            Command::SetPredication {
                buffer: Some(_), ..
            } => Sync::PREDICATION,
            Command::Decompress(_) | Command::DecompressResource { .. } => {
                Sync::RENDER_TARGET | Sync::DEPTH_STENCIL
            }
            _ => Sync::NONE,
        }
    }
}

impl<R: ReferenceType> Command<R> {
    /// The surface an explicit decompression names and whether it propagates the fast-clear
    /// colour (FS-4): `Decompress` does, `DecompressResource` as its flag says.
    pub fn decompression(&self) -> Option<(&R, bool)> {
        match self {
            Command::Decompress(r) => Some((r, true)),
            Command::DecompressResource {
                resource,
                propagate_color_clear,
            } => Some((resource, *propagate_color_clear)),
            _ => None,
        }
    }
}

impl Command {
    /// Every object the command names (for liveness checks before execution, FS-6).
    pub fn objects(&self, out: &mut Vec<ObjectKey>) {
        match self {
            Command::SetRenderTargets { rtvs, dsv } => {
                out.extend(rtvs);
                out.extend(dsv);
            }
            Command::SetResources { views, .. } => out.extend(views),
            Command::SOSetTargets { buffers, .. } => out.extend(buffers),
            Command::SetVertexBuffers { buffers } | Command::SetConstantBuffers { buffers, .. } => {
                out.extend(buffers)
            }
            Command::SetIndexBuffer(k)
            | Command::ClearRenderTarget(k)
            | Command::ClearDepthStencil(k)
            | Command::ClearUnorderedAccess(k)
            | Command::WaitOnPresent(k)
            | Command::Decompress(k)
            | Command::DecompressResource { resource: k, .. }
            | Command::Unmap(k)
            | Command::ReadMapped { resource: k, .. }
            | Command::UpdateSubresource { resource: k, .. }
            | Command::RawFill { dst: k, .. }
            | Command::DmaFill { dst: k, .. }
            | Command::ResolveQueryData { dst: k, .. }
            | Command::DispatchIndirect { args: k, .. }
            | Command::ExecuteIndirect { args: k, .. } => out.push(*k),
            Command::CopyResource { src, dst, .. }
            | Command::CopyTextureRegion { src, dst, .. }
            | Command::RawCopy { src, dst, .. }
            | Command::ResolveSubresource { src, dst }
            | Command::LzCompress { src, dst, .. }
            | Command::LzDecompress { src, dst, .. } => out.extend([*src, *dst]),
            Command::PlaceSwapChainView { view, buffer } => out.extend([*view, *buffer]),
            Command::CSSetPlacementResource { view, base, .. } => out.extend([*view, *base]),
            Command::SetResourceMinLod { resource: k, .. }
            | Command::SetShaderResourceViewMinLod { view: k, .. } => out.push(*k),
            Command::Map { resource, .. } => out.push(*resource),
            Command::SetPredication { buffer, .. } => out.extend(buffer),
            Command::Barrier(g) => {
                out.extend(g.buffers.iter().map(|b| b.resource));
                out.extend(g.textures.iter().map(|t| t.resource));
            }
            Command::ExecuteCommandList { commands, .. }
            | Command::ExecuteBundle { commands, .. } => {
                for c in commands {
                    c.objects(out);
                }
            }
            Command::SetFastResources(sets) => {
                out.extend(sets.iter().flat_map(|s| s.objects()));
            }
            Command::SetFastResourcesFromBatch(b) => {
                out.extend(b.sets.iter().flat_map(|s| s.objects()));
            }
            _ => {}
        }
    }
}
