//! A pipeline whose shaders' view slots the title described touches only the views bound
//! there (`device::ShaderSlots`): D3D12HDR binds its intermediate target's SRV once, then
//! draws into that target with shaders that read nothing, which is no access.
use super::*;
use crate::barrier::Layout;

/// A render target whose SRV is bound at pixel slot 0 while it is drawn to: the draw reads
/// it when the pipeline's shaders access that slot (EB-1 in RENDER_TARGET, an access the
/// barrier into it did not declare, EB-11, and a read after the clear with no barrier),
/// not otherwise.
fn draw_with_own_srv_bound(slots: Option<ShaderSlots>) -> Vec<Code> {
    let mut device = Device::default();
    device.set_api(crate::model::Api::D3d12Pc);
    let flags = TextureFlags {
        render_target: true,
        ..Default::default()
    };
    let t = Texture::new_2d(Format::Rgba16Float, UVec2::new(64, 64), flags);
    let target = device
        .create("intermediate", ObjectDesc::Texture(t))
        .unwrap();
    let view = |d: &mut Device, kind| {
        let range = crate::barrier::SubresourceRange::ALL;
        let desc = ObjectDesc::View {
            of: target,
            kind,
            range,
        };
        d.create("view", desc).unwrap()
    };
    let (rtv, srv) = (
        view(&mut device, ViewKind::Rtv),
        view(&mut device, ViewKind::Srv),
    );
    device.set_pipeline_slots(1, slots);
    let cmds = [
        transition(target, Layout::Common, Layout::RenderTarget),
        Command::SetPipelineState(1),
        Command::SetResources {
            stage: ShaderStage::Pixel,
            first_slot: 0,
            views: vec![srv],
            writes: false,
        },
        Command::SetRenderTargets {
            rtvs: vec![rtv],
            dsv: None,
        },
        Command::SetViewport {
            width: 64,
            height: 64,
        },
        Command::ClearRenderTarget(rtv),
        Command::SetRenderTargets {
            rtvs: vec![rtv],
            dsv: None,
        },
        Command::Draw {
            draws: 1,
            vertices: 4,
            pixels: 4096,
        },
    ];
    let mut v = Validator::new(true);
    v.observe(&device, QueueId::Graphics, 0, 0, &cmds);
    let mut codes: Vec<Code> = v.diagnostics.iter().map(|d| d.code).collect();
    codes.dedup();
    codes
}

#[test]
fn a_bound_view_the_pipeline_does_not_read_is_no_access() {
    // Undescribed: every bound view is read.
    let read = vec![
        Code::LayoutDisallowsAccess,
        Code::AccessNotDeclared,
        Code::ReadAfterWrite,
    ];
    assert_eq!(draw_with_own_srv_bound(None), read);
    // Described as reading pixel slot 0: the same.
    let slot0 = ShaderSlots::new([(ShaderStage::Pixel, 0)]);
    assert_eq!(draw_with_own_srv_bound(Some(slot0)), read);
    // Described as reading nothing, or another stage's slot 0: no access, clean.
    assert_eq!(draw_with_own_srv_bound(Some(ShaderSlots::default())), []);
    let vertex = ShaderSlots::new([(ShaderStage::Vertex, 0)]);
    assert_eq!(draw_with_own_srv_bound(Some(vertex)), []);
}
