//! Ports of public samples (`scenes/ports/`): every file opens with what `check` must say of
//! it under its own API, `// expect: clean` or `// expect: RULE CODE...`, and may say what
//! another API finds, `// on d3d12x: CODE...` (every PC port must: that is the report of what
//! breaks on the console). This module checks each file against what it declares, codes
//! exactly (no more, no fewer), and that clean ports stay clean over a long run.

use std::path::{Path, PathBuf};

use fastframe::Runtime;
use fastframe::model::Api;

/// Frames `check` runs; clean ports run longer.
const CHECK_FRAMES: u64 = 8;
const CLEAN_FRAMES: u64 = 120;

fn ports() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    found.sort();
    found
}

fn api(name: &str) -> Api {
    match name {
        "d3d11x" => Api::D3d11x,
        "d3d12x" => Api::D3d12x,
        "d3d12-pc" => Api::D3d12Pc,
        other => panic!("unknown api {other:?}"),
    }
}

/// The distinct `CODE RULE` pairs found in `path` over `frames`, under `api` when given.
fn findings(path: &Path, api: Option<Api>, frames: u64) -> Vec<(String, String)> {
    let mut rt = Runtime::from_scene(path).unwrap_or_else(|e| panic!("{e}"));
    if let Some(api) = api {
        rt.settings_mut().api = api;
    }
    rt.set_validation(true);
    if let Err(e) = rt.run(frames) {
        panic!("{}: {e}", path.display());
    }
    let mut found: Vec<(String, String)> = (rt.diagnostics().iter())
        .map(|d| (d.code.to_string(), d.rule.to_owned()))
        .collect();
    found.sort();
    found.dedup();
    found
}

fn codes(found: &[(String, String)]) -> Vec<String> {
    found.iter().map(|(c, _)| c.clone()).collect()
}

