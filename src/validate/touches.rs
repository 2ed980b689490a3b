//! What a command touches, given what is bound: the validator's own reading of the command
//! set, so that hazards are found from the stream alone.

use std::collections::BTreeMap;

use super::hazard::Touch;
use crate::barrier::{Access, Layout, SubresourceRange, Sync};
use crate::device::{Command, Device, ObjectDesc, ObjectKey, ShaderStage};
use crate::model::ViewKind;

/// Bindings of one queue. They persist across command lists (FS-12) and pipeline-state
/// changes (root arguments outlive a PSO change), and are cleared by Present, Resume and
/// ClearState (FS-11). Ordered maps: a draw's accesses come out in slot order, so its
/// findings do too, run after run.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    pub rtvs: Vec<ObjectKey>,
    pub dsv: Option<ObjectKey>,
    /// Views per stage and slot, each with whether its shaders write it when it is a UAV.
    pub views: BTreeMap<(ShaderStage, u32), (ObjectKey, bool)>,
    /// Slots bound by a placement call, with the buffer whose address overrides the view's
    /// (CC-3): what the shaders touch through the slot is that buffer's memory.
    pub bases: BTreeMap<(ShaderStage, u32), ObjectKey>,
    pub vertex_buffers: Vec<ObjectKey>,
    pub index_buffer: Option<ObjectKey>,
    pub constant_buffers: BTreeMap<ShaderStage, Vec<ObjectKey>>,
    /// Stream-output targets: a draw writes them (FS-14's SOSetTargets).
    pub stream_outputs: Vec<ObjectKey>,
    /// The pipeline state set: when the title described its shaders' view slots, a draw or
    /// dispatch touches only the views bound there (`device::ShaderSlots`).
    pub pipeline: Option<u32>,
}

impl Bindings {
    /// Record a binding command; returns true when it was one.
    pub fn bind(&mut self, cmd: &Command) -> bool {
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                self.rtvs = rtvs.clone();
                self.dsv = *dsv;
            }
            Command::SetResources {
                stage,
                first_slot,
                views,
                writes,
            } => {
                for (i, v) in views.iter().enumerate() {
                    let slot = (*stage, first_slot + i as u32);
                    self.views.insert(slot, (*v, *writes));
                    self.bases.remove(&slot);
                }
            }
            Command::CSSetPlacementResource {
                slot, view, base, ..
            } => {
                let slot = (ShaderStage::Compute, *slot);
                self.views.insert(slot, (*view, true));
                self.bases.insert(slot, *base);
            }
            Command::SetPipelineState(p) => self.pipeline = Some(*p),
            Command::SetVertexBuffers { buffers } => self.vertex_buffers = buffers.clone(),
            Command::SOSetTargets { buffers, .. } => self.stream_outputs = buffers.clone(),
            Command::SetIndexBuffer(b) => self.index_buffer = Some(*b),
            Command::SetConstantBuffers { stage, buffers } => {
                self.constant_buffers.insert(*stage, buffers.clone());
            }
            _ => return false,
        }
        true
    }

    /// Every view or buffer bound anywhere.
    pub fn all(&self) -> impl Iterator<Item = ObjectKey> + '_ {
        self.rtvs
            .iter()
            .chain(self.dsv.iter())
            .chain(self.views.values().map(|(v, _)| v))
            .chain(self.bases.values())
            .chain(self.vertex_buffers.iter())
            .chain(self.index_buffer.iter())
            .chain(self.constant_buffers.values().flatten())
            .chain(self.stream_outputs.iter())
            .copied()
    }
}

/// Whether a draw or dispatch with a pipeline so `described` accesses the view bound at
/// `slot` of `stage`: every bound view when the pipeline is not described.
fn stages_read(
    described: Option<&crate::device::ShaderSlots>,
    stage: ShaderStage,
    slot: u32,
) -> bool {
    described.is_none_or(|d| d.reads(stage, slot))
}

fn stage_sync(stage: ShaderStage) -> Sync {
    match stage {
        ShaderStage::Vertex => Sync::VERTEX_SHADING,
        ShaderStage::Pixel => Sync::PIXEL_SHADING,
        ShaderStage::Compute => Sync::COMPUTE_SHADING,
    }
}

/// The accesses `cmd` makes. `resolve` maps a view to its resource; `layout` gives a
/// texture's current layout (a depth view is read-only in DEPTH_STENCIL_READ).
pub fn touches(
    cmd: &Command,
    bind: &Bindings,
    device: &Device,
    resolve: impl Fn(ObjectKey) -> ObjectKey,
    layout: impl Fn(ObjectKey) -> Option<Layout>,
) -> Vec<Touch> {
    touches_of(cmd, bind, device, &resolve, &layout)
}

