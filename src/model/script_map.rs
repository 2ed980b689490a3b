//! The one walk over a command's references, with the slot of each: the loader checks a
//! script's names with it, loading and saving turn names into targets and back with it, and
//! the runtime lowers a script command to the device's with it. So a new command cannot be
//! checked one way and run another, and no command set is mapped onto another by hand.
//!
//! [`Rename`] says what each kind of reference becomes; [`Command::try_map`] visits them in
//! the order the command lists them (the order names are resolved in, which is the order a
//! frame records the entities it touched).

use super::fast_rename::fast_set;
use super::script::Slot;
use crate::barrier::BarrierGroup;
use crate::device::{Command, ReferenceType};

/// What each reference of a command naming things by `R` becomes, naming them by `S`.
pub trait Rename<'a, R: ReferenceType + 'a, S: ReferenceType> {
    /// Why a reference cannot be renamed.
    type Error;
    /// An object, used in `slot`.
    fn object(&mut self, slot: Slot, r: &'a R) -> Result<S, Self::Error>;
    /// The swap chain a Present shows.
    fn chain(&mut self, c: &'a R::Chain) -> Result<S::Chain, Self::Error>;
    /// A fence an InsertFence makes (`insert`) or a WaitFence waits on (FN-1).
    fn fence(&mut self, f: &'a R::Fence, insert: bool) -> Result<S::Fence, Self::Error>;
    /// A query (CTX-6).
    fn query(&mut self, q: &'a R::Query) -> Result<S::Query, Self::Error>;
    /// A copy's region (EB-9c).
    fn region(&mut self, r: &'a R::Region) -> S::Region;
}

impl<R: ReferenceType> Command<R> {
    /// The same command with every reference renamed by `to`; stops at the first reference
    /// `to` refuses.
    pub fn try_map<'a, S: ReferenceType, E>(
        &'a self,
        to: &mut impl Rename<'a, R, S, Error = E>,
    ) -> Result<Command<S>, E> {
        use Command as C;
        let all = |slot: Slot, list: &'a [R], to: &mut _| -> Result<Vec<S>, E> {
            list.iter().map(|r| Rename::object(to, slot, r)).collect()
        };
        Ok(match self {
            C::SetRenderTargets { rtvs, dsv } => C::SetRenderTargets {
                rtvs: all(Slot::View, rtvs, to)?,
                dsv: dsv.as_ref().map(|d| to.object(Slot::View, d)).transpose()?,
            },
            C::SetResources {
                stage,
                first_slot,
                views,
                writes,
            } => C::SetResources {
                stage: *stage,
                first_slot: *first_slot,
                views: all(Slot::View, views, to)?,
                writes: *writes,
            },
            C::SetVertexBuffers { buffers } => C::SetVertexBuffers {
                buffers: all(Slot::Buffer, buffers, to)?,
            },
            C::SetConstantBuffers { stage, buffers } => C::SetConstantBuffers {
                stage: *stage,
                buffers: all(Slot::Buffer, buffers, to)?,
            },
            C::SetIndexBuffer(b) => C::SetIndexBuffer(to.object(Slot::Buffer, b)?),
            C::CSSetPlacementResource {
                slot,
                view,
                base,
                offset,
            } => C::CSSetPlacementResource {
                slot: *slot,
                view: to.object(Slot::View, view)?,
                base: to.object(Slot::Buffer, base)?,
                offset: *offset,
            },
            C::CopyResource { src, dst, bytes } => C::CopyResource {
                src: to.object(Slot::Copy, src)?,
                dst: to.object(Slot::Copy, dst)?,
                bytes: *bytes,
            },
            C::CopyTextureRegion {
                src,
                dst,
                bytes,
                from,
                to: region,
            } => C::CopyTextureRegion {
                src: to.object(Slot::Copy, src)?,
                dst: to.object(Slot::Copy, dst)?,
                bytes: *bytes,
                from: to.region(from),
                to: to.region(region),
            },
            C::UpdateSubresource { resource, bytes } => C::UpdateSubresource {
                resource: to.object(Slot::Copy, resource)?,
                bytes: *bytes,
            },
            C::RawCopy {
                src,
                dst,
                offset,
                bytes,
            } => C::RawCopy {
                src: to.object(Slot::Copy, src)?,
                dst: to.object(Slot::Copy, dst)?,
                offset: *offset,
                bytes: *bytes,
            },
            C::RawFill {
                dst,
                offset,
                bytes,
                value,
            } => C::RawFill {
                dst: to.object(Slot::Copy, dst)?,
                offset: *offset,
                bytes: *bytes,
                value: *value,
            },
            C::ClearRenderTarget(v) => C::ClearRenderTarget(to.object(Slot::View, v)?),
            C::ClearDepthStencil(v) => C::ClearDepthStencil(to.object(Slot::View, v)?),
            C::ClearUnorderedAccess(v) => C::ClearUnorderedAccess(to.object(Slot::View, v)?),
            C::Barrier(g) => C::Barrier(BarrierGroup {
                global: g.global.clone(),
                buffers: (g.buffers.iter())
                    .map(|b| Ok(b.on(to.object(Slot::Buffer, &b.resource)?)))
                    .collect::<Result<_, _>>()?,
                textures: (g.textures.iter())
                    .map(|t| Ok(t.on(to.object(Slot::Texture, &t.resource)?)))
                    .collect::<Result<_, _>>()?,
            }),
            C::InsertFence { fence, kickoff } => C::InsertFence {
                fence: to.fence(fence, true)?,
                kickoff: *kickoff,
            },
            C::WaitFence(fence) => C::WaitFence(to.fence(fence, false)?),
            C::WaitOnPresent(b) => C::WaitOnPresent(to.object(Slot::BackBuffer, b)?),
            C::Decompress(r) => C::Decompress(to.object(Slot::Decompress, r)?),
            C::DecompressResource {
                resource,
                propagate_color_clear,
            } => C::DecompressResource {
                resource: to.object(Slot::Decompress, resource)?,
                propagate_color_clear: *propagate_color_clear,
            },
            C::PlaceSwapChainView { view, buffer } => C::PlaceSwapChainView {
                view: to.object(Slot::View, view)?,
                buffer: to.object(Slot::BackBuffer, buffer)?,
            },
            // Map takes buffers only: no-overwrite is only where the resource type allows it
            // (CTX-5, seed 001), and a write-discard texture upload is a copy from a buffer.
            C::Map { resource, mode } => C::Map {
                resource: to.object(Slot::Buffer, resource)?,
                mode: *mode,
            },
            C::Unmap(r) => C::Unmap(to.object(Slot::Buffer, r)?),
            C::ReadMapped { resource, bytes } => C::ReadMapped {
                resource: to.object(Slot::Buffer, resource)?,
                bytes: *bytes,
            },
            C::Present(c) => C::Present(to.chain(c)?),
            C::BeginQuery(q) => C::BeginQuery(to.query(q)?),
            C::EndQuery(q) => C::EndQuery(to.query(q)?),
            C::ExecuteCommandList {
                label,
                semantics,
                commands,
            } => C::ExecuteCommandList {
                label: *label,
                semantics: *semantics,
                commands: (commands.iter())
                    .map(|c| c.try_map(to))
                    .collect::<Result<_, _>>()?,
            },
            C::ExecuteBundle { label, commands } => C::ExecuteBundle {
                label: *label,
                commands: (commands.iter())
                    .map(|c| c.try_map(to))
                    .collect::<Result<_, _>>()?,
            },
            C::SetViewport { width, height } => C::SetViewport {
                width: *width,
                height: *height,
            },
            C::SetPipelineState(p) => C::SetPipelineState(*p),
            C::ClearState => C::ClearState,
            C::SetEarlyOutPath(on) => C::SetEarlyOutPath(*on),
            C::SignalEarlyOut(raised) => C::SignalEarlyOut(*raised),
            C::SetDispatchFlags {
                bypass_l1,
                debug_partial_flush,
                debug_invalidate_l1,
                debug_flush_l2,
            } => C::SetDispatchFlags {
                bypass_l1: *bypass_l1,
                debug_partial_flush: *debug_partial_flush,
                debug_invalidate_l1: *debug_invalidate_l1,
                debug_flush_l2: *debug_flush_l2,
            },
            C::GetState => C::GetState,
            C::SetResourceMinLod { resource, lod } => C::SetResourceMinLod {
                resource: to.object(Slot::Texture, resource)?,
                lod: *lod,
            },
            C::SetShaderResourceViewMinLod { view, lod } => C::SetShaderResourceViewMinLod {
                view: to.object(Slot::View, view)?,
                lod: *lod,
            },
            C::CSEnableAutomaticGpuFlush(on) => C::CSEnableAutomaticGpuFlush(*on),
            C::CreateDeviceContextState => C::CreateDeviceContextState,
            C::SwapDeviceContextState => C::SwapDeviceContextState,
            C::SOSetTargets { buffers, offsets } => C::SOSetTargets {
                buffers: (buffers.iter())
                    .map(|b| to.object(Slot::Buffer, b))
                    .collect::<Result<_, _>>()?,
                offsets: offsets.clone(),
            },
            C::SetPrimitiveResetIndex(i) => C::SetPrimitiveResetIndex(*i),
            C::SetPrimitiveTopology(t) => C::SetPrimitiveTopology(*t),
            C::SetIndexFormat(f) => C::SetIndexFormat(*f),
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
            C::DispatchIndirect {
                args,
                dispatches,
                threads,
            } => C::DispatchIndirect {
                args: to.object(Slot::Buffer, args)?,
                dispatches: *dispatches,
                threads: *threads,
            },
            C::ExecuteIndirect {
                args,
                draws,
                vertices,
                pixels,
            } => C::ExecuteIndirect {
                args: to.object(Slot::Buffer, args)?,
                draws: *draws,
                vertices: *vertices,
                pixels: *pixels,
            },
            C::ResolveSubresource { src, dst } => C::ResolveSubresource {
                src: to.object(Slot::Texture, src)?,
                dst: to.object(Slot::Texture, dst)?,
            },
            C::DmaFill {
                dst,
                offset,
                bytes,
                value,
            } => C::DmaFill {
                dst: to.object(Slot::Copy, dst)?,
                offset: *offset,
                bytes: *bytes,
                value: *value,
            },
            C::LzCompress { src, dst, bytes } => C::LzCompress {
                src: to.object(Slot::Copy, src)?,
                dst: to.object(Slot::Copy, dst)?,
                bytes: *bytes,
            },
            C::LzDecompress { src, dst, bytes } => C::LzDecompress {
                src: to.object(Slot::Copy, src)?,
                dst: to.object(Slot::Copy, dst)?,
                bytes: *bytes,
            },
            // D3D12's pDestinationBuffer: query results go into a buffer.
            C::ResolveQueryData {
                dst,
                first,
                count,
                offset,
            } => C::ResolveQueryData {
                dst: to.object(Slot::Buffer, dst)?,
                first: to.query(first)?,
                count: *count,
                offset: *offset,
            },
            C::SetPredication { buffer, offset, op } => C::SetPredication {
                buffer: (buffer.as_ref())
                    .map(|b| to.object(Slot::Buffer, b))
                    .transpose()?,
                offset: *offset,
                op: *op,
            },
            C::SetFastResources(sets) => C::SetFastResources(
                (sets.iter())
                    .map(|s| fast_set(s, to))
                    .collect::<Result<_, _>>()?,
            ),
            C::SetFastResourcesFromBatch(b) => {
                C::SetFastResourcesFromBatch(std::sync::Arc::new(crate::device::FastBatch {
                    sets: (b.sets.iter())
                        .map(|s| fast_set(s, to))
                        .collect::<Result<_, _>>()?,
                }))
            }
            C::Kickoff => C::Kickoff,
            C::DontSyncOnCopy(on) => C::DontSyncOnCopy(*on),
            C::WriteTimestamp(slot) => C::WriteTimestamp(*slot),
            C::Suspend => C::Suspend,
            C::Resume => C::Resume,
            C::BeginCommandListExecution => C::BeginCommandListExecution,
            C::EndCommandListExecution => C::EndCommandListExecution,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::script_command::ScriptCommand;

    #[test]
    fn references_come_with_their_slots() {
        let c: ScriptCommand<String> = ScriptCommand::Device(Command::PlaceSwapChainView {
            view: "v".into(),
            buffer: "sc".into(),
        });
        let refs: Vec<(Slot, &str)> = c.refs().into_iter().map(|(s, r)| (s, r.as_str())).collect();
        assert_eq!(refs, vec![(Slot::View, "v"), (Slot::BackBuffer, "sc")]);
        assert_eq!(c.name(), "PlaceSwapChainView");
    }
}
