//! The worked examples of EB-9 (seed 004), end to end: each scenario written as the legacy
//! barrier the seed starts from and as the enhanced barrier it recommends, validated, then
//! lowered, with the exact hardware actions each must produce.

use super::hardware::{CompressionKind as K, SyncEvent as E};
use super::*;
use QueueType::Direct;

const RTV: u32 = 1;
const MIPS: u32 = 2;
const TEX0: u32 = 3;
const TEX1: u32 = 4;
const MB: u64 = 1 << 20;

fn info(r: &u32) -> Option<ResourceInfo> {
    let t = match *r {
        RTV | TEX0 | TEX1 => TextureInfo::render_target(1, 1, 8 * MB),
        MIPS => TextureInfo {
            unordered_access: true,
            ..TextureInfo::default()
        },
        _ => return None,
    };
    Some(ResourceInfo::Texture(t))
}

fn texture(r: u32, s: [Sync; 2], a: [Access; 2], l: [Layout; 2]) -> TextureBarrier<u32> {
    TextureBarrier::whole(r, s, a, l)
}

/// Validate (no findings at all) and lower an enhanced Barrier call on the direct queue.
fn enhanced(textures: Vec<TextureBarrier<u32>>) -> HardwareActions<u32> {
    let g = BarrierGroup {
        textures,
        ..BarrierGroup::default()
    };
    assert_eq!(validate_group(&g, Direct, info), vec![]);
    lower(&g, Direct, info, LowerOptions::default())
}

/// Translate, validate and lower legacy barriers on the direct queue.
fn legacy(barriers: &[LegacyBarrier<u32>]) -> HardwareActions<u32> {
    let g = translate(barriers, info).expect("valid legacy barriers");
    assert_eq!(validate_group(&g, Direct, info), vec![]);
    lower_legacy(barriers, Direct, info, LowerOptions::default()).expect("translated")
}

const FRONT_END_WAIT: E = E::TopOfPipeWait {
    prefetch_parser: true,
    constant_engine: true,
};

#[test]
fn eb9a_srv_to_rtv_after_a_compute_pass() {
    let old = legacy(&[LegacyBarrier::Transition {
        resource: RTV,
        subresource: ALL_SUBRESOURCES,
        before: ResourceStates::NON_PIXEL_SHADER_RESOURCE,
        after: ResourceStates::RENDER_TARGET,
        split: LegacySplit::None,
    }]);
    // Compute (needed) and vertex (not needed) both drain; the whole front end waits.
    assert_eq!(old.drains, Stages::VERTEX | Stages::COMPUTE);
    assert_eq!(
        old.events,
        [E::VsPartialFlush, E::CsPartialFlush, FRONT_END_WAIT]
    );
    assert_eq!(
        (old.blocks, old.front_end),
        (Stages::all(), FrontEnd::all())
    );

    let new = enhanced(vec![texture(
        RTV,
        [Sync::COMPUTE_SHADING, Sync::RENDER_TARGET],
        [Access::SHADER_RESOURCE, Access::RENDER_TARGET],
        [Layout::ShaderResource, Layout::RenderTarget],
    )]);
    let expected = HardwareActions {
        drains: Stages::COMPUTE,
        blocks: Stages::CB,
        events: vec![E::CsPartialFlush],
        invalidate: Caches::CB,
        ..HardwareActions::default()
    };
    assert_eq!(
        new, expected,
        "compute drains, only render-target work waits"
    );
}

