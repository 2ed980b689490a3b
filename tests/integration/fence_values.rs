//! Fences with values, as D3D12 uses them (`Signal`, `Wait`, `WaitForFenceCpu` with `value`
//! or `back`): a wait is met by the first Signal to reach its value, values never decrease
//! and a Signal may repeat the one the fence holds, and values at their limits are errors,
//! not panics. The scenes are `tests/data/commands/`'s.

use crate::commands::{clean, codes_of, scene, twin_finds};

#[test]
fn fences_with_values_wait_on_the_value_asked_for() {
    let cpu = r#"WaitForFenceCpu(fence: "produced"),"#;
    // A queue wait on the latest value orders the copy as the CPU wait did.
    let (found, err) = codes_of(
        "gpu-wait.ron",
        &scene("cpu_wait.ron").replace(cpu, r#"Wait(fence: "produced"),"#),
    );
    assert_eq!((found, err), (Vec::new(), None));
    // The value one Signal back is the previous frame's: this frame's copy races.
    let back = r#"Wait(fence: "produced", back: 1),"#;
    twin_finds("cpu_wait.ron", cpu, back, "V0511");
    // Absolute values: frame f signals f + 1, so value 1 is frame 0's only.
    let (found, _) = codes_of(
        "value-1.ron",
        &scene("cpu_wait.ron").replace(cpu, r#"Wait(fence: "produced", value: 1),"#),
    );
    assert_eq!(found, ["V0511"]);
}

#[test]
fn a_fence_signalled_to_a_value_below_its_last_is_an_error() {
    let text = scene("cpu_wait.ron").replace(
        r#"Signal(fence: "produced"),"#,
        r#"Signal(fence: "produced", value: 5), Signal(fence: "produced", value: 4),"#,
    );
    let (_, err) = codes_of("signal-below.ron", &text);
    let err = err.unwrap_or_default();
    assert!(err.contains("never decrease"), "{err}");
}

#[test]
fn a_signal_may_repeat_the_value_a_fence_holds_and_a_wait_for_it_is_met_by_the_first() {
    let signal = r#"Signal(fence: "produced"),"#;
    // Every frame signals 5, as D3D12 allows: from frame 1 on the fence already holds 5
    // when the copy starts, so the CPU's wait for the latest value, 5, returns at once and
    // orders nothing (V0511), whether it names the value or not.
    let again = r#"Signal(fence: "produced", value: 5),"#;
    let (found, err) = codes_of(
        "signal-again.ron",
        &scene("cpu_wait.ron").replace(signal, again),
    );
    assert_eq!((found, err), (vec!["V0511".to_owned()], None));
    let text = scene("cpu_wait.ron").replace(signal, again).replace(
        r#"WaitForFenceCpu(fence: "produced"),"#,
        r#"WaitForFenceCpu(fence: "produced", value: 5),"#,
    );
    let (found, err) = codes_of("signal-again-value.ron", &text);
    assert_eq!((found, err), (vec!["V0511".to_owned()], None));
    // Values that rise each frame keep the wait on this frame's copy.
    clean("cpu_wait.ron");
}

#[test]
fn fence_values_at_their_limits_are_errors_not_panics() {
    let text = scene("cpu_wait.ron")
        .replace(
            r#"Signal(fence: "produced"),"#,
            r#"Signal(fence: "produced", value: 18446744073709551615), Signal(fence: "produced"),"#,
        )
        .replace(
            r#"Wait(fence: "consumed"),"#,
            r#"Wait(fence: "consumed", back: 18446744073709551615),"#,
        );
    let (_, err) = codes_of("limits.ron", &text);
    let err = err.unwrap_or_default();
    assert!(err.contains("has no next value"), "{err}");
}
