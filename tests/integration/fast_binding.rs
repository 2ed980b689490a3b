//! Fast resource binding (RB-1, RB-2) on the simulated device and in the recorder: what a
//! call costs the front end by its size, and what batches save a frame against per-slot
//! binding. The validator's findings are the mistake scenes' (`scripts.rs`).

use fastframe::device::*;
use fastframe::model::{Buffer, BufferUsage};

fn buffers(device: &mut Device, n: usize) -> Vec<ObjectKey> {
    (0..n)
        .map(|i| {
            let desc = ObjectDesc::Buffer(Buffer {
                size: 256,
                usage: BufferUsage::Default,
                unordered_access: false,
            });
            device.create(&format!("cb{i}"), desc).unwrap()
        })
        .collect()
}

/// How long the front end spent on the one command named `name` of `commands`.
fn front_time(commands: impl Fn(&[ObjectKey]) -> Command, name: &str) -> u64 {
    let mut d = Device::default();
    let keys = buffers(&mut d, 8);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [commands(&keys), Command::Kickoff],
        0,
    )
    .unwrap();
    d.run_until_idle();
    let x = d.drain_executed();
    let r = x.iter().find(|x| x.name == name).expect("the command ran");
    r.end_ns - r.start_ns
}

fn fast(n: usize) -> impl Fn(&[ObjectKey]) -> Command {
    move |keys| {
        Command::SetFastResources(vec![FastSet::ConstantBuffers {
            stage: ShaderStage::Vertex,
            slot: 0,
            buffers: keys[..n].to_vec(),
        }])
    }
}

#[test]
fn the_front_end_takes_longer_over_a_larger_call() {
    let one = front_time(fast(1), "SetFastResources");
    let eight = front_time(fast(8), "SetFastResources");
    // Seven more buffer descriptors of four dwords, a nanosecond each; one packet header.
    assert_eq!(eight - one, 7 * 4, "{one} {eight}");
    // Per-slot binding of the same eight: a packet, and a header, per slot (RB-1).
    let legacy = front_time(
        |keys| Command::SetConstantBuffers {
            stage: ShaderStage::Vertex,
            buffers: keys.to_vec(),
        },
        "SetConstantBuffers",
    );
    assert!(legacy > eight, "per-slot {legacy} ns, fast {eight} ns");
    // A batch of the same tokens costs the front end what the call does: it is copied inline.
    let batch = front_time(
        |keys| {
            let Command::SetFastResources(sets) = fast(8)(keys) else {
                unreachable!()
            };
            Command::SetFastResourcesFromBatch(std::sync::Arc::new(FastBatch { sets }))
        },
        "SetFastResourcesFromBatch",
    );
    assert_eq!(batch, eight);
}

#[test]
fn a_batch_naming_a_destroyed_buffer_is_refused_by_the_device() {
    let mut d = Device::default();
    let keys = buffers(&mut d, 1);
    let batch = std::sync::Arc::new(FastBatch {
        sets: vec![FastSet::VertexBuffersWithOffset {
            slot: 0,
            buffers: keys.clone(),
        }],
    });
    d.destroy(keys[0], 0).unwrap();
    let used = d.submit(
        QueueId::Graphics,
        0,
        0,
        [Command::SetFastResourcesFromBatch(batch)],
        0,
    );
    assert!(used.is_err(), "{used:?}");
}

/// Run `scenes/deferred.ron` for `frames` with `binding` on `threads` recording threads,
/// validated; its statistics.
fn deferred(
    binding: fastframe::model::BindingMode,
    threads: u32,
    frames: u64,
) -> fastframe::report::RunStats {
    deferred_built(binding, threads, frames, false)
}

