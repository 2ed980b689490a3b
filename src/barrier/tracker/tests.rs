//! The tracker's history checks: one case per rule it enforces.
use super::*;
use crate::barrier::{
    ALL_SUBRESOURCES, Access, BufferBarrier, SubresourceRange, Sync, TextureBarrier,
    TextureBarrierFlags, TextureInfo,
};
use QueueType::Direct;

const RT: u32 = 1;
const BUF: u32 = 2;

fn info(r: &u32) -> Option<ResourceInfo> {
    match *r {
        RT => Some(ResourceInfo::Texture(TextureInfo::render_target(
            2,
            1,
            1 << 20,
        ))),
        BUF => Some(ResourceInfo::Buffer),
        _ => None,
    }
}

/// One texture barrier on the two-mip render target.
fn tex(s: [Sync; 2], a: [Access; 2], l: [Layout; 2]) -> BarrierGroup<u32> {
    let textures = vec![TextureBarrier {
        sync_before: s[0],
        sync_after: s[1],
        access_before: a[0],
        access_after: a[1],
        layout_before: l[0],
        layout_after: l[1],
        resource: RT,
        range: SubresourceRange::ALL,
        flags: TextureBarrierFlags::default(),
    }];
    BarrierGroup {
        textures,
        ..BarrierGroup::default()
    }
}

fn rt_to_srv() -> BarrierGroup<u32> {
    tex(
        [Sync::RENDER_TARGET, Sync::PIXEL_SHADING],
        [Access::RENDER_TARGET, Access::SHADER_RESOURCE],
        [Layout::RenderTarget, Layout::ShaderResource],
    )
}

fn srv_to_rt() -> BarrierGroup<u32> {
    tex(
        [Sync::PIXEL_SHADING, Sync::RENDER_TARGET],
        [Access::SHADER_RESOURCE, Access::RENDER_TARGET],
        [Layout::ShaderResource, Layout::RenderTarget],
    )
}

fn legacy(before: ResourceStates, after: ResourceStates) -> [LegacyBarrier<u32>; 1] {
    let split = Default::default();
    let subresource = ALL_SUBRESOURCES;
    [LegacyBarrier::Transition {
        resource: RT,
        subresource,
        before,
        after,
        split,
    }]
}

fn names(r: Result<(), Vec<BarrierError>>) -> Vec<&'static str> {
    r.err()
        .unwrap_or_default()
        .iter()
        .map(BarrierError::name)
        .collect()
}

const NONE: [&str; 0] = [];

#[test]
fn a9_creation_layout_is_the_known_layout() {
    let mut t = BarrierTracker::new();
    t.set_layout(RT, &info(&RT).unwrap(), Layout::ShaderResource);
    let errs = names(t.apply(&rt_to_srv(), Direct, info));
    assert_eq!(errs, ["LayoutMismatch", "LayoutMismatch"], "one per mip");
    // Refused barriers leave no trace: the texture is still in SHADER_RESOURCE.
    let layout = |t: &BarrierTracker<u32>, i| t.state(&RT, i).and_then(|s| s.layout);
    assert_eq!(layout(&t, 0), Some(Layout::ShaderResource));
    assert_eq!(names(t.apply(&srv_to_rt(), Direct, info)), NONE);
    assert_eq!(names(t.apply(&rt_to_srv(), Direct, info)), NONE);
    assert_eq!(layout(&t, 1), Some(Layout::ShaderResource));
}

#[test]
fn stateless_errors_and_warnings_pass_through() {
    let mut t = BarrierTracker::<u32>::new();
    assert_eq!(t.apply(&BarrierGroup::default(), Direct, info), Ok(()));
    assert_eq!(t.take_warnings(), vec![BarrierError::EmptyBarrierCall]);
    let errs = names(t.apply(&rt_to_srv(), QueueType::Copy, info));
    assert!(errs.contains(&"CopyQueueNotCommon"), "{errs:?}");
    assert!(t.state(&RT, 0).is_none(), "nothing recorded");
    let mut unknown = rt_to_srv();
    unknown.textures[0].resource = 7;
    assert_eq!(names(t.apply(&unknown, Direct, info)), ["UnknownResource"]);
}