/// Run `text`, a port changed for a test, as a scene for [`CHECK_FRAMES`] validated frames:
/// whether it ran, and the diagnostics' codes, each once.
pub(crate) fn run_twin(tag: &str, text: &str) -> (Result<(), String>, Vec<String>) {
    let path = std::env::temp_dir().join(format!("fastframe-{tag}-{}.ron", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    rt.set_validation(true);
    let run = rt.run(CHECK_FRAMES).map(|_| ()).map_err(|e| e.to_string());
    let mut found: Vec<String> = (rt.diagnostics().iter())
        .map(|d| d.code.to_string())
        .collect();
    found.sort();
    found.dedup();
    (run, found)
}

#[test]
fn every_port_says_what_check_finds_under_its_own_api_and_others() {
    let all = ports();
    assert!(all.len() >= 8, "{} ports", all.len());
    let mut pc = 0;
    for path in &all {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display();
        let first = text.lines().next().unwrap_or_default();
        let expect = first
            .strip_prefix("// expect: ")
            .unwrap_or_else(|| panic!("{name}: the first line must be `// expect: ...`"));
        assert!(
            text.contains("microsoft/") && text.contains("Simplified"),
            "{name}: the opening comment cites the sample and says what was simplified"
        );
        if expect == "clean" {
            let found = findings(path, None, CLEAN_FRAMES);
            assert!(found.is_empty(), "{name}: not clean: {found:?}");
        } else {
            let mut words = expect.split_whitespace();
            let rule = words.next().unwrap_or_default();
            let mut want: Vec<String> = words.map(str::to_owned).collect();
            want.sort();
            let found = findings(path, None, CHECK_FRAMES);
            assert_eq!(codes(&found), want, "{name}");
            assert!(found.iter().any(|(_, r)| r == rule), "{name}: {found:?}");
        }
        let mut others = Vec::new();
        for line in text.lines().take_while(|l| l.starts_with("//")) {
            if let Some((a, list)) = line.strip_prefix("// on ").and_then(|r| r.split_once(':')) {
                let mut want: Vec<String> = list.split_whitespace().map(str::to_owned).collect();
                want.sort();
                let found = findings(path, Some(api(a)), CHECK_FRAMES);
                assert_eq!(codes(&found), want, "{name} under {a}");
                others.push(a.to_owned());
            }
        }
        if text.contains("api: D3d12Pc") {
            pc += 1;
            assert!(
                others.iter().any(|a| a == "d3d12x"),
                "{name}: a PC port says what `--api d3d12x` reports"
            );
        }
    }
    assert!(pc >= 4, "{pc} PC ports");
}

#[test]
fn the_console_twin_of_a_pc_port_fixes_what_d3d12x_reports() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports");
    let pc = findings(
        &dir.join("d3d12_nbody_gravity.ron"),
        Some(Api::D3d12x),
        CHECK_FRAMES,
    );
    assert_eq!(codes(&pc), ["V0101", "V0521"]);
    let console = findings(
        &dir.join("d3d12x_nbody_gravity_console.ron"),
        None,
        CLEAN_FRAMES,
    );
    assert!(console.is_empty(), "{console:?}");
}

#[test]
fn the_msaa_port_resolves_into_the_back_buffer_between_its_transitions() {
    const FRAMES: u64 = 30;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/gdk_simple_msaa.ron");
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    let s = rt.summary().stats;
    // Every frame: RESOLVE_SOURCE -> RENDER_TARGET; the MSAA target to RESOLVE_SOURCE with the
    // back buffer to RESOLVE_DEST (one call, two barriers); RESOLVE_DEST -> RENDER_TARGET;
    // RENDER_TARGET -> PRESENT. The first frame adds the uploads' four calls of 4, 4, 4 and 2.
    assert_eq!(s.barrier_calls, 4 * FRAMES + 4);
    assert_eq!(s.barriers, 5 * FRAMES + 14);
    assert_eq!((s.waits_on_present, s.presents), (FRAMES, FRAMES));
    // Two decompressions a frame (EB-4): the MSAA target's fast clear eliminated as it leaves
    // RENDER_TARGET for RESOLVE_SOURCE, the back buffer's as it goes to PRESENT.
    assert_eq!(s.hardware.decompressions, 2 * FRAMES);
    // The resolve writes the back buffer in RESOLVE_DEST: without the transition into it
    // the write is in the wrong layout (EB-1).
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let into_dest = r#"Transition(resource: "swapchain", before: "", after: "RESOLVE_DEST"),"#;
    assert!(text.contains(into_dest));
    let twin = std::env::temp_dir().join(format!("fastframe-msaa-{}.ron", std::process::id()));
    std::fs::write(&twin, text.replace(into_dest, "")).unwrap_or_else(|e| panic!("{e}"));
    let found = findings(&twin, None, CHECK_FRAMES);
    let _ = std::fs::remove_file(&twin);
    assert_eq!(codes(&found), ["V0403"]);
}

/// Port `name` run `frames` frames with validation on, which must find nothing.
pub(crate) fn run_clean(name: &str, frames: u64) -> Runtime {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes/ports")
        .join(name);
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(frames).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        rt.diagnostics().is_empty(),
        "{name}: {:?}",
        rt.diagnostics()
    );
    rt
}

