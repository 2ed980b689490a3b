//! Legacy barriers, translated into enhanced barriers as the Xbox driver does (EB-10, EB-7,
//! barrier-spec B).
//!
//! A transition becomes a texture (or buffer) barrier between the enhanced equivalents of its
//! two states (`states.rs`). A UAV barrier becomes an UNORDERED_ACCESS -> UNORDERED_ACCESS
//! barrier with sync ALL_SHADING (barrier-spec A3.7) and the UAV clears, which only barriers
//! order (see [`LegacyPath::uav_sync`]): it drains pixel, vertex and compute before
//! invalidating, the worst case but correct (EB-10; the pre-translation driver drained only
//! pixel and compute, wrong when vertex work is not followed by pixel work). An aliasing
//! barrier knows neither resource's layout nor its users, so it becomes a global ALL -> ALL
//! barrier that waits at the bottom of the pipe, writes every cache back and invalidates, then
//! syncs the top of the pipe, without the stream-out flushes the old path emitted (EB-10): the
//! full stall EB-9d contrasts with UNDEFINED + DISCARD. Lowering translated groups with the
//! `legacy` option also holds the whole front end (see `lower.rs`).
//!
//! A title can turn the translation off by deploying the loose file
//! `D3D__DisableLegacyResourceBarrierTranslation` (seed 004): the driver goes back to its
//! previous implementation of legacy barriers ([`LegacyPath::Untranslated`]). What the seed
//! says that implementation did differently is what [`translate_with`] changes: its UAV
//! barrier issues a PS and a CS partial flush before the invalidation and no VS partial flush
//! ([`UNTRANSLATED_UAV_SYNC`]), so vertex-shader UAV writes are not waited for. Its aliasing
//! barrier also emitted stream-out flush packets the translation dropped; the model has no
//! stream-out unit to flush (a stream-output write is vertex work, already drained by the
//! full stall) and the seed gives those packets no cost, so the aliasing barrier is the same
//! on both paths. Transitions the seed does not distinguish: the same on both.

use super::states::enhanced_state;
use super::{
    Access, BarrierError, BarrierGroup, BufferBarrier, GlobalBarrier, Layout, ResourceInfo,
    ResourceStates, SubresourceRange, Subresources, Sync, TextureBarrier, TextureBarrierFlags,
    TextureInfo,
};
use serde::{Deserialize, Serialize};

/// `D3D12_RESOURCE_BARRIER_FLAGS`: a legacy transition may be one half of a split.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LegacySplit {
    #[default]
    None,
    BeginOnly,
    EndOnly,
}

/// `D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES`.
pub const ALL_SUBRESOURCES: u32 = u32::MAX;

/// A legacy `ResourceBarrier` (barrier-spec B).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LegacyBarrier<R> {
    /// A state change of one subresource or, with [`ALL_SUBRESOURCES`], all of them.
    Transition {
        resource: R,
        subresource: u32,
        before: ResourceStates,
        after: ResourceStates,
        split: LegacySplit,
    },
    /// Order UAV accesses of one resource, or of all (`None`).
    Uav { resource: Option<R> },
    /// Switch which of two placed resources owns the memory; either may be `None` (all).
    Aliasing { before: Option<R>, after: Option<R> },
}

impl<R> LegacyBarrier<R> {
    /// The same barrier with its resources renamed (plan entities to device handles).
    pub fn map<S>(&self, f: impl Fn(&R) -> S) -> LegacyBarrier<S> {
        match self {
            LegacyBarrier::Transition {
                resource,
                subresource,
                before,
                after,
                split,
            } => LegacyBarrier::Transition {
                resource: f(resource),
                subresource: *subresource,
                before: *before,
                after: *after,
                split: *split,
            },
            LegacyBarrier::Uav { resource } => LegacyBarrier::Uav {
                resource: resource.as_ref().map(&f),
            },
            LegacyBarrier::Aliasing { before, after } => LegacyBarrier::Aliasing {
                before: before.as_ref().map(&f),
                after: after.as_ref().map(&f),
            },
        }
    }
}

