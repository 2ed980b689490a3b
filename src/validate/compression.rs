//! Which surfaces may still hold compression metadata (FS-4, EB-4).
//!
//! A fast context neither detects nor performs the decompression or fast-clear elimination a
//! render target or depth buffer needs before it is read, copied or presented (seed 000): the
//! title decompresses explicitly. What counts as the decompression is what the device counts
//! (`device::compression`): an explicit `Decompress`, or a barrier out of a defined layout into
//! one that keeps none of the surface's metadata (COMMON, and the shader-readable layouts of a
//! surface that is not texture-compatible, EB-4). Writing through the output merger, a draw
//! with the surface bound as a render target or depth buffer or a clear of it, makes it
//! compressed again; binding alone does not, as on the device.
//!
//! A surface that still holds metadata must not be presented (V0401): the display engine
//! cannot decode it. Nor, on a D3D11.X fast context, read or copied (V0404) in a layout that
//! keeps its metadata but does not admit the access: the render-target and depth layouts,
//! where only the output merger decodes it (a legacy context decompresses a render target
//! bound for reading by itself, and D3D12 has no such binding: there it is only the layout
//! mistake, V0403). A read in a layout that admits it needs nothing: that layout keeps only what its
//! readers decode, and the barrier into it removed the rest.
//!
//! A fast clear of a colour target writes only metadata: the cleared blocks take their colour
//! from it until a fast-clear elimination writes the colour into them. DecompressResource
//! does that only with its PROPAGATE_COLOR_CLEAR flag (`Decompress` has it); without it, a
//! surface fast-cleared since its last elimination still holds that metadata, and presenting
//! it is V0401 all the same, with the flag named. A barrier that decompresses eliminates too.

use hashbrown::HashSet;

use super::hazard::Touch;
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::barrier::{
    BarrierGroup, Layout, Metadata, ResourceInfo, TextureInfo, layout_allows, layout_keeps,
    metadata_of,
};
use crate::device::{Device, ObjectKey, QUEUE_COUNT, QueueId};
use crate::model::{Api, Semantics};

/// The metadata `resource` can hold, with its texture description (none for buffers).
fn metadata(device: &Device, resource: ObjectKey) -> Option<(TextureInfo, Metadata)> {
    match device.memory.resource_info(resource) {
        Some(ResourceInfo::Texture(tex)) => {
            let m = metadata_of(&tex, 0..tex.planes);
            (!m.is_empty()).then_some((tex, m))
        }
        _ => None,
    }
}

/// Surfaces written through the output merger and not decompressed since (FS-4).
#[derive(Default)]
pub(super) struct Compressed {
    held: HashSet<ObjectKey>,
    /// Surfaces fast-cleared since their clear colour was last propagated: a decompression
    /// without PROPAGATE_COLOR_CLEAR leaves them compressed.
    cleared: HashSet<ObjectKey>,
    /// Per queue, the surfaces bound as render targets and depth: a draw writes them.
    bound: [Vec<ObjectKey>; QUEUE_COUNT],
}

impl Compressed {
    /// `resource` cleared, or written by a draw: compressed again.
    pub fn written(&mut self, device: &Device, resource: ObjectKey) {
        if metadata(device, resource).is_some() {
            self.held.insert(resource);
        }
    }

    /// The render targets and depth buffer set on `queue` (resolved to their resources).
    pub fn bind(&mut self, queue: QueueId, surfaces: impl IntoIterator<Item = ObjectKey>) {
        let bound = &mut self.bound[queue.index()];
        bound.clear();
        bound.extend(surfaces);
    }

    /// A draw on `queue` writes the surfaces bound there.
    pub fn draw(&mut self, device: &Device, queue: QueueId) {
        for s in std::mem::take(&mut self.bound[queue.index()]) {
            self.written(device, s);
            self.bound[queue.index()].push(s);
        }
    }

    /// `resource` fast-cleared (ClearRenderTarget): compressed, its clear colour in metadata.
    pub fn cleared(&mut self, device: &Device, resource: ObjectKey) {
        self.written(device, resource);
        if metadata(device, resource).is_some_and(|(_, m)| m.contains(Metadata::FAST_CLEAR)) {
            self.cleared.insert(resource);
        }
    }

    /// An explicit decompression of `resource`, propagating the fast-clear colour or not
    /// (PROPAGATE_COLOR_CLEAR): without it, a fast-cleared surface stays compressed.
    pub fn decompressed(&mut self, resource: ObjectKey, propagate: bool) {
        if propagate {
            self.cleared.remove(&resource);
        }
        if !self.cleared.contains(&resource) {
            self.held.remove(&resource);
        }
    }

    /// Whether `resource` still holds a fast clear a decompression did not propagate.
    pub fn clear_not_propagated(&self, resource: ObjectKey) -> bool {
        self.held.contains(&resource) && self.cleared.contains(&resource)
    }

    /// Whether `resource` may still hold metadata.
    pub fn holds(&self, resource: ObjectKey) -> bool {
        self.held.contains(&resource)
    }

    /// A Barrier call: a transition out of a defined layout into one that keeps none of a
    /// surface's metadata decompresses it, as the device's lowering does (EB-4). Whatever
    /// range it names, the whole resource is decompressed (EB-8b).
    pub fn barrier(&mut self, device: &Device, group: &BarrierGroup<ObjectKey>) {
        for t in &group.textures {
            if t.layout_before == Layout::Undefined || t.layout_after == Layout::Undefined {
                continue;
            }
            let Some((tex, m)) = metadata(device, t.resource) else {
                continue;
            };
            if (layout_keeps(t.layout_after, tex.texture_compatible) & m).is_empty() {
                self.held.remove(&t.resource);
                self.cleared.remove(&t.resource);
            }
        }
    }

    /// Reads and copies of a surface that still holds metadata, in a layout that keeps it
    /// but does not admit the access (V0404). True when it reported one (the layout finding
    /// is then this one's).
    pub fn check_read(
        &self,
        ctx: &Ctx,
        i: usize,
        t: &Touch,
        layout: Layout,
        out: &mut Vec<Diagnostic>,
    ) -> bool {
        let fast = ctx.device.api() == Api::D3d11x && ctx.semantics() == Semantics::Fast;
        if !fast || t.write || !self.holds(t.resource) || layout_allows(layout).contains(t.access) {
            return false;
        }
        let Some((tex, m)) = metadata(ctx.device, t.resource) else {
            return false;
        };
        if (layout_keeps(layout, tex.texture_compatible) & m).is_empty() {
            return false;
        }
        let message = format!(
            "read as {:?} while still compressed in layout {}: nothing decompresses it on a fast context; Decompress it, or transition it to a layout its readers decode, before reading or copying it",
            t.access,
            layout.spec_name()
        );
        out.push(ctx.finding(i, Code::ReadCompressed, Some(t.resource), message));
        true
    }
}
