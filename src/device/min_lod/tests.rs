//! The MinLOD clamp on the device (FS-13, seed 000).

use super::super::{Command, Device, FastSet, ObjectDesc, ObjectKey, QueueId, ShaderStage};
use crate::barrier::SubresourceRange;
use crate::model::{Format, Semantics, Texture, TextureFlags, ViewKind};

const GFX: QueueId = QueueId::Graphics;
/// Bytes of the four mips of a 256 x 256 RGBA8 texture.
const MIP: [u64; 4] = [262_144, 65_536, 16_384, 4_096];

fn from(mip: usize) -> u64 {
    MIP[mip..].iter().sum()
}

fn texture(d: &mut Device) -> ObjectKey {
    let mut t = Texture::new_2d(
        Format::Rgba8Unorm,
        glam::UVec2::new(256, 256),
        TextureFlags::default(),
    );
    t.mips = 4;
    d.create("tex", ObjectDesc::Texture(t)).unwrap()
}

fn srv(d: &mut Device, of: ObjectKey) -> ObjectKey {
    let desc = ObjectDesc::View {
        of,
        kind: ViewKind::Srv,
        range: SubresourceRange::ALL,
    };
    d.create("srv", desc).unwrap()
}

fn bind(view: ObjectKey) -> Command {
    Command::SetResources {
        stage: ShaderStage::Pixel,
        first_slot: 0,
        views: vec![view],
        writes: true,
    }
}

fn draw() -> Command {
    Command::Draw {
        draws: 1,
        vertices: 3,
        pixels: 64,
    }
}

/// The bytes the draw at the end of `commands` samples.
fn sampled(d: &mut Device, commands: Vec<Command>) -> u64 {
    let before = d.sampled_bytes();
    d.submit(GFX, 0, 0, commands, 0).unwrap();
    d.sampled_bytes() - before
}

#[test]
fn a_fast_view_takes_the_resource_min_lod_at_creation_and_its_own_on_rebind() {
    let mut d = Device::default();
    let tex = texture(&mut d);
    let early = srv(&mut d, tex);
    assert_eq!(sampled(&mut d, vec![bind(early), draw()]), from(0));
    let set_resource = |lod| Command::SetResourceMinLod { resource: tex, lod };
    d.submit(GFX, 0, 0, [set_resource(1)], 0).unwrap();
    // A view created now starts at the resource's MinLOD; the earlier one keeps 0, even
    // bound again (a fast context's views ignore later resource changes).
    let late = srv(&mut d, tex);
    assert_eq!(sampled(&mut d, vec![bind(late), draw()]), from(1));
    assert_eq!(sampled(&mut d, vec![bind(early), draw()]), from(0));
    d.submit(GFX, 0, 0, [set_resource(3)], 0).unwrap();
    assert_eq!(sampled(&mut d, vec![bind(late), draw()]), from(1));
    // The view's own MinLOD counts only once the view is bound again.
    let set_view = Command::SetShaderResourceViewMinLod { view: late, lod: 2 };
    assert_eq!(sampled(&mut d, vec![set_view, draw()]), from(1));
    assert_eq!(sampled(&mut d, vec![bind(late), draw()]), from(2));
    // A clamp past the last mip samples the last.
    let past = Command::SetShaderResourceViewMinLod { view: late, lod: 9 };
    assert_eq!(sampled(&mut d, vec![past, bind(late), draw()]), from(3));
}

#[test]
fn a_legacy_context_defers_to_the_resource_but_the_11x_calls_read_the_view() {
    let mut d = Device::default();
    d.set_semantics(Semantics::Legacy);
    let tex = texture(&mut d);
    let view = srv(&mut d, tex);
    let set_view = Command::SetShaderResourceViewMinLod { view, lod: 2 };
    // The view's MinLOD is ignored by SetResources on a legacy context.
    assert_eq!(sampled(&mut d, vec![set_view, bind(view), draw()]), from(0));
    // The resource's counts, from the next binding on.
    let set_resource = Command::SetResourceMinLod {
        resource: tex,
        lod: 1,
    };
    assert_eq!(sampled(&mut d, vec![set_resource, draw()]), from(0));
    assert_eq!(sampled(&mut d, vec![bind(view), draw()]), from(1));
    // SetFastResources acts as on a fast context: the view's MinLOD.
    let fast = Command::SetFastResources(vec![FastSet::Srv {
        stage: ShaderStage::Pixel,
        slot: 0,
        views: vec![view],
    }]);
    assert_eq!(sampled(&mut d, vec![fast, draw()]), from(2));
}

#[test]
fn only_views_bound_to_the_work_s_stages_are_sampled_until_state_is_cleared() {
    let mut d = Device::default();
    let tex = texture(&mut d);
    let view = srv(&mut d, tex);
    let dispatch = Command::Dispatch {
        dispatches: 1,
        threads: 64,
    };
    // A pixel-stage view is nothing to a dispatch on the graphics queue.
    assert_eq!(sampled(&mut d, vec![bind(view), dispatch.clone()]), 0);
    assert_eq!(sampled(&mut d, vec![draw()]), from(0));
    assert_eq!(sampled(&mut d, vec![Command::ClearState, draw()]), 0);
}