/// [`deferred`], in a build that defines `D3DCOMPILE_NO_DEBUG` (`no_debug`) or not.
fn deferred_built(
    binding: fastframe::model::BindingMode,
    threads: u32,
    frames: u64,
    no_debug: bool,
) -> fastframe::report::RunStats {
    let mut rt = fastframe::Runtime::from_scene(std::path::Path::new("scenes/deferred.ron"))
        .expect("bundled scene");
    rt.set_validation(true);
    rt.settings_mut().binding = binding;
    rt.settings_mut().record_threads = threads;
    rt.settings_mut().d3dcompile_no_debug = no_debug;
    rt.world
        .resource_mut::<fastframe::report::RunStats>()
        .keep_timeline = true;
    rt.run(frames).expect("runs");
    let errors: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    assert!(errors.is_empty(), "{binding:?}: {errors:?}");
    rt.summary().stats.clone()
}

#[test]
fn batches_save_dwords_front_end_time_and_cpu_against_per_slot_binding() {
    use fastframe::model::BindingMode as B;
    let frames = 20;
    let (batches, calls, slots) = (
        deferred(B::Batches, 4, frames),
        deferred(B::Calls, 4, frames),
        deferred(B::PerSlot, 4, frames),
    );
    let named = |s: &fastframe::report::RunStats, name: &str| {
        s.timeline.iter().filter(|x| x.name == name).count() as u64
    };
    // Each mode binds with its own commands only.
    assert_eq!(
        named(&batches, "SetFastResourcesFromBatch"),
        batches.binding.calls
    );
    assert_eq!(named(&calls, "SetFastResources"), calls.binding.calls);
    assert_eq!(named(&slots, "SetFastResources"), 0);
    assert!(named(&slots, "SetResources") > 0);
    // A batch is the call it was built from, copied: the same dwords and front-end time.
    assert!(batches.binding.calls > 0);
    assert_eq!(batches.binding.calls, calls.binding.calls);
    assert_eq!(batches.binding.dwords, calls.binding.dwords);
    assert_eq!(batches.binding_front_ns, calls.binding_front_ns);
    // Consecutive slots share a header; a per-slot packet each costs the front end more.
    assert!(slots.binding.calls >= calls.binding.calls);
    assert!(slots.binding.dwords > calls.binding.dwords);
    assert!(slots.binding_front_ns > calls.binding_front_ns);
    // On the CPU: copying a batch is cheaper than writing the call, which is cheaper than
    // binding slot by slot (CTX-7); the batches were built once, not every frame.
    assert!(batches.cpu_record_ns < calls.cpu_record_ns);
    assert!(calls.cpu_record_ns < slots.cpu_record_ns);
}

#[test]
fn no_debug_halves_the_cpu_cost_of_set_fast_resources_only() {
    use fastframe::device::cpu_cost::{DWORD_NS, ROOM_CHECK_NS};
    use fastframe::model::BindingMode as B;
    let frames = 10;
    let (debug, retail) = (
        deferred_built(B::Calls, 4, frames, false),
        deferred_built(B::Calls, 4, frames, true),
    );
    // The same calls, the same dwords for the front end: the define changes the CPU's code.
    assert!(debug.binding.calls > 0);
    assert_eq!(debug.binding, retail.binding);
    assert_eq!(debug.binding_front_ns, retail.binding_front_ns);
    // Every binding call here is a SetFastResources (a room check and its dwords), and each
    // costs half in the NO_DEBUG build (seed 002); nothing else recorded changes.
    let halved = (ROOM_CHECK_NS * debug.binding.calls + DWORD_NS * debug.binding.dwords) / 2;
    assert_eq!(debug.cpu_record_ns - retail.cpu_record_ns, halved);
    assert!(retail.cpu_record_span_ns < debug.cpu_record_span_ns);
    // Batches are copied, not written by SetFastResources: the define leaves them as they are.
    let (debug, retail) = (
        deferred_built(B::Batches, 4, frames, false),
        deferred_built(B::Batches, 4, frames, true),
    );
    assert_eq!(debug.cpu_record_ns, retail.cpu_record_ns);
}

