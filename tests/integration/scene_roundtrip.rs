//! Load -> save -> load is a fixed point, for the test scenes and every scene in `scenes/`.
//!
//! Two checks per scene: the saved form of the loaded world does not change when it is
//! written out as RON and loaded again, and a canonical dump of every authored component
//! and resource (references shown as names, so entity ids do not matter) is identical
//! between the world loaded from the original text and the one loaded from the saved text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use fastframe::model::{
    BackBuffer, Buffer, ChainBufferIndex, Disabled, Dormant, FrameIndex, FrameScript, Lifetime,
    Pass, PassScript, ScriptCommand, Settings, SwapChain, Target, Texture, Timeline, TimelineEvent,
    View,
};
use fastframe::scene::{self, SceneFile};

fn load(text: &str, file: &str) -> World {
    let mut world = World::new();
    if let Err(e) = scene::load_str(text, file, &mut world) {
        panic!("{e}");
    }
    world
}

/// Every named entity's components and the scene resources, references by name, sorted.
fn dump(world: &World) -> String {
    let names: HashMap<Entity, String> = world
        .iter_entities()
        .filter_map(|e| Some((e.id(), e.get::<Name>()?.as_str().to_string())))
        .collect();
    let n = |e: &Entity| names.get(e).cloned().unwrap_or_else(|| format!("<{e}>"));
    let mut lines = Vec::new();
    for e in world.iter_entities() {
        let Some(name) = e.get::<Name>() else {
            continue;
        };
        let mut parts = vec![format!("{:?}", name.as_str())];
        if let Some(t) = e.get::<Texture>() {
            parts.push(format!("{t:?}"));
        }
        if let Some(b) = e.get::<Buffer>() {
            parts.push(format!("{b:?}"));
        }
        if let Some(l) = e.get::<Lifetime>() {
            parts.push(format!("{l:?}"));
        }
        if let Some(s) = e.get::<SwapChain>() {
            parts.push(format!("{s:?}"));
        }
        if e.contains::<BackBuffer>() {
            parts.push("BackBuffer".into());
        }
        if let Some(v) = e.get::<View>() {
            parts.push(format!(
                "View(of {}, {:?}, {:?}, lod {})",
                n(&v.of),
                v.kind,
                v.range,
                v.min_lod
            ));
        }
        if let Some(p) = e.get::<Pass>() {
            let uses: Vec<String> = (p.uses.iter())
                .map(|u| {
                    format!(
                        "{} {:?} {:?} clear {}",
                        n(&u.target),
                        u.access,
                        u.stages,
                        u.clear
                    )
                })
                .collect();
            let after: Vec<String> = p.after.iter().map(n).collect();
            parts.push(format!(
                "Pass({:?}, [{}], {:?}, after {after:?}, order {})",
                p.queue,
                uses.join("; "),
                p.work,
                p.order
            ));
        }
        if let Some(i) = e.get::<ChainBufferIndex>() {
            parts.push(format!("buffer {}", i.0));
        }
        if let Some(script) = e.get::<PassScript>() {
            let commands: Vec<String> = script.0.iter().map(|c| command(c, &n)).collect();
            parts.push(format!("script [{}]", commands.join("; ")));
        }
        if e.contains::<Disabled>() {
            parts.push("Disabled".into());
        }
        if e.contains::<Dormant>() {
            parts.push("Dormant".into());
        }
        lines.push(parts.join(" "));
    }
    lines.sort();
    lines.push(format!("{:?}", world.get_resource::<Settings>()));
    if let Some(t) = world.get_resource::<Timeline>() {
        for (frame, event) in &t.events {
            let event = match event {
                TimelineEvent::Resize { chain, extent } => format!("Resize {} {extent}", n(chain)),
                TimelineEvent::Enable(e) => format!("Enable {}", n(e)),
                TimelineEvent::Disable(e) => format!("Disable {}", n(e)),
                TimelineEvent::Add(e) => format!("Add {}", n(e)),
                TimelineEvent::Release(e) => format!("Release {}", n(e)),
                TimelineEvent::Suspend { frames } => format!("Suspend {frames}"),
            };
            lines.push(format!("{frame}: {event}"));
        }
        lines.push(format!("cursor {}", t.cursor));
    }
    if let Some(script) = world.get_resource::<FrameScript>() {
        lines.push(format!("repeat from {}", script.0.repeat_from));
        for (i, frame) in script.0.frames.iter().enumerate() {
            for s in frame {
                let commands: Vec<String> = s.commands.iter().map(|c| command(c, &n)).collect();
                lines.push(format!(
                    "frame {i} {:?} {:?}: {}",
                    s.queue,
                    s.label,
                    commands.join("; ")
                ));
            }
        }
    }
    lines.push(format!("{:?}", world.get_resource::<FrameIndex>()));
    lines.join("\n")
}

/// A script command with its targets by name.
fn command(c: &ScriptCommand<Target>, n: &impl Fn(&Entity) -> String) -> String {
    let named = c.try_map(|_, t| {
        Ok::<_, ()>(match t {
            Target::Entity(e) => n(e),
            Target::ChainBuffer { chain, index } => format!("{}[{index}]", n(chain)),
            Target::Local(name) => format!("local {name}"),
        })
    });
    format!("{named:?}")
}

