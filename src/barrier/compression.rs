//! Layout changes become compression work (EB-4, EB-5, EB-8b; barrier-spec A1, A2).
//!
//! A render target may hold fast-clear and DCC metadata, a depth buffer HTILE for depth and
//! for stencil, when created with the flags that allow them (EB-4). Each layout keeps some of
//! that compression and not the rest; leaving a layout for one that keeps less means removing
//! the difference: a DCC decompress ("DCC eliminate"), a fast-clear eliminate, a depth or a
//! stencil decompress. The driver keeps two tables (seed 004), one for texture-compatible
//! resources, whose shader-readable layouts keep everything a render target has, and one for
//! the rest, whose shader-readable layouts keep nothing. The direct-queue read layouts keep
//! compression on the graphics engine for both (barrier-spec A1: RENDER_TARGET ->
//! DIRECT_QUEUE_SHADER_RESOURCE avoids the decompression SHADER_RESOURCE would force);
//! COMMON keeps nothing, being readable by any queue and presentable.
//!
//! From UNDEFINED nothing is decompressed (the contents are garbage, EB-9d); with DISCARD into a
//! layout that keeps compression the metadata is initialised instead (EB-5). Into UNDEFINED
//! nothing is done either. Compression is tracked per resource, depth and stencil apart
//! (EB-8b): decompressing some subresources decompresses the whole resource, and only a
//! barrier covering every mip and slice can make a resource compressed again, which
//! [`CompressionState`] remembers across Barrier calls.

use super::{Layout, Subresources, TextureBarrier, TextureInfo};
use bitflags::bitflags;
use std::collections::BTreeMap;

use super::hardware::{CompressionKind, CompressionOp};

bitflags! {
    /// Compression metadata a texture may hold.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Metadata: u8 {
        const DCC = 0x1;
        const FAST_CLEAR = 0x2;
        const DEPTH = 0x4;
        const STENCIL = 0x8;
    }
}

/// The metadata `tex` can hold on `planes` (EB-4: only with the allow flags).
pub fn metadata_of(tex: &TextureInfo, planes: std::ops::Range<u32>) -> Metadata {
    let mut m = Metadata::empty();
    if tex.render_target {
        m |= Metadata::FAST_CLEAR;
    }
    if tex.dcc {
        m |= Metadata::DCC;
    }
    if tex.depth_stencil {
        if planes.contains(&0) {
            m |= Metadata::DEPTH;
        }
        if tex.planes == 2 && planes.contains(&1) {
            m |= Metadata::STENCIL;
        }
        m.remove(Metadata::DCC | Metadata::FAST_CLEAR);
    }
    m
}

/// The metadata `layout` keeps, from the driver's table for texture-compatible resources
/// (`texture_compatible`) or for the others (EB-4).
pub fn layout_keeps(layout: Layout, texture_compatible: bool) -> Metadata {
    use Layout as L;
    match layout {
        L::RenderTarget
        | L::DepthStencilWrite
        | L::DepthStencilRead
        | L::DirectQueueShaderResource
        | L::DirectQueueGenericRead => Metadata::all(),
        L::Undefined | L::Common | L::DirectQueueCommon | L::ComputeQueueCommon => {
            Metadata::empty()
        }
        _ if texture_compatible => Metadata::all(),
        _ => Metadata::empty(),
    }
}

/// What one texture barrier does to compression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompressionWork {
    /// Metadata removed from the whole resource (decompressions).
    pub lost: Metadata,
    /// Metadata initialised by DISCARD.
    pub init: Metadata,
    /// Metadata the resource holds afterwards.
    pub after: Metadata,
    /// The range did not cover every mip and slice.
    pub partial: bool,
}

