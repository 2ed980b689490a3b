//! Each stream is checked by the rules of the API it is written to (`api` setting, `--api`):
//! d3d11x (seed 000's fast semantics), d3d12x (Xbox Series D3D12, seed 004) and d3d12-pc
//! (PC D3D12, barrier-spec A8). Every rule that differs between them has a scene here that
//! one API refuses and another accepts, so a rule applied to the wrong API fails a test.

use std::path::Path;
use std::process::Command;

use fastframe::Runtime;
use fastframe::model::Api;

const FRAMES: u64 = 8;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The distinct codes `check` finds in `scene` under `api`, sorted.
fn codes(scene: &str, api: Api) -> Vec<String> {
    let mut rt = Runtime::from_scene(root().join(scene)).unwrap_or_else(|e| panic!("{e}"));
    rt.settings_mut().api = api;
    rt.set_validation(true);
    let result = rt.run(FRAMES);
    let mut found: Vec<String> = rt
        .diagnostics()
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    found.sort();
    found.dedup();
    if let Err(e) = result {
        found.push(format!("run error: {e}"));
    }
    found
}

fn expect(scene: &str, d3d11x: &[&str], d3d12x: &[&str], d3d12_pc: &[&str]) {
    for (api, want) in [
        (Api::D3d11x, d3d11x),
        (Api::D3d12x, d3d12x),
        (Api::D3d12Pc, d3d12_pc),
    ] {
        assert_eq!(codes(scene, api), want, "{scene} under {api:?}");
    }
}

#[test]
fn a_barrier_that_decompresses_counts_as_the_decompression_under_every_api() {
    // FS-4: the barrier into COMMON/PRESENT decompresses (the device does that work), so it
    // needs no explicit Decompress after it, under D3D11.X as under D3D12.
    let scene = "tests/data/api/present_after_barrier_to_common.ron";
    expect(scene, &[], &[], &[]);
    // Neither decompressed nor transitioned: compressed (V0401) and in the wrong layout.
    let scene = "scenes/mistakes/fs4_present_compressed.ron";
    for api in [Api::D3d11x, Api::D3d12x, Api::D3d12Pc] {
        let found = codes(scene, api);
        for code in ["V0401", "V0402"] {
            assert!(found.contains(&code.to_owned()), "{api:?}: {found:?}");
        }
    }
}

#[test]
fn reading_a_render_target_still_compressed_is_fs4_on_a_d3d11x_fast_context_only() {
    // D3D11.X fast semantics: a render target bound for reading is not decompressed for the
    // title (V0404). D3D12 has no such binding: the read is in the wrong layout (V0403).
    let scene = "scenes/mistakes/fs4_read_compressed_render_target.ron";
    let d3d11x = codes(scene, Api::D3d11x);
    assert!(d3d11x.contains(&"V0404".to_owned()), "{d3d11x:?}");
    assert!(!d3d11x.contains(&"V0403".to_owned()), "{d3d11x:?}");
    for api in [Api::D3d12x, Api::D3d12Pc] {
        let found = codes(scene, api);
        assert!(found.contains(&"V0403".to_owned()), "{api:?}: {found:?}");
        assert!(!found.contains(&"V0404".to_owned()), "{api:?}: {found:?}");
    }
    let twin = "tests/data/scripts/fs4_read_compressed_render_target.ron";
    expect(twin, &[], &[], &[]);
}

#[test]
fn a_present_in_the_wrong_layout_is_wrong_under_every_api() {
    let scene = "scenes/mistakes/rl1_present_in_render_target_layout.ron";
    for api in [Api::D3d11x, Api::D3d12x, Api::D3d12Pc] {
        assert!(codes(scene, api).contains(&"V0402".to_owned()), "{api:?}");
    }
}

#[test]
fn a_clear_unbinds_only_under_d3d11x() {
    // FS-8: OMSetRenderTargets then Clear is legal D3D12.
    expect(
        "scenes/mistakes/fs8_missing_rebind_after_clear.ron",
        &["V0202"],
        &[],
        &[],
    );
}

#[test]
fn a_d3d12_command_list_inherits_no_state() {
    // FS-12 keeps a D3D11.X context's state across lists; a D3D12 list starts empty.
    let scene = "tests/data/api/state_across_lists.ron";
    expect(scene, &[], &["V0201"], &["V0201"]);
}

#[test]
fn only_pc_flushes_at_execute_command_lists() {
    // Barrier-free access across an ExecuteCommandLists boundary: PC only (barrier-spec A8);
    // the Xbox needs the barrier (EB-8a).
    let scene = "tests/data/api/flush_between_lists.ron";
    assert_eq!(codes(scene, Api::D3d12x), ["V0501"]);
    assert_eq!(codes(scene, Api::D3d12Pc), Vec::<String>::new());
    assert!(codes(scene, Api::D3d11x).contains(&"V0501".to_owned()));
    // Within one list PC needs the barrier like everyone else.
    let within = "scenes/mistakes/fs3_read_after_write.ron";
    assert!(codes(within, Api::D3d12Pc).contains(&"V0501".to_owned()));
}

#[test]
fn pc_owes_no_invalidate_after_a_fence_across_lists() {
    // V0521: the consumer's invalidate after a fence is demanded on the console, not where
    // the producer's ExecuteCommandLists boundary flushed its caches.
    let scene = "scenes/mistakes/fs2_dma_write_not_invalidated.ron";
    expect(scene, &["V0521"], &["V0521"], &[]);
}

#[test]
fn fences_are_needed_under_every_api_and_waits_on_present_on_the_consoles() {
    let racing = "scenes/mistakes/fs1_read_racing_write.ron";
    for api in [Api::D3d11x, Api::D3d12x, Api::D3d12Pc] {
        assert!(codes(racing, api).contains(&"V0511".to_owned()), "{api:?}");
    }
    // FS-5: DXGI's flip model keeps a PC GPU off a buffer still shown.
    let no_wait = "scenes/mistakes/fs5_no_wait_on_present.ron";
    expect(no_wait, &["V0101"], &["V0101"], &[]);
}

#[test]
fn bundled_scenes_are_clean_under_every_api() {
    let mut scenes: Vec<_> = std::fs::read_dir(root().join("scenes"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    scenes.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "ron"));
    scenes.sort();
    assert!(scenes.len() >= 10);
    for p in scenes {
        let rel = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
        for api in [Api::D3d12x, Api::D3d12Pc] {
            assert_eq!(
                codes(&rel, api),
                Vec::<String>::new(),
                "{rel} under {api:?}"
            );
        }
    }
}

#[test]
fn check_takes_the_api_on_the_command_line() {
    let run = |api: &str| {
        Command::new(env!("CARGO_BIN_EXE_fastframe"))
            .current_dir(root())
            .args([
                "check",
                "scenes/mistakes/fs8_missing_rebind_after_clear.ron",
                "--api",
                api,
            ])
            .output()
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(run("d3d11x").status.code(), Some(1));
    assert_eq!(run("d3d12x").status.code(), Some(0));
    assert_eq!(run("d3d12-pc").status.code(), Some(0));
    assert_eq!(run("d3d13").status.code(), Some(2));
}
