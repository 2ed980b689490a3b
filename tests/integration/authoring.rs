//! Authoring in Rust: the frame of `scenes/deferred.ron` built with `SceneBuilder` (the
//! example `deferred`'s own code) is the loaded scene. It runs to the same summary, and
//! `scene::save` writes it as a scene that loads, round-trips and equals the file's.

#[path = "../../examples/deferred/frame.rs"]
mod frame;

use bevy_ecs::prelude::*;
use fastframe::Runtime;
use fastframe::model::BarrierMode;
use fastframe::scene::{self, SceneFile};
use serde_json::Value;

const DEFERRED: &str = "scenes/deferred.ron";

fn built() -> World {
    frame::deferred().unwrap_or_else(|e| panic!("the built deferred frame is refused: {e}"))
}

fn loaded() -> World {
    let mut world = World::new();
    scene::load_file(DEFERRED.as_ref(), &mut world).unwrap_or_else(|e| panic!("{e}"));
    world
}

/// The `run --json` summary of `world` after `frames` frames with `configure` applied, less
/// what is measured rather than simulated (tick times, the resident set), the bytes the
/// runtime's structures allocated and the scene's label (the name each runtime was given).
/// Allocated bytes follow hash-table capacities, which depend on each table's random hasher
/// seed (see `soak`): the same file loaded twice in one process differs there. The entries
/// the structures hold are deterministic and compared.
fn summary(world: World, frames: u64, configure: impl Fn(&mut Runtime)) -> Value {
    let mut rt = Runtime::from_world(world, "deferred");
    configure(&mut rt);
    rt.run(frames).unwrap_or_else(|e| panic!("{e}"));
    let mut v = rt.summary().to_json();
    let o = v.as_object_mut().expect("an object");
    assert!(o.remove("cpu").is_some() && o.remove("scene").is_some());
    let host = o.get_mut("host").and_then(Value::as_object_mut).unwrap();
    host.remove("rss_kib");
    host.remove("peak_rss_kib");
    let structures = host.get_mut("structures").and_then(Value::as_object_mut);
    for (_, part) in structures.unwrap() {
        if let Some(part) = part.as_object_mut() {
            assert!(part.remove("bytes").is_some());
        }
    }
    host["structures"].as_object_mut().unwrap().remove("bytes");
    v
}

#[test]
fn the_built_frame_runs_as_the_loaded_scene() {
    // 240 frames: past both resizes (60, 200), the splash's disable (100) and release (101).
    let (b, l) = (
        summary(built(), 240, |_| ()),
        summary(loaded(), 240, |_| ()),
    );
    assert_eq!(b["frames"], 240);
    assert!(
        b["sync"]["fence_waits"].as_u64().unwrap() > 0,
        "three queues"
    );
    assert_eq!(b, l);
}

#[test]
fn the_built_frame_validates_as_the_loaded_scene_under_legacy_barriers() {
    let configure = |rt: &mut Runtime| {
        rt.settings_mut().barriers = BarrierMode::Legacy;
        rt.settings_mut().async_compute = false;
        rt.set_validation(true);
    };
    let b = summary(built(), 110, configure);
    let l = summary(loaded(), 110, configure);
    assert_eq!(b["validation"]["enabled"], true);
    assert_eq!(b["validation"]["errors"], 0);
    assert_eq!(b, l);
}

#[test]
fn the_built_frame_saves_as_the_file_says() {
    let saved = scene::save(&built());
    assert_eq!(saved, scene::save(&loaded()));
    // Written out and loaded again, it is a fixed point.
    let path = std::env::temp_dir().join(format!("fastframe-authoring-{}.ron", std::process::id()));
    scene::save_file(&built(), &path).unwrap_or_else(|e| panic!("{e}"));
    let mut again = World::new();
    let result = scene::load_file(&path, &mut again);
    let _ = std::fs::remove_file(&path);
    result.unwrap_or_else(|e| panic!("the saved built scene does not load: {e}"));
    let resaved: SceneFile = scene::save(&again);
    assert_eq!(resaved, saved);
}
