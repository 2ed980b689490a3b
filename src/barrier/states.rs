//! Legacy resource states and their enhanced equivalents (barrier-spec B, EB-10).
//!
//! A legacy `D3D12_RESOURCE_STATES` value says what a resource may be used for next, but not
//! which work touched it last nor which work must wait, so its enhanced equivalent has to be
//! pessimistic: a state maps to the union of the syncs and accesses any of its uses could
//! involve. That is why a legacy NON_PIXEL_SHADER_RESOURCE -> RENDER_TARGET transition drains
//! vertex work nobody asked for (EB-9a): NON_PIXEL_SHADING covers vertex and compute shading.
//!
//! The driver's internal layouts (LEGACY_SHADER_RESOURCE, LEGACY_COPY_SOURCE/_DEST,
//! LEGACY_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE) are never valid in a Barrier
//! call, so they are not part of [`Layout`]: the type makes "LEGACY_* in a barrier"
//! unrepresentable. The table writes their public twins instead, which allow the same accesses
//! and lower to the same compression work. Buffers have no layout; their legacy state is
//! treated as COMMON for interop (EB-7).

use super::{Access, BarrierError, Layout, ResourceInfo, Sync, layout_allows};
use bitflags::bitflags;
use serde::{Deserialize, Serialize};

bitflags! {
    /// `D3D12_RESOURCE_STATES` (barrier-spec B; video and ray-tracing states omitted).
    /// `COMMON` (= `PRESENT`) is the empty set.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(transparent)]
    pub struct ResourceStates: u32 {
        const VERTEX_AND_CONSTANT_BUFFER = 0x1;
        const INDEX_BUFFER = 0x2;
        const RENDER_TARGET = 0x4;
        const UNORDERED_ACCESS = 0x8;
        const DEPTH_WRITE = 0x10;
        const DEPTH_READ = 0x20;
        const NON_PIXEL_SHADER_RESOURCE = 0x40;
        const PIXEL_SHADER_RESOURCE = 0x80;
        const STREAM_OUT = 0x100;
        /// Also PREDICATION (the next name).
        const INDIRECT_ARGUMENT = 0x200;
        /// `D3D12_RESOURCE_STATE_PREDICATION`, the same bit: SetPredication reads its buffer
        /// in this state. Declared after INDIRECT_ARGUMENT so that the bit prints by that name.
        const PREDICATION = 0x200;
        const COPY_DEST = 0x400;
        const COPY_SOURCE = 0x800;
        const RESOLVE_DEST = 0x1000;
        const RESOLVE_SOURCE = 0x2000;
        const SHADING_RATE_SOURCE = 0x100_0000;
    }
}

impl ResourceStates {
    /// `D3D12_RESOURCE_STATE_COMMON`.
    pub const COMMON: ResourceStates = ResourceStates::empty();
    /// `D3D12_RESOURCE_STATE_PRESENT` is COMMON.
    pub const PRESENT: ResourceStates = ResourceStates::empty();
    /// `D3D12_RESOURCE_STATE_GENERIC_READ`.
    pub const GENERIC_READ: ResourceStates = ResourceStates::from_bits_truncate(0xac3);
    /// `D3D12_RESOURCE_STATE_ALL_SHADER_RESOURCE`.
    pub const ALL_SHADER_RESOURCE: ResourceStates = ResourceStates::from_bits_truncate(0xc0);
    /// States that write; a write state combines with no other state.
    pub const WRITES: ResourceStates = ResourceStates::from_bits_truncate(0x151c);
    /// States only buffers can be in.
    pub const BUFFER_ONLY: ResourceStates = ResourceStates::from_bits_truncate(0x303);
    /// States only textures can be in.
    pub const TEXTURE_ONLY: ResourceStates = ResourceStates::from_bits_truncate(0x100_3034);
}

/// The enhanced (layout, access, sync) a legacy state stands for (barrier-spec B). Buffers
/// have no layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnhancedState {
    pub layout: Option<Layout>,
    pub access: Access,
    pub sync: Sync,
}

