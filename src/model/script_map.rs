//! The one walk over a script command's references, with the slot of each: the loader checks
//! names with it and the runtime resolves them with it, so a new command cannot be checked
//! one way and run another.

use super::script::Slot;
use super::script_command::ScriptCommand;

impl<R> ScriptCommand<R> {
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
            C::CopyTextureRegion {
                src,
                dst,
                bytes,
                from,
                to,
            } => C::CopyTextureRegion {
                src: f(Slot::Copy, src)?,
                dst: f(Slot::Copy, dst)?,
                bytes: *bytes,
                from: *from,
                to: *to,
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
            C::SetPrimitiveTopology(t) => C::SetPrimitiveTopology(*t),
            C::SetIndexFormat(f) => C::SetIndexFormat(*f),
            C::BeginCommandListExecution => C::BeginCommandListExecution,
            C::EndCommandListExecution => C::EndCommandListExecution,
            C::ExecuteCommandList(name) => C::ExecuteCommandList(name.clone()),
            C::BeginQuery(name) => C::BeginQuery(name.clone()),
            C::EndQuery(name) => C::EndQuery(name.clone()),
            C::GetQueryData(name) => C::GetQueryData(name.clone()),
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
