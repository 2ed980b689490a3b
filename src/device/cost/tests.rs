//! The cost model's unit tests.

use super::*;

#[test]
fn geometry_bound_draws_use_few_compute_units() {
    let p = Profile::default();
    let memory = Memory::default();
    let mut compression = Compression::default();
    let mut ctx = OpContext {
        queue: QueueId::Graphics,
        memory: &memory,
        profile: &p,
        legacy: false,
        dont_sync_on_copy: false,
        shown: None,
        compression: &mut compression,
        shader: None,
    };
    let draw = Command::Draw {
        draws: 600,
        vertices: 2_000_000,
        pixels: 4_194_304,
    };
    let Op::Work(w) = op_for(&draw, &mut ctx) else {
        panic!("a draw is a work item")
    };
    assert!(w.cap < p.capacity_mcu() / 2, "{w:?}");
    assert_eq!(w.floor_ns, p.rate_ns(2_000_000, p.vertices_per_clock));
    let Op::Work(d) = op_for(
        &Command::Dispatch {
            dispatches: 1,
            threads: 1 << 24,
        },
        &mut ctx,
    ) else {
        panic!("a dispatch is a work item")
    };
    assert_eq!(d.cap, p.capacity_mcu());
    assert_eq!(op_for(&Command::Kickoff, &mut ctx), Op::Front);
}

#[test]
fn a_shader_cost_replaces_the_fixed_cycles_and_floors_the_item() {
    let p = Profile::default();
    let memory = Memory::default();
    let mut compression = Compression::default();
    let dispatch = Command::Dispatch {
        dispatches: 1,
        threads: 1 << 20,
    };
    let mut op = |shader| {
        let mut ctx = OpContext {
            queue: QueueId::Graphics,
            memory: &memory,
            profile: &p,
            legacy: false,
            dont_sync_on_copy: false,
            shown: None,
            compression: &mut compression,
            shader,
        };
        match op_for(&dispatch, &mut ctx) {
            Op::Work(w) => w,
            other => panic!("a dispatch is a work item, not {other:?}"),
        }
    };
    let fixed = op(None);
    let costly = op(Some(ShaderCost::new(Some(1280), 0, 0, None)));
    // Ten times the profile's 128 cycles a thread: ten times the shading work.
    assert_eq!(costly.work, p.work_mcu_ns((1 << 20) * 1280));
    assert!(costly.work >= fixed.work * 10 - 10, "{fixed:?} {costly:?}");
    // A measured millisecond floors the item and spreads its shading over it: it holds
    // only the CUs it needs (CC-2).
    let timed = op(Some(ShaderCost::new(None, 0, 0, Some(1000.0))));
    assert_eq!(timed.floor_ns, 1_000_000);
    assert_eq!(timed.work, fixed.work);
    assert!(timed.cap < p.capacity_mcu() / 4, "{timed:?}");
    // Bytes floor it at the memory bandwidth.
    let bound = op(Some(ShaderCost::new(None, 560_000, 0, None)));
    assert_eq!(bound.floor_ns, 1_000);
}