#[test]
fn eb9b_uav_barrier_between_mip_generation_dispatches() {
    let old = legacy(&[LegacyBarrier::Uav {
        resource: Some(MIPS),
    }]);
    assert_eq!(old.drains, Stages::VERTEX | Stages::PIXEL | Stages::COMPUTE);
    assert_eq!(
        old.events,
        [
            E::VsPartialFlush,
            E::PsPartialFlush,
            E::CsPartialFlush,
            FRONT_END_WAIT
        ]
    );
    assert_eq!(old.invalidate, Caches::L0_L1, "then invalidate (EB-10)");

    let uav = [Access::UNORDERED_ACCESS; 2];
    let new = enhanced(vec![texture(
        MIPS,
        [Sync::COMPUTE_SHADING; 2],
        uav,
        [Layout::UnorderedAccess; 2],
    )]);
    let expected = HardwareActions {
        drains: Stages::COMPUTE,
        blocks: Stages::COMPUTE,
        events: vec![E::CsPartialFlush],
        invalidate: Caches::L0_L1,
        ..HardwareActions::default()
    };
    assert_eq!(new, expected);
    assert_eq!(new.flush_counts().vs + new.flush_counts().ps, 0);
}

#[test]
fn eb9c_copy_to_self_needs_no_temporary_texture() {
    // One COMMON-layout subresource may be copy source and destination at once ...
    let both = Access::COPY_SOURCE | Access::COPY_DEST;
    enhanced(vec![texture(
        RTV,
        [Sync::RENDER_TARGET, Sync::COPY],
        [Access::RENDER_TARGET, both],
        [Layout::RenderTarget, Layout::Common],
    )]);
    // ... which no legacy state can say.
    let legacy_both = ResourceStates::COPY_SOURCE | ResourceStates::COPY_DEST;
    assert!(enhanced_state(legacy_both, &info(&RTV).unwrap()).is_err());
    // Top-left quarter to bottom-right quarter: accepted; overlapping regions: refused.
    let src = CopyRegion::new(0, [0, 0, 0], [512, 512, 1]);
    assert_eq!(
        check_self_copy(&src, &CopyRegion::new(0, [512, 512, 0], [512, 512, 1])),
        Ok(())
    );
    let overlap = CopyRegion::new(0, [256, 256, 0], [512, 512, 1]);
    assert_eq!(
        check_self_copy(&src, &overlap),
        Err(BarrierError::SelfCopyOverlap)
    );
}

#[test]
fn eb9d_aliasing_with_undefined_and_discard() {
    let old = legacy(&[LegacyBarrier::Aliasing {
        before: Some(TEX0),
        after: Some(TEX1),
    }]);
    assert_eq!(old.events, [E::FullIdle, FRONT_END_WAIT], "stalls all work");
    assert!(old.is_full_idle());
    assert_eq!(
        old.write_back,
        Caches::CB | Caches::DB | Caches::L2,
        "all writes"
    );
    assert_eq!(old.invalidate, Caches::all());

    let deactivate = texture(
        TEX0,
        [Sync::RENDER_TARGET, Sync::NONE],
        [Access::RENDER_TARGET, Access::NO_ACCESS],
        [Layout::RenderTarget, Layout::Undefined],
    );
    let mut activate = texture(
        TEX1,
        [Sync::NONE, Sync::RENDER_TARGET],
        [Access::NO_ACCESS, Access::RENDER_TARGET],
        [Layout::Undefined, Layout::RenderTarget],
    );
    activate.flags.discard = true;
    let new = enhanced(vec![deactivate, activate]);
    let expected = HardwareActions {
        drains: Stages::CB,
        blocks: Stages::CB,
        events: vec![
            E::EndOfPipe,
            E::TopOfPipeWait {
                prefetch_parser: false,
                constant_engine: false,
            },
        ],
        write_back: Caches::CB,
        invalidate: Caches::CB,
        compression: vec![CompressionOp {
            kind: K::MetadataInit,
            resource: TEX1,
            partial_range: false,
            bytes: 8 * MB / 64,
        }],
        ..HardwareActions::default()
    };
    assert_eq!(
        new, expected,
        "no global stall, no decompression of garbage"
    );
    assert_eq!((new.decompression_count(), new.discard_count()), (0, 1));
}

#[test]
fn a_flush_with_nothing_named_costs_nothing() {
    let empty = BarrierGroup::<u32>::default();
    assert!(lower(&empty, Direct, info, LowerOptions::default()).is_empty());
    assert!(
        lower_legacy(&[], Direct, info, LowerOptions::default())
            .unwrap()
            .blocks
            .is_empty()
    );
}
