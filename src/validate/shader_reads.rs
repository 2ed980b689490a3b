//! Legacy shader-resource states name the shaders that may read (EB-11, barrier-spec B): a
//! transition into PIXEL_SHADER_RESOURCE translates to SyncAfter PIXEL_SHADING, one into
//! NON_PIXEL_SHADER_RESOURCE to NON_PIXEL_SHADING, both together to every shading stage. So a
//! compute or vertex shader sampling a texture a legacy transition left in
//! PIXEL_SHADER_RESOURCE reads in a stage its state did not declare (V0804, beside the
//! AccessAfter check of `barriers`), as D3D12's GPU-based validation reports it, whether or
//! not something else orders the read.
//!
//! Only textures are followed, and only transitions of all their subresources: a buffer's
//! legacy state is COMMON (barrier-spec B), and a texture keeps its state across
//! ExecuteCommandLists. Any later barrier naming the texture, on any queue, ends what was
//! noted.

use hashbrown::HashMap;

use super::barriers::resource_info;
use super::hazard::Touch;
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::barrier::{ALL_SUBRESOURCES, Access, BarrierGroup, LegacyBarrier, ResourceStates, Sync};
use crate::device::{ObjectKey, QueueId};

/// The textures a legacy transition left in a shader-resource state: its queue, the state
/// and the shader stages it lets read them.
#[derive(Default)]
pub(super) struct ShaderReads(HashMap<ObjectKey, (QueueId, ResourceStates, Sync)>);

/// The shader stages a legacy state lets read a texture, if it is a shader-resource state.
fn stages_of(state: ResourceStates) -> Option<Sync> {
    let pixel = state.contains(ResourceStates::PIXEL_SHADER_RESOURCE);
    let non_pixel = state.contains(ResourceStates::NON_PIXEL_SHADER_RESOURCE);
    match (pixel, non_pixel) {
        (false, false) => None,
        (true, false) => Some(Sync::PIXEL_SHADING),
        (false, true) => Some(Sync::NON_PIXEL_SHADING),
        (true, true) => Some(Sync::ALL_SHADING),
    }
}

/// A flag set's names, `A | B`.
fn names<F: bitflags::Flags>(flags: F) -> String {
    let names: Vec<&str> = flags.iter_names().map(|n| n.0).collect();
    names.join(" | ")
}

impl ShaderReads {
    /// A barrier call on `ctx`'s queue: `legacy` are the legacy barriers it translates, if
    /// it is a legacy call, and `group` what it names.
    pub fn barrier(
        &mut self,
        ctx: &Ctx,
        group: &BarrierGroup<ObjectKey>,
        legacy: Option<&[LegacyBarrier<ObjectKey>]>,
    ) {
        let named = (group.textures.iter().map(|t| t.resource))
            .chain(group.buffers.iter().map(|b| b.resource));
        for r in named {
            self.0.remove(&r);
        }
        for b in legacy.unwrap_or_default() {
            let LegacyBarrier::Transition {
                resource,
                subresource,
                after,
                ..
            } = b
            else {
                continue;
            };
            let texture =
                resource_info(ctx.device, *resource).is_some_and(|r| r.texture().is_some());
            let whole = texture && *subresource == ALL_SUBRESOURCES;
            match stages_of(*after).filter(|_| whole) {
                Some(stages) => self.0.insert(*resource, (ctx.queue, *after, stages)),
                None => self.0.remove(resource),
            };
        }
    }

    /// Shader reads on `ctx`'s queue in a stage the texture's legacy state does not name.
    pub fn check(&self, ctx: &Ctx, i: usize, touches: &[Touch], out: &mut Vec<Diagnostic>) {
        for t in touches
            .iter()
            .filter(|t| t.access == Access::SHADER_RESOURCE)
        {
            let Some(&(queue, state, stages)) = self.0.get(&t.resource) else {
                continue;
            };
            if queue != ctx.queue || stages.covers(t.stages) {
                continue;
            }
            let fix = match stages.covers(Sync::PIXEL_SHADING) {
                true => "NON_PIXEL_SHADER_RESOURCE",
                false => "PIXEL_SHADER_RESOURCE",
            };
            let message = format!(
                "read by a shader in {} but its legacy state {} lets only {} read it (barrier-spec B): transition it to {fix} (or both shader-resource states)",
                names(t.stages),
                names(state),
                names(stages),
            );
            out.push(ctx.finding(i, Code::AccessNotDeclared, Some(t.resource), message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// barrier-spec B: each shader-resource state names its shaders' stages, both states
    /// every shading stage; other states name none.
    #[test]
    fn shader_resource_states_name_their_stages() {
        let s = ResourceStates::PIXEL_SHADER_RESOURCE;
        let n = ResourceStates::NON_PIXEL_SHADER_RESOURCE;
        assert_eq!(stages_of(s), Some(Sync::PIXEL_SHADING));
        assert_eq!(stages_of(n), Some(Sync::NON_PIXEL_SHADING));
        assert!(stages_of(s | n).is_some_and(|x| x.covers(Sync::COMPUTE_SHADING)));
        assert!(stages_of(s | n).is_some_and(|x| x.covers(Sync::PIXEL_SHADING)));
        assert!(!Sync::PIXEL_SHADING.covers(Sync::COMPUTE_SHADING));
        assert!(!Sync::NON_PIXEL_SHADING.covers(Sync::PIXEL_SHADING));
        assert_eq!(stages_of(ResourceStates::UNORDERED_ACCESS), None);
        assert_eq!(
            names(s | n),
            "NON_PIXEL_SHADER_RESOURCE | PIXEL_SHADER_RESOURCE"
        );
    }
}
