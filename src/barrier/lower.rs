//! Lowering a Barrier call to hardware actions, the Xbox Series model of seed 004 (EB-2..EB-5,
//! EB-8, EB-10).
//!
//! Each barrier contributes requirements independently: its syncs drain and block stages
//! (`drain.rs`), its accesses write caches back and invalidate them (`cache.rs`), its layouts
//! cause compression work (`compression.rs`). The call's requirements are the union, and the
//! packets are chosen once for the union, which is why batching barriers into one call is
//! cheaper than issuing them one by one. The driver's own policies for split barriers
//! (EB-8c), serialised copies (EB-8d) and legacy semantics are applied per barrier in
//! `require.rs`; [`lower_legacy`] translates legacy barriers (EB-10) and lowers them with
//! [`LowerOptions::legacy`].
//!
//! Compression is tracked per resource (EB-8b). [`lower`] assumes each texture holds what its
//! LayoutBefore keeps, remembering only within the call; [`lower_tracked`] carries what each
//! resource holds across calls in a [`CompressionState`].
//!
//! Lowering trusts its input to be valid (validate first); on invalid input it still returns
//! actions, never panics.

use super::cache::Target;
use super::compression::{
    CompressionState, Metadata, layout_keeps, metadata_of, operations, transition_work,
};
use super::drain::events;
use super::hardware::{Caches, HardwareActions};
use super::legacy::{LegacyBarrier, translate};
use super::require::require;
use super::{
    BarrierError, BarrierGroup, QueueType, ResourceInfo, Subresources, TextureBarrier,
    buffer_halves, global_halves, texture_halves,
};

/// Command-list facts that change lowering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LowerOptions {
    /// `D3D12XBOX_CMDLIST_DRIVER_HINT_DONT_SYNC_ON_COPY`: copies are not serialised (EB-8d).
    pub dont_sync_on_copy: bool,
    /// Legacy semantics: SyncAfter is not trusted, every stage and the front end are held.
    pub legacy: bool,
}

/// Lower one Barrier call on `queue`, assuming each texture holds what its LayoutBefore keeps.
pub fn lower<R: Clone + PartialEq>(
    group: &BarrierGroup<R>,
    queue: QueueType,
    info: impl Fn(&R) -> Option<ResourceInfo>,
    options: LowerOptions,
) -> HardwareActions<R> {
    let mut held = Vec::new();
    lower_inner(group, queue, &info, options, &mut held, |_| None)
}

/// Lower one Barrier call, reading and updating each resource's compression in `state`
/// (EB-8b: a partially decompressed resource stays uncompressed until a barrier covers all of
/// it, and is not decompressed twice).
pub fn lower_tracked<R: Clone + Ord>(
    group: &BarrierGroup<R>,
    queue: QueueType,
    info: impl Fn(&R) -> Option<ResourceInfo>,
    options: LowerOptions,
    state: &mut CompressionState<R>,
) -> HardwareActions<R> {
    let mut held = Vec::new();
    let actions = lower_inner(group, queue, &info, options, &mut held, |r| state.get(r));
    for (r, m) in held {
        state.set(r, m);
    }
    actions
}

/// Translate legacy barriers (EB-10) and lower them with legacy semantics.
pub fn lower_legacy<R: Clone + PartialEq>(
    barriers: &[LegacyBarrier<R>],
    queue: QueueType,
    info: impl Fn(&R) -> Option<ResourceInfo>,
    options: LowerOptions,
) -> Result<HardwareActions<R>, Vec<BarrierError>> {
    let group = translate(barriers, &info)?;
    let options = LowerOptions {
        legacy: true,
        ..options
    };
    Ok(lower(&group, queue, info, options))
}

fn lower_inner<R: Clone + PartialEq>(
    group: &BarrierGroup<R>,
    queue: QueueType,
    info: &impl Fn(&R) -> Option<ResourceInfo>,
    options: LowerOptions,
    held: &mut Vec<(R, Metadata)>,
    known: impl Fn(&R) -> Option<Metadata>,
) -> HardwareActions<R> {
    let mut a = HardwareActions::default();
    for g in &group.global {
        require(&mut a, &global_halves(g), Target::Global, queue, options);
    }
    for b in &group.buffers {
        let target = Target::of(info(&b.resource).as_ref());
        require(&mut a, &buffer_halves(b), target, queue, options);
    }
    for t in &group.textures {
        let i = info(&t.resource);
        let target = Target::of(i.as_ref());
        if require(&mut a, &texture_halves(t), target, queue, options)
            && let Some(ResourceInfo::Texture(tex)) = i
        {
            compress(&mut a, t, &tex, held, &known);
        }
    }
    let flush = a
        .write_back
        .intersects(Caches::CB | Caches::DB | Caches::L2);
    a.events = events(a.drains, a.blocks, a.front_end, queue, flush);
    a
}

