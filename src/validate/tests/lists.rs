//! Command lists on the immediate context (CTX-3, CTX-4), state around them (FS-12), the
//! 16-bit strip reset index (FS-14) and reading query data (CTX-6).

use super::*;
use crate::model::Semantics;

fn codes(v: &Validator) -> Vec<&'static str> {
    v.diagnostics.iter().map(|d| d.code).collect()
}

fn run(device: &Device, cmds: &[Command]) -> Vec<&'static str> {
    let mut v = Validator::new(true);
    v.observe(device, QueueId::Graphics, 0, 0, cmds);
    codes(&v)
}

fn list(semantics: Semantics, commands: Vec<Command>) -> Command {
    Command::ExecuteCommandList {
        label: 0,
        semantics,
        commands,
    }
}

fn viewport(w: u32) -> Command {
    Command::SetViewport {
        width: w,
        height: w,
    }
}

fn draw() -> Command {
    Command::Draw {
        draws: 1,
        vertices: 3,
        pixels: 64,
    }
}

/// The seed frame with `middle` inserted before its draw (state is all set by then).
fn with_before_draw(f: &Fixture, middle: Vec<Command>) -> Vec<Command> {
    frame(f, |c| {
        let d = pos(c, "Draw");
        for (k, m) in middle.into_iter().enumerate() {
            c.insert(d + k, m);
        }
    })
}

#[test]
fn ctx3_two_playbacks_at_once() {
    let f = fixture();
    let fast = |s| list(s, vec![Command::SetPipelineState(1)]);
    let good = vec![
        Command::BeginCommandListExecution,
        fast(Semantics::Fast),
        fast(Semantics::Fast),
        Command::EndCommandListExecution,
        Command::BeginCommandListExecution,
        fast(Semantics::Fast),
        Command::EndCommandListExecution,
    ];
    assert!(run(&f.device, &good).is_empty());
    let bad = vec![
        Command::BeginCommandListExecution,
        fast(Semantics::Fast),
        Command::BeginCommandListExecution,
        fast(Semantics::Fast),
        Command::EndCommandListExecution,
    ];
    assert_eq!(run(&f.device, &bad), vec!["V0901"]);
}

#[test]
fn ctx4_fast_and_legacy_lists_in_one_scope() {
    let f = fixture();
    let one = |s| list(s, vec![Command::SetPipelineState(1)]);
    let bad = vec![
        Command::BeginCommandListExecution,
        one(Semantics::Fast),
        one(Semantics::Legacy),
        Command::EndCommandListExecution,
    ];
    assert_eq!(run(&f.device, &bad), vec!["V0902"]);
    // Each kind in its own scope, or outside any scope, is fine.
    let good = vec![
        Command::BeginCommandListExecution,
        one(Semantics::Fast),
        Command::EndCommandListExecution,
        Command::BeginCommandListExecution,
        one(Semantics::Legacy),
        Command::EndCommandListExecution,
        one(Semantics::Fast),
        one(Semantics::Legacy),
    ];
    assert!(run(&f.device, &good).is_empty());
}

#[test]
fn fs12_state_a_fast_list_changed_is_not_restored() {
    let f = fixture();
    let bad = with_before_draw(&f, vec![list(Semantics::Fast, vec![viewport(32)])]);
    assert_eq!(run(&f.device, &bad), vec!["V0206"]);
    // Setting it again after the list fixes it.
    let good = with_before_draw(
        &f,
        vec![list(Semantics::Fast, vec![viewport(32)]), viewport(64)],
    );
    assert!(run(&f.device, &good).is_empty());
    // So does a list that leaves the same value, or a legacy list (restored).
    let same = with_before_draw(&f, vec![list(Semantics::Fast, vec![viewport(64)])]);
    assert!(run(&f.device, &same).is_empty());
    let legacy = with_before_draw(&f, vec![list(Semantics::Legacy, vec![viewport(32)])]);
    assert!(run(&f.device, &legacy).is_empty());
}

#[test]
fn a_legacy_list_starts_cleared_and_a_fast_one_inherits() {
    let f = fixture();
    // State set before the list: a fast list may draw with it, a legacy one starts cleared.
    let inside = |s| with_before_draw(&f, vec![list(s, vec![draw()])]);
    assert!(run(&f.device, &inside(Semantics::Fast)).is_empty());
    assert_eq!(run(&f.device, &inside(Semantics::Legacy)), vec!["V0201"]);
}

#[test]
fn fs14_16_bit_strip_without_reset_index_0xffff() {
    let mut f = fixture();
    let ib = f
        .device
        .create(
            "ib",
            ObjectDesc::Buffer(Buffer {
                size: 1024,
                usage: BufferUsage::Default,
                unordered_access: false,
            }),
        )
        .unwrap();
    let strip = |reset: Option<u32>, format| {
        let mut m = vec![
            Command::SetIndexBuffer(ib),
            Command::SetIndexFormat(format),
            Command::SetPrimitiveTopology(Topology::TriangleStrip),
        ];
        m.extend(reset.map(Command::SetPrimitiveResetIndex));
        with_before_draw(&f, m)
    };
    assert_eq!(
        run(&f.device, &strip(None, IndexFormat::R16Uint)),
        vec!["V0207"]
    );
    assert!(run(&f.device, &strip(Some(0xFFFF), IndexFormat::R16Uint)).is_empty());
    assert!(run(&f.device, &strip(None, IndexFormat::R32Uint)).is_empty());
    // A list recorded on a legacy deferred context is judged by its own semantics.
    let in_list = with_before_draw(
        &f,
        vec![list(
            Semantics::Legacy,
            vec![
                Command::SetRenderTargets {
                    rtvs: vec![f.rtv0],
                    dsv: None,
                },
                viewport(64),
                Command::SetPipelineState(1),
                Command::SetIndexBuffer(ib),
                Command::SetIndexFormat(IndexFormat::R16Uint),
                Command::SetPrimitiveTopology(Topology::TriangleStrip),
                draw(),
                Command::GetState,
            ],
        )],
    );
    assert!(run(&f.device, &in_list).is_empty());
    // Legacy contexts match 0xFFFF for 16-bit indices by themselves.
    let legacy = strip(None, IndexFormat::R16Uint);
    f.device.set_semantics(Semantics::Legacy);
    assert!(run(&f.device, &legacy).is_empty());
}

#[test]
fn ctx6_query_data_read_too_early_or_on_a_deferred_context() {
    let f = fixture();
    let mut v = Validator::new(true);
    v.observe_query_read(&f.device, 7, "occlusion", 0, 0, 0, true);
    v.observe_query_read(&f.device, 7, "occlusion", 0, 0, 0, false);
    let ended = [
        Command::BeginQuery(7),
        Command::EndQuery(7),
        Command::InsertFence {
            fence: FenceId::new(QueueId::Graphics, 1),
            kickoff: true,
        },
    ];
    v.observe(&f.device, QueueId::Graphics, 0, 0, &ended);
    // The fence was never submitted to the device: it has not passed.
    v.observe_query_read(&f.device, 7, "occlusion", 0, 0, 0, false);
    assert_eq!(codes(&v), vec!["V0903", "V0904", "V0905"]);
}