fn touches_of(
    cmd: &Command,
    bind: &Bindings,
    device: &Device,
    resolve: &dyn Fn(ObjectKey) -> ObjectKey,
    layout: &dyn Fn(ObjectKey) -> Option<Layout>,
) -> Vec<Touch> {
    // Through a view of some subresources, only those are touched (EB-6).
    let t = |key: ObjectKey, access: Access, stages: Sync, write: bool| {
        let resource = resolve(key);
        let part = match device.memory.get(key).map(|o| &o.desc) {
            Ok(ObjectDesc::View { range, .. }) => super::sync::part_of(device, resource, range),
            _ => None,
        };
        Touch {
            resource,
            access,
            stages,
            write,
            part,
            through_l2: false,
        }
    };
    let view_kind = |v: ObjectKey| match device.memory.get(v).map(|o| &o.desc) {
        Ok(ObjectDesc::View { kind, .. }) => Some(*kind),
        _ => None,
    };
    // A pipeline whose shaders' slots the title described touches only the views bound
    // there; a view bound but unread is no access (barrier-spec A6).
    let described = bind.pipeline.and_then(|p| device.pipeline_slots(p));
    let read = |&(stage, slot): &(ShaderStage, u32)| stages_read(described, stage, slot);
    let shader = |stages: &[ShaderStage]| {
        let mut out = Vec::new();
        let bound = bind.views.iter();
        for (slot, (v, writes)) in bound.filter(|(s, _)| stages.contains(&s.0) && read(s)) {
            let stage = &slot.0;
            // A UAV is an unordered access whether read or written; only a written one is a
            // write for the hazard checks (barrier-spec D).
            let uav = view_kind(*v).is_some_and(ViewKind::is_uav);
            let access = if uav {
                Access::UNORDERED_ACCESS
            } else {
                Access::SHADER_RESOURCE
            };
            let mut touch = t(*v, access, stage_sync(*stage), uav && *writes);
            // A placement binding's base address overrides the view's (CC-3).
            if let Some(base) = bind.bases.get(slot) {
                (touch.resource, touch.part) = (*base, None);
            }
            out.push(touch);
        }
        for (stage, bufs) in bind
            .constant_buffers
            .iter()
            .filter(|(s, _)| stages.contains(s))
        {
            out.extend(
                bufs.iter()
                    .map(|b| t(*b, Access::CONSTANT_BUFFER, stage_sync(*stage), false)),
            );
        }
        out
    };
    let indirect = |args: ObjectKey| {
        t(
            args,
            Access::INDIRECT_ARGUMENT,
            Sync::EXECUTE_INDIRECT,
            false,
        )
    };
    match cmd {
        Command::DispatchIndirect { args, .. } => {
            let mut out = vec![indirect(*args)];
            out.extend(shader(&[ShaderStage::Compute]));
            out
        }
        Command::ExecuteIndirect { args, .. } => {
            let mut out = vec![indirect(*args)];
            let draw = Command::Draw {
                draws: 1,
                vertices: 0,
                pixels: 0,
            };
            out.extend(touches_of(&draw, bind, device, resolve, layout));
            out
        }
        Command::ResolveSubresource { src, dst } => vec![
            t(*src, Access::RESOLVE_SOURCE, Sync::RESOLVE, false),
            t(*dst, Access::RESOLVE_DEST, Sync::RESOLVE, true),
        ],
        // The DMA engine's fills and LZ codec read and write memory as copies do.
        Command::DmaFill { dst, .. } => vec![t(*dst, Access::COPY_DEST, Sync::COPY, true)],
        // SetPredication reads its predicate when the GPU executes the call, not at each
        // operation it predicates: PREDICATION access in the PREDICATION scope.
        Command::SetPredication {
            buffer: Some(b), ..
        } => vec![t(*b, Access::PREDICATION, Sync::PREDICATION, false)],
        // ResolveQueryData writes its buffer as a copy does (COPY_DEST).
        Command::ResolveQueryData { dst, .. } => {
            vec![t(*dst, Access::COPY_DEST, Sync::COPY, true)]
        }
        Command::LzCompress { src, dst, .. } | Command::LzDecompress { src, dst, .. } => vec![
            t(*src, Access::COPY_SOURCE, Sync::COPY, false),
            t(*dst, Access::COPY_DEST, Sync::COPY, true),
        ],
        Command::Draw { .. } => {
            let mut out = shader(&[ShaderStage::Vertex, ShaderStage::Pixel]);
            out.extend(
                bind.rtvs
                    .iter()
                    .map(|v| t(*v, Access::RENDER_TARGET, Sync::RENDER_TARGET, true)),
            );
            if let Some(d) = bind.dsv {
                // A depth view is read-only by its kind, or in any layout that does not admit
                // depth writes.
                let read_only = view_kind(d) == Some(ViewKind::DsvReadOnly)
                    || layout(resolve(d)).is_some_and(|l| {
                        !crate::barrier::layout_allows(l).contains(Access::DEPTH_STENCIL_WRITE)
                    });
                let access = if read_only {
                    Access::DEPTH_STENCIL_READ
                } else {
                    Access::DEPTH_STENCIL_WRITE
                };
                out.push(t(d, access, Sync::DEPTH_STENCIL, !read_only));
            }
            out.extend(
                bind.vertex_buffers
                    .iter()
                    .map(|b| t(*b, Access::VERTEX_BUFFER, Sync::VERTEX_SHADING, false)),
            );
            out.extend(
                bind.index_buffer
                    .iter()
                    .map(|b| t(*b, Access::INDEX_BUFFER, Sync::INDEX_INPUT, false)),
            );
            // The geometry stages write the stream-output targets (barrier-spec: STREAM_OUT
            // is synchronised with VERTEX_SHADING).
            out.extend(
                bind.stream_outputs
                    .iter()
                    .map(|b| t(*b, Access::STREAM_OUTPUT, Sync::VERTEX_SHADING, true)),
            );
            out
        }
        Command::Dispatch { .. } => shader(&[ShaderStage::Compute]),
        Command::CopyResource { src, dst, .. } => {
            vec![
                t(*src, Access::COPY_SOURCE, Sync::COPY, false),
                t(*dst, Access::COPY_DEST, Sync::COPY, true),
            ]
        }
        // A region copy touches one subresource of each texture it names (EB-6): the one its
        // region's index numbers, not the others, which other queues may be using meanwhile.
        Command::CopyTextureRegion {
            src, dst, from, to, ..
        } => {
            let region = |key: ObjectKey, subresource: u32, access, write| {
                let mut touch = t(key, access, Sync::COPY, write);
                if let Some(crate::barrier::ResourceInfo::Texture(tex)) =
                    device.memory.resource_info(touch.resource)
                {
                    let range = subresource_range(subresource, &tex);
                    touch.part = super::hazard::Part::of(&range, &tex);
                }
                touch
            };
            vec![
                region(*src, from.subresource, Access::COPY_SOURCE, false),
                region(*dst, to.subresource, Access::COPY_DEST, true),
            ]
        }
        Command::UpdateSubresource { resource, .. } => {
            vec![t(*resource, Access::COPY_DEST, Sync::COPY, true)]
        }
        // Raw copies and fills run on the compute engine (CC-6).
        Command::RawCopy { src, dst, .. } => vec![
            t(*src, Access::COPY_SOURCE, Sync::COMPUTE_SHADING, false),
            t(*dst, Access::COPY_DEST, Sync::COMPUTE_SHADING, true),
        ],
        Command::RawFill { dst, .. } => {
            vec![t(*dst, Access::COPY_DEST, Sync::COMPUTE_SHADING, true)]
        }
        Command::ClearRenderTarget(v) => {
            vec![t(*v, Access::RENDER_TARGET, Sync::RENDER_TARGET, true)]
        }
        Command::ClearDepthStencil(v) => {
            vec![t(
                *v,
                Access::DEPTH_STENCIL_WRITE,
                Sync::DEPTH_STENCIL,
                true,
            )]
        }
        Command::ClearUnorderedAccess(v) => {
            vec![t(
                *v,
                Access::UNORDERED_ACCESS,
                Sync::CLEAR_UNORDERED_ACCESS_VIEW,
                true,
            )]
        }
        Command::Decompress(r) | Command::DecompressResource { resource: r, .. } => {
            let depth = matches!(
                device.memory.get(resolve(*r)).map(|o| &o.desc),
                Ok(ObjectDesc::Texture(tex)) if tex.format.is_depth()
            );
            let (access, stages) = if depth {
                (Access::DEPTH_STENCIL_WRITE, Sync::DEPTH_STENCIL)
            } else {
                (Access::RENDER_TARGET, Sync::RENDER_TARGET)
            };
            vec![t(*r, access, stages, true)]
        }
        _ => Vec::new(),
    }
}

/// The one subresource D3D12's index `subresource` numbers in `tex` (mip + mips * (slice +
/// slices * plane)).
fn subresource_range(subresource: u32, tex: &crate::barrier::TextureInfo) -> SubresourceRange {
    let (mips, slices) = (tex.mips.max(1), tex.array_size.max(1));
    SubresourceRange {
        first_mip: subresource % mips,
        mip_count: 1,
        first_slice: (subresource / mips) % slices,
        slice_count: 1,
        first_plane: subresource / (mips * slices),
        plane_count: 1,
    }
}