/// The compression work of `t` on `tex` over `subs`, given the metadata the resource holds
/// now (`present`).
pub fn transition_work<R>(
    t: &TextureBarrier<R>,
    tex: &TextureInfo,
    subs: &Subresources,
    present: Metadata,
) -> CompressionWork {
    let touched = metadata_of(tex, subs.planes.clone());
    let partial = !subs.covers_all_mips_and_slices(tex);
    let keeps = layout_keeps(t.layout_after, tex.texture_compatible);
    let mut w = CompressionWork {
        partial,
        after: present,
        ..CompressionWork::default()
    };
    if t.layout_after == Layout::Undefined {
        // Deactivation: the contents stop mattering, nothing to decompress (EB-9d).
        return w;
    }
    if t.layout_before == Layout::Undefined {
        if t.flags.discard {
            w.init = touched & keeps;
            if !partial {
                // Initialised metadata records no clear: no block waits for an eliminate.
                w.after |= w.init & !Metadata::FAST_CLEAR;
            }
        }
        return w;
    }
    w.lost = present & touched & !keeps;
    w.after &= !w.lost;
    if !partial {
        // Every mip and slice in a compressing layout: compression resumes (EB-8b). A fast
        // clear is not compression that resumes but a clear's record of its colour (FS-4):
        // a layout change clears no block, so it adds none.
        w.after |= touched & keeps & !Metadata::FAST_CLEAR;
    }
    w
}

/// Bytes one operation reads and writes (model estimates): a decompression reads and writes
/// the surface; a fast-clear eliminate writes it; a depth or stencil decompress reads and
/// writes its plane (`bytes / planes`); metadata is about 1/64 of the surface.
pub fn work_bytes(kind: CompressionKind, bytes: u64, planes: u32) -> u64 {
    match kind {
        CompressionKind::DccDecompress => bytes.saturating_mul(2),
        CompressionKind::FastClearEliminate => bytes,
        CompressionKind::DepthDecompress | CompressionKind::StencilDecompress => {
            (bytes / planes.max(1) as u64).saturating_mul(2)
        }
        CompressionKind::MetadataInit => bytes / 64,
    }
}

/// The operations realising `w` on `resource`.
pub fn operations<R: Clone>(
    w: &CompressionWork,
    resource: &R,
    tex: &TextureInfo,
) -> Vec<CompressionOp<R>> {
    let mut kinds = Vec::new();
    if w.lost.contains(Metadata::DCC) {
        kinds.push(CompressionKind::DccDecompress);
    } else if w.lost.contains(Metadata::FAST_CLEAR) {
        kinds.push(CompressionKind::FastClearEliminate);
    }
    if w.lost.contains(Metadata::DEPTH) {
        kinds.push(CompressionKind::DepthDecompress);
    }
    if w.lost.contains(Metadata::STENCIL) {
        kinds.push(CompressionKind::StencilDecompress);
    }
    if !w.init.is_empty() {
        kinds.push(CompressionKind::MetadataInit);
    }
    kinds
        .into_iter()
        .map(|kind| CompressionOp {
            kind,
            resource: resource.clone(),
            partial_range: w.partial,
            bytes: work_bytes(kind, tex.size_bytes, tex.planes),
        })
        .collect()
}

/// Per-resource compression across Barrier calls (EB-8b). Without it, lowering assumes each
/// barrier's LayoutBefore tells what the resource holds.
#[derive(Clone, Debug)]
pub struct CompressionState<R> {
    held: BTreeMap<R, Metadata>,
}

impl<R> Default for CompressionState<R> {
    fn default() -> Self {
        Self {
            held: BTreeMap::new(),
        }
    }
}

