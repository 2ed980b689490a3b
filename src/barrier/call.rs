//! Validation of one Barrier call against its resources and queue type (EB-11, barrier-spec
//! A2-A9).
//!
//! This is the record-time, history-free half of the debug layer: the triples and queue rules
//! (`triple.rs`), plus what needs the resource: barrier type against resource type (EB-6),
//! range bounds, creation flags behind each access and layout, global barriers never split,
//! zero counts warn. History-dependent rules (known layout, sequential sync, split pairing,
//! legacy interop) live in `tracker.rs`, which calls this first; copy-to-self regions are
//! checked in `copy.rs`. Invalid barriers come back as
//! [`BarrierError`] values; nothing here panics, whatever the input.

use super::triple::{Halves, check_halves};
use super::{
    Access, BarrierError, BarrierGroup, BufferBarrier, GlobalBarrier, Layout, QueueType,
    ResourceInfo, Side, Subresources, Sync, TextureBarrier, TextureInfo,
};

/// The stateless values of a global barrier.
pub fn global_halves(b: &GlobalBarrier) -> Halves {
    Halves {
        sync_before: b.sync_before,
        sync_after: b.sync_after,
        access_before: b.access_before,
        access_after: b.access_after,
        layouts: None,
        discard: false,
    }
}

/// The stateless values of a buffer barrier.
pub fn buffer_halves<R>(b: &BufferBarrier<R>) -> Halves {
    Halves {
        sync_before: b.sync_before,
        sync_after: b.sync_after,
        access_before: b.access_before,
        access_after: b.access_after,
        layouts: None,
        discard: false,
    }
}

/// The stateless values of a texture barrier.
pub fn texture_halves<R>(b: &TextureBarrier<R>) -> Halves {
    Halves {
        sync_before: b.sync_before,
        sync_after: b.sync_after,
        access_before: b.access_before,
        access_after: b.access_after,
        layouts: Some((b.layout_before, b.layout_after)),
        discard: b.flags.discard,
    }
}

/// Findings for a global barrier (A2-A7): never split.
pub fn validate_global(b: &GlobalBarrier, queue: QueueType) -> Vec<BarrierError> {
    let h = global_halves(b);
    let mut out = check_halves(&h, queue);
    if b.sync_before.contains(Sync::SPLIT) || b.sync_after.contains(Sync::SPLIT) {
        out.retain(|e| !matches!(e, BarrierError::MalformedSplit { .. }));
        out.push(BarrierError::GlobalBarrierSplit);
    }
    out
}

/// Findings for a buffer barrier on `info` (A2-A7, EB-6).
pub fn validate_buffer<R>(
    b: &BufferBarrier<R>,
    queue: QueueType,
    info: &ResourceInfo,
) -> Vec<BarrierError> {
    let mut out = check_halves(&buffer_halves(b), queue);
    if let ResourceInfo::Texture(_) = info {
        out.push(BarrierError::BarrierTypeMismatch {
            barrier: "buffer",
            resource: "texture",
        });
        return out;
    }
    for (side, access) in [
        (Side::Before, b.access_before),
        (Side::After, b.access_after),
    ] {
        let bad = access & TEXTURE_ONLY_ACCESS;
        if !bad.is_empty() {
            out.push(BarrierError::AccessNotAllowedByResource { side, access: bad });
        }
    }
    out
}

/// Findings for a texture barrier on `info` (A2-A7, A9, EB-6). On success of the range checks
/// the resolved subresources are returned alongside, for callers that track state.
pub fn validate_texture<R>(
    b: &TextureBarrier<R>,
    queue: QueueType,
    info: &ResourceInfo,
) -> (Vec<BarrierError>, Option<Subresources>) {
    let mut out = check_halves(&texture_halves(b), queue);
    let ResourceInfo::Texture(tex) = info else {
        out.push(BarrierError::BarrierTypeMismatch {
            barrier: "texture",
            resource: "buffer",
        });
        return (out, None);
    };
    for (side, access, layout) in [
        (Side::Before, b.access_before, b.layout_before),
        (Side::After, b.access_after, b.layout_after),
    ] {
        let bad = access & !access_creation_allows(tex);
        if !bad.is_empty() {
            out.push(BarrierError::AccessNotAllowedByResource { side, access: bad });
        }
        if !layout_creation_allows(tex, layout) {
            out.push(BarrierError::LayoutNotAllowedByResource { side, layout });
        }
    }
    match Subresources::resolve(&b.range, tex) {
        Ok(subs) => (out, Some(subs)),
        Err(e) => {
            out.push(e);
            (out, None)
        }
    }
}

