//! Placed resources sharing memory (EB-5, EB-9d): deactivate, then activate in a later call.

use super::*;
use crate::barrier::{Access, BarrierGroup, BufferBarrier, Sync};
use crate::device::FenceId;

struct Heap {
    device: Device,
    a: ObjectKey,
    b: ObjectKey,
    /// Placed after `a` and `b`, overlapping neither.
    c: ObjectKey,
    src: ObjectKey,
}

fn heap() -> Heap {
    let mut device = Device::default();
    let buf = |size| {
        ObjectDesc::Buffer(Buffer {
            size,
            usage: BufferUsage::Default,
            unordered_access: false,
        })
    };
    let h = device.memory.create_heap("heap", 8192);
    let a = device.memory.create_placed("a", buf(4096), h, 0).unwrap();
    let b = device
        .memory
        .create_placed("b", buf(4096), h, 2048)
        .unwrap();
    let c = device
        .memory
        .create_placed("c", buf(2048), h, 6144)
        .unwrap();
    let src = device.create("src", buf(4096)).unwrap();
    Heap {
        device,
        a,
        b,
        c,
        src,
    }
}

fn barrier(resource: ObjectKey, before: Access, after: Access) -> BufferBarrier<ObjectKey> {
    BufferBarrier {
        sync_before: Sync::COPY,
        sync_after: Sync::COPY,
        access_before: before,
        access_after: after,
        resource,
    }
}

fn call(barriers: Vec<BufferBarrier<ObjectKey>>) -> Command {
    Command::Barrier(BarrierGroup {
        buffers: barriers,
        ..Default::default()
    })
}

fn copy(src: ObjectKey, dst: ObjectKey) -> Command {
    Command::CopyResource {
        src,
        dst,
        bytes: 4096,
    }
}

fn deactivate(r: ObjectKey) -> BufferBarrier<ObjectKey> {
    barrier(r, Access::COPY_DEST, Access::NO_ACCESS)
}

fn activate(r: ObjectKey) -> BufferBarrier<ObjectKey> {
    barrier(r, Access::NO_ACCESS, Access::COPY_DEST)
}

/// The aliasing codes a graphics stream raises.
fn aliasing(h: &Heap, cmds: &[Command]) -> Vec<Code> {
    aliasing_across(h, &[(QueueId::Graphics, cmds.to_vec())])
}

#[test]
fn handing_memory_over_takes_a_deactivation_then_an_activation() {
    let h = heap();
    let good = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a)]),
        call(vec![activate(h.b)]),
        copy(h.src, h.b),
    ];
    assert!(aliasing(&h, &good).is_empty());
    let unactivated = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a)]),
        copy(h.src, h.b),
    ];
    assert_eq!(aliasing(&h, &unactivated), vec![Code::AliasNotActivated]);
    let not_deactivated = [
        copy(h.src, h.a),
        call(vec![activate(h.b)]),
        copy(h.src, h.b),
    ];
    assert_eq!(
        aliasing(&h, &not_deactivated),
        vec![Code::AliasNotActivated]
    );
    // Barriers on different resources in one call are unordered (barrier-spec A3.5).
    let one_call = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a), activate(h.b)]),
        copy(h.src, h.b),
    ];
    assert_eq!(aliasing(&h, &one_call), vec![Code::AliasNotActivated]);
    // Going back to `a` takes the same steps the other way.
    let back = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a)]),
        call(vec![activate(h.b)]),
        copy(h.src, h.b),
        copy(h.src, h.a),
    ];
    assert_eq!(aliasing(&h, &back), vec![Code::AliasNotActivated]);
}

#[test]
fn resources_that_do_not_overlap_do_not_alias() {
    let h = heap();
    assert!(aliasing(&h, &[copy(h.src, h.a), copy(h.src, h.c)]).is_empty());
    // `b` overlaps `a`, but `b` was never used before: nothing to hand over.
    assert!(aliasing(&h, &[copy(h.src, h.b), copy(h.src, h.c)]).is_empty());
}

#[test]
fn reading_an_activated_resource_before_writing_it_reads_garbage() {
    let h = heap();
    let read_first = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a)]),
        call(vec![barrier(h.b, Access::NO_ACCESS, Access::COPY_SOURCE)]),
        copy(h.b, h.src),
    ];
    assert_eq!(aliasing(&h, &read_first), vec![Code::AliasReadBeforeWrite]);
    let written_first = [
        copy(h.src, h.a),
        call(vec![deactivate(h.a)]),
        call(vec![activate(h.b)]),
        copy(h.src, h.b),
        call(vec![barrier(h.b, Access::COPY_DEST, Access::COPY_SOURCE)]),
        copy(h.b, h.src),
    ];
    assert!(aliasing(&h, &written_first).is_empty());
}

