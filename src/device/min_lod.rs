//! MinLOD (FS-13, seed 000): which mips a draw or dispatch samples of the textures bound to
//! it, and so how many bytes its samplers may read.
//!
//! A MinLOD clamps sampling to the mips at or coarser than it: the finer ones are never read.
//! The seed's rules decide which MinLOD is in effect:
//!
//! - a shader-resource view takes its MinLOD from its resource's when it is created; on a fast
//!   context later `SetResourceMinLOD` calls are ignored by it, and only
//!   `SetShaderResourceViewMinLOD` changes it;
//! - a legacy context ignores the view's MinLOD and defers to the resource's
//!   (`SetResources` there reads the resource's), but the D3D11.X binding calls
//!   (`SetFastResources`, its batches, `CSSetPlacementResource`) always act as on a fast
//!   context and read the view's;
//! - either way a change made after the view was bound takes effect only when the view is
//!   bound again: what a binding call read stays in effect for that slot ([`Bound`]).
//!
//! The model fixes the MinLOD per slot at binding time, per queue (the state of the context
//! feeding it, which Present, ClearState and Resume reset, FS-11), and charges each draw or
//! dispatch the bytes of the mips it may sample of every shader-resource view of a texture
//! bound to its stages, from the effective MinLOD (or the view's first mip, if coarser) to the
//! view's last mip: its sampling footprint. A clamp past the view's last mip samples that mip.
//! The figure is reported ([`super::Device::sampled_bytes`]); it is not a time: the model
//! prices a draw by the work the title gives it (vertices, pixels, shader cycles), into which
//! texture traffic is folded, and the seed gives no sampling rate to price it apart.
//!
//! Not modelled: the MinLevelOfDetail of `D3D11X_TEX_ACCESS_CONTROL` in composed descriptors
//! (the seed's fourth MinLOD rule), since scenes compose no descriptors.

use std::collections::BTreeMap;

use hashbrown::HashMap;

use super::{Command, FastSet, Memory, ObjectDesc, ObjectKey, QUEUE_COUNT, QueueId, ShaderStage};
use crate::model::{Semantics, ViewKind};

/// One bound shader-resource view and the MinLOD its binding call read (FS-13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bound {
    view: ObjectKey,
    lod: u32,
}

/// Every resource's and view's MinLOD, what each queue's context has bound, and the bytes
/// sampled so far.
#[derive(Debug)]
pub struct MinLods {
    resources: HashMap<ObjectKey, u32>,
    views: HashMap<ObjectKey, u32>,
    bound: [BTreeMap<(ShaderStage, u32), Bound>; QUEUE_COUNT],
    sampled_bytes: u64,
}

impl Default for MinLods {
    fn default() -> Self {
        Self {
            resources: HashMap::new(),
            views: HashMap::new(),
            bound: std::array::from_fn(|_| BTreeMap::new()),
            sampled_bytes: 0,
        }
    }
}

impl MinLods {
    /// A view was created: it takes its resource's MinLOD as it is now (FS-13).
    pub fn created(&mut self, view: ObjectKey, memory: &Memory) {
        if let Ok(ObjectDesc::View { of, .. }) = memory.get(view).map(|o| &o.desc) {
            let lod = self.resources.get(of).copied().unwrap_or(0);
            self.views.insert(view, lod);
        }
    }

    /// Set `view`'s own MinLOD, as `SetShaderResourceViewMinLOD` does (FS-13).
    pub fn set_view(&mut self, view: ObjectKey, lod: u32) {
        self.views.insert(view, lod);
    }

    /// Apply `cmd`, issued on `queue` by a context of `semantics`; the bytes it samples (a
    /// draw or dispatch), 0 for anything else.
    pub fn observe(
        &mut self,
        cmd: &Command,
        queue: QueueId,
        semantics: Semantics,
        memory: &Memory,
    ) -> u64 {
        let qi = queue.index();
        match cmd {
            Command::SetResourceMinLod { resource, lod } => {
                if let Ok(r) = memory.resource_of(*resource) {
                    self.resources.insert(r, *lod);
                }
            }
            Command::SetShaderResourceViewMinLod { view, lod } => self.set_view(*view, *lod),
            Command::SetResources {
                stage,
                first_slot,
                views,
                ..
            } => {
                for (slot, v) in (*first_slot..).zip(views) {
                    // A legacy context defers to the resource's MinLOD (FS-13).
                    let lod = match semantics {
                        Semantics::Fast => self.view_lod(*v),
                        Semantics::Legacy => self.resource_lod(*v, memory),
                    };
                    self.bind(qi, *stage, slot, *v, lod, memory);
                }
            }
            Command::SetFastResources(sets) => self.bind_fast(qi, sets, memory),
            Command::SetFastResourcesFromBatch(batch) => self.bind_fast(qi, &batch.sets, memory),
            Command::CSSetPlacementResource { slot, view, .. } => {
                let lod = self.view_lod(*view);
                self.bind(qi, ShaderStage::Compute, *slot, *view, lod, memory);
            }
            Command::ClearState | Command::Present(_) => self.bound[qi].clear(),
            Command::Resume => self.bound.iter_mut().for_each(BTreeMap::clear),
            Command::Draw { .. } | Command::ExecuteIndirect { .. } => {
                return self.sample(qi, &[ShaderStage::Vertex, ShaderStage::Pixel], memory);
            }
            Command::Dispatch { .. } | Command::DispatchIndirect { .. } => {
                return self.sample(qi, &[ShaderStage::Compute], memory);
            }
            _ => {}
        }
        0
    }