/// Which implementation of legacy barriers the driver runs (EB-10, seed 004).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LegacyPath {
    /// Translated into enhanced barriers: the default.
    #[default]
    Translated,
    /// The previous implementation, with the loose file
    /// `D3D__DisableLegacyResourceBarrierTranslation` deployed.
    Untranslated,
}

impl LegacyPath {
    /// The path of a device whose translation is on or off.
    pub fn of(translation: bool) -> LegacyPath {
        if translation {
            LegacyPath::Translated
        } else {
            LegacyPath::Untranslated
        }
    }

    /// The stages a UAV barrier on this path drains and blocks: every shader stage once
    /// translated (the worst case, correct), pixel and compute only before (EB-10); on both,
    /// the UAV clears as well. A UAV barrier orders every UAV access before it with every one
    /// after, and a ClearUnorderedAccessView* is one that nothing but a barrier orders (its
    /// sync is CLEAR_UNORDERED_ACCESS_VIEW, outside ALL_SHADING, barrier-spec A1); it runs
    /// on the compute pipe, which both paths' partial flushes drain.
    pub fn uav_sync(self) -> Sync {
        let shading = match self {
            LegacyPath::Translated => Sync::ALL_SHADING,
            LegacyPath::Untranslated => UNTRANSLATED_UAV_SYNC,
        };
        shading | Sync::CLEAR_UNORDERED_ACCESS_VIEW
    }
}

/// The untranslated UAV barrier's partial flushes (seed 004, EB-10): PS and CS, not VS, as
/// if vertex work were always followed by pixel work, which it need not be.
pub const UNTRANSLATED_UAV_SYNC: Sync = Sync::PIXEL_SHADING.union(Sync::COMPUTE_SHADING);

/// The enhanced barriers the driver issues for `barriers` (EB-10). Same-state transitions
/// vanish; every refusal is collected.
pub fn translate<R: Clone>(
    barriers: &[LegacyBarrier<R>],
    info: impl Fn(&R) -> Option<ResourceInfo>,
) -> Result<BarrierGroup<R>, Vec<BarrierError>> {
    translate_with(barriers, info, LegacyPath::Translated)
}

/// The barriers the driver issues for `barriers` on `path`: the translation, or the previous
/// implementation expressed in the same vocabulary (see the module documentation).
pub fn translate_with<R: Clone>(
    barriers: &[LegacyBarrier<R>],
    info: impl Fn(&R) -> Option<ResourceInfo>,
    path: LegacyPath,
) -> Result<BarrierGroup<R>, Vec<BarrierError>> {
    let mut group = BarrierGroup::default();
    let mut errors = Vec::new();
    for b in barriers {
        let done = match b {
            LegacyBarrier::Transition {
                resource,
                subresource,
                before,
                after,
                split,
            } => info(resource)
                .ok_or_else(|| vec![BarrierError::UnknownResource])
                .and_then(|i| {
                    let t = Transition {
                        subresource: *subresource,
                        before: *before,
                        after: *after,
                        split: *split,
                    };
                    transition(&mut group, resource, &i, t)
                }),
            LegacyBarrier::Uav { resource: None } => {
                let (s, a) = (path.uav_sync(), Access::UNORDERED_ACCESS);
                group.global.push(global(s, a));
                Ok(())
            }
            LegacyBarrier::Uav { resource: Some(r) } => match info(r) {
                Some(i) => {
                    uav(&mut group, r, &i, path.uav_sync());
                    Ok(())
                }
                None => Err(vec![BarrierError::UnknownResource]),
            },
            // Bottom-of-pipe wait, every cache written back and invalidated, top-of-pipe sync.
            LegacyBarrier::Aliasing { .. } => {
                group.global.push(global(Sync::ALL, Access::COMMON));
                Ok(())
            }
        };
        if let Err(e) = done {
            errors.extend(e);
        }
    }
    if errors.is_empty() {
        Ok(group)
    } else {
        Err(errors)
    }
}

