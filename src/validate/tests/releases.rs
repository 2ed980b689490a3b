//! Releases before a fence (FS-6) and CPU writes of mapped memory (FS-1): what the diagnostic
//! names of the access each races, on the happens-before streams of [`super::hazards`].
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

/// FS-1, FN-2: a CPU write of a mapped resource the GPU still uses races that use, and is
/// named with it; a fence covering the use that has passed is no help until the CPU has
/// seen it pass, and then the same write is clean.
#[test]
fn a_cpu_write_is_checked_against_the_fences_the_cpu_saw_pass() {
    let mut h = setup();
    let mut v = Validator::new(true);
    let sim = h.device.label("simulate");
    let f = h.device.next_fence(CS);
    let mut cmds = write(&h);
    cmds.extend([
        Command::ClearState,
        Command::InsertFence {
            fence: f,
            kickoff: true,
        },
    ]);
    v.observe(&h.device, CS, 2, sim, &cmds);
    h.device.submit(CS, 2, sim, cmds, 0).unwrap();
    v.observe_cpu_write(&h.device, h.tex, 256, 2, 0);
    let found: Vec<_> = (v.diagnostics.iter())
        .map(|d| (d.code, d.message.clone()))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, Code::CpuWriteRacingGpu);
    assert!(
        found[0].1.contains("by pass simulate (this frame"),
        "{}",
        found[0].1
    );
    // The fence has passed on the GPU, unobserved: the CPU knows nothing of it.
    let t = h.device.wait_fence_cpu(f).unwrap();
    v.diagnostics.clear();
    v.observe_cpu_write(&h.device, h.tex, 256, 2, 0);
    let codes: Vec<_> = v.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::CpuWriteRacingGpu]);
    // Once the CPU has seen it pass, the write is ordered after the use.
    v.diagnostics.clear();
    v.observe_fence_cpu(&h.device, f, t);
    v.observe_cpu_write(&h.device, h.tex, 256, 2, 0);
    assert!(v.diagnostics.is_empty(), "{:?}", v.diagnostics);
}
