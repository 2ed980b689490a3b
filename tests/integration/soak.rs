//! Soak: a steady run holds its memory. The runtime's own structures (statistics, the
//! validator's records, the device's tables, entities) must not grow between frame 1,000 and
//! frame 10,000 of `scenes/deferred.ron` with validation on (issue 22). Tables that fill and
//! prune in steps (the hazard tracker's recent fences per queue) are compared at their
//! largest over the last 100 frames before each point, so the comparison does not depend on
//! where in a step a frame falls.

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
            l.entries <= e.entries && l.bytes <= e.bytes,
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