/// D3D12PredicationQueries reads last frame's occlusion result as its predicate. The GPU
/// reads the predicate when it executes SetPredication, so that call is the buffer's read:
/// ordered after the resolve by the transition back to PREDICATION, and a predicate set from
/// this frame's result straight after the resolve reads it with nothing ordering them.
#[test]
fn the_predication_port_reads_its_predicate_at_set_predication() {
    const FRAMES: u64 = 30;
    let mut rt = run_clean("d3d12_predication_queries.ron", FRAMES);
    let s = rt.summary().stats;
    // Every frame: the back buffer there and back, the result buffer there and back; the
    // first frame adds LoadAssets' two calls (three transitions, then one).
    assert_eq!(s.barrier_calls, 4 * FRAMES + 2);
    assert_eq!(s.barriers, 4 * FRAMES + 4);
    assert_eq!(s.presents, FRAMES);

    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/d3d12_predication_queries.ron");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let variant = |tag: &str, from: &str, to: &str, api: Option<Api>| {
        assert!(text.contains(from), "{from}");
        let twin =
            std::env::temp_dir().join(format!("fastframe-pq-{tag}-{}.ron", std::process::id()));
        std::fs::write(&twin, text.replace(from, to)).unwrap_or_else(|e| panic!("{e}"));
        let found = findings(&twin, api, CHECK_FRAMES);
        let _ = std::fs::remove_file(&twin);
        found
    };
    let back = "                ResourceBarrier([Transition(resource: \"query_result\", before: \"COPY_DEST\", after: \"PREDICATION\")]),\n";
    // Without the transition back: on PC the buffer decays to COMMON at ExecuteCommandLists
    // and SetPredication promotes it (clean); on the console the next frame's predicate read
    // follows the resolve's write with nothing ordering it and an access no barrier declared.
    assert!(variant("back", back, "", None).is_empty());
    let console = variant("back-x", back, "", Some(Api::D3d12x));
    assert_eq!(codes(&console), ["V0101", "V0501", "V0503", "V0804"]);
    // A predicate from this frame's result, set straight after the resolve.
    let resolve =
        "                ResolveQueryData(dst: \"query_result\", first: \"occlusion\"),\n";
    let now = format!("{resolve}                SetPredication(buffer: \"query_result\"),\n");
    let found = variant("now", resolve, &now, None);
    assert_eq!(codes(&found), ["V0501", "V0804"]);
    // The occlusion query ended without being begun: D3D12 refuses the EndQuery (CTX-6,
    // V0908); D3D11.X queries keep their own rules.
    let begin = "                BeginQuery(\"occlusion\"),\n";
    assert_eq!(codes(&variant("begin", begin, "", None)), ["V0908"]);
    let d3d11 = variant("begin-11", begin, "", Some(Api::D3d11x));
    assert!(!codes(&d3d11).contains(&"V0908".to_owned()), "{d3d11:?}");
}