    /// Bytes sampled by every draw and dispatch so far.
    pub fn sampled_bytes(&self) -> u64 {
        self.sampled_bytes
    }

    /// The view's own MinLOD; 0 for a view the device did not see created.
    fn view_lod(&self, view: ObjectKey) -> u32 {
        self.views.get(&view).copied().unwrap_or(0)
    }

    /// The MinLOD of the resource `view` views.
    fn resource_lod(&self, view: ObjectKey, memory: &Memory) -> u32 {
        (memory.resource_of(view).ok())
            .and_then(|r| self.resources.get(&r).copied())
            .unwrap_or(0)
    }

    /// The D3D11.X calls read the view's MinLOD on every context (FS-13).
    fn bind_fast(&mut self, qi: usize, sets: &[FastSet<ObjectKey>], memory: &Memory) {
        for set in sets {
            if let FastSet::Srv { stage, slot, views } = set {
                for (slot, v) in (*slot..).zip(views) {
                    let lod = self.view_lod(*v);
                    self.bind(qi, *stage, slot, *v, lod, memory);
                }
            }
        }
    }

    /// Bind `view` at a slot with the MinLOD read now; anything but a shader-resource view
    /// empties the slot of one.
    fn bind(
        &mut self,
        qi: usize,
        stage: ShaderStage,
        slot: u32,
        view: ObjectKey,
        lod: u32,
        memory: &Memory,
    ) {
        let srv = matches!(
            memory.get(view).map(|o| &o.desc),
            Ok(ObjectDesc::View {
                kind: ViewKind::Srv,
                ..
            })
        );
        if srv {
            self.bound[qi].insert((stage, slot), Bound { view, lod });
        } else {
            self.bound[qi].remove(&(stage, slot));
        }
    }

    /// What a draw or dispatch on queue `qi` reading `stages` samples, added to the total.
    fn sample(&mut self, qi: usize, stages: &[ShaderStage], memory: &Memory) -> u64 {
        let bytes = (self.bound[qi].iter())
            .filter(|((stage, _), _)| stages.contains(stage))
            .map(|(_, b)| sampled(b.view, b.lod, memory))
            .fold(0u64, u64::saturating_add);
        self.sampled_bytes = self.sampled_bytes.saturating_add(bytes);
        bytes
    }
}

/// The bytes of the mips of `view` a sampler clamped at `lod` may read: from the coarser of
/// `lod` and the view's first mip to its last mip, over its slices and samples.
fn sampled(view: ObjectKey, lod: u32, memory: &Memory) -> u64 {
    let Ok(ObjectDesc::View { range, .. }) = memory.get(view).map(|o| &o.desc) else {
        return 0;
    };
    let texture = memory
        .resource_of(view)
        .ok()
        .and_then(|r| memory.get(r).ok());
    let Some(ObjectDesc::Texture(t)) = texture.map(|o| &o.desc) else {
        return 0;
    };
    let mips = t.mips.max(1);
    let first = range.first_mip.min(mips - 1);
    let count = match range.mip_count {
        0 => 1,
        n => n.min(mips - first),
    };
    let last = first + count - 1;
    let top = lod.clamp(first, last);
    let slices = match range.slice_count {
        0 => 1,
        n => n.min(t.array_size.saturating_sub(range.first_slice)).max(1),
    };
    (top..=last)
        .map(|m| t.mip_bytes(m))
        .fold(0u64, u64::saturating_add)
        .saturating_mul(slices as u64)
        .saturating_mul(t.samples.max(1) as u64)
}

#[cfg(test)]
mod tests;
