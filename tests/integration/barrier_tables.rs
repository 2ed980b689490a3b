//! Table-driven checks of the barrier rules against the specification's tables, written out
//! here independently of the implementation: every layout x access pair (barrier-spec A6),
//! every access x sync pair (A7) and every queue type (A5). Valid combinations are accepted;
//! every other one is refused with the right error.

use fastframe::barrier::*;

const LAYOUTS: [Layout; 26] = Layout::ALL;

const ACCESSES: [Access; 15] = [
    Access::VERTEX_BUFFER,
    Access::CONSTANT_BUFFER,
    Access::INDEX_BUFFER,
    Access::RENDER_TARGET,
    Access::UNORDERED_ACCESS,
    Access::DEPTH_STENCIL_WRITE,
    Access::DEPTH_STENCIL_READ,
    Access::SHADER_RESOURCE,
    Access::STREAM_OUTPUT,
    Access::INDIRECT_ARGUMENT,
    Access::COPY_DEST,
    Access::COPY_SOURCE,
    Access::RESOLVE_DEST,
    Access::RESOLVE_SOURCE,
    Access::SHADING_RATE_SOURCE,
];

/// Barrier-spec A6, transcribed.
fn a6(layout: Layout) -> Access {
    use Layout as L;
    let same = |a| a;
    match layout {
        L::Undefined => Access::empty(),
        L::Common => Access::SHADER_RESOURCE | Access::COPY_DEST | Access::COPY_SOURCE,
        L::DirectQueueCommon | L::ComputeQueueCommon => {
            Access::COPY_SOURCE
                | Access::COPY_DEST
                | Access::SHADER_RESOURCE
                | Access::UNORDERED_ACCESS
        }
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
        L::DepthStencilRead => same(Access::DEPTH_STENCIL_READ),
        L::RenderTarget => same(Access::RENDER_TARGET),
        L::UnorderedAccess | L::DirectQueueUnorderedAccess | L::ComputeQueueUnorderedAccess => {
            same(Access::UNORDERED_ACCESS)
        }
        L::ShaderResource | L::DirectQueueShaderResource | L::ComputeQueueShaderResource => {
            same(Access::SHADER_RESOURCE)
        }
        L::CopySource | L::DirectQueueCopySource | L::ComputeQueueCopySource => {
            same(Access::COPY_SOURCE)
        }
        L::CopyDest | L::DirectQueueCopyDest | L::ComputeQueueCopyDest => same(Access::COPY_DEST),
        L::ResolveSource => same(Access::RESOLVE_SOURCE),
        L::ResolveDest => same(Access::RESOLVE_DEST),
        L::ShadingRateSource => same(Access::SHADING_RATE_SOURCE),
    }
}

/// Barrier-spec A7, transcribed: the syncs an access may name (at least one).
fn a7(access: Access) -> Sync {
    let shading = Sync::ALL
        | Sync::VERTEX_SHADING
        | Sync::PIXEL_SHADING
        | Sync::COMPUTE_SHADING
        | Sync::DRAW
        | Sync::ALL_SHADING;
    match access {
        a if a == Access::VERTEX_BUFFER || a == Access::STREAM_OUTPUT => {
            Sync::ALL | Sync::VERTEX_SHADING | Sync::DRAW | Sync::ALL_SHADING
        }
        a if a == Access::CONSTANT_BUFFER || a == Access::SHADER_RESOURCE => shading,
        a if a == Access::INDEX_BUFFER => Sync::ALL | Sync::INDEX_INPUT | Sync::DRAW,
        a if a == Access::RENDER_TARGET => Sync::ALL | Sync::DRAW | Sync::RENDER_TARGET,
        a if a == Access::DEPTH_STENCIL_WRITE || a == Access::DEPTH_STENCIL_READ => {
            Sync::ALL | Sync::DRAW | Sync::DEPTH_STENCIL
        }
        a if a == Access::UNORDERED_ACCESS => shading | Sync::CLEAR_UNORDERED_ACCESS_VIEW,
        a if a == Access::INDIRECT_ARGUMENT => Sync::ALL | Sync::EXECUTE_INDIRECT,
        a if a == Access::COPY_DEST || a == Access::COPY_SOURCE => Sync::ALL | Sync::COPY,
        a if a == Access::RESOLVE_DEST || a == Access::RESOLVE_SOURCE => Sync::ALL | Sync::RESOLVE,
        a if a == Access::SHADING_RATE_SOURCE => {
            Sync::ALL | Sync::PIXEL_SHADING | Sync::ALL_SHADING
        }
        _ => Sync::all(),
    }
}

fn every_flag() -> ResourceInfo {
    ResourceInfo::Texture(TextureInfo {
        render_target: true,
        depth_stencil: true,
        unordered_access: true,
        ..TextureInfo::default()
    })
}

/// A texture barrier that leaves `layout` with `access` in every other respect valid on a
/// direct queue: the Before half is an UNDEFINED activation.
fn into(layout: Layout, access: Access, sync: Sync) -> TextureBarrier<u32> {
    TextureBarrier {
        sync_before: Sync::NONE,
        sync_after: sync,
        access_before: Access::NO_ACCESS,
        access_after: access,
        layout_before: Layout::Undefined,
        layout_after: layout,
        resource: 0,
        range: SubresourceRange::ALL,
        flags: TextureBarrierFlags::default(),
    }
}

fn names(errors: &[BarrierError]) -> Vec<&'static str> {
    errors
        .iter()
        .filter(|e| e.is_error())
        .map(|e| e.name())
        .collect()
}

