//! Each diagnostic: a stream that triggers it and a near-identical correct stream that does not.

use super::*;
use crate::device::*;
use crate::model::{Buffer, BufferUsage, Format, Texture, TextureFlags, ViewKind};
use glam::UVec2;

struct Fixture {
    device: Device,
    chain: SwapChainKey,
    buffers: Vec<ObjectKey>,
    rtv0: ObjectKey,
    rtv1: ObjectKey,
    dynamic: ObjectKey,
}

fn fixture() -> Fixture {
    let mut device = Device::default();
    let flags = TextureFlags {
        render_target: true,
        dcc: true,
        ..Default::default()
    };
    let t = Texture::new_2d(Format::Bgra8Unorm, UVec2::new(64, 64), flags);
    let (chain, buffers) = device.create_swap_chain("sc", t, 2, 1);
    let rtv = |d: &mut Device, b| {
        d.create(
            "rtv",
            ObjectDesc::View {
                of: b,
                kind: ViewKind::Rtv,
                range: crate::barrier::SubresourceRange::ALL,
            },
        )
        .unwrap()
    };
    let rtv0 = rtv(&mut device, buffers[0]);
    let rtv1 = rtv(&mut device, buffers[1]);
    let dynamic = device
        .create(
            "constants",
            ObjectDesc::Buffer(Buffer {
                size: 256,
                usage: BufferUsage::Dynamic,
                unordered_access: false,
            }),
        )
        .unwrap();
    Fixture {
        device,
        chain,
        buffers,
        rtv0,
        rtv1,
        dynamic,
    }
}

/// A layout transition of the back buffer, as enhanced barriers require around the seed's
/// D3D11-era loop.
fn transition(
    buffer: ObjectKey,
    from: crate::barrier::Layout,
    to: crate::barrier::Layout,
) -> Command {
    use crate::barrier::*;
    let access = |l: Layout| {
        if l == Layout::RenderTarget {
            Access::RENDER_TARGET
        } else {
            Access::NO_ACCESS
        }
    };
    let mut g = BarrierGroup::default();
    g.textures.push(TextureBarrier {
        sync_before: Sync::ALL,
        sync_after: Sync::ALL,
        access_before: access(from),
        access_after: access(to),
        layout_before: from,
        layout_after: to,
        resource: buffer,
        range: SubresourceRange::ALL,
        flags: TextureBarrierFlags::default(),
    });
    Command::Barrier(g)
}

/// The seed's render loop for buffer 0 (RL-1), with `edit` applied to the stream.
fn frame(f: &Fixture, edit: impl FnOnce(&mut Vec<Command>)) -> Vec<Command> {
    use crate::barrier::Layout;
    let mut cmds = vec![
        Command::WaitOnPresent(f.buffers[0]),
        transition(f.buffers[0], Layout::Common, Layout::RenderTarget),
        Command::Map {
            resource: f.dynamic,
            mode: MapMode::WriteDiscard,
        },
        Command::Unmap(f.dynamic),
        Command::ClearRenderTarget(f.rtv0),
        Command::SetRenderTargets {
            rtvs: vec![f.rtv0],
            dsv: None,
        },
        Command::SetViewport {
            width: 64,
            height: 64,
        },
        Command::SetPipelineState(1),
        Command::SetConstantBuffers {
            stage: ShaderStage::Pixel,
            buffers: vec![f.dynamic],
        },
        Command::Draw {
            draws: 1,
            vertices: 3,
            pixels: 4096,
        },
        Command::Decompress(f.buffers[0]),
        transition(f.buffers[0], Layout::RenderTarget, Layout::PRESENT),
        Command::Present(f.chain),
    ];
    edit(&mut cmds);
    cmds
}

fn rules(f: &Fixture, cmds: &[Command]) -> Vec<&'static str> {
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, cmds);
    v.diagnostics.iter().map(|d| d.rule).collect()
}

fn pos(cmds: &[Command], name: &str) -> usize {
    cmds.iter().position(|c| c.name() == name).unwrap()
}

#[test]
fn the_seed_render_loop_is_clean() {
    let f = fixture();
    assert_eq!(rules(&f, &frame(&f, |_| {})), Vec::<&str>::new());
}

#[test]
fn fs5_write_without_wait_on_present() {
    let f = fixture();
    let bad = frame(&f, |c| {
        c.remove(0);
    });
    assert_eq!(rules(&f, &bad), vec!["FS-5"]);
}

#[test]
fn rl2_wait_on_present_after_present() {
    let f = fixture();
    let bad = frame(&f, |c| c.push(Command::WaitOnPresent(f.buffers[0])));
    assert_eq!(rules(&f, &bad), vec!["RL-2"]);
    // Waiting for the next back buffer after present is fine.
    let good = frame(&f, |c| c.push(Command::WaitOnPresent(f.buffers[1])));
    assert!(rules(&f, &good).is_empty());
}

#[test]
fn fs9_write_through_a_view_not_rotated() {
    let f = fixture();
    let bad = frame(&f, |c| {
        c[0] = Command::WaitOnPresent(f.buffers[1]);
        let clear = pos(c, "ClearRenderTarget");
        c[clear] = Command::ClearRenderTarget(f.rtv1);
        let set = pos(c, "SetRenderTargets");
        c[set] = Command::SetRenderTargets {
            rtvs: vec![f.rtv1],
            dsv: None,
        };
    });
    assert!(rules(&f, &bad).contains(&"FS-9"));
    // Re-pointing the view at buffer 0 first (PlaceSwapChainView, RL-7) fixes it.
    let good = frame(&f, |c| {
        let clear = pos(c, "ClearRenderTarget");
        c.insert(
            clear,
            Command::PlaceSwapChainView {
                view: f.rtv1,
                buffer: f.buffers[0],
            },
        );
        let clear = pos(c, "ClearRenderTarget");
        c[clear] = Command::ClearRenderTarget(f.rtv1);
        let set = pos(c, "SetRenderTargets");
        c[set] = Command::SetRenderTargets {
            rtvs: vec![f.rtv1],
            dsv: None,
        };
    });
    assert!(rules(&f, &good).is_empty(), "{:?}", rules(&f, &good));
}

