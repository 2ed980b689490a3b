//! Seeded random frame graphs whose transients share memory (EB-5, EB-9d): most resources
//! transient, two sizes, longer frames, so the runtime places several in one heap. Every
//! graph validates clean in every order, and dropping any one barrier that hands placed
//! memory over (an activation or a deactivation of a transient whose bytes another uses), or
//! any one fence wait, is caught: the hand-over's barriers and the fences placement relies
//! on are all needed, and the validation layer misses none of them.

use fastframe::barrier::{Access, Layout};
use fastframe::device::{Command, Device, ObjectKey};

use super::random_graphs::{DROP_FRAME, Mix, Rng, drop_is_caught, order, scene_with};

const ALIASED: Mix = Mix {
    transient: 85,
    passes: 12,
    sizes: true,
};

/// The index (as `drop-nth-barrier` counts them) of every hand-over barrier the passes of
/// frame `DROP_FRAME` submit, with what it does, and the number of fence waits there.
fn hand_overs(
    trace: &[fastframe::device::Submitted],
    present: u32,
    device: &Device,
) -> (Vec<(usize, String)>, usize) {
    let shares =
        |r: ObjectKey| device.memory.placement(r).is_some() && !device.memory.aliases(r).is_empty();
    let (mut found, mut k, mut waits) = (Vec::new(), 0, 0);
    for s in trace.iter().filter(|s| s.frame == DROP_FRAME) {
        match &s.command {
            Command::Barrier(g) if s.label != present => {
                k += g.global.len();
                for b in &g.buffers {
                    let what = match (b.access_before, b.access_after) {
                        (Access::NO_ACCESS, _) => "activation",
                        (_, Access::NO_ACCESS) => "deactivation",
                        _ => "",
                    };
                    if shares(b.resource) && !what.is_empty() {
                        found.push((k, format!("{what} of {}", device.memory.name(b.resource))));
                    }
                    k += 1;
                }
                for t in &g.textures {
                    let activates = t.layout_before == Layout::Undefined && t.flags.discard;
                    let what = match (activates, t.access_after) {
                        (true, _) => "activation",
                        (_, Access::NO_ACCESS) => "deactivation",
                        _ => "",
                    };
                    if shares(t.resource) && !what.is_empty() {
                        found.push((k, format!("{what} of {}", device.memory.name(t.resource))));
                    }
                    k += 1;
                }
            }
            Command::WaitFence(_) if s.label != present => waits += 1,
            _ => {}
        }
    }
    (found, waits)
}

/// A validated run's diagnostics, and the hand-overs and waits of the dropped frame.
fn clean(seed: u64, text: &str, aliasing: bool) -> (Vec<String>, Vec<(usize, String)>, usize) {
    let mut rt = fastframe::Runtime::from_str(text, &format!("aliased-{seed}.ron"))
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    rt.set_validation(true);
    rt.settings_mut().order = order(seed);
    rt.settings_mut().aliasing = aliasing;
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    rt.run(5)
        .unwrap_or_else(|e| panic!("seed {seed} ({:?}): {e}\n{text}", order(seed)));
    let diags: Vec<String> = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    let mut device = rt.world.resource_mut::<Device>();
    let trace = device.trace.take().unwrap_or_default();
    let present = device.label("present");
    let (found, waits) = hand_overs(&trace, present, &device);
    (diags, found, waits)
}

#[test]
fn aliased_random_graphs_validate_clean_and_every_dropped_hand_over_is_caught() {
    let (mut graphs, mut dropped, mut waits_dropped) = (0, 0, 0);
    for seed in 0..1000u64 {
        let text = scene_with(seed, ALIASED);
        let (diags, hand_overs, waits) = clean(seed, &text, true);
        assert!(
            diags.is_empty(),
            "seed {seed} ({:?}): {}\n{text}",
            order(seed),
            diags.join("\n")
        );
        if hand_overs.is_empty() {
            continue;
        }
        graphs += 1;
        for (k, what) in &hand_overs {
            assert!(
                drop_is_caught(&text, seed, "barrier", *k),
                "seed {seed} ({:?}): dropping barrier {k}, the {what}, went unnoticed\n{text}",
                order(seed)
            );
            dropped += 1;
        }
        // A wait of each aliased graph in turn (all of them every few graphs): placement
        // hands bytes across queues only where a fence orders it (V0814).
        let mut rng = Rng(seed ^ 0x5eed);
        let chosen: Vec<usize> = match seed % 4 {
            0 => (0..waits).collect(),
            _ if waits > 0 => vec![rng.next() as usize % waits],
            _ => Vec::new(),
        };
        for k in chosen {
            assert!(
                drop_is_caught(&text, seed, "fence-wait", k),
                "seed {seed} ({:?}): dropping fence wait {k} of {waits} went unnoticed\n{text}",
                order(seed)
            );
            waits_dropped += 1;
        }
    }
    eprintln!(
        "{graphs} graphs share memory: {dropped} hand-over barriers and {waits_dropped} waits dropped"
    );
    assert!(graphs >= 100, "the corpus places shared memory ({graphs})");
    assert!(
        dropped >= 300,
        "the corpus exercises hand-overs ({dropped})"
    );
    assert!(waits_dropped >= 100, "and fence waits ({waits_dropped})");
}
