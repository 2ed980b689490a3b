//! Soak: a steady run holds its memory. The runtime's own structures (statistics, the
//! validator's records, the device's tables, entities) must not grow between frame 1,000 and
//! frame 10,000 of `scenes/deferred.ron` with validation on (issue 22). Tables that fill and
//! prune in steps (the hazard tracker's recent fences per queue) are compared at their
//! largest over the last 100 frames before each point, so the comparison does not depend on
//! where in a step a frame falls. Entries must not grow at all. Bytes are capacities: a hash
//! table whose live entries stay the same still reuses deleted slots as its randomly seeded
//! hasher places keys, and may double once more at a run-dependent frame, so bytes may
//! grow, but to at most twice what they were.

use fastframe::Runtime;
use fastframe::report::{Footprint, HostMemory};

/// The largest of each structure's entries and bytes over `frames` more ticks.
fn largest_over(rt: &mut Runtime, frames: u64) -> [Footprint; 4] {
    let mut top = [Footprint::default(); 4];
    for _ in 0..frames {
        rt.tick().expect("tick");
        let h: HostMemory = rt.host_memory();
        let now = [
            h.stats,
            h.validator,
            h.device,
            Footprint {
                entries: h.entities,
                bytes: 0,
            },
        ];
        for (t, n) in top.iter_mut().zip(now) {
            t.entries = t.entries.max(n.entries);
            t.bytes = t.bytes.max(n.bytes);
        }
    }
    top
}

fn soak(validation: bool, until: u64) {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("deferred loads");
    rt.set_validation(validation);
    for _ in 0..900 {
        rt.tick().expect("tick");
    }
    let early = largest_over(&mut rt, 100);
    for _ in 1000..until - 100 {
        rt.tick().expect("tick");
    }
    let late = largest_over(&mut rt, 100);
    let names = ["stats", "validator", "device", "entities"];
    for ((name, e), l) in names.iter().zip(early).zip(late) {
        assert!(
            l.entries <= e.entries && l.bytes <= 2 * e.bytes.max(1),
            "{name} grew from frame 1,000 ({e:?}) to frame {until} ({l:?}), validation {validation}"
        );
    }
    if validation {
        assert!(early[1].entries > 0, "the validator holds records");
        assert_eq!(rt.summary().validation_errors, 0, "deferred.ron is clean");
    }
}

#[test]
fn structures_do_not_grow_from_frame_1000_to_10000_with_validation() {
    soak(true, 10_000);
}

#[test]
fn structures_do_not_grow_from_frame_1000_to_10000_without_validation() {
    soak(false, 10_000);
}

#[test]
fn run_json_reports_the_structures_and_resident_set() {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("deferred loads");
    rt.set_validation(true);
    rt.run(20).expect("run");
    let json = rt.summary().to_json();
    let host = &json["host"]["structures"];
    for part in ["stats", "validator", "device"] {
        assert!(
            host[part]["bytes"].as_u64().is_some_and(|b| b > 0),
            "{part}"
        );
        assert!(host[part]["entries"].as_u64().is_some(), "{part}");
    }
    assert_eq!(host["entities"], json["lifetime"]["live_entities"]);
    if std::path::Path::new("/proc/self/status").exists() {
        assert!(json["host"]["peak_rss_kib"].as_u64().is_some_and(|k| k > 0));
    }
}

/// A mistake every frame: past the cap the validator counts findings instead of keeping
/// them, and the counts stay exact.
#[test]
fn diagnostics_past_the_cap_are_counted_not_kept() {
    use fastframe::validate::DIAGNOSTICS_KEPT;
    let run = |frames| {
        let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("deferred loads");
        rt.set_validation(true);
        rt.settings_mut().fault = Some("skip-cache-flush".parse().expect("a fault"));
        rt.run(frames).expect("run");
        let s = rt.summary();
        let by_rule: u64 = s.by_rule.iter().map(|(_, n)| n).sum();
        (
            s.validation_errors + s.validation_warnings,
            by_rule,
            rt.diagnostics().len(),
        )
    };
    let (short, short_rules, short_kept) = run(50);
    assert!(short > 0 && short < DIAGNOSTICS_KEPT as u64 / 2, "{short}");
    assert_eq!((short_rules, short_kept), (short, short as usize));
    let (long, long_rules, long_kept) = run(250);
    assert!(long > DIAGNOSTICS_KEPT as u64, "{long}");
    assert_eq!(long_kept, DIAGNOSTICS_KEPT);
    assert_eq!(
        long_rules, long,
        "by_rule counts every finding, kept or not"
    );
    // The mistake repeats every frame: five times the frames, about five times the errors.
    assert!(long >= 4 * short, "{short} in 50 frames, {long} in 250");
}