/// D3D12Fullscreen resizes its swap chain between frames: a GPU flush, ResizeBuffers, the
/// RTVs made again, and the back buffer index back at 0 (FS-6, FS-9).
#[test]
fn the_fullscreen_port_resizes_its_buffers_after_flushing_the_gpu() {
    const FRAMES: u64 = 30;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/d3d12_fullscreen.ron");
    let live = |frames: u64| {
        let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
        rt.set_validation(true);
        rt.run(frames).unwrap_or_else(|e| panic!("{e}"));
        assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
        rt.summary().stats
    };
    let (before, after) = (live(2), live(FRAMES));
    // Two calls a frame (two transitions each); the first frame adds the uploads' three
    // calls (two transitions, then one and one) and the intermediate target's one.
    assert_eq!(after.barrier_calls, 2 * FRAMES + 4);
    assert_eq!(after.barriers, 4 * FRAMES + 5);
    assert_eq!(after.presents, FRAMES);
    // The 1280x720 buffers are gone at the call and the 1920x1200 ones live: 4 bytes a texel.
    let grown = 2 * 4 * (1920 * 1200 - 1280 * 720);
    assert_eq!(after.memory_live_bytes - before.memory_live_bytes, grown);

    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let twin = |tag: &str, text: &str| run_twin(&format!("fs-{tag}"), text);
    let flush = "                Signal(fence: \"fence\"),\n                WaitForFenceCpu(fence: \"fence\"),\n                ResizeBuffers";
    assert!(text.contains(flush));
    // Without the flush the last frame's lists still use the old buffers: the release at
    // ResizeBuffers is early (V0702) and the device refuses it.
    let (run, found) = twin(
        "flush",
        &text.replace(flush, "                ResizeBuffers"),
    );
    assert_eq!(found, ["V0702"]);
    assert!(run.is_err_and(|e| e.contains("swapchain[0] destroyed")));
    // Without the RTVs made again, the old RTV views a released buffer: a located error.
    let resize = "                ResizeBuffers(chain: \"swapchain\", extent: (1920, 1200)),\n";
    let remake = format!(
        "{resize}                CreateView(name: \"rtv0\", of: \"swapchain[0]\", kind: Rtv),\n                CreateView(name: \"rtv1\", of: \"swapchain[1]\", kind: Rtv),\n"
    );
    assert!(text.contains(&remake));
    let stale = text.replace(&remake, resize);
    let (run, _) = twin("views", &stale);
    let err = run.expect_err("a stale RTV is used");
    assert!(err.contains("fastframe-fs-views-"), "located: {err}");
    assert!(
        err.contains("view \"rtv0\" views a resource released"),
        "{err}"
    );
    // With RTVs declared as scene views of each buffer instead, they are made again for the
    // new buffers at their next use: clean.
    let declared = text
        .replace(&remake, resize)
        .replace(
            "                CreateView(name: \"rtv0\", of: \"swapchain[0]\", kind: Rtv),\n                CreateView(name: \"rtv1\", of: \"swapchain[1]\", kind: Rtv),\n",
            "",
        )
        .replace(
            "    entities: [\n",
            "    entities: [\n        (name: \"rtv0\", view: (of: \"swapchain[0]\", kind: Rtv)),\n        (name: \"rtv1\", view: (of: \"swapchain[1]\", kind: Rtv)),\n",
        );
    assert!(!declared.contains("CreateView"));
    assert_eq!(twin("declared", &declared), (Ok(()), Vec::new()));
    // The index starts again at 0: rendering into buffer 1 first, as the frame count
    // would suggest, writes a buffer that is not the back buffer, in PRESENT.
    let at = text
        .find("label: \"OnSizeChanged\"")
        .unwrap_or_else(|| panic!("no resize"));
    let (head, tail) = text.split_at(at);
    let swapped = tail
        .replace("rtvs: [\"rtv0\"]", "rtvs: [\"RTV\"]")
        .replace("rtvs: [\"rtv1\"]", "rtvs: [\"rtv0\"]")
        .replace("rtvs: [\"RTV\"]", "rtvs: [\"rtv1\"]")
        .replace("ClearRenderTarget(\"rtv0\")", "ClearRenderTarget(\"RTV\")")
        .replace("ClearRenderTarget(\"rtv1\")", "ClearRenderTarget(\"rtv0\")")
        .replace("ClearRenderTarget(\"RTV\")", "ClearRenderTarget(\"rtv1\")");
    let (run, found) = twin("index", &format!("{head}{swapped}"));
    assert!(run.is_ok(), "{run:?}");
    assert_eq!(found, ["V0103", "V0403"]);
}

