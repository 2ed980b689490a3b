//! A placed texture's bytes are opaque (EB-5, EB-9d, V0814, V0815): the API names a texture's
//! memory by subresource, never by byte (barrier-spec A2: texture barriers carry subresource
//! ranges, only buffers have offsets), and its compression is tracked for the whole resource
//! (EB-8b), so no byte of its placement can be said to belong to one mip. A buffer placed over
//! any part of a texture's placement therefore shares memory with every subresource: a write
//! through the buffer meets a read of any mip, whichever bytes a guessed layout would give it.

use super::*;
use crate::barrier::{
    Access, BarrierGroup, BufferBarrier, Layout, SubresourceRange, Sync, TextureBarrier,
    TextureBarrierFlags,
};

struct Placed {
    device: Device,
    /// A 64x64 texture of seven mips placed at byte 0 of the heap.
    tex: ObjectKey,
    /// A UAV of mip 0 alone.
    mip0: ObjectKey,
    /// A buffer placed over the texture's last 256 bytes (where a linear layout would put its
    /// smallest mips), one over its first 256 bytes, and one just past its end.
    tail: ObjectKey,
    head: ObjectKey,
    apart: ObjectKey,
    src: ObjectKey,
}

fn placed() -> Placed {
    let mut device = Device::default();
    let flags = TextureFlags {
        unordered_access: true,
        ..Default::default()
    };
    let t = Texture {
        mips: 7,
        ..Texture::new_2d(Format::Rgba8Unorm, UVec2::new(64, 64), flags)
    };
    let buf = |size| {
        ObjectDesc::Buffer(Buffer {
            size,
            usage: BufferUsage::Default,
            unordered_access: false,
        })
    };
    let h = device.memory.create_heap("heap", 1 << 20);
    let tex = (device
        .memory
        .create_placed("tex", ObjectDesc::Texture(t), h, 0))
    .unwrap();
    let bytes = device.memory.placement(tex).unwrap().bytes;
    assert!(bytes > 512);
    let mip0 = ObjectDesc::View {
        of: tex,
        kind: ViewKind::Uav,
        range: mip(0),
    };
    let mip0 = device.create("tex.mip0", mip0).unwrap();
    let memory = &mut device.memory;
    let tail = memory
        .create_placed("tail", buf(256), h, bytes - 256)
        .unwrap();
    let head = memory.create_placed("head", buf(256), h, 0).unwrap();
    let apart = memory.create_placed("apart", buf(256), h, bytes).unwrap();
    let src = device.create("src", buf(256)).unwrap();
    Placed {
        device,
        tex,
        mip0,
        tail,
        head,
        apart,
        src,
    }
}

fn mip(m: u32) -> SubresourceRange {
    SubresourceRange {
        first_mip: m,
        mip_count: 1,
        ..SubresourceRange::ALL
    }
}

/// On one queue: a copy into buffer `buffer`, its deactivation (SyncAfter NONE), the
/// texture's activation with `sync_before`, and a dispatch writing the texture's mip 0 alone;
/// the findings as (code, resource).
fn hand_over(p: &Placed, buffer: ObjectKey, sync_before: Sync) -> Vec<(Code, String)> {
    let off = BufferBarrier {
        sync_before: Sync::COPY,
        sync_after: Sync::NONE,
        access_before: Access::COPY_DEST,
        access_after: Access::NO_ACCESS,
        resource: buffer,
    };
    let on = TextureBarrier {
        sync_before,
        sync_after: Sync::COMPUTE_SHADING,
        access_before: Access::NO_ACCESS,
        access_after: Access::UNORDERED_ACCESS,
        layout_before: Layout::Undefined,
        layout_after: Layout::UnorderedAccess,
        resource: p.tex,
        range: mip(0),
        flags: TextureBarrierFlags { discard: true },
    };
    let cmds = [
        Command::CopyResource {
            src: p.src,
            dst: buffer,
            bytes: 256,
        },
        Command::Barrier(BarrierGroup {
            buffers: vec![off],
            ..Default::default()
        }),
        Command::Barrier(BarrierGroup {
            textures: vec![on],
            ..Default::default()
        }),
        Command::ClearState,
        Command::SetPipelineState(1),
        Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views: vec![p.mip0],
            writes: true,
        },
        Command::Dispatch {
            dispatches: 1,
            threads: 64,
        },
    ];
    let mut v = Validator::new(true);
    v.observe(
        &p.device,
        QueueId::Compute { pipe: 0, index: 0 },
        0,
        0,
        &cmds,
    );
    (v.diagnostics.iter())
        .map(|d| (d.code, d.resource.clone()))
        .collect()
}

#[test]
fn a_buffer_over_part_of_a_placed_texture_is_checked_against_the_whole_texture() {
    let p = placed();
    assert_eq!(p.device.memory.aliases(p.tail), [p.tex]);
    // The copy wrote the tail's bytes; the texture's activation and mip 0's write are not
    // ordered after it (no SyncBefore reaches the copy). A linear layout would put mip 0 at
    // the head, not the tail; the layout is the driver's, so they conflict all the same.
    let found = hand_over(&p, p.tail, Sync::NONE);
    assert!(!found.is_empty());
    assert!(
        found
            .iter()
            .all(|f| *f == (Code::AliasNotOrdered, "tex".to_owned())),
        "{found:?}"
    );
    // Over the head: the same findings; which bytes of the placement it covers does not matter.
    assert_eq!(hand_over(&p, p.head, Sync::NONE), found);
    // The activation's SyncBefore reaching the copy orders it: clean.
    assert_eq!(hand_over(&p, p.tail, Sync::COPY), []);
    // A buffer past the texture's end shares none of its memory: nothing to order.
    assert_eq!(p.device.memory.aliases(p.apart), []);
    assert_eq!(hand_over(&p, p.apart, Sync::NONE), []);
}