/// Every finding for one Barrier call (EB-11): errors and warnings. `info` describes each
/// resource; an unknown one is reported, not guessed.
pub fn validate_group<R>(
    group: &BarrierGroup<R>,
    queue: QueueType,
    info: impl Fn(&R) -> Option<ResourceInfo>,
) -> Vec<BarrierError> {
    let mut out = Vec::new();
    if group.is_empty() {
        out.push(BarrierError::EmptyBarrierCall);
    }
    for g in &group.global {
        out.extend(validate_global(g, queue));
    }
    for b in &group.buffers {
        match info(&b.resource) {
            Some(i) => out.extend(validate_buffer(b, queue, &i)),
            None => out.push(BarrierError::UnknownResource),
        }
    }
    for t in &group.textures {
        match info(&t.resource) {
            Some(i) => out.extend(validate_texture(t, queue, &i).0),
            None => out.push(BarrierError::UnknownResource),
        }
    }
    out
}

/// Accesses that only buffers can have.
const BUFFER_ONLY_ACCESS: Access = Access::VERTEX_BUFFER
    .union(Access::CONSTANT_BUFFER)
    .union(Access::INDEX_BUFFER)
    .union(Access::STREAM_OUTPUT)
    .union(Access::INDIRECT_ARGUMENT);

/// Accesses that only textures can have.
const TEXTURE_ONLY_ACCESS: Access = Access::RENDER_TARGET
    .union(Access::DEPTH_STENCIL_READ)
    .union(Access::DEPTH_STENCIL_WRITE)
    .union(Access::RESOLVE_SOURCE)
    .union(Access::RESOLVE_DEST)
    .union(Access::SHADING_RATE_SOURCE);

/// The accesses a texture's creation flags permit (A9 "each access against creation flags").
fn access_creation_allows(tex: &TextureInfo) -> Access {
    let mut a = Access::all() & !BUFFER_ONLY_ACCESS;
    if !tex.render_target {
        a &= !(Access::RENDER_TARGET | Access::RESOLVE_DEST);
    }
    if !tex.depth_stencil {
        a &= !(Access::DEPTH_STENCIL_READ | Access::DEPTH_STENCIL_WRITE);
    }
    if !tex.unordered_access {
        a &= !Access::UNORDERED_ACCESS;
    }
    a
}