#[test]
fn a8_legacy_barrier_needs_layout_common() {
    let mut t = BarrierTracker::new();
    t.apply(&rt_to_srv(), Direct, info).unwrap();
    let to_rt = legacy(
        ResourceStates::PIXEL_SHADER_RESOURCE,
        ResourceStates::RENDER_TARGET,
    );
    let errs = names(t.apply_legacy(&to_rt, info));
    assert_eq!(
        errs,
        [
            "LegacyBarrierOnEnhancedLayout",
            "LegacyBarrierOnEnhancedLayout"
        ]
    );
    // Back to COMMON first, and the legacy barrier is accepted.
    let to_common = tex(
        [Sync::PIXEL_SHADING, Sync::ALL],
        [Access::SHADER_RESOURCE, Access::COMMON],
        [Layout::ShaderResource, Layout::Common],
    );
    t.apply(&to_common, Direct, info).unwrap();
    assert_eq!(names(t.apply_legacy(&to_rt, info)), NONE);
    let state = t.state(&RT, 0).and_then(|s| s.legacy);
    assert_eq!(state, Some(ResourceStates::RENDER_TARGET));
}

#[test]
fn eb7_enhanced_barrier_needs_legacy_common() {
    let mut t = BarrierTracker::new();
    t.set_legacy_state(RT, &info(&RT).unwrap(), ResourceStates::RENDER_TARGET);
    let from_common = tex(
        [Sync::ALL, Sync::PIXEL_SHADING],
        [Access::COMMON, Access::SHADER_RESOURCE],
        [Layout::Common, Layout::ShaderResource],
    );
    let errs = names(t.apply(&from_common, Direct, info));
    assert_eq!(errs, ["LegacyStateNotCommon", "LegacyStateNotCommon"]);
    let to_common = legacy(ResourceStates::RENDER_TARGET, ResourceStates::COMMON);
    t.apply_legacy(&to_common, info).unwrap();
    assert_eq!(names(t.apply(&from_common, Direct, info)), NONE);
}

#[test]
fn eb11_buffer_and_common_splits_do_not_cross_submissions() {
    let mut t = BarrierTracker::new();
    let mut b = BufferBarrier {
        sync_before: Sync::COPY,
        sync_after: Sync::SPLIT,
        access_before: Access::COPY_DEST,
        access_after: Access::SHADER_RESOURCE,
        resource: BUF,
    };
    let begin = BarrierGroup {
        buffers: vec![b],
        ..BarrierGroup::default()
    };
    t.apply(&begin, Direct, info).unwrap();
    let mut rt_begin = rt_to_srv();
    rt_begin.textures[0].sync_after = Sync::SPLIT;
    t.apply(&rt_begin, Direct, info).unwrap();
    // Only the buffer split warns; a RENDER_TARGET -> SHADER_RESOURCE split may stay open.
    let crossing = BarrierError::SplitCrossesSubmission { subresource: 0 };
    assert_eq!(t.end_submission(), vec![crossing]);
    (b.sync_before, b.sync_after) = (Sync::SPLIT, Sync::PIXEL_SHADING);
    let end = BarrierGroup {
        buffers: vec![b],
        ..BarrierGroup::default()
    };
    t.apply(&end, Direct, info).unwrap();
    assert!(t.end_submission().is_empty());
}

/// A legacy transition names the state the last one left (EB-11, the debug layer's
/// before-state mismatch), also after an ExecuteCommandLists boundary restarts the history
/// (the state is the queue's); a subresource in COMMON may have been promoted since, and an
/// end-only split names the state before its begin.
#[test]
fn eb11_a_legacy_transition_names_the_state_the_last_one_left() {
    let mut t = BarrierTracker::new();
    let rt = legacy(ResourceStates::COMMON, ResourceStates::RENDER_TARGET);
    t.apply_legacy(&rt, info).unwrap();
    let to_srv = legacy(
        ResourceStates::RENDER_TARGET,
        ResourceStates::PIXEL_SHADER_RESOURCE,
    );
    t.apply_legacy(&to_srv, info).unwrap();
    t.restart(&RT);
    // Again from RENDER_TARGET: both mips are in PIXEL_SHADER_RESOURCE.
    let errs = names(t.apply_legacy(&to_srv, info));
    assert_eq!(
        errs,
        ["LegacyStateBeforeMismatch", "LegacyStateBeforeMismatch"]
    );
    // From the state it is in: accepted.
    let back = legacy(
        ResourceStates::PIXEL_SHADER_RESOURCE,
        ResourceStates::COMMON,
    );
    assert_eq!(names(t.apply_legacy(&back, info)), NONE);
    // From COMMON, whatever a transition names: implicit promotion is not tracked.
    assert_eq!(names(t.apply_legacy(&to_srv, info)), NONE);
    // The end of a split names the state before its begin.
    let mut end = legacy(ResourceStates::COMMON, ResourceStates::RENDER_TARGET);
    if let Some(LegacyBarrier::Transition { split, .. }) = end.first_mut() {
        *split = crate::barrier::LegacySplit::EndOnly;
    }
    assert_eq!(names(t.apply_legacy(&end, info)), NONE);
}
