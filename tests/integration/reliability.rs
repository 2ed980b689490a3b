//! No panic on any input (issue 22): releases of what is already released, numbers the
//! simulated clocks cannot hold, output nobody reads, input that never ends, and command-line
//! values the scene format refuses. Each test here failed (a panic, exit code 101, a hang or
//! a clean exit 0) before its fix.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use bevy_ecs::entity::Entity;
use fastframe::Runtime;
use fastframe::model::{Pass, Timeline, TimelineEvent, View, Work};

fn fastframe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A scene file of `text` under the temporary directory, named after the test.
fn scene_file(test: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "fastframe-reliability-{}-{test}.ron",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("temporary scene written");
    path
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A texture with a view, a pass reading it into the back buffer, and `timeline`.
fn with_timeline(timeline: &str) -> String {
    format!(
        r#"Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "t", texture: (format: Rgba8Unorm, extent: (64, 64))),
        (name: "v", view: (of: "t", kind: Srv)),
        (name: "main", pass: (uses: [(target: "swapchain", access: RenderTarget, clear: true)])),
    ],
    timeline: [{timeline}],
)"#
    )
}

#[test]
fn a_second_release_is_a_located_load_error() {
    let twice =
        with_timeline(r#"(frame: 1, event: Release("t")), (frame: 4, event: Release("t"))"#);
    let path = scene_file("twice", &twice);
    let out = fastframe(&["run", path.to_str().unwrap_or_default(), "--frames", "8"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let file = path.display().to_string();
    assert!(
        stderr(&out).contains(&format!("--> {file}:8:75\n")),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("released twice"), "{}", stderr(&out));

    let view = with_timeline(r#"(frame: 1, event: Release("t")), (frame: 4, event: Release("v"))"#);
    let path = scene_file("view", &view);
    let out = fastframe(&["check", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("view \"v\" is already released"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_release_of_a_destroyed_entity_does_nothing_at_run_time() {
    // Past the loader: the timeline of a loaded world releases the texture at frame 1, then
    // its view and the texture again once both are destroyed.
    let text = with_timeline(r#"(frame: 1, event: Release("t"))"#);
    let mut rt = Runtime::from_str(&text, "late.ron").expect("the scene loads");
    let mut views = rt.world.query::<(Entity, &View)>();
    let (view, texture) = (views.iter(&rt.world))
        .map(|(e, v)| (e, v.of))
        .next()
        .expect("the scene has a view");
    let late = [
        TimelineEvent::Release(view),
        TimelineEvent::Release(texture),
    ];
    (rt.world.resource_mut::<Timeline>().events).extend(late.map(|event| (6, event)));
    rt.run(10)
        .expect("releases of destroyed entities are no-ops");
    assert!(
        rt.world.get_entity(texture).is_err(),
        "the texture was destroyed"
    );
    assert!(rt.world.get_entity(view).is_err(), "the view was destroyed");
}

#[test]
fn numbers_the_clocks_cannot_hold_are_located_load_errors() {
    let text = "Scene(\n    settings: (cpu_frame_us: 1e300),\n    entities: [],\n)";
    let path = scene_file("cpu", text);
    let out = fastframe(&["run", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let at = format!("--> {}:2:16\n", path.display());
    assert!(stderr(&out).contains(&at), "{}", stderr(&out));
    assert!(stderr(&out).contains("cpu_frame_us"), "{}", stderr(&out));

    let small =
        include_str!("../data/small.ron").replace("pixels: 921600", "pixels: 1099511627777");
    let path = scene_file("pixels", &small);
    let out = fastframe(&["run", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("pixels must be at most 1099511627776"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn script_amounts_are_bounded_like_pass_work() {
    let text = r#"Scene(
    entities: [(name: "b", buffer: (size: 1024, unordered_access: true))],
    script: (frames: [[(queue: Compute, commands: [
        RawFill(dst: "b", offset: 18446744073709551615, bytes: 4, value: 0),
    ])]]),
)"#;
    let path = scene_file("script", text);
    let out = fastframe(&["check", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let at = format!("--> {}:3:5\n", path.display());
    assert!(stderr(&out).contains(&at), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("]: RawFill: offset must be at most"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_clocks_saturate_in_a_world_built_past_the_loader() {
    let mut rt =
        Runtime::from_str(include_str!("../data/small.ron"), "small.ron").expect("the scene loads");
    let mut passes = rt.world.query::<&mut Pass>();
    for mut pass in passes.iter_mut(&mut rt.world) {
        pass.work = Work::Draw {
            draws: u32::MAX,
            vertices: u64::MAX,
            pixels: u64::MAX,
        };
    }
    rt.settings_mut().cpu_frame_us = 1e300;
    // A hang or deadlock is the device's verdict on such work; a panic is not one.
    let _ = rt.run(4);
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let chain: String = (0..3000)
        .map(|i| {
            format!(
                r#"(name: "p{i}", pass: (uses: [(target: "swapchain", access: RenderTarget)])),"#
            )
        })
        .collect();
    let text = format!(
        r#"Scene(entities: [(name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))), {chain}])"#
    );
    let path = scene_file("pipe", &text);
    let mut child = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(["graph", path.to_str().unwrap_or_default()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("the binary ends");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
}

#[test]
fn a_full_disk_is_exit_code_2_with_a_message() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &["run", "tests/data/small.ron", "--frames", "2", "--json"][..],
        &["check", "tests/data/small.ron", "--json"],
    ] {
        let full = std::fs::File::options().write(true).open("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .args(args)
            .stdout(full.expect("/dev/full opens"))
            .output()
            .expect("the binary runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot write standard output"),
            "{}",
            stderr(&out)
        );
    }
}

/// Runs `fastframe run path` and fails if it takes more than ten seconds.
fn run_bounded(path: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(["run", path])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("`run {path}` still reading after 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn only_regular_files_of_at_most_64_mib_are_read() {
    let out = run_bounded("/dev/zero");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );

    let fifo = std::env::temp_dir().join(format!("fastframe-fifo-{}", std::process::id()));
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let out = run_bounded(fifo.to_str().unwrap_or_default());
        let _ = std::fs::remove_file(&fifo);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
    }

    let big = scene_file("big", "");
    let file = std::fs::File::options().write(true).open(&big);
    let mut file = file.expect("the scene file opens");
    file.set_len((64 << 20) + 1).expect("a sparse file");
    file.flush().expect("flushed");
    let out = run_bounded(big.to_str().unwrap_or_default());
    let _ = std::fs::remove_file(&big);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("larger than 64 MiB"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn overrides_the_scene_format_refuses_are_usage_errors() {
    for n in ["0", "9", "100"] {
        let out = fastframe(&["run", "tests/data/small.ron", "--frames-in-flight", n]);
        assert_eq!(out.status.code(), Some(2), "{n}: {}", stderr(&out));
        assert!(stderr(&out).contains("1..=8"), "{}", stderr(&out));
    }
    let out = fastframe(&[
        "run",
        "tests/data/small.ron",
        "--fault",
        "drop-barrier=mian",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did you mean \"main\""),
        "{}",
        stderr(&out)
    );
    let out = fastframe(&[
        "check",
        "tests/data/small.ron",
        "--fault",
        "drop-barrier=main",
    ]);
    assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));

    let text = include_str!("../data/small.ron").replace(
        "Scene(\n",
        "Scene(\n    settings: (fault: \"drop-barier\"),\n",
    );
    let path = scene_file("fault", &text);
    let out = fastframe(&["run", path.to_str().unwrap_or_default()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("did you mean `drop-barrier`"),
        "{}",
        stderr(&out)
    );
}