/// D3D12HDR binds the SRV table of both intermediate targets once and draws into one of them
/// with pipelines that read neither; its UI layer hands its target over in a transition of
/// its own; Page Down switches the back buffers to 10 bits after a GPU flush.
#[test]
fn the_hdr_port_reads_its_targets_only_through_the_present_pipeline() {
    const FRAMES: u64 = 30;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/d3d12_hdr.ron");
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(FRAMES).unwrap_or_else(|e| panic!("{e}"));
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    let s = rt.summary().stats;
    // Every frame: the UI layer's transition, RenderScene's call of two and its call of
    // three. The first frame adds LoadAssets' call (three transitions) and the vertex
    // upload's two; the resize the new targets' call (two) and the next frame's upload's two.
    assert_eq!(s.barrier_calls, 3 * FRAMES + 6);
    assert_eq!(s.barriers, 6 * FRAMES + 9);
    assert_eq!(s.presents, FRAMES);

    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let variant = |tag: &str, from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        run_twin(&format!("hdr-{tag}"), &text.replacen(from, to, 1))
    };
    // Without the pipelines' descriptions every bound view counts as read by every draw:
    // the gradients would read the intermediate target they draw into.
    let described = "            (id: 1, views: []),\n            (id: 2, views: []),\n";
    let (run, found) = variant("pipelines", described, "");
    assert_eq!((run, found), (Ok(()), vec!["V0403".into(), "V0501".into()]));
    // Without the flush, the last frame's lists still use the old targets when they are
    // released (FS-6): V0702, and the device refuses it.
    let flush = "                Signal(fence: \"fence\"),\n                WaitForFenceCpu(fence: \"fence\"),\n                Release(\"intermediate\"),";
    let (run, found) = variant("flush", flush, "                Release(\"intermediate\"),");
    assert_eq!(found, ["V0702"]);
    assert!(run.is_err_and(|e| e.contains("intermediate destroyed")));
    // Without the UI layer's transition (ReleaseWrappedResources' OutState), the present
    // pipeline samples the UI target in RENDER_TARGET (EB-1), and the transition back names
    // StateBefore PIXEL_SHADER_RESOURCE for a target still in RENDER_TARGET (EB-11).
    let ui = "                ResourceBarrier([Transition(resource: \"ui_target\", before: \"RENDER_TARGET\", after: \"PIXEL_SHADER_RESOURCE\")]),\n";
    let (run, found) = variant("ui", ui, "");
    assert_eq!((run, found), (Ok(()), vec!["V0403".into(), "V0801".into()]));
}

/// D3D12SmallResources places its textures in one heap and uploads them on the copy queue,
/// which the direct queue's reads follow by the CPU's wait alone; SPACE releases the placed
/// textures and their heap after a GPU flush and makes them again as committed resources.
#[test]
fn the_small_resources_port_uploads_on_the_copy_queue_and_releases_its_heap() {
    const FRAMES: u64 = 30;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ports/d3d12_small_resources.ron");
    let mut rt = Runtime::from_scene(&path).unwrap_or_else(|e| panic!("{e}"));
    rt.set_validation(true);
    rt.run(4).unwrap_or_else(|e| panic!("{e}"));
    let heap = rt.device().memory.heap(0).map(|h| (h.name.clone(), h.size));
    assert_eq!(heap, Some(("texture_heap".to_owned(), 4 * 4096)));
    rt.run(FRAMES - 4).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        rt.device().memory.heap(0).is_none(),
        "the switch releases the heap"
    );
    assert!(rt.diagnostics().is_empty(), "{:?}", rt.diagnostics());
    let s = rt.summary().stats;
    // Every frame transitions the back buffer twice; LoadAssets adds the vertex buffer's.
    assert_eq!(s.barrier_calls, 2 * FRAMES + 1);
    assert_eq!(s.presents, FRAMES);

    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let variant = |tag: &str, from: &str, to: &str| {
        assert_eq!(text.matches(from).count(), 1, "{from}");
        run_twin(
            &format!("small-resources-{tag}"),
            &text.replacen(from, to, 1),
        )
    };
    // The CPU waiting one Signal short of the copy queue's: nothing orders the DMA engine's
    // copies before the direct queue's reads (FS-1).
    let wait =
        "                WaitForFenceCpu(fence: \"fence\"),\n                Release(\"upload0\"),";
    let short = "                WaitForFenceCpu(fence: \"fence\", back: 1),\n                Release(\"upload0\"),";
    let (run, found) = variant("wait", wait, short);
    assert_eq!((run, found), (Ok(()), vec!["V0511".into()]));
    // The heap released before its last placed texture: the device holds no reference
    // counts and refuses it (FS-6), at the Release's line.
    let order = "                Release(\"placed3\"),\n                Release(\"texture_heap\"),";
    let swapped =
        "                Release(\"texture_heap\"),\n                Release(\"placed3\"),";
    let (run, _) = variant("heap", order, swapped);
    let err = run.expect_err("the device refuses the heap's release");
    assert!(err.contains("FS-6") && err.contains("placed3"), "{err}");
    assert!(err.contains(".ron:223:17"), "{err}");
}