#[test]
fn fs11_draw_without_state() {
    let f = fixture();
    let bad = frame(&f, |c| {
        let vp = pos(c, "SetViewport");
        c.remove(vp);
    });
    assert_eq!(rules(&f, &bad), vec!["FS-11"]);
}

#[test]
fn fs8_draw_after_clear_without_rebind() {
    let f = fixture();
    // Set, then clear (which unbinds), then draw: the view must be set again.
    let bad = frame(&f, |c| {
        let clear = pos(c, "ClearRenderTarget");
        let cmd = c.remove(clear);
        let set = pos(c, "SetRenderTargets");
        c.insert(set + 1, cmd);
    });
    assert_eq!(rules(&f, &bad), vec!["FS-8"]);
    let good = frame(&f, |c| {
        let set = pos(c, "SetRenderTargets");
        c.insert(
            set,
            Command::SetRenderTargets {
                rtvs: vec![f.rtv0],
                dsv: None,
            },
        );
    });
    assert!(rules(&f, &good).is_empty());
}

#[test]
fn fs10_dynamic_buffer_not_mapped() {
    let f = fixture();
    let bad = frame(&f, |c| {
        c.retain(|c| !matches!(c, Command::Map { .. } | Command::Unmap(_)));
    });
    assert_eq!(rules(&f, &bad), vec!["FS-10"]);
}

#[test]
fn ctx5_first_map_not_write_discard() {
    let f = fixture();
    let bad = frame(&f, |c| {
        let m = pos(c, "Map");
        c[m] = Command::Map {
            resource: f.dynamic,
            mode: MapMode::NoOverwrite,
        };
    });
    // Not write-discard: the contents were not renewed either (FS-10).
    assert_eq!(rules(&f, &bad), vec!["CTX-5", "FS-10"]);
    let good = frame(&f, |c| {
        let m = pos(c, "Unmap");
        c.insert(
            m + 1,
            Command::Map {
                resource: f.dynamic,
                mode: MapMode::NoOverwrite,
            },
        );
        c.insert(m + 2, Command::Unmap(f.dynamic));
    });
    assert!(rules(&f, &good).is_empty());
}

#[test]
fn disabled_validator_reports_nothing() {
    let f = fixture();
    let mut v = Validator::new(false);
    v.observe(
        &f.device,
        QueueId::Graphics,
        0,
        0,
        &frame(&f, |c| c.clear()),
    );
    v.observe(
        &f.device,
        QueueId::Graphics,
        0,
        0,
        &[Command::Draw {
            draws: 1,
            vertices: 0,
            pixels: 0,
        }],
    );
    assert!(v.diagnostics.is_empty());
    let mut v = Validator::new(true);
    v.observe(
        &f.device,
        QueueId::Graphics,
        0,
        0,
        &[Command::Draw {
            draws: 1,
            vertices: 0,
            pixels: 0,
        }],
    );
    assert_eq!(v.counts(), (1, 0));
    assert_eq!(v.by_rule(), vec![("FS-11".to_owned(), 1)]);
    let text = v.diagnostics[0].to_string();
    assert!(text.starts_with("error[V0201] FS-11:"), "{text}");
}

mod aliasing;
mod barrier_api;
mod compression;
mod contexts;
mod copies;
mod fast_context;
mod hazards;
mod lists;
mod pipeline_slots;
mod placed_buffers;
mod placed_textures;
mod releases;
mod subresources;

#[test]
fn eb1_access_in_a_layout_that_does_not_allow_it() {
    let f = fixture();
    // Without the COMMON -> RENDER_TARGET transition, the clear and the draw write a texture
    // in COMMON.
    let bad = frame(&f, |c| {
        c.remove(1);
    });
    let r = rules(&f, &bad);
    assert!(!r.is_empty() && r.iter().all(|r| *r == "EB-1"), "{r:?}");
}

#[test]
fn rl1_present_in_a_layout_other_than_present() {
    let f = fixture();
    let bad = frame(&f, |c| {
        let t = c.len() - 2;
        c.remove(t);
    });
    assert_eq!(rules(&f, &bad), vec!["RL-1"]);
}

#[test]
fn cc8_compute_and_dma_calls_between_suspend_and_resume() {
    let f = fixture();
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    let dma = QueueId::Dma { engine: 0 };
    let run = |order: &[(QueueId, Command)]| {
        let mut v = Validator::new(true);
        for (q, cmd) in order {
            v.observe(&f.device, *q, 0, 0, std::slice::from_ref(cmd));
        }
        v.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
    };
    let locked = run(&[
        (QueueId::Graphics, Command::Suspend),
        (cs, Command::Kickoff),
        (dma, Command::Kickoff),
        (QueueId::Graphics, Command::Resume),
    ]);
    assert_eq!(locked, vec![Code::CallWhileSuspended; 2]);
    // Before Suspend and after Resume the contexts take calls; graphics may be called too.
    let clean = run(&[
        (cs, Command::Kickoff),
        (QueueId::Graphics, Command::Suspend),
        (QueueId::Graphics, Command::Resume),
        (cs, Command::Kickoff),
    ]);
    assert!(clean.is_empty(), "{clean:?}");
}
