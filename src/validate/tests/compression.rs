//! FS-4: what a compressed surface may not do before it is decompressed (Present, reads and
//! copies on a fast context), and what counts as its decompression.

use super::*;

#[test]
fn fs4_present_without_decompress() {
    let f = fixture();
    // Neither Decompress nor the barrier into PRESENT: presented compressed, and in the
    // wrong layout.
    let bad = frame(&f, |c| {
        c.remove(pos(c, "Decompress"));
        let last = c.iter().rposition(|c| c.name() == "Barrier").unwrap();
        c.remove(last);
    });
    let mut found = rules(&f, &bad);
    found.sort();
    assert_eq!(found, vec!["FS-4", "RL-1"]);
    // The barrier into PRESENT keeps no compression: it is the decompression, as the device
    // counts it, whatever the API.
    let by_barrier = frame(&f, |c| {
        c.remove(pos(c, "Decompress"));
    });
    assert!(rules(&f, &by_barrier).is_empty());
    // Drawing again after the barrier's decompression compresses the surface again.
    let drawn_again = frame(&f, |c| {
        let at = pos(c, "Present");
        c.insert(
            at,
            Command::SetRenderTargets {
                rtvs: vec![f.rtv0],
                dsv: None,
            },
        );
        c.insert(
            at + 1,
            Command::Draw {
                draws: 1,
                vertices: 3,
                pixels: 64,
            },
        );
    });
    assert!(rules(&f, &drawn_again).contains(&"FS-4"));
}

/// A render target drawn to, then read or copied by `read` with no barrier out of
/// RENDER_TARGET: the codes found, under `api` on a context of `semantics`.
fn read_after_render(
    read: impl Fn(ObjectKey, ObjectKey) -> Vec<Command>,
    api: crate::model::Api,
    semantics: crate::model::Semantics,
    decompress: Option<bool>,
) -> Vec<Code> {
    use crate::barrier::Layout;
    let mut f = fixture();
    f.device.set_api(api);
    f.device.set_semantics(semantics);
    let flags = TextureFlags {
        render_target: true,
        ..Default::default()
    };
    let t = Texture::new_2d(Format::Rgba8Unorm, UVec2::new(64, 64), flags);
    let rt = f
        .device
        .create("reflection", ObjectDesc::Texture(t))
        .unwrap();
    let rtv = (f.device)
        .create("reflection_rtv", view(rt, ViewKind::Rtv))
        .unwrap();
    let plain = Texture::new_2d(Format::Rgba8Unorm, UVec2::new(64, 64), Default::default());
    let dst = f.device.create("copy", ObjectDesc::Texture(plain)).unwrap();
    let mut cmds = vec![
        transition(rt, Layout::Common, Layout::RenderTarget),
        Command::ClearRenderTarget(rtv),
        Command::SetRenderTargets {
            rtvs: vec![rtv],
            dsv: None,
        },
        Command::SetViewport {
            width: 64,
            height: 64,
        },
        Command::SetPipelineState(1),
        Command::Draw {
            draws: 1,
            vertices: 3,
            pixels: 4096,
        },
    ];
    // `Decompress` propagates the fast clear; DecompressResource does only with its flag.
    match decompress {
        Some(true) => cmds.push(Command::Decompress(rt)),
        Some(false) => cmds.push(Command::DecompressResource {
            resource: rt,
            propagate_color_clear: false,
        }),
        None => {}
    }
    cmds.extend(read(rt, dst));
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &cmds);
    v.diagnostics.iter().map(|d| d.code).collect()
}

fn view(of: ObjectKey, kind: ViewKind) -> ObjectDesc {
    ObjectDesc::View {
        of,
        kind,
        range: crate::barrier::SubresourceRange::ALL,
    }
}

#[test]
fn fs4_reads_and_copies_of_a_compressed_surface_on_a_fast_context() {
    use crate::model::{Api, Semantics};
    let copy = |src, dst| {
        vec![Command::CopyResource {
            src,
            dst,
            bytes: 16_384,
        }]
    };
    // A copy straight out of RENDER_TARGET reads the surface compressed (FS-4).
    let found = read_after_render(copy, Api::D3d11x, Semantics::Fast, None);
    assert!(found.contains(&Code::ReadCompressed), "{found:?}");
    assert!(!found.contains(&Code::LayoutDisallowsAccess), "{found:?}");
    // Decompressed first, it is only in the wrong layout (EB-1).
    let found = read_after_render(copy, Api::D3d11x, Semantics::Fast, Some(true));
    assert!(!found.contains(&Code::ReadCompressed), "{found:?}");
    assert!(found.contains(&Code::LayoutDisallowsAccess), "{found:?}");
    // A legacy context decompresses what it reads by itself, and D3D12 binds nothing for
    // reading in RENDER_TARGET: there it is the layout mistake alone.
    for (api, semantics) in [
        (Api::D3d11x, Semantics::Legacy),
        (Api::D3d12x, Semantics::Fast),
    ] {
        let found = read_after_render(copy, api, semantics, None);
        assert!(
            !found.contains(&Code::ReadCompressed),
            "{api:?} {semantics:?}: {found:?}"
        );
        assert!(found.contains(&Code::LayoutDisallowsAccess), "{found:?}");
    }
}

#[test]
fn fs4_a_fast_clear_stays_until_a_decompression_propagates_it() {
    use crate::model::{Api, Semantics};
    let copy = |src, dst| {
        vec![Command::CopyResource {
            src,
            dst,
            bytes: 16_384,
        }]
    };
    // The surface was fast-cleared: a DecompressResource without PROPAGATE_COLOR_CLEAR
    // leaves the cleared blocks to the metadata, so the copy still reads it compressed.
    let found = read_after_render(copy, Api::D3d11x, Semantics::Fast, Some(false));
    assert!(found.contains(&Code::ReadCompressed), "{found:?}");
    // Presented so: V0401, naming the flag.
    let f = fixture();
    let no_flag = frame(&f, |cmds| {
        let at = pos(cmds, "Decompress");
        cmds[at] = Command::DecompressResource {
            resource: f.buffers[0],
            propagate_color_clear: false,
        };
        cmds.remove(at + 1); // no barrier to PRESENT, which would eliminate the clear
    });
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &no_flag);
    let present = (v.diagnostics.iter()).find(|d| d.code == Code::PresentCompressed);
    assert!(
        present.is_some_and(|d| d.message.contains("PROPAGATE_COLOR_CLEAR")),
        "{:?}",
        v.diagnostics
    );
    // With the flag, only the layout is wrong (RL-1).
    let with_flag = frame(&f, |cmds| {
        let at = pos(cmds, "Decompress");
        cmds[at] = Command::DecompressResource {
            resource: f.buffers[0],
            propagate_color_clear: true,
        };
        cmds.remove(at + 1);
    });
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &with_flag);
    let codes: Vec<Code> = v.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::PresentInWrongLayout]);
}