#[test]
fn a6_every_layout_access_pair() {
    let mut checked = 0;
    for layout in LAYOUTS.into_iter().filter(|l| *l != Layout::Undefined) {
        for access in ACCESSES {
            // A sync every access allows, so only the layout/access pair is at stake.
            let (errors, _) = validate_texture(
                &into(layout, access, Sync::ALL),
                QueueType::Direct,
                &every_flag(),
            );
            let allowed = a6(layout).contains(access);
            let found = names(&errors);
            let incompatible = found.contains(&"LayoutAccessIncompatible");
            assert_eq!(
                !incompatible,
                allowed,
                "{} with {access:?}: {found:?}",
                layout.spec_name()
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 25 * 15);
}

#[test]
fn a7_every_access_sync_pair() {
    let syncs = [
        Sync::ALL,
        Sync::DRAW,
        Sync::INDEX_INPUT,
        Sync::VERTEX_SHADING,
        Sync::PIXEL_SHADING,
        Sync::DEPTH_STENCIL,
        Sync::RENDER_TARGET,
        Sync::COMPUTE_SHADING,
        Sync::COPY,
        Sync::RESOLVE,
        Sync::EXECUTE_INDIRECT,
        Sync::ALL_SHADING,
        Sync::NON_PIXEL_SHADING,
        Sync::CLEAR_UNORDERED_ACCESS_VIEW,
    ];
    for access in ACCESSES {
        for sync in syncs {
            let b = BufferBarrier {
                sync_before: Sync::NONE,
                sync_after: sync,
                access_before: Access::NO_ACCESS,
                access_after: access,
                resource: 0u32,
            };
            let found = names(&validate_buffer(
                &b,
                QueueType::Direct,
                &ResourceInfo::Buffer,
            ));
            // An aggregate (NON_PIXEL_SHADING, ALL_SHADING, DRAW) counts when it contains one of
            // the listed stages, as the debug layer's stage expansion does.
            let aggregates = Sync::ALL | Sync::DRAW | Sync::ALL_SHADING | Sync::NON_PIXEL_SHADING;
            let concrete = a7(access).difference(aggregates);
            let allowed = a7(access).intersects(sync) || concrete.intersects(sync.expand());
            let refused = found.contains(&"AccessSyncIncompatible");
            assert_eq!(!refused, allowed, "{access:?} with {sync:?}: {found:?}");
        }
    }
}

#[test]
fn a5_every_queue_type() {
    use Layout as L;
    let compute_layouts = [
        L::Common,
        L::GenericRead,
        L::UnorderedAccess,
        L::ShaderResource,
        L::CopySource,
        L::CopyDest,
        L::ComputeQueueCommon,
        L::ComputeQueueGenericRead,
        L::ComputeQueueUnorderedAccess,
        L::ComputeQueueShaderResource,
        L::ComputeQueueCopySource,
        L::ComputeQueueCopyDest,
        L::DirectQueueGenericReadComputeQueueAccessible,
    ];
    let compute_accesses = Access::CONSTANT_BUFFER
        | Access::UNORDERED_ACCESS
        | Access::SHADER_RESOURCE
        | Access::INDIRECT_ARGUMENT
        | Access::COPY_DEST
        | Access::COPY_SOURCE;
    let compute_syncs = Sync::ALL
        | Sync::COMPUTE_SHADING
        | Sync::COPY
        | Sync::EXECUTE_INDIRECT
        | Sync::ALL_SHADING
        | Sync::NON_PIXEL_SHADING
        | Sync::CLEAR_UNORDERED_ACCESS_VIEW;
    for layout in LAYOUTS.into_iter().filter(|l| *l != Layout::Undefined) {
        let direct = !matches!(
            layout,
            L::ComputeQueueCommon
                | L::ComputeQueueGenericRead
                | L::ComputeQueueUnorderedAccess
                | L::ComputeQueueShaderResource
                | L::ComputeQueueCopySource
                | L::ComputeQueueCopyDest
        );
        for (queue, allowed) in [
            (QueueType::Direct, direct),
            (QueueType::Compute, compute_layouts.contains(&layout)),
            (QueueType::Copy, layout == L::Common),
        ] {
            assert_eq!(
                queue.allows_layout(layout),
                allowed,
                "{} on {queue:?}",
                layout.spec_name()
            );
        }
    }
    for access in ACCESSES {
        assert!(QueueType::Direct.allowed_access().contains(access));
        assert_eq!(
            QueueType::Compute.allowed_access().contains(access),
            compute_accesses.contains(access),
            "{access:?}"
        );
        assert_eq!(
            QueueType::Copy.allowed_access().contains(access),
            (Access::COPY_DEST | Access::COPY_SOURCE).contains(access)
        );
        // Refused in a barrier on a queue that does not have it.
        if !QueueType::Compute.allowed_access().contains(access) {
            let b = BufferBarrier {
                sync_before: Sync::NONE,
                sync_after: Sync::ALL,
                access_before: Access::NO_ACCESS,
                access_after: access,
                resource: 0u32,
            };
            assert!(
                names(&validate_buffer(
                    &b,
                    QueueType::Compute,
                    &ResourceInfo::Buffer
                ))
                .contains(&"AccessNotOnQueue"),
                "{access:?}"
            );
        }
    }
    for sync in [
        Sync::DRAW,
        Sync::PIXEL_SHADING,
        Sync::RENDER_TARGET,
        Sync::COMPUTE_SHADING,
        Sync::COPY,
    ] {
        assert_eq!(
            QueueType::Compute.allowed_sync().contains(sync),
            compute_syncs.contains(sync),
            "{sync:?}"
        );
        assert_eq!(
            QueueType::Copy.allowed_sync().contains(sync),
            (Sync::ALL | Sync::COPY | Sync::SPLIT).contains(sync),
            "{sync:?}"
        );
    }
}