/// One row of the barrier-spec B table: (texture layout, access, sync) of a single state bit.
fn row(bit: ResourceStates) -> (Option<Layout>, Access, Sync) {
    use ResourceStates as S;
    let (layout, access, sync) = match bit {
        S::VERTEX_AND_CONSTANT_BUFFER => (
            None,
            Access::VERTEX_BUFFER | Access::CONSTANT_BUFFER,
            Sync::ALL_SHADING,
        ),
        S::INDEX_BUFFER => (None, Access::INDEX_BUFFER, Sync::INDEX_INPUT),
        S::RENDER_TARGET => (
            Some(Layout::RenderTarget),
            Access::RENDER_TARGET,
            Sync::RENDER_TARGET,
        ),
        // ALL_SHADING plus the clears: ClearUnorderedAccessView* needs the resource in this
        // state and is ordered by nothing but barriers, so a legacy barrier into or out of it
        // must synchronise with them (barrier-spec A1: ClearUAV runs in
        // CLEAR_UNORDERED_ACCESS_VIEW, which ALL_SHADING does not hold).
        S::UNORDERED_ACCESS => (
            Some(Layout::UnorderedAccess),
            Access::UNORDERED_ACCESS,
            Sync::ALL_SHADING.union(Sync::CLEAR_UNORDERED_ACCESS_VIEW),
        ),
        S::DEPTH_WRITE => (
            Some(Layout::DepthStencilWrite),
            Access::DEPTH_STENCIL_WRITE,
            Sync::DEPTH_STENCIL,
        ),
        S::DEPTH_READ => (
            Some(Layout::DepthStencilRead),
            Access::DEPTH_STENCIL_READ,
            Sync::DEPTH_STENCIL,
        ),
        // LEGACY_SHADER_RESOURCE.
        S::NON_PIXEL_SHADER_RESOURCE => (
            Some(Layout::ShaderResource),
            Access::SHADER_RESOURCE,
            Sync::NON_PIXEL_SHADING,
        ),
        S::PIXEL_SHADER_RESOURCE => (
            Some(Layout::ShaderResource),
            Access::SHADER_RESOURCE,
            Sync::PIXEL_SHADING,
        ),
        S::STREAM_OUT => (None, Access::STREAM_OUTPUT, Sync::VERTEX_SHADING),
        S::INDIRECT_ARGUMENT => (None, Access::INDIRECT_ARGUMENT, Sync::EXECUTE_INDIRECT),
        // LEGACY_COPY_DEST / LEGACY_COPY_SOURCE.
        S::COPY_DEST => (Some(Layout::CopyDest), Access::COPY_DEST, Sync::COPY),
        S::COPY_SOURCE => (Some(Layout::CopySource), Access::COPY_SOURCE, Sync::COPY),
        S::RESOLVE_DEST => (
            Some(Layout::ResolveDest),
            Access::RESOLVE_DEST,
            Sync::RESOLVE,
        ),
        S::RESOLVE_SOURCE => (
            Some(Layout::ResolveSource),
            Access::RESOLVE_SOURCE,
            Sync::RESOLVE,
        ),
        S::SHADING_RATE_SOURCE => (
            Some(Layout::ShadingRateSource),
            Access::SHADING_RATE_SOURCE,
            Sync::PIXEL_SHADING,
        ),
        _ => (None, Access::empty(), Sync::empty()),
    };
    (layout, access, sync)
}