/// Add one texture barrier's compression work, tracking what each resource holds.
fn compress<R: Clone + PartialEq>(
    a: &mut HardwareActions<R>,
    t: &TextureBarrier<R>,
    tex: &super::TextureInfo,
    held: &mut Vec<(R, Metadata)>,
    known: &impl Fn(&R) -> Option<Metadata>,
) {
    let Ok(subs) = Subresources::resolve(&t.range, tex) else {
        return;
    };
    let slot = held.iter().position(|(r, _)| *r == t.resource);
    let present = slot
        .map(|i| held[i].1)
        .or_else(|| known(&t.resource))
        .unwrap_or_else(|| {
            metadata_of(tex, 0..tex.planes) & layout_keeps(t.layout_before, tex.texture_compatible)
        });
    let work = transition_work(t, tex, &subs, present);
    a.compression.extend(operations(&work, &t.resource, tex));
    match slot {
        Some(i) => held[i].1 = work.after,
        None => held.push((t.resource.clone(), work.after)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::hardware::{CompressionKind as K, SyncEvent as E};
    use crate::barrier::{Access, Layout, Stages, SubresourceRange, Sync, TextureInfo};
    use QueueType::Direct;

    const COLOUR: u32 = 1;
    const DEPTH: u32 = 2;
    const BUF: u32 = 3;
    const TC: u32 = 4;
    const MB: u64 = 1 << 20;

    fn info(r: &u32) -> Option<ResourceInfo> {
        let t = match *r {
            COLOUR => TextureInfo::render_target(4, 1, MB),
            DEPTH => TextureInfo::depth_stencil(1, 1, MB),
            TC => TextureInfo {
                texture_compatible: true,
                ..TextureInfo::render_target(1, 1, MB)
            },
            BUF => return Some(ResourceInfo::Buffer),
            _ => return None,
        };
        Some(ResourceInfo::Texture(t))
    }

    fn tex(r: u32, s: [Sync; 2], a: [Access; 2], l: [Layout; 2]) -> TextureBarrier<u32> {
        TextureBarrier::whole(r, s, a, l)
    }

    fn rt_to_srv(r: u32, after: Layout) -> TextureBarrier<u32> {
        let s = [Sync::RENDER_TARGET, Sync::PIXEL_SHADING];
        tex(
            r,
            s,
            [Access::RENDER_TARGET, Access::SHADER_RESOURCE],
            [Layout::RenderTarget, after],
        )
    }

    fn ds_to_srv(range: SubresourceRange) -> TextureBarrier<u32> {
        let s = [Sync::DEPTH_STENCIL, Sync::PIXEL_SHADING];
        let a = [Access::DEPTH_STENCIL_WRITE, Access::SHADER_RESOURCE];
        TextureBarrier {
            range,
            ..tex(
                DEPTH,
                s,
                a,
                [Layout::DepthStencilWrite, Layout::ShaderResource],
            )
        }
    }

    fn plane(p: u32) -> SubresourceRange {
        SubresourceRange {
            first_plane: p,
            plane_count: 1,
            ..SubresourceRange::ALL
        }
    }

    fn go(textures: Vec<TextureBarrier<u32>>) -> HardwareActions<u32> {
        let g = BarrierGroup {
            textures,
            ..BarrierGroup::default()
        };
        lower(&g, Direct, info, LowerOptions::default())
    }

    fn kinds(a: &HardwareActions<u32>) -> Vec<K> {
        a.compression.iter().map(|o| o.kind).collect()
    }

    const WAIT: E = E::TopOfPipeWait {
        prefetch_parser: false,
        constant_engine: false,
    };

    #[test]
    fn a_flush_with_nothing_named_costs_nothing() {
        let a = lower(
            &BarrierGroup::<u32>::default(),
            Direct,
            info,
            LowerOptions::default(),
        );
        assert!(a.is_empty());
        assert_eq!(a, HardwareActions::default());
        // A read-to-read barrier with no sync names nothing either.
        let idle = tex(
            COLOUR,
            [Sync::NONE; 2],
            [Access::NO_ACCESS; 2],
            [Layout::ShaderResource; 2],
        );
        assert!(go(vec![idle]).is_empty());
    }

    #[test]
    fn render_target_to_shader_resource() {
        let a = go(vec![rt_to_srv(COLOUR, Layout::ShaderResource)]);
        assert_eq!((a.drains, a.blocks), (Stages::CB, Stages::PIXEL));
        assert_eq!(a.events, [E::EndOfPipe, WAIT]);
        assert_eq!((a.write_back, a.invalidate), (Caches::CB, Caches::L0_L1));
        assert_eq!(kinds(&a), [K::DccDecompress]);
        assert_eq!(a.compression_bytes(), 2 * MB);
        // Texture-compatible, or staying on the graphics engine: no DCC eliminate (EB-4, A1).
        assert!(
            go(vec![rt_to_srv(TC, Layout::ShaderResource)])
                .compression
                .is_empty()
        );
        let dq = go(vec![rt_to_srv(COLOUR, Layout::DirectQueueShaderResource)]);
        assert!(dq.compression.is_empty());
        assert_eq!(dq.events, a.events, "same sync, same packets");
    }

    #[test]
    fn eb8b_depth_and_stencil_decompress_independently() {
        assert_eq!(kinds(&go(vec![ds_to_srv(plane(0))])), [K::DepthDecompress]);
        assert_eq!(
            kinds(&go(vec![ds_to_srv(plane(1))])),
            [K::StencilDecompress]
        );
        let both = go(vec![ds_to_srv(SubresourceRange::ALL)]);
        assert_eq!(kinds(&both), [K::DepthDecompress, K::StencilDecompress]);
        // Each plane's operation costs its plane: half of the resource, read and written.
        assert_eq!(both.compression_bytes(), 2 * MB);
        assert_eq!((both.drains, both.write_back), (Stages::DB, Caches::DB));
    }

    #[test]
    fn eb8b_partial_range_decompresses_the_whole_resource_once() {
        let mip = |m| SubresourceRange {
            first_mip: m,
            mip_count: 1,
            ..SubresourceRange::ALL
        };
        let one = TextureBarrier {
            range: mip(2),
            ..rt_to_srv(COLOUR, Layout::ShaderResource)
        };
        let a = go(vec![one]);
        assert_eq!(kinds(&a), [K::DccDecompress]);
        assert!(a.compression[0].partial_range);
        assert_eq!(a.compression_bytes(), 2 * MB, "the whole resource");
        // A second mip in the same call finds the resource already decompressed.
        let two = TextureBarrier {
            range: mip(3),
            ..one
        };
        assert_eq!(kinds(&go(vec![one, two])), [K::DccDecompress]);
        // Across calls, the tracked state remembers it (EB-8b).
        let mut state = CompressionState::new();
        let call = |t| BarrierGroup {
            textures: vec![t],
            ..BarrierGroup::default()
        };
        let opts = LowerOptions::default();
        let first = lower_tracked(&call(one), Direct, info, opts, &mut state);
        let second = lower_tracked(&call(two), Direct, info, opts, &mut state);
        assert_eq!(
            (first.decompression_count(), second.decompression_count()),
            (1, 0)
        );
        assert_eq!(state.get(&COLOUR), Some(Metadata::empty()));
    }

    #[test]
    fn global_all_to_all_is_a_full_idle() {
        let all = crate::barrier::GlobalBarrier {
            sync_before: Sync::ALL,
            sync_after: Sync::ALL,
            access_before: Access::COMMON,
            access_after: Access::COMMON,
        };
        let g = BarrierGroup::<u32> {
            global: vec![all],
            ..BarrierGroup::default()
        };
        let a = lower(&g, Direct, info, LowerOptions::default());
        assert_eq!(a.flush_counts().full_idle, 1);
        assert_eq!(
            (a.write_back, a.invalidate),
            (Caches::CB | Caches::DB | Caches::L2, Caches::all())
        );
        // Unknown resources lower conservatively, never panic.
        let unknown = rt_to_srv(99, Layout::ShaderResource);
        assert!(go(vec![unknown]).compression.is_empty());
    }
}
