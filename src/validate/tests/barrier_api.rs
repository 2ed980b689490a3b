//! EB-11, seed 004: the enhanced Barrier API exists on the Xbox Series only. On the 2013
//! console's device a Barrier call the application made itself is refused; the same call as
//! the driver's translation of legacy barriers (a device whose barriers are legacy ones) is
//! not, and on the 2020 console it is an ordinary barrier.

use super::*;

fn on(profile: Profile, legacy: bool) -> Vec<&'static str> {
    let mut f = fixture();
    f.device.set_profile(profile);
    f.device.set_legacy_barriers(legacy);
    let cmds = frame(&f, |_| {});
    let mut v = Validator::new(true);
    v.observe(&f.device, QueueId::Graphics, 0, 0, &cmds);
    (v.diagnostics.iter())
        .filter(|d| d.message.contains("has no enhanced barriers"))
        .map(|d| d.rule)
        .collect()
}

#[test]
fn an_enhanced_barrier_on_the_2013_console_is_refused() {
    // The seed's loop has two Barrier calls (into RENDER_TARGET and into PRESENT).
    assert_eq!(on(Profile::console_2013(), false), ["EB-11", "EB-11"]);
    // As the translation of legacy transitions (the legacy strategy) they are what the
    // 2013 console's driver issues itself.
    assert!(on(Profile::console_2013(), true).is_empty());
    assert!(on(Profile::console_2020(), false).is_empty());
}
