//! Subresources (EB-6, issue 17 item 3): a view of one mip touches that mip, a barrier whose
//! range names one mip orders and moves that mip alone.
use super::*;
use crate::barrier::{Access, BarrierGroup, Layout, SubresourceRange, Sync, TextureBarrier};

const CS: QueueId = QueueId::Compute { pipe: 0, index: 0 };

struct M {
    device: Device,
    tex: ObjectKey,
    uav: [ObjectKey; 2],
    srv: [ObjectKey; 2],
}

fn mip(m: u32) -> SubresourceRange {
    SubresourceRange {
        first_mip: m,
        mip_count: 1,
        ..SubresourceRange::ALL
    }
}

/// A two-mip texture with a UAV and an SRV of each mip.
fn setup() -> M {
    let mut device = Device::default();
    let flags = TextureFlags {
        unordered_access: true,
        ..Default::default()
    };
    let t = Texture {
        mips: 2,
        ..Texture::new_2d(Format::Rgba16Float, UVec2::new(64, 64), flags)
    };
    let tex = device.create("pyramid", ObjectDesc::Texture(t)).unwrap();
    let mut view = |kind, m| {
        let desc = ObjectDesc::View {
            of: tex,
            kind,
            range: mip(m),
        };
        device.create("pyramid.view", desc).unwrap()
    };
    let uav = [view(ViewKind::Uav, 0), view(ViewKind::Uav, 1)];
    let srv = [view(ViewKind::Srv, 0), view(ViewKind::Srv, 1)];
    M {
        device,
        tex,
        uav,
        srv,
    }
}

fn barrier(
    m: &M,
    range: SubresourceRange,
    from: (Access, Layout),
    to: (Access, Layout),
) -> Command {
    let mut g = BarrierGroup::default();
    g.textures.push(TextureBarrier {
        resource: m.tex,
        sync_before: Sync::COMPUTE_SHADING,
        sync_after: Sync::COMPUTE_SHADING,
        access_before: from.0,
        access_after: to.0,
        layout_before: from.1,
        layout_after: to.1,
        range,
        flags: Default::default(),
    });
    Command::Barrier(g)
}

/// A dispatch with nothing bound but `views`.
fn dispatch(views: Vec<ObjectKey>, writes: bool) -> Vec<Command> {
    vec![
        Command::ClearState,
        Command::SetPipelineState(1),
        Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views,
            writes,
        },
        Command::Dispatch {
            dispatches: 1,
            threads: 64,
        },
    ]
}

/// Both mips written through their UAVs, from a whole-texture transition to UNORDERED_ACCESS.
fn written(m: &M) -> Vec<Command> {
    let common = (Access::NO_ACCESS, Layout::Common);
    let uav = (Access::UNORDERED_ACCESS, Layout::UnorderedAccess);
    let mut cmds = vec![barrier(m, SubresourceRange::ALL, common, uav)];
    cmds.extend(dispatch(m.uav.to_vec(), true));
    cmds
}

fn run(m: &M, cmds: Vec<Command>) -> Vec<Code> {
    let mut v = Validator::new(true);
    v.observe(&m.device, CS, 0, 0, &cmds);
    v.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn a_barrier_on_one_mip_orders_and_moves_that_mip_alone() {
    let m = setup();
    let uav = (Access::UNORDERED_ACCESS, Layout::UnorderedAccess);
    let srv = (Access::SHADER_RESOURCE, Layout::ShaderResource);
    // Mip 0 moved to SHADER_RESOURCE and read: clean.
    let mut good = written(&m);
    good.push(barrier(&m, mip(0), uav, srv));
    good.extend(dispatch(vec![m.srv[0]], false));
    assert_eq!(run(&m, good), []);
    // Mip 1 read after the same barrier on mip 0: still in UNORDERED_ACCESS (V0403), its
    // write neither ordered nor made visible (V0501), and not declared for SRV reads (V0804).
    let mut bad = written(&m);
    bad.push(barrier(&m, mip(0), uav, srv));
    bad.extend(dispatch(vec![m.srv[1]], false));
    let found = run(&m, bad);
    assert!(found.contains(&Code::LayoutDisallowsAccess), "{found:?}");
    assert!(found.contains(&Code::ReadAfterWrite), "{found:?}");
}

#[test]
fn a_downsample_reads_one_mip_and_writes_the_next_in_one_dispatch() {
    let m = setup();
    let uav = (Access::UNORDERED_ACCESS, Layout::UnorderedAccess);
    let srv = (Access::SHADER_RESOURCE, Layout::ShaderResource);
    let common = (Access::NO_ACCESS, Layout::Common);
    let mut cmds = vec![barrier(&m, mip(0), common, uav)];
    cmds.extend(dispatch(vec![m.uav[0]], true));
    cmds.push(barrier(&m, mip(0), uav, srv));
    cmds.push(barrier(&m, mip(1), common, uav));
    let mut down = dispatch(vec![m.srv[0]], false);
    down.insert(
        3,
        Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 1,
            views: vec![m.uav[1]],
            writes: true,
        },
    );
    cmds.extend(down);
    assert_eq!(run(&m, cmds.clone()), []);
    // Without the barrier on mip 0 the read of mip 0 races its write.
    cmds.remove(5);
    let found = run(&m, cmds);
    assert!(found.contains(&Code::ReadAfterWrite), "{found:?}");
}
