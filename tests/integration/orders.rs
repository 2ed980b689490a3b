//! Pass orders (issue 19, `order` setting): every order plans frames that validate clean under
//! every barrier strategy, `fewer_barriers` halves the cross-queue waits of a layered graph,
//! `overlap` is never slower than declaration order, and the summary names the order.

use fastframe::Runtime;
use fastframe::generator::{GenSpec, Shape, generate};
use fastframe::model::{BarrierMode, Order};

fn runtime(shape: Shape, passes: usize, order: Order) -> Runtime {
    let spec = GenSpec {
        shape,
        passes,
        seed: 1,
        compute: shape.default_compute().max(0.2),
        transient: 0.3,
        mixed_sizes: false,
    };
    let text = fastframe::scene::to_ron(&generate(&spec));
    let mut rt = Runtime::from_str(&text, "generated.ron").expect("a generated scene loads");
    rt.settings_mut().order = order;
    rt
}

#[test]
fn every_order_validates_clean_on_every_shape() {
    let runs = [
        (BarrierMode::Enhanced, true),
        (BarrierMode::Conservative, true),
        (BarrierMode::Legacy, false),
    ];
    for (shape, name) in Shape::ALL {
        for order in [Order::FewerBarriers, Order::Overlap] {
            for (barriers, async_compute) in runs {
                let mut rt = runtime(shape, 120, order);
                rt.set_validation(true);
                rt.settings_mut().barriers = barriers;
                rt.settings_mut().async_compute = async_compute;
                rt.run(6).expect("runs");
                let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
                assert!(
                    found.is_empty(),
                    "{name}, {order:?}, {barriers:?}, async {async_compute}: {found:#?}"
                );
            }
        }
    }
}

/// Fence waits per frame and simulated frame time (mean, us) of a layered graph.
fn layered(order: Order) -> (u64, f64) {
    frame(runtime(Shape::Layered, 1000, order))
}

/// Fence waits per frame and simulated frame time (mean, us) of 4 frames of `rt`.
fn frame(mut rt: Runtime) -> (u64, f64) {
    rt.run(4).expect("runs");
    let s = rt.summary();
    (
        s.stats.fence_waits / s.stats.frames,
        s.gpu_frames().work_us.mean,
    )
}

#[test]
fn fewer_barriers_halves_the_waits_and_overlap_is_not_slower() {
    let (declared, declared_us) = layered(Order::Declaration);
    let (fewer, _) = layered(Order::FewerBarriers);
    let (overlap, overlap_us) = layered(Order::Overlap);
    assert!(
        declared > 100,
        "the layered graph crosses queues ({declared})"
    );
    assert!(
        fewer * 2 <= declared,
        "fewer-barriers: {fewer} waits a frame, declaration {declared}"
    );
    assert!(
        overlap_us <= declared_us,
        "overlap {overlap_us} us, declaration {declared_us} us ({overlap} waits)"
    );
}

/// `overlap` plans on estimated pass costs: on the real frame whose scene declares its costs
/// it starts Lumen's async scene lighting beside Nanite's rasterisation, and the frame is
/// shorter; on generated layered graphs of other seeds and sizes it is shorter too.
#[test]
fn overlap_shortens_a_real_frame_and_layered_graphs() {
    let path = "scenes/real/ue5_nanite_lumen.ron";
    let text = std::fs::read_to_string(path).expect("the real frame is bundled");
    let real = |order| {
        let mut rt = Runtime::from_str(&text, path).expect("loads");
        rt.settings_mut().order = order;
        frame(rt)
    };
    let ((_, declared), (_, overlap)) = (real(Order::Declaration), real(Order::Overlap));
    assert!(
        overlap < declared * 0.98,
        "overlap {overlap} us, declaration {declared} us"
    );
    for (passes, seed) in [(300, 4), (1000, 2)] {
        let at = |order| {
            let spec = GenSpec {
                shape: Shape::Layered,
                passes,
                seed,
                compute: Shape::Layered.default_compute(),
                transient: 0.0,
                mixed_sizes: false,
            };
            let text = fastframe::scene::to_ron(&generate(&spec));
            let mut rt = Runtime::from_str(&text, "generated.ron").expect("loads");
            rt.settings_mut().order = order;
            frame(rt).1
        };
        let (declared, overlap) = (at(Order::Declaration), at(Order::Overlap));
        assert!(
            overlap < declared,
            "{passes} passes, seed {seed}: {overlap} against {declared}"
        );
    }
}

/// `--order` on the command line reaches the run, and the summary names it; a misspelt
/// order is refused.
#[test]
fn the_command_line_picks_the_order_and_the_summary_names_it() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args(args)
            .output()
            .expect("the binary runs")
    };
    let out = run(&[
        "run",
        "scenes/gpu_driven.ron",
        "--frames",
        "3",
        "--json",
        "--order",
        "fewer-barriers",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["settings"]["order"], "fewer-barriers");
    let out = run(&["run", "scenes/gpu_driven.ron", "--frames", "3"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("order declaration"), "{table}");
    let out = run(&["check", "scenes/gpu_driven.ron", "--order", "sideways"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `compare --order` runs a configuration per order and labels each row with it, so what an
/// order saves reads off one table.
#[test]
fn compare_shows_a_row_per_order() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args([
            "compare",
            "scenes/gpu_driven.ron",
            "--barriers",
            "enhanced",
            "--order",
            "declaration,fewer-barriers,overlap",
            "--frames",
            "3",
        ])
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    for order in ["declaration", "fewer-barriers", "overlap"] {
        let row = table
            .lines()
            .find(|l| l.contains(&format!("async on, {order} ")));
        assert!(row.is_some(), "no {order} row:\n{table}");
    }
}
