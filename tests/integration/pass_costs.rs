//! What a pass costs and which compute queue it runs on (issue 16): a pass's `cost` changes
//! its simulated time the way its numbers say, and compute passes spread over several
//! asynchronous queues run clean under validation and overlap where one in-order queue
//! would serialise them (CC-2, FS-1).

use fastframe::Runtime;
use fastframe::device::QueueId;
use fastframe::model::BarrierMode;

/// A scene of one graphics dispatch writing a buffer, with `cost` spliced into the pass.
fn one_pass(cost: &str) -> String {
    format!(
        r#"Scene(entities: [
            (name: "out", buffer: (size: 4096, unordered_access: true)),
            (name: "work", pass: (uses: [(target: "out", access: UnorderedAccess)],
                                  work: Dispatch(threads: 2073600), {cost})),
        ])"#
    )
}

/// The mean `gpu.frame_work_us` of `frames` frames of `text`.
fn frame_work_us(text: &str, frames: u64, configure: impl Fn(&mut Runtime)) -> f64 {
    let mut rt = Runtime::from_str(text, "cost.ron").expect("scene loads");
    configure(&mut rt);
    rt.run(frames).expect("runs");
    rt.summary().gpu_frames().work_us.mean
}

#[test]
fn a_pass_cost_sets_what_its_work_takes() {
    let fixed = frame_work_us(&one_pass(""), 4, |_| {});
    // Ten times the profile's 128 lane-cycles a thread: about ten times the shading.
    let heavy = frame_work_us(&one_pass("cost: (cycles: 1280)"), 4, |_| {});
    assert!(
        heavy > fixed * 8.0 && heavy < fixed * 11.0,
        "{fixed} {heavy}"
    );
    // A measured 1.5 ms is what the pass takes (plus the frame's barriers and fences).
    let timed = frame_work_us(&one_pass("cost: (time_us: 1500.0)"), 4, |_| {});
    assert!((1500.0..1530.0).contains(&timed), "{timed}");
    // 560 MB read at 560 GB/s is a millisecond however many CUs the pass gets.
    let bound = frame_work_us(&one_pass("cost: (read_bytes: 560000000)"), 4, |_| {});
    assert!((1000.0..1030.0).contains(&bound), "{bound}");
}

/// Two independent async passes and the graphics pass that reads both.
fn two_async(queues: [&str; 2]) -> String {
    format!(
        r#"Scene(
        settings: (compute_cu_limit: 52),
        entities: [
            (name: "a", buffer: (size: 4096, unordered_access: true), lifetime: Transient),
            (name: "b", buffer: (size: 4096, unordered_access: true), lifetime: Transient),
            (name: "out", buffer: (size: 4096, unordered_access: true)),
            (name: "fill_a", pass: (queue: Compute, uses: [(target: "a", access: UnorderedAccess)],
                work: Dispatch(threads: 65536), cost: (time_us: 400.0), {})),
            (name: "fill_b", pass: (queue: Compute, uses: [(target: "b", access: UnorderedAccess)],
                work: Dispatch(threads: 65536), cost: (time_us: 400.0), {})),
            (name: "join", pass: (uses: [(target: "a", access: ShaderRead), (target: "b", access: ShaderRead),
                (target: "out", access: UnorderedAccess)], work: Dispatch(threads: 64))),
        ])"#,
        queues[0], queues[1]
    )
}

#[test]
fn passes_on_two_compute_queues_run_clean_and_overlap() {
    let spread = two_async([
        "compute_queue: (pipe: 0, index: 0)",
        "compute_queue: (pipe: 1, index: 0)",
    ]);
    for barriers in [
        BarrierMode::Enhanced,
        BarrierMode::Legacy,
        BarrierMode::Conservative,
    ] {
        let mut rt = Runtime::from_str(&spread, "queues.ron").expect("scene loads");
        rt.set_validation(true);
        rt.settings_mut().barriers = barriers;
        rt.run(8).expect("runs");
        let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
        assert!(found.is_empty(), "{barriers:?}: {}", found.join("\n"));
        let queues: Vec<QueueId> = rt.graph().passes.iter().map(|p| p.queue).collect();
        assert!(
            queues.contains(&QueueId::Compute { pipe: 0, index: 0 }),
            "{queues:?}"
        );
        assert!(
            queues.contains(&QueueId::Compute { pipe: 1, index: 0 }),
            "{queues:?}"
        );
    }
    // On one in-order queue the two fills run one after the other; on two they overlap.
    let one = frame_work_us(&two_async(["", ""]), 6, |_| {});
    let two = frame_work_us(&spread, 6, |_| {});
    assert!(one > 800.0, "{one}");
    assert!(two < 500.0, "{one} {two}");
}