impl<R: Ord + Clone> CompressionState<R> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The metadata `resource` holds, if known.
    pub fn get(&self, resource: &R) -> Option<Metadata> {
        self.held.get(resource).copied()
    }

    /// Record what `resource` holds.
    pub fn set(&mut self, resource: R, held: Metadata) {
        self.held.insert(resource, held);
    }

    /// Know nothing of `resource` any more: lowering goes by its layout again.
    pub fn forget(&mut self, resource: &R) {
        self.held.remove(resource);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, SubresourceRange, Sync, TextureBarrierFlags};

    fn barrier(before: Layout, after: Layout, discard: bool) -> TextureBarrier<u8> {
        TextureBarrier {
            sync_before: Sync::ALL,
            sync_after: Sync::ALL,
            access_before: Access::COMMON,
            access_after: Access::COMMON,
            layout_before: before,
            layout_after: after,
            resource: 0,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags { discard },
        }
    }

    fn work(tex: &TextureInfo, before: Layout, after: Layout, discard: bool) -> CompressionWork {
        let t = barrier(before, after, discard);
        let present =
            metadata_of(tex, 0..tex.planes) & layout_keeps(before, tex.texture_compatible);
        transition_work(&t, tex, &Subresources::all(tex), present)
    }

    #[test]
    fn eb4_two_tables_for_dcc_render_targets() {
        let rt = TextureInfo::render_target(1, 1, 1000);
        let lost = work(&rt, Layout::RenderTarget, Layout::ShaderResource, false).lost;
        assert_eq!(
            lost,
            Metadata::DCC | Metadata::FAST_CLEAR,
            "non-TC: DCC eliminate"
        );
        let tc = TextureInfo {
            texture_compatible: true,
            ..rt
        };
        assert!(
            work(&tc, Layout::RenderTarget, Layout::ShaderResource, false)
                .lost
                .is_empty()
        );
        // The graphics-engine read layout keeps compression for both (barrier-spec A1).
        let dq = work(
            &rt,
            Layout::RenderTarget,
            Layout::DirectQueueShaderResource,
            false,
        );
        assert!(dq.lost.is_empty());
        // COMMON (presentable, any queue) keeps nothing, texture-compatible or not.
        assert!(
            !work(&tc, Layout::RenderTarget, Layout::Common, false)
                .lost
                .is_empty()
        );
    }

    #[test]
    fn fast_clear_eliminate_without_dcc() {
        let rt = TextureInfo {
            dcc: false,
            ..TextureInfo::render_target(1, 1, 1000)
        };
        let w = work(&rt, Layout::RenderTarget, Layout::ShaderResource, false);
        let ops = operations(&w, &7u8, &rt);
        assert_eq!(ops.len(), 1);
        assert_eq!(
            (ops[0].kind, ops[0].bytes),
            (CompressionKind::FastClearEliminate, 1000)
        );
    }

    #[test]
    fn eb5_discard_initialises_metadata_only_into_compressing_layouts() {
        let rt = TextureInfo::render_target(1, 1, 6400);
        let w = work(&rt, Layout::Undefined, Layout::RenderTarget, true);
        assert_eq!(
            (w.lost, w.init),
            (Metadata::empty(), Metadata::DCC | Metadata::FAST_CLEAR)
        );
        let ops = operations(&w, &1u8, &rt);
        assert_eq!(
            (ops[0].kind, ops[0].bytes),
            (CompressionKind::MetadataInit, 100)
        );
        assert!(
            work(&rt, Layout::Undefined, Layout::RenderTarget, false)
                .init
                .is_empty()
        );
        assert!(
            work(&rt, Layout::Undefined, Layout::CopyDest, true)
                .init
                .is_empty()
        );
        // Deactivation never decompresses garbage.
        assert_eq!(
            work(&rt, Layout::RenderTarget, Layout::Undefined, false),
            CompressionWork {
                after: Metadata::DCC | Metadata::FAST_CLEAR,
                ..CompressionWork::default()
            }
        );
    }

    #[test]
    fn eb8b_partial_ranges_act_on_the_whole_resource() {
        let rt = TextureInfo::render_target(4, 1, 1000);
        let mut t = barrier(Layout::RenderTarget, Layout::ShaderResource, false);
        t.range = SubresourceRange {
            first_mip: 1,
            mip_count: 1,
            first_slice: 0,
            slice_count: 1,
            first_plane: 0,
            plane_count: 1,
        };
        let subs = Subresources::resolve(&t.range, &rt).unwrap();
        let all = metadata_of(&rt, 0..1);
        let w = transition_work(&t, &rt, &subs, all);
        assert!(w.partial);
        assert_eq!((w.lost, w.after), (all, Metadata::empty()));
        let ops = operations(&w, &1u8, &rt);
        assert_eq!(
            (ops[0].kind, ops[0].partial_range, ops[0].bytes),
            (CompressionKind::DccDecompress, true, 2000)
        );
        // Moving that mip back does not make an uncompressed resource compressed again ...
        let back = barrier(Layout::ShaderResource, Layout::RenderTarget, false);
        let back = TextureBarrier {
            range: t.range,
            ..back
        };
        assert!(transition_work(&back, &rt, &subs, w.after).after.is_empty());
        // ... only a barrier over every mip and slice does, with no fast clear until a clear
        // records one (FS-4).
        let whole = barrier(Layout::ShaderResource, Layout::RenderTarget, false);
        assert_eq!(
            transition_work(&whole, &rt, &Subresources::all(&rt), w.after).after,
            all - Metadata::FAST_CLEAR
        );
    }
}
