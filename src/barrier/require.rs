//! What one barrier requires of the hardware, with the driver's policies on top (EB-2, EB-3,
//! EB-8c, EB-8d, EB-10).
//!
//! A barrier's syncs become drains and blocks (`drain.rs`) and its accesses cache work
//! (`cache.rs`); this file adds them to a call's running total and applies what the Xbox
//! driver does beyond the specification:
//!
//! - Split barriers are not split (EB-8c): the begin half becomes an immediate barrier, and
//!   since its SyncAfter is unknown there it blocks every stage plus the constant engine and
//!   the prefetch parser; the end half is ignored.
//! - Copies on the graphics engine stay serialised (EB-8d): a barrier that names copy work
//!   drains and blocks the copy stage on both sides, unless the command list carries the
//!   don't-sync-on-copy hint.
//! - Legacy semantics trust no SyncAfter: every stage and the whole front end are held.

use super::cache::{Target, invalidations, moves_to_common, write_backs};
use super::drain::{blocks, drains, queue_stages, stages_of};
use super::hardware::{FrontEnd, HardwareActions, Stages};
use super::triple::Halves;
use super::{LowerOptions, QueueType};

/// Add one barrier's drains, blocks and cache work to `a`. False for an ignored end-split.
pub fn require<R>(
    a: &mut HardwareActions<R>,
    h: &Halves,
    target: Target,
    queue: QueueType,
    options: LowerOptions,
) -> bool {
    if h.is_split_end() {
        a.split_ends_ignored = a.split_ends_ignored.saturating_add(1);
        return false;
    }
    let back_end = match (queue, target) {
        (QueueType::Direct, Target::Texture { depth: true }) => Stages::DB,
        (QueueType::Direct, Target::Texture { depth: false }) => Stages::CB,
        (QueueType::Direct, Target::Global) => Stages::BACK_END,
        _ => Stages::empty(),
    };
    a.drains |= drains(h.sync_before, h.access_before, queue, back_end);
    let (mut held, mut front) = blocks(h.sync_after, queue);
    let everything = queue_stages(queue);
    let whole_front = if queue == QueueType::Copy {
        FrontEnd::empty()
    } else {
        FrontEnd::all()
    };
    if h.is_split_begin() {
        // Converted at the near side; the far side's SyncAfter is unknown here (EB-8c).
        a.splits_converted = a.splits_converted.saturating_add(1);
        held = everything;
        front = whole_front;
    }
    if options.legacy {
        held = everything;
        front = whole_front;
    }
    let copies = stages_of(h.sync_before | h.sync_after, queue).contains(Stages::COPY);
    if queue == QueueType::Direct && copies && !options.dont_sync_on_copy {
        // Serialised copies: drained and blocked whichever side named them (EB-8d).
        a.drains |= Stages::COPY;
        held |= Stages::COPY;
    }
    a.blocks |= held;
    a.front_end |= front;
    let layout_changes = h.layouts.is_some_and(|(b, after)| b != after);
    a.write_back |= write_backs(h.access_before, target, queue, moves_to_common(h.layouts));
    a.invalidate |= invalidations(
        h.access_before,
        h.access_after,
        target,
        queue,
        layout_changes,
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::hardware::{Caches, CompressionKind as K, SyncEvent as E};
    use crate::barrier::{
        Access, BarrierGroup, BufferBarrier, Layout, ResourceInfo, Sync, TextureBarrier,
        TextureInfo, lower,
    };
    use QueueType::Direct;

    const COLOUR: u32 = 1;
    const BUF: u32 = 3;
    const TC: u32 = 4;

    fn info(r: &u32) -> Option<ResourceInfo> {
        let t = match *r {
            COLOUR => TextureInfo::render_target(4, 1, 1 << 20),
            TC => TextureInfo {
                texture_compatible: true,
                ..TextureInfo::render_target(1, 1, 0)
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
        let a = [Access::RENDER_TARGET, Access::SHADER_RESOURCE];
        tex(r, s, a, [Layout::RenderTarget, after])
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
    fn eb8c_splits_become_immediate_at_the_begin() {
        let mut begin = rt_to_srv(COLOUR, Layout::ShaderResource);
        begin.sync_after = Sync::SPLIT;
        let a = go(vec![begin]);
        assert_eq!((a.blocks, a.front_end), (Stages::all(), FrontEnd::all()));
        assert_eq!(a.splits_converted, 1);
        assert_eq!(
            a.events,
            [
                E::EndOfPipe,
                E::TopOfPipeWait {
                    prefetch_parser: true,
                    constant_engine: true
                }
            ]
        );
        assert_eq!(
            kinds(&a),
            [K::DccDecompress],
            "the work happens at the near side"
        );
        let mut end = rt_to_srv(COLOUR, Layout::ShaderResource);
        end.sync_before = Sync::SPLIT;
        let e = go(vec![end]);
        assert!(e.is_empty());
        assert_eq!(e.split_ends_ignored, 1);
    }

    #[test]
    fn eb8d_graphics_copies_stay_serialised_unless_hinted() {
        let s = [Sync::COPY, Sync::PIXEL_SHADING];
        let after_copy = tex(
            COLOUR,
            s,
            [Access::COPY_DEST, Access::SHADER_RESOURCE],
            [Layout::CopyDest, Layout::ShaderResource],
        );
        let a = go(vec![after_copy]);
        assert_eq!(
            (a.drains, a.blocks),
            (Stages::COPY | Stages::CB, Stages::PIXEL | Stages::COPY)
        );
        assert_eq!(a.write_back, Caches::CB, "driver copies write through CB");
        assert_eq!(a.events, [E::EndOfPipe, E::CopyDrain, WAIT]);
        let g = BarrierGroup {
            textures: vec![after_copy],
            ..BarrierGroup::default()
        };
        let hint = LowerOptions {
            dont_sync_on_copy: true,
            ..LowerOptions::default()
        };
        assert_eq!(lower(&g, Direct, info, hint).blocks, Stages::PIXEL);
        // On a compute queue a buffer copy is a plain L2 client: no back end, no CB.
        let b = BufferBarrier {
            sync_before: Sync::COPY,
            sync_after: Sync::COMPUTE_SHADING,
            access_before: Access::COPY_DEST,
            access_after: Access::SHADER_RESOURCE,
            resource: BUF,
        };
        let g = BarrierGroup {
            buffers: vec![b],
            ..BarrierGroup::default()
        };
        let c = lower(&g, QueueType::Compute, info, LowerOptions::default());
        assert_eq!(
            (c.drains, c.blocks, c.write_back),
            (Stages::COPY, Stages::COMPUTE, Caches::empty())
        );
        assert_eq!(
            (c.events, c.invalidate),
            (vec![E::CopyDrain], Caches::L0_L1)
        );
    }

    #[test]
    fn legacy_semantics_hold_the_whole_front_end() {
        let g = BarrierGroup {
            textures: vec![rt_to_srv(TC, Layout::ShaderResource)],
            ..BarrierGroup::default()
        };
        let legacy = LowerOptions {
            legacy: true,
            ..LowerOptions::default()
        };
        let a = lower(&g, Direct, info, legacy);
        assert_eq!((a.blocks, a.front_end), (Stages::all(), FrontEnd::all()));
        assert_eq!(
            lower(&g, Direct, info, LowerOptions::default()).front_end,
            FrontEnd::empty()
        );
    }
}
