//! Releases before a fence (FS-6): what the diagnostic names of the access it races, on the
//! happens-before streams of [`super::hazards`].
use super::hazards::{CS, setup, write};
use super::*;

/// FS-6: a view released before a fence covers the dispatch that bound it is named with that
/// dispatch's pass and frame, as a resource's own accesses are.
#[test]
fn a_view_released_unfenced_names_the_pass_and_frame_that_used_it() {
    let mut h = setup();
    let mut v = Validator::new(true);
    let sim = h.device.label("simulate");
    let mut cmds = write(&h);
    cmds.push(Command::ClearState);
    v.observe(&h.device, CS, 3, sim, &cmds);
    h.device.submit(CS, 3, sim, cmds, 0).unwrap();
    v.observe_release(&h.device, h.uav, 0, 3, 0);
    let found: Vec<_> = (v.diagnostics.iter())
        .map(|d| (d.code, d.message.clone()))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::ReleasedBeforeFence);
    assert!(
        found[0].1.contains("by pass simulate (this frame, queue"),
        "{}",
        found[0].1
    );
}