/// Whether the creation flags permit `layout` (a render-target layout needs
/// `ALLOW_RENDER_TARGET`, EB-4).
fn layout_creation_allows(tex: &TextureInfo, layout: Layout) -> bool {
    use Layout as L;
    match layout {
        L::RenderTarget | L::ResolveDest => tex.render_target,
        L::DepthStencilWrite | L::DepthStencilRead => tex.depth_stencil,
        L::UnorderedAccess | L::DirectQueueUnorderedAccess | L::ComputeQueueUnorderedAccess => {
            tex.unordered_access
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{SubresourceRange, TextureBarrierFlags};
    use QueueType::Direct;

    const NONE: [&str; 0] = [];
    const RT: u32 = 1;
    const BUF: u32 = 2;

    fn rt_info() -> ResourceInfo {
        ResourceInfo::Texture(TextureInfo::render_target(4, 1, 1 << 20))
    }

    fn info(r: &u32) -> Option<ResourceInfo> {
        match *r {
            RT => Some(rt_info()),
            BUF => Some(ResourceInfo::Buffer),
            _ => None,
        }
    }

    /// RENDER_TARGET -> SHADER_RESOURCE on the render target, edited by `f`.
    fn tex(f: impl FnOnce(&mut TextureBarrier<u32>)) -> TextureBarrier<u32> {
        let mut t = TextureBarrier {
            sync_before: Sync::RENDER_TARGET,
            sync_after: Sync::PIXEL_SHADING,
            access_before: Access::RENDER_TARGET,
            access_after: Access::SHADER_RESOURCE,
            layout_before: Layout::RenderTarget,
            layout_after: Layout::ShaderResource,
            resource: RT,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags::default(),
        };
        f(&mut t);
        t
    }

    /// A compute UAV barrier on the buffer, edited by `f`.
    fn buf(f: impl FnOnce(&mut BufferBarrier<u32>)) -> BufferBarrier<u32> {
        let (sync, access) = (Sync::COMPUTE_SHADING, Access::UNORDERED_ACCESS);
        let mut b = BufferBarrier {
            sync_before: sync,
            sync_after: sync,
            access_before: access,
            access_after: access,
            resource: BUF,
        };
        f(&mut b);
        b
    }

    fn names(errs: &[BarrierError]) -> Vec<&'static str> {
        errs.iter().map(BarrierError::name).collect()
    }

    fn group_names(
        textures: Vec<TextureBarrier<u32>>,
        buffers: Vec<BufferBarrier<u32>>,
    ) -> Vec<&'static str> {
        let g = BarrierGroup {
            textures,
            buffers,
            ..BarrierGroup::default()
        };
        names(&validate_group(&g, Direct, info))
    }

    fn tex_names(t: TextureBarrier<u32>, i: &ResourceInfo) -> Vec<&'static str> {
        names(&validate_texture(&t, Direct, i).0)
    }

    #[test]
    fn zero_counts_warn() {
        assert_eq!(group_names(vec![], vec![]), ["EmptyBarrierCall"]);
        assert_eq!(group_names(vec![tex(|_| ())], vec![]), NONE);
    }

    #[test]
    fn unknown_resources_are_reported() {
        assert_eq!(
            group_names(vec![tex(|t| t.resource = 9)], vec![]),
            ["UnknownResource"]
        );
        assert_eq!(
            group_names(vec![], vec![buf(|b| b.resource = 9)]),
            ["UnknownResource"]
        );
        assert_eq!(group_names(vec![tex(|_| ())], vec![buf(|_| ())]), NONE);
    }

    #[test]
    fn eb6_barrier_type_matches_resource_type() {
        let on_buffer = tex(|t| t.resource = BUF);
        assert_eq!(
            group_names(vec![on_buffer], vec![]),
            ["BarrierTypeMismatch"]
        );
        let on_texture = buf(|b| b.resource = RT);
        assert_eq!(
            group_names(vec![], vec![on_texture]),
            ["BarrierTypeMismatch"]
        );
        assert_eq!(group_names(vec![], vec![buf(|_| ())]), NONE);
    }

    #[test]
    fn a9_access_and_layout_need_creation_flags() {
        let uav = tex(|t| {
            t.sync_after = Sync::COMPUTE_SHADING;
            t.access_after = Access::UNORDERED_ACCESS;
            t.layout_after = Layout::UnorderedAccess;
        });
        let expected = ["AccessNotAllowedByResource", "LayoutNotAllowedByResource"];
        assert_eq!(tex_names(uav, &rt_info()), expected);
        let mut flags = TextureInfo::render_target(4, 1, 0);
        flags.unordered_access = true;
        assert_eq!(tex_names(uav, &ResourceInfo::Texture(flags)), NONE);
        // A buffer cannot be a render target.
        let rt_buffer = buf(|b| {
            b.access_after = Access::RENDER_TARGET;
            b.sync_after = Sync::RENDER_TARGET;
        });
        let errs = validate_buffer(&rt_buffer, Direct, &ResourceInfo::Buffer);
        assert_eq!(names(&errs), ["AccessNotAllowedByResource"]);
        // A texture without ALLOW_RENDER_TARGET has no render-target layout or access.
        let plain = ResourceInfo::Texture(TextureInfo::default());
        let errs = tex_names(tex(|_| ()), &plain);
        assert_eq!(
            errs,
            ["AccessNotAllowedByResource", "LayoutNotAllowedByResource"]
        );
    }

    #[test]
    fn a9_subresource_ranges_in_bounds() {
        let ranged = |first_mip, mip_count, plane_count| {
            tex(|t| {
                t.range = SubresourceRange {
                    first_mip,
                    mip_count,
                    first_slice: 0,
                    slice_count: 1,
                    first_plane: 0,
                    plane_count,
                }
            })
        };
        assert_eq!(
            tex_names(ranged(2, 3, 1), &rt_info()),
            ["SubresourcesOutOfBounds"]
        );
        assert_eq!(tex_names(ranged(2, 2, 1), &rt_info()), NONE);
        assert_eq!(
            tex_names(ranged(0, 1, 0), &rt_info()),
            ["SubresourceRangeMalformed"]
        );
        // Mip count 0: the first field is a subresource index.
        let (errs, subs) = validate_texture(&ranged(3, 0, 0), Direct, &rt_info());
        assert_eq!((names(&errs), subs.map(|s| s.mips)), (vec![], Some(3..4)));
        assert_eq!(
            tex_names(ranged(4, 0, 0), &rt_info()),
            ["SubresourcesOutOfBounds"]
        );
    }

    #[test]
    fn invalid_descriptions_are_reported() {
        let mut bad = TextureInfo::render_target(1, 1, 0);
        bad.mips = 0;
        let errs = tex_names(tex(|_| ()), &ResourceInfo::Texture(bad));
        assert_eq!(errs, ["InvalidResourceInfo"]);
        assert_eq!(tex_names(tex(|_| ()), &rt_info()), NONE);
    }

    #[test]
    fn a2_global_barriers_never_split() {
        let mut g = GlobalBarrier {
            sync_before: Sync::ALL,
            sync_after: Sync::SPLIT,
            access_before: Access::COMMON,
            access_after: Access::COMMON,
        };
        assert_eq!(names(&validate_global(&g, Direct)), ["GlobalBarrierSplit"]);
        g.sync_after = Sync::ALL;
        assert_eq!(names(&validate_global(&g, Direct)), NONE);
    }
}