/// The enhanced equivalent of `state` on `info` (barrier-spec B). COMMON is (COMMON, COMMON,
/// ALL); several read states combine their accesses and syncs, and a texture read set that
/// includes NON_PIXEL_SHADER_RESOURCE lands in the compute-accessible generic-read layout.
pub fn enhanced_state(
    state: ResourceStates,
    info: &ResourceInfo,
) -> Result<EnhancedState, BarrierError> {
    let unknown = state.bits() & !ResourceStates::all().bits();
    if unknown != 0 {
        return Err(BarrierError::UnknownFlagBits {
            what: "legacy state",
            bits: unknown,
        });
    }
    let invalid = |detail| BarrierError::InvalidLegacyState {
        state: state.bits(),
        resource: info.kind_name(),
        detail,
    };
    if state == ResourceStates::COMMON {
        let layout = info.texture().map(|_| Layout::Common);
        return Ok(EnhancedState {
            layout,
            access: Access::COMMON,
            sync: Sync::ALL,
        });
    }
    if state.intersects(ResourceStates::WRITES) && state.bits().count_ones() > 1 {
        return Err(invalid("a write state combines with no other state"));
    }
    let kept = match info {
        ResourceInfo::Buffer if state.intersects(ResourceStates::TEXTURE_ONLY) => {
            return Err(invalid("only textures can be in this state"));
        }
        ResourceInfo::Buffer => state,
        ResourceInfo::Texture(_) => state.difference(ResourceStates::BUFFER_ONLY),
    };
    if kept.is_empty() {
        return Err(invalid("only buffers can be in this state"));
    }
    let (mut access, mut sync) = (Access::empty(), Sync::empty());
    for bit in kept.iter() {
        let (_, a, s) = row(bit);
        access |= a;
        sync |= s;
    }
    let layout = match info {
        ResourceInfo::Buffer => None,
        ResourceInfo::Texture(_) => Some(texture_layout(kept)),
    };
    if let Some(l) = layout {
        access &= layout_allows(l);
    }
    Ok(EnhancedState {
        layout,
        access,
        sync,
    })
}

