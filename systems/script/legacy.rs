//! A script's legacy `ResourceBarrier` calls, translated into one enhanced Barrier call as
//! the driver does (EB-10, barrier-spec B), with the legacy state of each subresource kept
//! as the driver keeps it.
//!
//! Transitions and aliasing barriers go through the barrier vocabulary's translation. A UAV
//! barrier on a texture is translated here: it changes no layout, so it must claim none it
//! does not know. It becomes a texture barrier in the UNORDERED_ACCESS layout only over the
//! subresources the script's transitions left in UNORDERED_ACCESS (one barrier for all of
//! them when the whole texture is), and, when none are, a global UAV barrier, which orders
//! and makes visible UAV accesses without naming a layout. (A translation that put every
//! subresource in UNORDERED_ACCESS would contradict the layouts of the others, EB-11.)
//!
//! Without translation (the loose file of seed 004) the driver's previous path issues the
//! calls instead: UAV barriers drain pixel and compute work only (`LegacyPath`, EB-10).
//!
//! An aliasing barrier is the full stall EB-10 describes (a global barrier that waits for
//! everything, writes every cache back and invalidates) and also says which resource hands
//! the memory to which: the driver deactivates `before` in the same call (AccessAfter
//! NO_ACCESS, in the layout its legacy state has) and activates `after` in a second call
//! (buffers from AccessBefore NO_ACCESS, textures from UNDEFINED with DISCARD, EB-5), since
//! barriers on two resources in one call are unordered (barrier-spec A3.5). So one legacy
//! call may become two Barrier commands.

use crate::barrier::{
    ALL_SUBRESOURCES, Access, BarrierGroup, BufferBarrier, GlobalBarrier, Layout, LegacyBarrier,
    LegacySplit, ResourceInfo, ResourceStates, SubresourceRange, Sync, TextureBarrier,
    TextureBarrierFlags, translate_with,
};
use crate::device::{Device, ObjectKey};
use crate::model::{LegacyScriptBarrier, ScriptState};

/// The enhanced Barrier calls the driver issues for one `ResourceBarrier` call (EB-10): one,
/// or two when it hands aliased memory over; with the call's legacy barriers, which the
/// validation layer tracks for EB-7.
pub(super) fn translate_script(
    device: &Device,
    state: &mut ScriptState,
    list: &[LegacyScriptBarrier<ObjectKey>],
) -> Result<(Vec<BarrierGroup<ObjectKey>>, Vec<LegacyBarrier<ObjectKey>>), String> {
    let mut legacy = Vec::new();
    let mut uavs = Vec::new();
    let mut handovers = Vec::new();
    for b in list {
        match b {
            LegacyScriptBarrier::Transition {
                resource,
                subresource,
                before,
                after,
            } => {
                legacy.push(LegacyBarrier::Transition {
                    resource: *resource,
                    subresource: *subresource,
                    before: *before,
                    after: *after,
                    split: LegacySplit::None,
                });
                if *subresource == ALL_SUBRESOURCES {
                    state.legacy.retain(|(r, _), _| r != resource);
                }
                state.legacy.insert((*resource, *subresource), *after);
            }
            LegacyScriptBarrier::Uav(r) => match device.memory.resource_info(*r) {
                Some(ResourceInfo::Texture(_)) => uavs.push(*r),
                _ => legacy.push(LegacyBarrier::Uav { resource: Some(*r) }),
            },
            LegacyScriptBarrier::UavAll => legacy.push(LegacyBarrier::Uav { resource: None }),
            LegacyScriptBarrier::Aliasing { before, after } => {
                legacy.push(LegacyBarrier::Aliasing {
                    before: Some(*before),
                    after: Some(*after),
                });
                handovers.push((*before, *after));
            }
        }
    }
    let path = device.legacy_path();
    let info = |k: &ObjectKey| device.memory.resource_info(*k);
    let mut group = translate_with(&legacy, info, path).map_err(|errors| {
        let names: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        format!("ResourceBarrier: {}", names.join("; "))
    })?;
    let (sync, access) = (path.uav_sync(), Access::UNORDERED_ACCESS);
    for r in uavs {
        let mut subs: Vec<u32> = (state.legacy.iter())
            .filter(|((k, _), s)| *k == r && s.contains(ResourceStates::UNORDERED_ACCESS))
            .map(|((_, sub), _)| *sub)
            .collect();
        subs.sort_unstable();
        if subs.is_empty() {
            group.global.push(GlobalBarrier {
                sync_before: sync,
                sync_after: sync,
                access_before: access,
                access_after: access,
            });
        }
        for sub in subs {
            let range = match sub {
                ALL_SUBRESOURCES => SubresourceRange::ALL,
                index => SubresourceRange {
                    first_mip: index,
                    mip_count: 0,
                    first_slice: 0,
                    slice_count: 0,
                    first_plane: 0,
                    plane_count: 0,
                },
            };
            group.textures.push(TextureBarrier {
                resource: r,
                sync_before: sync,
                sync_after: sync,
                access_before: access,
                access_after: access,
                layout_before: Layout::UnorderedAccess,
                layout_after: Layout::UnorderedAccess,
                range,
                flags: TextureBarrierFlags::default(),
            });
        }
    }
    let mut activation = BarrierGroup::default();
    for (before, after) in handovers {
        let (layout, access) = legacy_of(device, state, before);
        match layout {
            Some(layout) => group.textures.push(TextureBarrier {
                resource: before,
                sync_before: Sync::ALL,
                sync_after: Sync::NONE,
                access_before: access,
                access_after: Access::NO_ACCESS,
                layout_before: layout,
                layout_after: layout,
                range: SubresourceRange::ALL,
                flags: TextureBarrierFlags::default(),
            }),
            None => group.buffers.push(BufferBarrier {
                resource: before,
                sync_before: Sync::ALL,
                sync_after: Sync::NONE,
                access_before: access,
                access_after: Access::NO_ACCESS,
            }),
        }
        match legacy_of(device, state, after).0 {
            Some(layout) => activation.textures.push(TextureBarrier {
                resource: after,
                sync_before: Sync::ALL,
                sync_after: Sync::ALL,
                access_before: Access::NO_ACCESS,
                access_after: Access::COMMON,
                layout_before: Layout::Undefined,
                layout_after: layout,
                range: SubresourceRange::ALL,
                flags: TextureBarrierFlags { discard: true },
            }),
            None => activation.buffers.push(BufferBarrier {
                resource: after,
                sync_before: Sync::ALL,
                sync_after: Sync::ALL,
                access_before: Access::NO_ACCESS,
                access_after: Access::COMMON,
            }),
        }
    }
    let calls = match activation.is_empty() {
        true => vec![group],
        false => vec![group, activation],
    };
    Ok((calls, legacy))
}

/// The layout (textures) and access of `r`'s legacy state as the script's transitions left
/// it, COMMON when they never moved it (barrier-spec B).
fn legacy_of(device: &Device, state: &ScriptState, r: ObjectKey) -> (Option<Layout>, Access) {
    let info = device.memory.resource_info(r);
    let legacy = (state.legacy.get(&(r, ALL_SUBRESOURCES)))
        .copied()
        .unwrap_or(ResourceStates::COMMON);
    let enhanced = info
        .as_ref()
        .and_then(|i| crate::barrier::enhanced_state(legacy, i).ok());
    let texture = matches!(info, Some(ResourceInfo::Texture(_)));
    match enhanced {
        Some(e) => (e.layout.or(texture.then_some(Layout::Common)), e.access),
        None => (texture.then_some(Layout::Common), Access::COMMON),
    }
}
