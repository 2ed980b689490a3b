//! Which view slots a pipeline's shaders access, where the title says so.
//!
//! A root signature (a descriptor table, the D3D11.X slots) binds views for a stage whatever
//! the pipeline that draws with them reads: a title binds its table once and draws with
//! several pipelines, some of which read none of it (D3D12HDR binds the SRV table of its
//! intermediate target, then draws into that target with shaders that sample nothing). The
//! API asks a bound view's resource to be in a state that allows the access only when a
//! shader accesses it; a view bound but unread is no access (barrier-spec A6 is about
//! accesses). Without a description the validation layer must assume every bound view is
//! read (or written, for a UAV) by every draw or dispatch, which finds hazards in streams
//! that have none.
//!
//! A pipeline state may therefore carry its shaders' view slots, registered with the device
//! under the pipeline's id ([`super::Device::set_pipeline_slots`]) as a driver learns a
//! pipeline's shaders when it is created. A draw or dispatch issued while that pipeline is
//! bound touches only the views bound at those slots; constant buffers, vertex and index
//! buffers, render targets and stream-output targets are touched as bound (a pipeline's
//! input layout and outputs are not described here). A pipeline with no description
//! touches every bound view, as before.

use super::ShaderStage;

/// The view slots (stage, slot) a pipeline's shaders access: a draw or dispatch with it
/// touches only the views bound there (module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderSlots {
    slots: Vec<(ShaderStage, u32)>,
}

impl ShaderSlots {
    /// The slots, in any order, repeats allowed.
    pub fn new(slots: impl IntoIterator<Item = (ShaderStage, u32)>) -> Self {
        let mut slots: Vec<_> = slots.into_iter().collect();
        slots.sort();
        slots.dedup();
        ShaderSlots { slots }
    }

    /// True when the shaders access the view at `slot` of `stage`.
    pub fn reads(&self, stage: ShaderStage, slot: u32) -> bool {
        self.slots.binary_search(&(stage, slot)).is_ok()
    }
}

impl super::Device {
    /// Say which view slots pipeline state `id`'s shaders access (`None`: every bound view,
    /// the assumption without a description), for the validation layer's reading of the
    /// draws and dispatches made with it ([`ShaderSlots`]).
    pub fn set_pipeline_slots(&mut self, id: u32, slots: Option<ShaderSlots>) {
        match slots {
            Some(s) => self.pipeline_slots.insert(id, s),
            None => self.pipeline_slots.remove(&id),
        };
    }

    /// The view slots pipeline state `id`'s shaders access, when the title said so.
    pub fn pipeline_slots(&self, id: u32) -> Option<&ShaderSlots> {
        self.pipeline_slots.get(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pipeline_reads_only_the_slots_it_names() {
        let slots = ShaderSlots::new([(ShaderStage::Pixel, 1), (ShaderStage::Pixel, 0)]);
        assert!(slots.reads(ShaderStage::Pixel, 0) && slots.reads(ShaderStage::Pixel, 1));
        assert!(!slots.reads(ShaderStage::Pixel, 2));
        assert!(!slots.reads(ShaderStage::Vertex, 0));
        let mut d = crate::device::Device::default();
        assert!(d.pipeline_slots(3).is_none());
        d.set_pipeline_slots(3, Some(ShaderSlots::default()));
        assert!(
            !d.pipeline_slots(3)
                .is_some_and(|s| s.reads(ShaderStage::Pixel, 0))
        );
        d.set_pipeline_slots(3, None);
        assert!(d.pipeline_slots(3).is_none());
    }
}