/// The aliasing codes of streams observed in turn, each on its queue.
fn aliasing_across(h: &Heap, streams: &[(QueueId, Vec<Command>)]) -> Vec<Code> {
    let mut v = Validator::new(true);
    for (queue, cmds) in streams {
        v.observe(&h.device, *queue, 0, 0, cmds);
    }
    (v.diagnostics.iter())
        .map(|d| d.code)
        .filter(|c| c.as_str().starts_with("V081"))
        .collect()
}

#[test]
fn a_hand_over_between_queues_waits_for_a_fence_after_the_deactivation() {
    let h = heap();
    let compute = QueueId::Compute { pipe: 0, index: 0 };
    let graphics = |fence: bool| {
        let mut cmds = vec![copy(h.src, h.a), call(vec![deactivate(h.a)])];
        if fence {
            cmds.push(Command::InsertFence {
                fence: FenceId(1),
                kickoff: true,
            });
        }
        (QueueId::Graphics, cmds)
    };
    let on_compute = |wait: bool| {
        let mut cmds = Vec::new();
        if wait {
            cmds.push(Command::WaitFence(FenceId(1)));
        }
        cmds.extend([call(vec![activate(h.b)]), copy(h.src, h.b)]);
        (compute, cmds)
    };
    let fenced = [graphics(true), on_compute(true)];
    assert!(aliasing_across(&h, &fenced).is_empty());
    // Seen in the right order, but nothing makes compute wait for graphics.
    assert_eq!(
        aliasing_across(&h, &[graphics(true), on_compute(false)]),
        vec![Code::AliasHandOverUnfenced]
    );
    // The fence must come after the deactivation, whose write-backs race otherwise.
    let early = (
        QueueId::Graphics,
        vec![
            copy(h.src, h.a),
            Command::InsertFence {
                fence: FenceId(1),
                kickoff: true,
            },
            call(vec![deactivate(h.a)]),
        ],
    );
    assert_eq!(
        aliasing_across(&h, &[early, on_compute(true)]),
        vec![Code::AliasHandOverUnfenced]
    );
    // On one queue the stream orders the hand-over.
    let same = [graphics(false), (QueueId::Graphics, on_compute(false).1)];
    assert!(aliasing_across(&h, &same).is_empty());
}

#[test]
fn a_hand_over_on_one_queue_is_ordered_by_its_barriers_syncs() {
    // The protocol is kept (deactivated, then activated in a later call), but the
    // deactivation's SyncAfter and the activation's SyncBefore are both NONE: the copy into
    // `b` may overtake the copy into `a` on the same bytes (EB-5, memory hazards).
    let h = heap();
    let with = |before_b: Sync| {
        let mut off = deactivate(h.a);
        off.sync_after = Sync::NONE;
        let mut on = activate(h.b);
        on.sync_before = before_b;
        [
            copy(h.src, h.a),
            call(vec![off]),
            call(vec![on]),
            copy(h.src, h.b),
        ]
    };
    assert_eq!(aliasing(&h, &with(Sync::NONE)), vec![Code::AliasNotOrdered]);
    assert!(aliasing(&h, &with(Sync::COPY)).is_empty());
    // `c` shares no bytes with `a`: nothing to order.
    let apart = [copy(h.src, h.a), copy(h.src, h.c)];
    assert!(aliasing(&h, &apart).is_empty());
}

#[test]
fn a_write_handed_over_across_queues_is_written_back_before_the_fence() {
    let h = heap();
    let compute = QueueId::Compute { pipe: 0, index: 0 };
    let streams = |written_back: bool| {
        let mut off = deactivate(h.a);
        if !written_back {
            off.access_before = Access::NO_ACCESS;
        }
        let fence = Command::InsertFence {
            fence: FenceId(1),
            kickoff: true,
        };
        let graphics = vec![copy(h.src, h.a), call(vec![off]), fence];
        let wait = Command::WaitFence(FenceId(1));
        let on_compute = vec![wait, call(vec![activate(h.b)]), copy(h.src, h.b)];
        let mut v = Validator::new(true);
        v.observe(&h.device, QueueId::Graphics, 0, 0, &graphics);
        v.observe(&h.device, compute, 0, 0, &on_compute);
        (v.diagnostics.iter())
            .map(|d| (d.code, d.resource.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(streams(true), vec![]);
    assert_eq!(
        streams(false),
        vec![(Code::WriteNotVisible, "b".to_owned())]
    );
}
