//! A texture copied onto itself (barrier-spec A3.8, EB-9c): sound between disjoint regions,
//! reported (V0813) when they intersect or the whole resource is its own destination.

use super::*;
use crate::barrier::{Access, BarrierGroup, CopyRegion, Layout, Sync, TextureBarrier};

fn atlas() -> (Device, ObjectKey) {
    let mut device = Device::default();
    let t = Texture::new_2d(
        Format::Rgba8Unorm,
        UVec2::new(512, 256),
        TextureFlags::default(),
    );
    let atlas = device.create("atlas", ObjectDesc::Texture(t)).unwrap();
    (device, atlas)
}

/// COMMON, where the texture may be read and written by copies (barrier-spec A6).
fn to_common(atlas: ObjectKey) -> Command {
    Command::Barrier(BarrierGroup {
        textures: vec![TextureBarrier::whole(
            atlas,
            [Sync::ALL, Sync::COPY],
            [Access::NO_ACCESS, Access::COPY_SOURCE | Access::COPY_DEST],
            [Layout::Common, Layout::Common],
        )],
        ..Default::default()
    })
}

fn codes(device: &Device, cmds: &[Command]) -> Vec<Code> {
    let mut v = Validator::new(true);
    v.observe(device, QueueId::Graphics, 0, 0, cmds);
    v.diagnostics.iter().map(|d| d.code).collect()
}

fn region_copy(atlas: ObjectKey, to_x: u32) -> Command {
    Command::CopyTextureRegion {
        src: atlas,
        dst: atlas,
        bytes: 65536,
        from: CopyRegion::new(0, [0, 0, 0], [128, 128, 1]),
        to: CopyRegion::new(0, [to_x, 0, 0], [128, 128, 1]),
    }
}

#[test]
fn disjoint_regions_copy_a_texture_onto_itself_with_no_hazard() {
    let (device, atlas) = atlas();
    assert_eq!(
        codes(&device, &[to_common(atlas), region_copy(atlas, 128)]),
        Vec::<Code>::new()
    );
}

#[test]
fn intersecting_regions_or_a_whole_self_copy_are_reported() {
    let (device, atlas) = atlas();
    assert_eq!(
        codes(&device, &[to_common(atlas), region_copy(atlas, 127)]),
        [Code::SelfCopyOverlap]
    );
    let whole = Command::CopyResource {
        src: atlas,
        dst: atlas,
        bytes: 1 << 19,
    };
    assert_eq!(
        codes(&device, &[to_common(atlas), whole]),
        [Code::SelfCopyOverlap]
    );
}
