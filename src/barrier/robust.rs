//! "No panics on any input": arbitrary bits, layouts, ranges and resource descriptions through
//! every entry point. A deterministic generator keeps the test reproducible.

use super::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn u32(&mut self) -> u32 {
        // Mostly small values, sometimes extremes.
        match self.next() % 4 {
            0 => u32::MAX,
            1 => (self.next() >> 32) as u32,
            _ => (self.next() % 5) as u32,
        }
    }

    fn bits(&mut self) -> u32 {
        match self.next() % 3 {
            0 => 1 << (self.next() % 32),
            1 => 0,
            _ => self.next() as u32,
        }
    }

    fn layout(&mut self) -> Layout {
        Layout::ALL[(self.next() % Layout::ALL.len() as u64) as usize]
    }

    fn flag(&mut self) -> bool {
        self.next().is_multiple_of(2)
    }
}

fn info(r: &u32) -> Option<ResourceInfo> {
    let mut g = Rng(*r as u64 | 1);
    match r % 4 {
        0 => None,
        1 => Some(ResourceInfo::Buffer),
        _ => Some(ResourceInfo::Texture(TextureInfo {
            mips: g.u32(),
            array_size: g.u32(),
            planes: g.u32(),
            render_target: g.flag(),
            depth_stencil: g.flag(),
            unordered_access: g.flag(),
            dcc: g.flag(),
            texture_compatible: g.flag(),
            size_bytes: g.next(),
        })),
    }
}

fn group(g: &mut Rng) -> BarrierGroup<u32> {
    let mut out = BarrierGroup::default();
    for _ in 0..g.next() % 4 {
        let (sb, sa) = (
            Sync::from_bits_retain(g.bits()),
            Sync::from_bits_retain(g.bits()),
        );
        let (ab, aa) = (
            Access::from_bits_retain(g.bits()),
            Access::from_bits_retain(g.bits()),
        );
        let resource = (g.next() % 64) as u32;
        match g.next() % 3 {
            0 => out.global.push(GlobalBarrier {
                sync_before: sb,
                sync_after: sa,
                access_before: ab,
                access_after: aa,
            }),
            1 => out.buffers.push(BufferBarrier {
                sync_before: sb,
                sync_after: sa,
                access_before: ab,
                access_after: aa,
                resource,
            }),
            _ => out.textures.push(TextureBarrier {
                sync_before: sb,
                sync_after: sa,
                access_before: ab,
                access_after: aa,
                layout_before: g.layout(),
                layout_after: g.layout(),
                resource,
                range: SubresourceRange {
                    first_mip: g.u32(),
                    mip_count: g.u32(),
                    first_slice: g.u32(),
                    slice_count: g.u32(),
                    first_plane: g.u32(),
                    plane_count: g.u32(),
                },
                flags: TextureBarrierFlags { discard: g.flag() },
            }),
        }
    }
    out
}

#[test]
fn arbitrary_input_never_panics() {
    let mut g = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tracker = BarrierTracker::new();
    let mut state = CompressionState::new();
    for _ in 0..3000 {
        let call = group(&mut g);
        for queue in [QueueType::Direct, QueueType::Compute, QueueType::Copy] {
            let _ = validate_group(&call, queue, info);
            let _ = tracker.apply(&call, queue, info);
            let options = LowerOptions {
                dont_sync_on_copy: g.flag(),
                legacy: g.flag(),
            };
            let a = lower(&call, queue, info, options);
            let _ = (a.flush_counts(), a.compression_bytes(), a.is_empty());
            let _ = lower_tracked(&call, queue, info, options, &mut state);
        }
        let legacy = [
            LegacyBarrier::Transition {
                resource: (g.next() % 64) as u32,
                subresource: g.u32(),
                before: ResourceStates::from_bits_retain(g.bits()),
                after: ResourceStates::from_bits_retain(g.bits()),
                split: LegacySplit::BeginOnly,
            },
            LegacyBarrier::Uav {
                resource: Some((g.next() % 64) as u32),
            },
        ];
        let _ = translate(&legacy, info);
        let _ = tracker.apply_legacy(&legacy, info);
        let _ = lower_legacy(&legacy, QueueType::Direct, info, LowerOptions::default());
        let _ = tracker.end_submission();
        let region = |g: &mut Rng| CopyRegion::new(g.u32(), [g.u32(); 3], [g.u32(); 3]);
        let _ = check_self_copy(&region(&mut g), &region(&mut g));
    }
}