#[test]
fn a_scene_says_its_build_defines_no_debug_and_the_summary_names_it() {
    let text = std::fs::read_to_string("scenes/deferred.ron").expect("bundled scene");
    let built = text.replacen("settings: (", "settings: (d3dcompile_no_debug: true, ", 1);
    assert_ne!(built, text);
    let mut rt = fastframe::Runtime::from_str(&built, "deferred_no_debug.ron").expect("loads");
    rt.run(2).expect("runs");
    assert!(rt.summary().settings.d3dcompile_no_debug);
    // Off, the default, the summary does not name it: no summary changes for other scenes.
    let mut rt = fastframe::Runtime::from_str(&text, "deferred.ron").expect("loads");
    rt.run(2).expect("runs");
    let settings = serde_json::to_value(rt.summary().settings).expect("json");
    assert!(settings.get("d3dcompile_no_debug").is_none(), "{settings}");
}

#[test]
fn parallel_recording_shows_in_the_cpu_figures() {
    use fastframe::model::BindingMode as B;
    let (one, four) = (deferred(B::Batches, 1, 10), deferred(B::Batches, 4, 10));
    // The same work, recorded on one thread or spread over four (CTX-2, CTX-7).
    assert_eq!(one.cpu_record_ns, four.cpu_record_ns);
    assert_eq!(one.cpu_record_span_ns, one.cpu_record_ns);
    assert!(four.cpu_record_span_ns < one.cpu_record_span_ns / 2);
    // Playing the lists back costs far less than recording them.
    assert!(four.cpu_submit_ns * 5 < four.cpu_record_ns);
    assert_eq!(one.cpu_submit_ns, four.cpu_submit_ns);
}

#[test]
fn the_summary_reports_binding_and_recording() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(["run", "scenes/deferred.ron", "--frames", "5", "--json"])
        .args(["--binding", "per-slot", "--record-threads", "2"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["settings"]["binding"], "per-slot");
    assert_eq!(v["settings"]["record_threads"], 2);
    assert!(v["record"]["binding_calls"].as_u64().unwrap() > 0, "{v}");
    assert!(v["record"]["binding_dwords"].as_u64().unwrap() > 0, "{v}");
    assert!(
        v["record"]["binding_front_us"].as_f64().unwrap() > 0.0,
        "{v}"
    );
    let record = v["cpu"]["record_us"].as_f64().unwrap();
    let wall = v["cpu"]["record_wall_us"].as_f64().unwrap();
    assert!(wall < record && wall > 0.0, "{v}");
}

/// The validation codes `text` finds in 4 frames.
fn codes(name: &str, text: &str) -> Vec<String> {
    let mut rt = fastframe::Runtime::from_str(text, name).expect("loads");
    rt.set_validation(true);
    let _ = rt.run(4);
    rt.diagnostics()
        .iter()
        .map(|d| d.code.to_string())
        .collect()
}

#[test]
fn what_a_fast_call_binds_is_checked_as_the_legacy_calls_would_be() {
    // The FS-10 twin: a dynamic constant buffer mapped and filled before it is bound, here
    // through SetFastResources (seed 002: the fast forms replace the Set* calls).
    let text = std::fs::read_to_string("tests/data/scripts/fs10_dynamic_not_mapped.ron")
        .expect("twin")
        .replace(
            r#"SetConstantBuffers(stage: Pixel, buffers: ["constants"]),"#,
            r#"SetFastResources([ConstantBuffers(stage: Pixel, buffers: ["constants"])]),"#,
        );
    assert!(text.contains("SetFastResources"));
    assert_eq!(codes("fast.ron", &text), Vec::<String>::new());
    // Without the map the fast call binds a buffer not filled this frame (FS-10).
    let unmapped = text
        .replace(r#"Map(resource: "constants", mode: WriteDiscard),"#, "")
        .replace(r#"Unmap("constants"),"#, "");
    assert!(codes("unmapped.ron", &unmapped).contains(&"V0301".to_owned()));
}
