//! Command lists on the immediate context (CTX-3, CTX-4), state around them (FS-12), the
//! 16-bit strip reset index (FS-14) and reading query data (CTX-6).

use super::*;
use crate::model::Semantics;

fn codes(v: &Validator) -> Vec<Code> {
    v.diagnostics.iter().map(|d| d.code).collect()
}

fn run(device: &Device, cmds: &[Command]) -> Vec<Code> {
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
    assert_eq!(run(&f.device, &bad), vec![Code::TwoPlaybacks]);
}

#[test]
fn ctx3_end_without_a_scope_open() {
    let f = fixture();
    let one = || list(Semantics::Fast, vec![Command::SetPipelineState(1)]);
    // The Begin forgotten: the list is a playback of its own, the End closes nothing.
    let bad = vec![one(), Command::EndCommandListExecution];
    assert_eq!(run(&f.device, &bad), vec![Code::EndWithoutScope]);
    // One End too many: the first closes the scope, the second nothing.
    let twice = vec![
        Command::BeginCommandListExecution,
        one(),
        Command::EndCommandListExecution,
        Command::EndCommandListExecution,
    ];
    assert_eq!(run(&f.device, &twice), vec![Code::EndWithoutScope]);
    let good = vec![
        Command::BeginCommandListExecution,
        one(),
        Command::EndCommandListExecution,
    ];
    assert!(run(&f.device, &good).is_empty());
    // The message says what to do.
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &bad);
    assert!(
        v.diagnostics[0]
            .message
            .contains("BeginCommandListExecution"),
        "{}",
        v.diagnostics[0]
    );
}

#[test]
fn ctx3_end_without_a_scope_open_on_that_queue() {
    let f = fixture();
    // A scope is per queue: one open on another queue is not closed by this End.
    let mut v = Validator::new(true);
    v.observe(
        &f.device,
        QueueId::Graphics,
        0,
        0,
        &[Command::BeginCommandListExecution],
    );
    v.observe(
        &f.device,
        QueueId::Compute { pipe: 0, index: 0 },
        0,
        0,
        &[Command::EndCommandListExecution],
    );
    assert_eq!(codes(&v), vec![Code::EndWithoutScope]);
}

#[test]
fn ctx3_scope_still_open_at_present() {
    let f = fixture();
    let one = || list(Semantics::Fast, vec![Command::SetPipelineState(1)]);
    let bad = with_before_draw(&f, vec![Command::BeginCommandListExecution, one()]);
    assert_eq!(run(&f.device, &bad), vec![Code::ScopeOpenAtPresent]);
    let good = with_before_draw(
        &f,
        vec![
            Command::BeginCommandListExecution,
            one(),
            Command::EndCommandListExecution,
        ],
    );
    assert!(run(&f.device, &good).is_empty());
    // The scope may span submissions within the frame: it ends before Present.
    let mut v = Validator::new(true);
    let split = pos(&good, "EndCommandListExecution");
    v.observe(&f.device, QueueId::Graphics, 0, 0, &good[..split]);
    v.observe(&f.device, QueueId::Graphics, 0, 1, &good[split..]);
    assert!(codes(&v).is_empty(), "{:?}", codes(&v));
    // Present closes the scope it reports: the next frame is judged on its own, one V0907
    // per frame and no V0901 for the next frame's Begin.
    let mut v = Validator::new(true);
    for frame in 0..3 {
        v.observe(&f.device, QueueId::Graphics, frame, 0, &bad);
    }
    assert_eq!(codes(&v), vec![Code::ScopeOpenAtPresent; 3]);
    let d = &v.diagnostics[0];
    assert_eq!(d.command, pos(&bad, "Present"));
    assert!(d.message.contains("EndCommandListExecution"), "{d}");
    // A frame that never presents does not end: its scope carries on into the next frame.
    let mut v = Validator::new(true);
    let no_present = &bad[..pos(&bad, "Present")];
    v.observe(&f.device, QueueId::Graphics, 0, 0, no_present);
    v.observe(&f.device, QueueId::Graphics, 1, 0, &good);
    assert_eq!(codes(&v), vec![Code::TwoPlaybacks]);
}

#[test]
fn ctx3_a_second_begin_is_one_finding() {
    let f = fixture();
    let one = || list(Semantics::Fast, vec![Command::SetPipelineState(1)]);
    // Nested: the outer scope's End closes nothing but is owed to the reported Begin.
    let nested = with_before_draw(
        &f,
        vec![
            Command::BeginCommandListExecution,
            one(),
            Command::BeginCommandListExecution,
            one(),
            Command::EndCommandListExecution,
            Command::EndCommandListExecution,
        ],
    );
    assert_eq!(run(&f.device, &nested), vec![Code::TwoPlaybacks]);
    // The first End forgotten: the second scope's End closes it, nothing open at Present.
    let forgotten = with_before_draw(
        &f,
        vec![
            Command::BeginCommandListExecution,
            one(),
            Command::BeginCommandListExecution,
            one(),
            Command::EndCommandListExecution,
        ],
    );
    assert_eq!(run(&f.device, &forgotten), vec![Code::TwoPlaybacks]);
    // An End owed in one frame excuses nothing in the next.
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &forgotten);
    let stray = with_before_draw(&f, vec![one(), Command::EndCommandListExecution]);
    v.observe(&f.device, QueueId::Graphics, 1, 0, &stray);
    assert_eq!(codes(&v), vec![Code::TwoPlaybacks, Code::EndWithoutScope]);
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
    assert_eq!(run(&f.device, &bad), vec![Code::MixedListsInScope]);
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
    assert_eq!(run(&f.device, &bad), vec![Code::StateChangedByFastList]);
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
    assert_eq!(
        run(&f.device, &inside(Semantics::Legacy)),
        vec![Code::StateNotSet]
    );
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
        vec![Code::StripWithoutResetIndex]
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
    assert_eq!(
        codes(&v),
        vec![
            Code::QueryReadOnDeferred,
            Code::QueryReadBeforePlayback,
            Code::QueryReadBeforeProcessed
        ]
    );
}