/// The layout of a texture in `states` (non-empty, texture-usable, at most one write).
fn texture_layout(states: ResourceStates) -> Layout {
    use ResourceStates as S;
    if states.bits().count_ones() == 1 {
        return row(states).0.unwrap_or(Layout::Common);
    }
    if states.contains(S::NON_PIXEL_SHADER_RESOURCE) {
        // LEGACY_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE (barrier-spec B).
        Layout::DirectQueueGenericReadComputeQueueAccessible
    } else if (S::PIXEL_SHADER_RESOURCE | S::COPY_SOURCE).contains(states) {
        Layout::GenericRead
    } else {
        Layout::DirectQueueGenericRead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::TextureInfo;
    use ResourceStates as S;

    fn tex() -> ResourceInfo {
        ResourceInfo::Texture(TextureInfo::default())
    }

    fn on_tex(s: S) -> EnhancedState {
        enhanced_state(s, &tex()).unwrap()
    }

    /// PREDICATION is a name of the INDIRECT_ARGUMENT bit in the states, the accesses and the
    /// syncs alike, so that a port writes the state D3D12PredicationQueries names; the bit
    /// still prints as INDIRECT_ARGUMENT and maps to the same enhanced triple.
    #[test]
    fn predication_names_the_indirect_argument_bit() {
        let state: S = ron::from_str("\"PREDICATION\"").unwrap();
        assert_eq!(state, S::INDIRECT_ARGUMENT);
        let access: Access = ron::from_str("\"PREDICATION\"").unwrap();
        assert_eq!(access, Access::INDIRECT_ARGUMENT);
        let sync: Sync = ron::from_str("\"COPY | PREDICATION\"").unwrap();
        assert_eq!(sync, Sync::COPY | Sync::EXECUTE_INDIRECT);
        assert_eq!(ron::to_string(&state).unwrap(), "\"INDIRECT_ARGUMENT\"");
        let e = enhanced_state(S::PREDICATION, &ResourceInfo::Buffer).unwrap();
        assert_eq!(
            (e.layout, e.access, e.sync),
            (None, Access::INDIRECT_ARGUMENT, Sync::EXECUTE_INDIRECT)
        );
    }

    #[test]
    fn b_table_single_states() {
        let common = on_tex(S::COMMON);
        assert_eq!(
            (common.layout, common.access, common.sync),
            (Some(Layout::Common), Access::COMMON, Sync::ALL)
        );
        let npsr = on_tex(S::NON_PIXEL_SHADER_RESOURCE);
        assert_eq!(
            (npsr.layout, npsr.access, npsr.sync),
            (
                Some(Layout::ShaderResource),
                Access::SHADER_RESOURCE,
                Sync::NON_PIXEL_SHADING
            )
        );
        let uav = on_tex(S::UNORDERED_ACCESS);
        assert_eq!(
            (uav.layout, uav.sync),
            (
                Some(Layout::UnorderedAccess),
                Sync::ALL_SHADING | Sync::CLEAR_UNORDERED_ACCESS_VIEW
            )
        );
        let dw = on_tex(S::DEPTH_WRITE);
        assert_eq!(
            (dw.layout, dw.access, dw.sync),
            (
                Some(Layout::DepthStencilWrite),
                Access::DEPTH_STENCIL_WRITE,
                Sync::DEPTH_STENCIL
            )
        );
        assert_eq!(on_tex(S::SHADING_RATE_SOURCE).sync, Sync::PIXEL_SHADING);
        let vb = enhanced_state(S::VERTEX_AND_CONSTANT_BUFFER, &ResourceInfo::Buffer).unwrap();
        assert_eq!(
            (vb.layout, vb.access, vb.sync),
            (
                None,
                Access::VERTEX_BUFFER | Access::CONSTANT_BUFFER,
                Sync::ALL_SHADING
            )
        );
        assert_eq!(
            enhanced_state(S::INDEX_BUFFER, &ResourceInfo::Buffer)
                .unwrap()
                .sync,
            Sync::INDEX_INPUT
        );
        assert_eq!(
            enhanced_state(S::STREAM_OUT, &ResourceInfo::Buffer)
                .unwrap()
                .sync,
            Sync::VERTEX_SHADING
        );
        assert_eq!(
            enhanced_state(S::INDIRECT_ARGUMENT, &ResourceInfo::Buffer)
                .unwrap()
                .sync,
            Sync::EXECUTE_INDIRECT
        );
    }

    #[test]
    fn b_combined_reads() {
        // NON_PIXEL_SHADER_RESOURCE with another read: the compute-accessible layout (A10 hole).
        let all_srv = on_tex(S::ALL_SHADER_RESOURCE);
        assert_eq!(
            all_srv.layout,
            Some(Layout::DirectQueueGenericReadComputeQueueAccessible)
        );
        assert_eq!(all_srv.sync, Sync::NON_PIXEL_SHADING | Sync::PIXEL_SHADING);
        let generic = on_tex(S::GENERIC_READ);
        assert_eq!(
            generic.layout,
            Some(Layout::DirectQueueGenericReadComputeQueueAccessible)
        );
        assert_eq!(
            generic.access,
            Access::SHADER_RESOURCE | Access::COPY_SOURCE,
            "buffer-only reads dropped"
        );
        let depth_srv = on_tex(S::DEPTH_READ | S::NON_PIXEL_SHADER_RESOURCE);
        assert!(depth_srv.access.contains(Access::DEPTH_STENCIL_READ));
        assert_eq!(
            on_tex(S::PIXEL_SHADER_RESOURCE | S::COPY_SOURCE).layout,
            Some(Layout::GenericRead)
        );
        assert_eq!(
            on_tex(S::DEPTH_READ | S::PIXEL_SHADER_RESOURCE).layout,
            Some(Layout::DirectQueueGenericRead)
        );
        let buffer = enhanced_state(S::GENERIC_READ, &ResourceInfo::Buffer).unwrap();
        assert_eq!(buffer.layout, None, "buffers have no layout");
    }

    #[test]
    fn b_invalid_states_are_refused() {
        let name = |s, i: &ResourceInfo| enhanced_state(s, i).unwrap_err().name();
        assert_eq!(
            name(S::RENDER_TARGET | S::COPY_SOURCE, &tex()),
            "InvalidLegacyState"
        );
        assert_eq!(name(S::INDEX_BUFFER, &tex()), "InvalidLegacyState");
        assert_eq!(
            name(S::DEPTH_WRITE, &ResourceInfo::Buffer),
            "InvalidLegacyState"
        );
        assert_eq!(name(S::from_bits_retain(0x4000), &tex()), "UnknownFlagBits");
        // The corrected states: one write alone, a read both kinds can be in.
        assert!(enhanced_state(S::RENDER_TARGET, &tex()).is_ok());
        assert!(enhanced_state(S::COPY_SOURCE, &ResourceInfo::Buffer).is_ok());
    }
}
