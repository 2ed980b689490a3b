//! Context rules: compute contexts (CC-1), what Resume resets (FS-11) and when a MinLOD
//! change takes effect (FS-13).

use super::*;

#[test]
fn cc1_dynamic_resource_on_a_compute_queue() {
    let f = fixture();
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    let mut v = Validator::new(true);
    let bind = |b| {
        vec![
            Command::SetPipelineState(1),
            Command::SetConstantBuffers {
                stage: ShaderStage::Compute,
                buffers: vec![b],
            },
            Command::Dispatch {
                dispatches: 1,
                threads: 64,
            },
        ]
    };
    v.observe(&f.device, cs, 0, 0, &bind(f.dynamic));
    assert_eq!(
        v.diagnostics.iter().map(|d| d.rule).collect::<Vec<_>>(),
        vec!["CC-1"]
    );
    // A default buffer on the compute queue is fine.
    let mut d = f.device;
    let plain = d
        .create(
            "plain",
            ObjectDesc::Buffer(Buffer {
                size: 256,
                usage: BufferUsage::Default,
                unordered_access: false,
            }),
        )
        .unwrap();
    let mut v = Validator::new(true);
    v.observe(&d, cs, 0, 0, &bind(plain));
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
}

#[test]
fn fs11_resume_resets_state_like_present() {
    let f = fixture();
    let mut v = Validator::new(true);
    let mut cmds = frame(&f, |c| {
        let present = c.len() - 1;
        c.truncate(present);
    });
    // After a resume nothing is bound: drawing again needs all state set again.
    cmds.extend([
        Command::Resume,
        Command::Draw {
            draws: 1,
            vertices: 3,
            pixels: 1,
        },
    ]);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &cmds);
    assert!(
        v.diagnostics.iter().any(|d| d.rule == "FS-11"),
        "{:?}",
        v.diagnostics
    );
}

/// FS-13: a MinLOD change reaches a bound view only when the view is set again; which call
/// changes a view's MinLOD depends on the context's semantics.
#[test]
fn fs13_min_lod_takes_effect_on_rebind() {
    use crate::model::Semantics;
    let mut f = fixture();
    let t = Texture::new_2d(
        Format::Rgba8Unorm,
        UVec2::new(64, 64),
        TextureFlags::default(),
    );
    let tex = f.device.create("tex", ObjectDesc::Texture(t)).unwrap();
    let srv = (f.device)
        .create(
            "srv",
            ObjectDesc::View {
                of: tex,
                kind: ViewKind::Srv,
                range: crate::barrier::SubresourceRange::ALL,
            },
        )
        .unwrap();
    let bind = Command::SetResources {
        stage: ShaderStage::Compute,
        first_slot: 0,
        views: vec![srv],
        writes: false,
    };
    let found = |device: &Device, change: Command, rebind: bool| {
        let mut cmds = vec![Command::SetPipelineState(2), bind.clone(), change];
        cmds.extend(rebind.then(|| bind.clone()));
        cmds.push(Command::Dispatch {
            dispatches: 1,
            threads: 64,
        });
        let mut v = Validator::new(true);
        v.observe(device, QueueId::Graphics, 0, 0, &cmds);
        (v.diagnostics.iter())
            .filter(|d| d.rule == "FS-13")
            .map(|d| d.code)
            .collect::<Vec<_>>()
    };
    let view = Command::SetShaderResourceViewMinLod { view: srv, lod: 2 };
    let resource = Command::SetResourceMinLod {
        resource: tex,
        lod: 2,
    };
    // Fast: the view's own MinLOD counts, the resource's is ignored once the view exists.
    assert_eq!(
        found(&f.device, view.clone(), false),
        [Code::MinLodNotRebound]
    );
    assert!(found(&f.device, view.clone(), true).is_empty());
    assert!(found(&f.device, resource.clone(), false).is_empty());
    // Legacy: the view defers to its resource's MinLOD, and ignores the view call.
    f.device.set_semantics(Semantics::Legacy);
    assert_eq!(
        found(&f.device, resource.clone(), false),
        [Code::MinLodNotRebound]
    );
    assert!(found(&f.device, resource.clone(), true).is_empty());
    assert!(found(&f.device, view.clone(), false).is_empty());
    // Legacy, but bound by SetFastResources or CSSetPlacementResource: those act as on a
    // fast context, so the view call needs the rebind and the resource call changes nothing.
    let fast = Command::SetFastResources(vec![crate::device::FastSet::Srv {
        stage: ShaderStage::Compute,
        slot: 0,
        views: vec![srv],
    }]);
    let placed = Command::CSSetPlacementResource {
        slot: 0,
        view: srv,
        base: tex,
        offset: 0,
    };
    for eleven_x in [fast, placed] {
        let found = |change: Command, rebind: bool| {
            let mut cmds = vec![Command::SetPipelineState(2), eleven_x.clone(), change];
            cmds.extend(rebind.then(|| eleven_x.clone()));
            cmds.push(Command::Dispatch {
                dispatches: 1,
                threads: 64,
            });
            let mut v = Validator::new(true);
            v.observe(&f.device, QueueId::Graphics, 0, 0, &cmds);
            (v.diagnostics.iter())
                .filter(|d| d.rule == "FS-13")
                .map(|d| d.code)
                .collect::<Vec<_>>()
        };
        assert_eq!(found(view.clone(), false), [Code::MinLodNotRebound]);
        assert!(found(view.clone(), true).is_empty());
        assert!(found(resource.clone(), false).is_empty());
    }
}

/// FS-8 judges the views a draw or dispatch reads: a render target a clear unbound, and a
/// constant buffer a map unbound, are stale for the next draw, which reads both and is found
/// once for each, not for a dispatch before it, which reads neither.
#[test]
fn fs8_a_stale_view_is_found_at_the_work_that_reads_its_slot() {
    let f = fixture();
    let mut draw = 0;
    let cmds = frame(&f, |c| {
        let at = (c.iter().position(|x| matches!(x, Command::Draw { .. }))).expect("a draw");
        let dispatch = Command::Dispatch {
            dispatches: 1,
            threads: 64,
        };
        let map = Command::Map {
            resource: f.dynamic,
            mode: MapMode::WriteDiscard,
        };
        let stale = [Command::ClearRenderTarget(f.rtv0), map];
        c.splice(
            at..at,
            stale
                .into_iter()
                .chain([Command::Unmap(f.dynamic), dispatch]),
        );
        draw = at + 4;
    });
    assert!(matches!(cmds[draw], Command::Draw { .. }));
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &cmds);
    let mut found: Vec<(usize, &str)> = (v.diagnostics.iter())
        .filter(|d| d.code == Code::ViewNotSetAgain)
        .map(|d| (d.command, d.resource.as_str()))
        .collect();
    found.sort();
    assert_eq!(found, [(draw, "constants"), (draw, "rtv")]);
}