/// The translation as a compute list's driver issues it (EB-10, barrier-spec A5): a compute
/// queue may hold a buffer in VERTEX_AND_CONSTANT_BUFFER, whose constant-buffer reads its
/// shaders make, but it has no VERTEX_BUFFER access, so the translated barrier names only
/// CONSTANT_BUFFER there (a vertex fetch that follows on the graphics queue is ordered by the
/// fence it waits on, which makes the bytes visible to every access of that queue).
pub fn for_compute_list<R>(group: &mut BarrierGroup<R>) {
    for b in &mut group.buffers {
        for access in [&mut b.access_before, &mut b.access_after] {
            if access.contains(Access::VERTEX_BUFFER | Access::CONSTANT_BUFFER) {
                access.remove(Access::VERTEX_BUFFER);
            }
        }
    }
}

/// The fields of a legacy transition besides its resource.
#[derive(Clone, Copy)]
struct Transition {
    subresource: u32,
    before: ResourceStates,
    after: ResourceStates,
    split: LegacySplit,
}

/// A transition between the enhanced equivalents of two states (barrier-spec B).
fn transition<R: Clone>(
    group: &mut BarrierGroup<R>,
    resource: &R,
    info: &ResourceInfo,
    t: Transition,
) -> Result<(), Vec<BarrierError>> {
    if t.before == t.after {
        return Ok(());
    }
    let (b, a) = match (
        enhanced_state(t.before, info),
        enhanced_state(t.after, info),
    ) {
        (Ok(b), Ok(a)) => (b, a),
        (b, a) => return Err(b.err().into_iter().chain(a.err()).collect()),
    };
    let (sync_before, sync_after) = match t.split {
        LegacySplit::None => (b.sync, a.sync),
        LegacySplit::BeginOnly => (b.sync, Sync::SPLIT),
        LegacySplit::EndOnly => (Sync::SPLIT, a.sync),
    };
    let resource = resource.clone();
    match (b.layout, a.layout) {
        (Some(layout_before), Some(layout_after)) => group.textures.push(TextureBarrier {
            sync_before,
            sync_after,
            access_before: b.access,
            access_after: a.access,
            layout_before,
            layout_after,
            resource,
            range: legacy_range(t.subresource),
            flags: TextureBarrierFlags::default(),
        }),
        _ => group.buffers.push(BufferBarrier {
            sync_before,
            sync_after,
            access_before: b.access,
            access_after: a.access,
            resource,
        }),
    }
    Ok(())
}

/// A UAV barrier on one resource: UNORDERED_ACCESS on both sides, sync ALL_SHADING once
/// translated (A3.7), `sync` being the path's.
fn uav<R: Clone>(group: &mut BarrierGroup<R>, resource: &R, info: &ResourceInfo, sync: Sync) {
    let access = Access::UNORDERED_ACCESS;
    let resource = resource.clone();
    match info {
        ResourceInfo::Buffer => group.buffers.push(BufferBarrier {
            sync_before: sync,
            sync_after: sync,
            access_before: access,
            access_after: access,
            resource,
        }),
        ResourceInfo::Texture(_) => group.textures.push(TextureBarrier {
            sync_before: sync,
            sync_after: sync,
            access_before: access,
            access_after: access,
            layout_before: Layout::UnorderedAccess,
            layout_after: Layout::UnorderedAccess,
            resource,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags::default(),
        }),
    }
}

/// A global barrier with the same sync and access on both sides.
fn global(sync: Sync, access: Access) -> GlobalBarrier {
    GlobalBarrier {
        sync_before: sync,
        sync_after: sync,
        access_before: access,
        access_after: access,
    }
}

/// The subresources a legacy subresource index names on `tex`.
pub fn legacy_subresources(
    subresource: u32,
    tex: &TextureInfo,
) -> Result<Subresources, BarrierError> {
    Subresources::resolve(&legacy_range(subresource), tex)
}

/// A legacy subresource index as an enhanced range (mip count 0: index form, A2).
fn legacy_range(subresource: u32) -> SubresourceRange {
    if subresource == ALL_SUBRESOURCES {
        return SubresourceRange::ALL;
    }
    SubresourceRange {
        first_mip: subresource,
        mip_count: 0,
        first_slice: 0,
        slice_count: 0,
        first_plane: 0,
        plane_count: 0,
    }
}

#[cfg(test)]
mod tests;
