//! Which accesses a layout allows (barrier-spec A6) and which sync scopes an access needs
//! (barrier-spec A7).
//!
//! The Before triple and the After triple of a barrier must each be self-consistent (EB-11):
//! a layout only admits the accesses its memory arrangement can serve, and an access only
//! happens in certain pipeline stages, so a sync scope that names none of them synchronises
//! nothing useful. These are pure table look-ups, kept apart from the checks that report them
//! so lowering and the legacy translation can consult the same tables.

use super::{Access, Layout, Sync};

/// The accesses `layout` admits (barrier-spec A6). `UNDEFINED` admits only `NO_ACCESS`; the
/// caller handles the "both sides UNDEFINED" exception (barrier-spec A3.3). `NO_ACCESS` and
/// `COMMON` are always compatible and are not part of the result.
pub fn layout_allows(layout: Layout) -> Access {
    use Layout as L;
    let read_write_copy = Access::COPY_SOURCE | Access::COPY_DEST | Access::SHADER_RESOURCE;
    match layout {
        L::Undefined => Access::empty(),
        L::Common => read_write_copy,
        L::DirectQueueCommon | L::ComputeQueueCommon => read_write_copy | Access::UNORDERED_ACCESS,
        L::GenericRead | L::ComputeQueueGenericRead => {
            Access::SHADER_RESOURCE | Access::COPY_SOURCE
        }
        L::DirectQueueGenericRead | L::DirectQueueGenericReadComputeQueueAccessible => {
            Access::SHADER_RESOURCE
                | Access::COPY_SOURCE
                | Access::DEPTH_STENCIL_READ
                | Access::SHADING_RATE_SOURCE
                | Access::RESOLVE_SOURCE
        }
        L::DepthStencilWrite => Access::DEPTH_STENCIL_READ | Access::DEPTH_STENCIL_WRITE,
        L::DepthStencilRead => Access::DEPTH_STENCIL_READ,
        L::RenderTarget => Access::RENDER_TARGET,
        L::UnorderedAccess | L::DirectQueueUnorderedAccess | L::ComputeQueueUnorderedAccess => {
            Access::UNORDERED_ACCESS
        }
        L::ShaderResource | L::DirectQueueShaderResource | L::ComputeQueueShaderResource => {
            Access::SHADER_RESOURCE
        }
        L::CopySource | L::DirectQueueCopySource | L::ComputeQueueCopySource => Access::COPY_SOURCE,
        L::CopyDest | L::DirectQueueCopyDest | L::ComputeQueueCopyDest => Access::COPY_DEST,
        L::ResolveSource => Access::RESOLVE_SOURCE,
        L::ResolveDest => Access::RESOLVE_DEST,
        L::ShadingRateSource => Access::SHADING_RATE_SOURCE,
    }
}

/// The sync bits barrier-spec A7 lists for one access bit (at least one must be named).
/// `None` for `COMMON`/`NO_ACCESS` and unknown bits: any valid sync will do.
pub fn access_requires(access_bit: Access) -> Option<Sync> {
    let shading = Sync::ALL
        | Sync::VERTEX_SHADING
        | Sync::PIXEL_SHADING
        | Sync::COMPUTE_SHADING
        | Sync::DRAW
        | Sync::ALL_SHADING;
    let s = if access_bit == Access::VERTEX_BUFFER || access_bit == Access::STREAM_OUTPUT {
        Sync::ALL | Sync::VERTEX_SHADING | Sync::DRAW | Sync::ALL_SHADING
    } else if access_bit == Access::CONSTANT_BUFFER || access_bit == Access::SHADER_RESOURCE {
        shading
    } else if access_bit == Access::INDEX_BUFFER {
        Sync::ALL | Sync::INDEX_INPUT | Sync::DRAW
    } else if access_bit == Access::RENDER_TARGET {
        Sync::ALL | Sync::DRAW | Sync::RENDER_TARGET
    } else if access_bit == Access::DEPTH_STENCIL_WRITE || access_bit == Access::DEPTH_STENCIL_READ
    {
        Sync::ALL | Sync::DRAW | Sync::DEPTH_STENCIL
    } else if access_bit == Access::UNORDERED_ACCESS {
        shading | Sync::CLEAR_UNORDERED_ACCESS_VIEW
    } else if access_bit == Access::INDIRECT_ARGUMENT {
        // Also PREDICATION, whose sync bit is EXECUTE_INDIRECT's value.
        Sync::ALL | Sync::EXECUTE_INDIRECT
    } else if access_bit == Access::COPY_DEST || access_bit == Access::COPY_SOURCE {
        Sync::ALL | Sync::COPY
    } else if access_bit == Access::RESOLVE_DEST || access_bit == Access::RESOLVE_SOURCE {
        Sync::ALL | Sync::RESOLVE
    } else if access_bit == Access::SHADING_RATE_SOURCE {
        Sync::ALL | Sync::PIXEL_SHADING | Sync::ALL_SHADING
    } else {
        return None;
    };
    Some(s)
}

/// The access bits of `access` that `sync` cannot serve (barrier-spec A7); empty when
/// compatible.
///
/// A bit is served when `sync` names one of its listed bits, or when one of the concrete
/// stages `sync` stands for is itself listed (so `NON_PIXEL_SHADING` serves
/// `SHADER_RESOURCE` through vertex and compute shading, the legacy NON_PIXEL_SHADER_RESOURCE
/// equivalent of barrier-spec B). Listed aggregates are not expanded: `PIXEL_SHADING` does
/// not serve `RENDER_TARGET` merely because `DRAW` contains both.
pub fn unserved_access(sync: Sync, access: Access) -> Access {
    let mut bad = Access::empty();
    if access.contains(Access::NO_ACCESS) {
        return bad;
    }
    for bit in access.iter() {
        let Some(listed) = access_requires(bit) else {
            continue;
        };
        if !sync.intersects(listed) && !sync.expand().intersects(listed) {
            bad |= bit;
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a6_table_rows() {
        assert_eq!(layout_allows(Layout::RenderTarget), Access::RENDER_TARGET);
        assert!(layout_allows(Layout::Common).contains(Access::COPY_DEST | Access::COPY_SOURCE));
        assert!(!layout_allows(Layout::Common).contains(Access::UNORDERED_ACCESS));
        assert!(layout_allows(Layout::DirectQueueCommon).contains(Access::UNORDERED_ACCESS));
        assert!(
            layout_allows(Layout::DirectQueueGenericReadComputeQueueAccessible)
                .contains(Access::DEPTH_STENCIL_READ)
        );
        assert!(!layout_allows(Layout::GenericRead).contains(Access::DEPTH_STENCIL_READ));
        assert!(layout_allows(Layout::Undefined).is_empty());
    }

    #[test]
    fn a7_sync_serves_access() {
        assert!(unserved_access(Sync::RENDER_TARGET, Access::RENDER_TARGET).is_empty());
        assert!(unserved_access(Sync::DRAW, Access::RENDER_TARGET).is_empty());
        assert_eq!(
            unserved_access(Sync::PIXEL_SHADING, Access::RENDER_TARGET),
            Access::RENDER_TARGET
        );
        assert!(unserved_access(Sync::NON_PIXEL_SHADING, Access::SHADER_RESOURCE).is_empty());
        assert_eq!(
            unserved_access(
                Sync::PIXEL_SHADING,
                Access::SHADER_RESOURCE | Access::COPY_SOURCE
            ),
            Access::COPY_SOURCE
        );
        assert!(unserved_access(Sync::NONE, Access::NO_ACCESS).is_empty());
        assert!(unserved_access(Sync::COPY, Access::COMMON).is_empty());
    }
}
