//! Fault injection: each omitted step, on `scenes/deferred.ron`, is caught by the validation
//! layer with its rule (RL-4), and the same run without the fault is clean.

use fastframe::Runtime;
use std::collections::BTreeSet;

fn rules_with(fault: Option<&str>, frames: u64) -> (BTreeSet<&'static str>, Option<String>) {
    let mut rt = Runtime::from_scene("scenes/deferred.ron").expect("scene loads");
    rt.set_validation(true);
    rt.settings_mut().fault = fault.map(|f| f.parse().expect("a known fault"));
    let result = rt.run(frames);
    let rules = rt.diagnostics().iter().map(|d| d.rule).collect();
    (rules, result.err().map(|e| e.to_string()))
}

#[test]
fn without_a_fault_the_scene_is_clean() {
    let (rules, err) = rules_with(None, 12);
    assert!(rules.is_empty(), "{rules:?}");
    assert!(err.is_none());
}

#[test]
fn every_fault_is_caught_with_its_rule() {
    let cases: [(&str, &[&str]); 10] = [
        ("skip-wait-on-present", &["FS-5"]),
        ("skip-rotation", &["FS-9"]),
        ("drop-barrier=gbuffer", &["FS-2", "FS-3", "EB-1"]),
        ("drop-barrier=depth_prepass", &["FS-2", "FS-3", "EB-1"]),
        ("drop-fence-wait", &["FS-1"]),
        ("drop-fence-wait=lighting", &["FS-1"]),
        ("early-release", &["FS-6"]),
        ("skip-decompress", &["FS-4"]),
        ("skip-rebind", &["FS-8"]),
        ("skip-cache-flush", &["FS-2"]),
    ];
    for (fault, expected) in cases {
        let (rules, _) = rules_with(Some(fault), 12);
        assert!(
            expected.iter().any(|r| rules.contains(r)),
            "{fault}: expected one of {expected:?}, got {rules:?}"
        );
    }
}

#[test]
fn early_release_is_refused_by_the_device_too() {
    let (_, err) = rules_with(Some("early-release"), 12);
    let err = err.expect("the device refuses to destroy what the GPU uses");
    assert!(err.contains("FS-6"), "{err}");
}
