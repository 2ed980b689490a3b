//! Context rules: compute contexts (CC-1) and what Resume resets (FS-11).

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
