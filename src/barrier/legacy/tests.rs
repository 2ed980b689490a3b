//! Legacy barriers translated as the driver does (EB-10, barrier-spec B).

use super::*;
use ResourceStates as S;

const TEX: u32 = 1;
const BUF: u32 = 2;

fn info(r: &u32) -> Option<ResourceInfo> {
    match *r {
        TEX => Some(ResourceInfo::Texture(TextureInfo::render_target(3, 2, 0))),
        BUF => Some(ResourceInfo::Buffer),
        _ => None,
    }
}

fn transition(resource: u32, subresource: u32, before: S, after: S) -> LegacyBarrier<u32> {
    let split = LegacySplit::None;
    LegacyBarrier::Transition {
        resource,
        subresource,
        before,
        after,
        split,
    }
}

#[test]
fn transitions_become_texture_or_buffer_barriers() {
    let g = translate(
        &[transition(
            TEX,
            4,
            S::RENDER_TARGET,
            S::PIXEL_SHADER_RESOURCE,
        )],
        info,
    )
    .unwrap();
    let t = g.textures[0];
    assert_eq!(
        (t.sync_before, t.sync_after),
        (Sync::RENDER_TARGET, Sync::PIXEL_SHADING)
    );
    assert_eq!(
        (t.access_before, t.access_after),
        (Access::RENDER_TARGET, Access::SHADER_RESOURCE)
    );
    assert_eq!(
        (t.layout_before, t.layout_after),
        (Layout::RenderTarget, Layout::ShaderResource)
    );
    assert_eq!(
        (t.range.first_mip, t.range.mip_count),
        (4, 0),
        "subresource-index form"
    );
    let g = translate(
        &[transition(
            BUF,
            ALL_SUBRESOURCES,
            S::COPY_DEST,
            S::GENERIC_READ,
        )],
        info,
    )
    .unwrap();
    let b = g.buffers[0];
    assert_eq!(
        (b.sync_before, b.access_before),
        (Sync::COPY, Access::COPY_DEST)
    );
    assert!(
        b.access_after
            .contains(Access::VERTEX_BUFFER | Access::INDEX_BUFFER | Access::INDIRECT_ARGUMENT)
    );
    // Whole-resource transitions and same-state no-ops.
    let g = translate(
        &[transition(TEX, ALL_SUBRESOURCES, S::COMMON, S::COPY_DEST)],
        info,
    )
    .unwrap();
    assert!(g.textures[0].range.is_all());
    assert!(
        translate(&[transition(TEX, 0, S::COPY_DEST, S::COPY_DEST)], info)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn split_flags_mark_the_halves() {
    let split = |split| LegacyBarrier::Transition {
        resource: TEX,
        subresource: 0,
        before: S::RENDER_TARGET,
        after: S::COPY_SOURCE,
        split,
    };
    let begin = translate(&[split(LegacySplit::BeginOnly)], info)
        .unwrap()
        .textures[0];
    let end = translate(&[split(LegacySplit::EndOnly)], info)
        .unwrap()
        .textures[0];
    assert_eq!(
        (begin.sync_before, begin.sync_after),
        (Sync::RENDER_TARGET, Sync::SPLIT)
    );
    assert_eq!((end.sync_before, end.sync_after), (Sync::SPLIT, Sync::COPY));
}

#[test]
fn eb10_uav_barriers_sync_all_shading_and_uav_clears() {
    let g = translate(
        &[
            LegacyBarrier::Uav { resource: None },
            LegacyBarrier::Uav {
                resource: Some(TEX),
            },
            LegacyBarrier::Uav {
                resource: Some(BUF),
            },
        ],
        info,
    )
    .unwrap();
    // ALL_SHADING, and the UAV clears no shading scope holds (barrier-spec A1): a legacy
    // title orders a ClearUnorderedAccessView* with a UAV barrier and nothing else.
    let sync = Sync::ALL_SHADING | Sync::CLEAR_UNORDERED_ACCESS_VIEW;
    assert_eq!(g.global, [global(sync, Access::UNORDERED_ACCESS)]);
    let t = g.textures[0];
    assert_eq!(
        (t.sync_before, t.sync_after, t.access_before),
        (sync, sync, Access::UNORDERED_ACCESS)
    );
    assert_eq!(
        (t.layout_before, t.layout_after),
        (Layout::UnorderedAccess, Layout::UnorderedAccess)
    );
    assert_eq!(g.buffers[0].sync_before, sync);
}

/// A transition into or out of UNORDERED_ACCESS, the state ClearUnorderedAccessView* needs,
/// synchronises with the clears too, so that a title's transition orders the clear after
/// what came before and before what comes after (barrier-spec A1, B).
#[test]
fn eb10_transitions_of_unordered_access_sync_with_uav_clears() {
    let into = translate(
        &[transition(
            BUF,
            0,
            S::PIXEL_SHADER_RESOURCE,
            S::UNORDERED_ACCESS,
        )],
        info,
    )
    .unwrap()
    .buffers[0];
    assert_eq!(into.sync_before, Sync::PIXEL_SHADING);
    assert!(
        into.sync_after
            .contains(Sync::CLEAR_UNORDERED_ACCESS_VIEW | Sync::ALL_SHADING)
    );
    let out = translate(
        &[transition(
            TEX,
            0,
            S::UNORDERED_ACCESS,
            S::NON_PIXEL_SHADER_RESOURCE,
        )],
        info,
    )
    .unwrap()
    .textures[0];
    assert!(out.sync_before.contains(Sync::CLEAR_UNORDERED_ACCESS_VIEW));
    assert_eq!(out.sync_after, Sync::NON_PIXEL_SHADING);
    // Both paths drain the compute pipe the clears run on.
    for path in [LegacyPath::Translated, LegacyPath::Untranslated] {
        assert!(
            path.uav_sync().contains(Sync::CLEAR_UNORDERED_ACCESS_VIEW),
            "{path:?}"
        );
    }
}

#[test]
fn eb10_aliasing_is_a_global_all_barrier() {
    let g = translate(
        &[LegacyBarrier::Aliasing {
            before: Some(TEX),
            after: None,
        }],
        info,
    )
    .unwrap();
    assert_eq!(g.global, [global(Sync::ALL, Access::COMMON)]);
    assert!(g.textures.is_empty() && g.buffers.is_empty());
}

#[test]
fn refusals_are_collected() {
    let bad = [
        transition(9, 0, S::COMMON, S::RENDER_TARGET),
        transition(BUF, 0, S::COMMON, S::RENDER_TARGET),
        LegacyBarrier::Uav { resource: Some(9) },
    ];
    let errs = translate(&bad, info).unwrap_err();
    let names: Vec<_> = errs.iter().map(BarrierError::name).collect();
    assert_eq!(
        names,
        ["UnknownResource", "InvalidLegacyState", "UnknownResource"]
    );
}

#[test]
fn eb10_untranslated_uav_barriers_skip_the_vertex_partial_flush() {
    // Seed 004: without translation (the loose file), a UAV barrier flushes pixel and compute
    // before invalidating, not vertex work; translated, it flushes all three.
    let uavs = [
        LegacyBarrier::Uav {
            resource: Some(BUF),
        },
        LegacyBarrier::Uav {
            resource: Some(TEX),
        },
        LegacyBarrier::Uav { resource: None },
    ];
    let lowered = |path| {
        let g = translate_with(&uavs, info, path).unwrap();
        let syncs: Vec<Sync> = (g.buffers.iter().map(|b| b.sync_before))
            .chain(g.textures.iter().map(|t| t.sync_before))
            .chain(g.global.iter().map(|b| b.sync_before))
            .collect();
        assert_eq!(syncs, [path.uav_sync(); 3]);
        let options = crate::barrier::LowerOptions::default();
        crate::barrier::lower(&g, crate::barrier::QueueType::Direct, info, options).drains
    };
    let (translated, untranslated) = (
        lowered(LegacyPath::Translated),
        lowered(LegacyPath::Untranslated),
    );
    use crate::barrier::Stages;
    assert!(translated.contains(Stages::SHADERS), "{translated:?}");
    assert!(!untranslated.contains(Stages::VERTEX), "{untranslated:?}");
    assert!(untranslated.contains(Stages::PIXEL | Stages::COMPUTE));
    // Transitions and aliasing barriers are the same on both paths.
    let others = [
        transition(TEX, 0, S::RENDER_TARGET, S::PIXEL_SHADER_RESOURCE),
        LegacyBarrier::Aliasing {
            before: Some(TEX),
            after: None,
        },
    ];
    assert_eq!(
        translate_with(&others, info, LegacyPath::Untranslated),
        translate(&others, info)
    );
}

/// Barrier-spec A5, EB-10: on a compute list the translation of VERTEX_AND_CONSTANT_BUFFER
/// names CONSTANT_BUFFER alone (a compute queue has no VERTEX_BUFFER access), and its other
/// read bits stay; a graphics list's translation keeps both.
#[test]
fn a_compute_list_translates_vertex_and_constant_buffer_as_constant_buffer() {
    let both = S::VERTEX_AND_CONSTANT_BUFFER | S::NON_PIXEL_SHADER_RESOURCE;
    let mut g = translate(&[transition(BUF, 0, S::COMMON, both)], info).unwrap();
    let graphics = g.buffers[0].access_after;
    assert!(graphics.contains(Access::VERTEX_BUFFER | Access::CONSTANT_BUFFER));
    for_compute_list(&mut g);
    let b = g.buffers[0];
    assert_eq!(
        b.access_after,
        Access::CONSTANT_BUFFER | Access::SHADER_RESOURCE
    );
    assert_eq!(b.access_before, Access::COMMON);
}