/// The round trip on one scene text.
fn round_trip(text: &str, file: &str) -> (SceneFile, String) {
    let first = load(text, file);
    let saved = scene::save(&first);
    let written = scene::to_ron(&saved);
    let second = load(&written, &format!("{file} (saved)"));
    let saved_again = scene::save(&second);
    assert_eq!(
        saved, saved_again,
        "{file}: save(load(text)) changed after writing:\n{written}"
    );
    assert_eq!(
        dump(&first),
        dump(&second),
        "{file}: worlds differ after the round trip"
    );
    assert_eq!(
        written,
        scene::to_ron(&saved_again),
        "{file}: the written text changed"
    );
    (saved, written)
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn small_scene_round_trips() {
    let (saved, written) = round_trip(&read(&data("small.ron")), "small.ron");
    assert_eq!(saved.entities.len(), 2);
    assert!(written.starts_with("//"), "{written}");
    assert!(written.contains("\nScene("), "{written}");
}

#[test]
fn rich_scene_round_trips() {
    let (saved, _) = round_trip(&read(&data("rich.ron")), "rich.ron");
    assert_eq!(saved.entities.len(), 22);
    assert_eq!(saved.timeline.len(), 9);
    // The timeline is written sorted by frame, same-frame events in file order.
    let frames: Vec<u64> = saved.timeline.iter().map(|e| e.frame).collect();
    assert_eq!(frames, vec![50, 100, 100, 120, 150, 200, 300, 300, 301]);
}

#[test]
fn rich_scene_loads_what_it_says() {
    let mut world = load(&read(&data("rich.ron")), "rich.ron");
    let mut passes: Vec<(String, u32, bool, bool)> = world
        .query::<(&Name, &Pass, Has<Disabled>, Has<Dormant>)>()
        .iter(&world)
        .map(|(n, p, d, z)| (n.as_str().to_string(), p.order, d, z))
        .collect();
    passes.sort_by_key(|p| p.1);
    let expected = [
        ("upload_copy", false, false),
        ("simulate", false, false),
        ("gbuffer", false, false),
        ("bloom", false, false),
        ("debug_overlay", true, false),
        ("tonemap", false, false),
        ("clear_only", false, false),
        // Dormant passes follow, in the order the (sorted) timeline adds them.
        ("splash_pass", true, true),
        ("late_pass", false, true),
    ];
    let got: Vec<(&str, bool, bool)> = passes.iter().map(|p| (p.0.as_str(), p.2, p.3)).collect();
    assert_eq!(got, expected);
    assert_eq!(
        passes.iter().map(|p| p.1).collect::<Vec<_>>(),
        (0..9).collect::<Vec<_>>()
    );
    assert_eq!(world.resource::<Settings>().frames_in_flight, 3);
    assert_eq!(world.resource::<Timeline>().cursor, 0);
    assert_eq!(world.resource::<FrameIndex>().0, 0);
    let hdr_srv = world
        .query::<(&Name, &View)>()
        .iter(&world)
        .find(|(n, _)| n.as_str() == "hdr_srv")
        .map(|(_, v)| v.clone());
    let Some(hdr_srv) = hdr_srv else {
        panic!("hdr_srv missing")
    };
    assert_eq!((hdr_srv.range.first_mip, hdr_srv.range.mip_count), (1, 3));
    assert_eq!(hdr_srv.range.slice_count, u32::MAX);
    assert_eq!(hdr_srv.min_lod, 0.5);
}

#[test]
fn every_scene_in_scenes_round_trips() {
    // The bundled scenes, the ports, the command-script mistakes and their correct twins.
    for dir in [
        "scenes",
        "scenes/ports",
        "scenes/real",
        "scenes/mistakes",
        "scenes/warnings",
        "tests/data/scripts",
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        paths.sort();
        for path in paths {
            round_trip(&read(&path), &path.display().to_string());
        }
    }
}

#[test]
fn scripts_round_trip_with_every_kind_of_name() {
    let text = r#"// Scripts: scene names, buffers by index, views a script makes, barriers.
Scene(
    entities: [
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "rtv1", view: (of: "swapchain[1]", kind: Rtv)),
        (name: "vb", buffer: (size: 64)),
        (name: "p", pass: (uses: [(target: "swapchain", access: RenderTarget)], script: [
            ClearRenderTarget("swapchain"),
            SetRenderTargets(rtvs: ["swapchain"]),
            InsertFence(name: "f", kickoff: false),
        ])),
    ],
    script: (frames: [
        [(queue: Compute, label: "c", commands: [WaitFence("f"), Kickoff])],
        [(commands: [
            CreateView(name: "v", of: "swapchain[0]", kind: Rtv),
            Barrier(global: [(sync_before: "ALL", sync_after: "COPY", access_before: "", access_after: "COPY_DEST")],
                    buffers: [(resource: "vb", sync_before: "COPY", sync_after: "VERTEX_SHADING", access_before: "COPY_DEST", access_after: "VERTEX_BUFFER")],
                    textures: [(resource: "swapchain", sync_before: "", sync_after: "RENDER_TARGET", access_before: "NO_ACCESS", access_after: "RENDER_TARGET", layout_before: Undefined, layout_after: RenderTarget, range: (first_mip: 0, mip_count: 1), discard: true)]),
            SetRenderTargets(rtvs: ["v", "rtv1"]),
            Map(resource: "vb", mode: NoOverwrite),
            Release("v"),
        ])],
    ], repeat_from: 1),
)
"#;
    let (saved, written) = round_trip(text, "scripts.ron");
    let script = saved.script.expect("the frame script is saved");
    assert_eq!((script.frames.len(), script.repeat_from), (2, 1));
    assert!(
        written.contains(r#"CreateView(name: "v", of: "swapchain[0]", kind: Rtv)"#),
        "{written}"
    );
    assert!(
        written.contains(r#"(name: "rtv1", view: (of: "swapchain[1]", kind: Rtv))"#),
        "{written}"
    );
    assert!(
        written.contains(r#"InsertFence(name: "f", kickoff: false)"#),
        "{written}"
    );
}
