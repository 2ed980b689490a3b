//! Every scene directly in `scenes/` and in `scenes/real/` validates clean for 300 frames under
//! every barrier strategy, with async compute on and off, with every rotation strategy, and on
//! both simulated GPUs; the real frames also in every order with transient aliasing on and
//! off. The 2013 console has no enhanced barriers (EB-11, seed 004): there the legacy
//! strategy runs whichever is asked for, and the summary says so.

use fastframe::Runtime;
use fastframe::model::{BarrierMode, Rotation};

/// Scenes the legacy path cannot express, with the rule it refuses them by: a copy of a
/// texture onto itself needs COPY_SOURCE and COPY_DEST at once (EB-9c).
const LEGACY_REFUSES: &[(&str, &str)] = &[("eb9c_copy_to_self.ron", "EB-9c")];

/// Scenes whose frame scripts issue enhanced `Barrier` calls, which the 2013 console's driver
/// does not have (seed 004: Xbox Series only; EB-11): `console-2013` refuses them by name.
fn has_enhanced_script_barriers(scene: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(scene).expect("a bundled scene reads");
    text.contains("Barrier(textures:")
        || text.contains("Barrier(buffers:")
        || text.contains("Barrier(global:")
}

#[test]
fn every_bundled_scene_validates_clean_in_every_configuration() {
    let mut scenes: Vec<_> = ["scenes", "scenes/real"]
        .into_iter()
        .flat_map(|dir| std::fs::read_dir(dir).expect("scenes/ and scenes/real/ exist"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 6, "{scenes:?}");
    for scene in &scenes {
        for barriers in [
            BarrierMode::Enhanced,
            BarrierMode::Conservative,
            BarrierMode::Legacy,
        ] {
            for async_compute in [true, false] {
                for (rotation, profile) in Rotation::ALL
                    .into_iter()
                    .flat_map(|r| fastframe::device::PROFILE_NAMES.map(|p| (r, p)))
                {
                    let mut rt = Runtime::from_scene(scene).expect("bundled scene loads");
                    rt.set_validation(true);
                    {
                        let mut s = rt.settings_mut();
                        s.barriers = barriers;
                        s.async_compute = async_compute;
                        s.rotation = Some(rotation);
                        s.profile = profile.to_owned();
                    }
                    let result = rt.run(300);
                    let what = format!(
                        "{} {barriers:?} async={async_compute} {rotation:?} {profile}",
                        scene.display()
                    );
                    if profile == "console-2013" && has_enhanced_script_barriers(scene) {
                        let err = result.expect_err("the 2013 console refuses enhanced barriers");
                        assert!(
                            err.to_string().contains("no enhanced barriers"),
                            "{what}: {err}"
                        );
                        continue;
                    }
                    // What ran: the strategy asked for, or legacy on the 2013 console.
                    let ran = match profile {
                        "console-2013" => BarrierMode::Legacy,
                        _ => barriers,
                    };
                    let refused = LEGACY_REFUSES
                        .iter()
                        .find(|(name, _)| scene.ends_with(name))
                        .filter(|_| ran == BarrierMode::Legacy);
                    if let Some((_, rule)) = refused {
                        let err = result.expect_err("the legacy path refuses this scene");
                        assert!(err.to_string().contains(rule), "{what}: {err}");
                        continue;
                    }
                    assert!(result.is_ok(), "{what}: {:?}", result.err());
                    let summary = rt.summary().to_json();
                    let name = |b: BarrierMode| format!("{b:?}").to_lowercase();
                    assert_eq!(summary["settings"]["barriers"], name(ran), "{what}");
                    let asked = Some(name(barriers)).filter(|_| ran != barriers);
                    assert_eq!(
                        summary["settings"]["barriers_requested"].as_str(),
                        asked.as_deref(),
                        "{what}"
                    );
                    let diags: Vec<String> = rt
                        .diagnostics()
                        .iter()
                        .take(5)
                        .map(|d| d.to_string())
                        .collect();
                    assert!(diags.is_empty(), "{what}:\n{}", diags.join("\n"));
                }
            }
        }
    }
}

#[test]
fn the_2013_console_runs_the_bundled_doom_frame_with_legacy_barriers() {
    // DOOM (2016) is set on console-2013, which has no enhanced barriers (EB-11, seed 004):
    // the planner issues legacy barriers there, the device prices them as such, the frame
    // validates clean, and the summary names the strategy that ran beside the one asked for.
    let scene = "scenes/real/doom2016_idtech6.ron";
    let run = |profile: &str| {
        let mut rt = Runtime::from_scene(scene).expect("bundled scene loads");
        rt.set_validation(true);
        rt.settings_mut().profile = profile.to_owned();
        rt.run(30).expect("runs");
        let found: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
        assert!(found.is_empty(), "{profile}: {found:?}");
        (rt.summary(), rt.device().legacy_barriers())
    };
    let (old, legacy) = run("console-2013");
    assert!(
        legacy,
        "the 2013 console's barriers are priced as legacy ones"
    );
    let json = old.to_json();
    assert_eq!(json["settings"]["barriers"], "legacy");
    assert_eq!(json["settings"]["barriers_requested"], "enhanced");
    let line = old.settings.line();
    assert!(
        line.contains(
            "barriers legacy (enhanced asked for: console-2013 has no enhanced barriers, EB-11)"
        ),
        "{line}"
    );
    // On the Xbox Series the same frame runs the enhanced barriers it asks for.
    let (new, legacy) = run("console-2020");
    assert!(!legacy);
    let json = new.to_json();
    assert_eq!(json["settings"]["barriers"], "enhanced");
    assert!(json["settings"]["barriers_requested"].is_null());
}

/// Every real frame in `scenes/real/` validates clean in every order, with transient aliasing
/// on and off, under every strategy, with async compute on and off, on both profiles (on
/// `console-2013` every strategy runs as `legacy`, EB-11, so it runs once); and a second run
/// of the same configuration gives the same simulated figures (GPU time, barriers, memory).
#[test]
fn every_real_frame_validates_clean_in_every_order_with_aliasing_on_and_off() {
    use fastframe::model::Order;
    let mut scenes: Vec<_> = std::fs::read_dir("scenes/real")
        .expect("scenes/real/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 10, "{scenes:?}");
    let configurations = [
        ("console-2020", BarrierMode::Enhanced),
        ("console-2020", BarrierMode::Conservative),
        ("console-2020", BarrierMode::Legacy),
        ("console-2013", BarrierMode::Legacy),
    ];
    for scene in &scenes {
        for (profile, barriers) in configurations {
            for async_compute in [true, false] {
                for order in [Order::Declaration, Order::FewerBarriers, Order::Overlap] {
                    for aliasing in [true, false] {
                        let what = format!(
                            "{} {profile} {barriers:?} async={async_compute} {order:?} aliasing={aliasing}",
                            scene.display()
                        );
                        let run = || {
                            let mut rt = Runtime::from_scene(scene).expect("bundled scene loads");
                            rt.set_validation(true);
                            {
                                let mut s = rt.settings_mut();
                                s.barriers = barriers;
                                s.async_compute = async_compute;
                                s.order = order;
                                s.aliasing = aliasing;
                                s.profile = profile.to_owned();
                            }
                            rt.run(12).unwrap_or_else(|e| panic!("{what}: {e}"));
                            let diags: Vec<String> = rt
                                .diagnostics()
                                .iter()
                                .take(5)
                                .map(|d| d.to_string())
                                .collect();
                            assert!(diags.is_empty(), "{what}:\n{}", diags.join("\n"));
                            let json = rt.summary().to_json();
                            let g = &json["gpu"];
                            (
                                g["frame_work_us"].to_string(),
                                g["critical_path_us"].to_string(),
                                json["sync"]["barriers"].to_string(),
                                json["memory"].to_string(),
                            )
                        };
                        assert_eq!(run(), run(), "{what}: two runs differ");
                    }
                }
            }
        }
    }
}
