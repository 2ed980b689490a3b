//! Hazards by happens-before: one stream that triggers each, one near-identical that does not.
use super::*;
use crate::barrier::{Access, BarrierGroup, GlobalBarrier, Sync};

pub(super) const CS: QueueId = QueueId::Compute { pipe: 0, index: 0 };

pub(super) struct H {
    pub(super) device: Device,
    pub(super) uav: ObjectKey,
    pub(super) srv: ObjectKey,
    pub(super) tex: ObjectKey,
}

/// A structured buffer read and written through views: buffers have no layout, so only
/// ordering and visibility are at stake.
pub(super) fn setup() -> H {
    let mut device = Device::default();
    let b = Buffer {
        size: 4096,
        usage: BufferUsage::Default,
        unordered_access: true,
    };
    let tex = device.create("particles", ObjectDesc::Buffer(b)).unwrap();
    let uav = device
        .create(
            "hdr.uav",
            ObjectDesc::View {
                of: tex,
                kind: ViewKind::Uav,
                range: crate::barrier::SubresourceRange::ALL,
            },
        )
        .unwrap();
    let srv = device
        .create(
            "hdr.srv",
            ObjectDesc::View {
                of: tex,
                kind: ViewKind::Srv,
                range: crate::barrier::SubresourceRange::ALL,
            },
        )
        .unwrap();
    H {
        device,
        uav,
        srv,
        tex,
    }
}

pub(super) fn write(h: &H) -> Vec<Command> {
    vec![
        Command::SetPipelineState(1),
        Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views: vec![h.uav],
            writes: true,
        },
        Command::Dispatch {
            dispatches: 1,
            threads: 64,
        },
    ]
}

fn read(h: &H) -> Vec<Command> {
    vec![
        Command::SetPipelineState(2),
        Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views: vec![h.srv],
            writes: true,
        },
        Command::Dispatch {
            dispatches: 1,
            threads: 64,
        },
    ]
}

fn flush(before: Access, after: Access) -> Command {
    let mut g = BarrierGroup::default();
    g.global.push(GlobalBarrier {
        sync_before: Sync::COMPUTE_SHADING,
        sync_after: Sync::COMPUTE_SHADING,
        access_before: before,
        access_after: after,
    });
    Command::Barrier(g)
}

fn run(h: &H, submissions: &[(QueueId, Vec<Command>)]) -> Vec<Code> {
    let mut v = Validator::new(true);
    for (q, cmds) in submissions {
        v.observe(&h.device, *q, 0, 0, cmds);
    }
    v.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn read_after_write_needs_a_barrier_on_one_queue() {
    let h = setup();
    assert_eq!(
        run(&h, &[(CS, write(&h)), (CS, read(&h))]),
        vec![Code::ReadAfterWrite]
    );
    let barrier = flush(Access::UNORDERED_ACCESS, Access::SHADER_RESOURCE);
    assert!(run(&h, &[(CS, write(&h)), (CS, vec![barrier]), (CS, read(&h))]).is_empty());
}

#[test]
fn a_barrier_that_skips_the_caches_orders_but_does_not_make_visible() {
    let h = setup();
    // The write is never written back (AccessBefore NO_ACCESS), so the read is ordered
    // but sees stale memory.
    let barrier = flush(Access::NO_ACCESS, Access::SHADER_RESOURCE);
    assert_eq!(
        run(&h, &[(CS, write(&h)), (CS, vec![barrier]), (CS, read(&h))]),
        vec![Code::WriteNotVisible]
    );
}

#[test]
fn a_barrier_on_the_wrong_stages_does_not_order() {
    let h = setup();
    let mut g = BarrierGroup::default();
    g.global.push(GlobalBarrier {
        // A valid barrier (COPY is legal on a compute queue, A5) that does not reach the
        // dispatch.
        sync_before: Sync::COPY,
        sync_after: Sync::COMPUTE_SHADING,
        access_before: Access::COPY_DEST,
        access_after: Access::SHADER_RESOURCE,
    });
    assert_eq!(
        run(
            &h,
            &[
                (CS, write(&h)),
                (CS, vec![Command::Barrier(g)]),
                (CS, read(&h))
            ]
        ),
        vec![Code::ReadAfterWrite]
    );
}

#[test]
fn write_after_read_and_write_after_write() {
    let h = setup();
    assert_eq!(
        run(&h, &[(CS, read(&h)), (CS, write(&h))]),
        vec![Code::WriteAfterRead]
    );
    assert_eq!(
        run(&h, &[(CS, write(&h)), (CS, write(&h))]),
        vec![Code::WriteAfterWrite]
    );
    let b = flush(Access::UNORDERED_ACCESS, Access::UNORDERED_ACCESS);
    assert!(run(&h, &[(CS, write(&h)), (CS, vec![b]), (CS, write(&h))]).is_empty());
}

#[test]
fn across_queues_only_a_fence_orders() {
    let mut h = setup();
    let gfx = QueueId::Graphics;
    let mut read_gfx = read(&h);
    read_gfx[1] = Command::SetResources {
        stage: ShaderStage::Compute,
        first_slot: 0,
        views: vec![h.srv],
        writes: true,
    };
    // No fence: the read races the write.
    assert_eq!(
        run(&h, &[(CS, write(&h)), (gfx, read_gfx.clone())]),
        vec![Code::ReadRacingWrite]
    );
    // Fence after the write (with its caches written back), waited on before the read.
    let f = h.device.next_fence(CS);
    let mut producer = write(&h);
    producer.push(flush(Access::UNORDERED_ACCESS, Access::SHADER_RESOURCE));
    producer.push(Command::InsertFence {
        fence: f,
        kickoff: true,
    });
    let mut consumer = vec![Command::WaitFence(f)];
    consumer.extend(read_gfx.clone());
    // Ordered, but the consumer never invalidated its caches (FS-2).
    assert_eq!(
        run(&h, &[(CS, producer.clone()), (gfx, consumer)]),
        vec![Code::WriteNotVisible]
    );
    let mut acquire = BarrierGroup::default();
    acquire.buffers.push(crate::barrier::BufferBarrier {
        sync_before: Sync::NONE,
        sync_after: Sync::COMPUTE_SHADING,
        access_before: Access::NO_ACCESS,
        access_after: Access::SHADER_RESOURCE,
        resource: h.tex,
    });
    let mut consumer = vec![Command::WaitFence(f), Command::Barrier(acquire)];
    consumer.extend(read_gfx.clone());
    assert!(run(&h, &[(CS, producer.clone()), (gfx, consumer)]).is_empty());
    // The fence before the write does not cover it.
    let g = h.device.next_fence(CS);
    let early = vec![Command::InsertFence {
        fence: g,
        kickoff: true,
    }];
    let mut consumer = vec![Command::WaitFence(g)];
    consumer.extend(read_gfx);
    assert_eq!(
        run(&h, &[(CS, early), (CS, write(&h)), (gfx, consumer)]),
        vec![Code::ReadRacingWrite]
    );
}

#[test]
fn waits_on_fences_never_inserted_are_reported() {
    let mut h = setup();
    let f = h.device.next_fence(CS);
    assert_eq!(
        run(&h, &[(QueueId::Graphics, vec![Command::WaitFence(f)])]),
        vec![Code::WaitOnUninsertedFence]
    );
}

#[test]
fn releases_are_checked_against_fences_and_bindings() {
    let mut h = setup();
    let mut v = Validator::new(true);
    let f = h.device.next_fence(CS);
    let mut cmds = write(&h);
    cmds.push(Command::InsertFence {
        fence: f,
        kickoff: true,
    });
    v.observe(&h.device, CS, 0, 0, &cmds);
    h.device.submit(CS, 0, 0, cmds, 0).unwrap();
    // Bound and not yet covered by a passed fence.
    v.observe_release(&h.device, h.tex, 0, 0, 0);
    let codes: Vec<_> = v.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::ReleasedWhileBound, Code::ReleasedBeforeFence]
    );
    // Unbound (a present or clear-state resets bindings) and after the fence passed: clean.
    let mut v2 = Validator::new(true);
    let mut cmds = write(&h);
    let g = h.device.next_fence(CS);
    cmds.extend([
        Command::ClearState,
        Command::InsertFence {
            fence: g,
            kickoff: true,
        },
    ]);
    v2.observe(&h.device, CS, 1, 0, &cmds);
    h.device.submit(CS, 1, 0, cmds, 0).unwrap();
    let t = h.device.wait_fence_cpu(g).unwrap();
    v2.observe_release(&h.device, h.tex, t, 1, 0);
    assert!(v2.diagnostics.is_empty(), "{:?}", v2.diagnostics);
}

/// CC-3: a placement binding's base address overrides the view's, so the dispatch writes
/// the memory at that address: a later read of it needs the barrier, a read of the view's
/// own resource does not.
#[test]
fn a_placement_binding_touches_the_memory_at_its_base_address() {
    let mut h = setup();
    let b = Buffer {
        size: 4096,
        usage: BufferUsage::Default,
        unordered_access: true,
    };
    let other = h.device.create("other", ObjectDesc::Buffer(b)).unwrap();
    let other_srv = (h.device)
        .create(
            "other.srv",
            ObjectDesc::View {
                of: other,
                kind: ViewKind::Srv,
                range: crate::barrier::SubresourceRange::ALL,
            },
        )
        .unwrap();
    let placed = vec![
        Command::SetPipelineState(1),
        Command::CSSetPlacementResource {
            slot: 0,
            view: h.uav,
            base: other,
            offset: 0,
        },
        Command::Dispatch {
            dispatches: 1,
            threads: 64,
        },
    ];
    // The view's own buffer was not written: reading it is no hazard.
    assert!(run(&h, &[(CS, placed.clone()), (CS, read(&h))]).is_empty());
    // The buffer at the base address was.
    let mut read_other = read(&h);
    read_other[1] = Command::SetResources {
        stage: ShaderStage::Compute,
        first_slot: 0,
        views: vec![other_srv],
        writes: true,
    };
    let mut v = Validator::new(true);
    v.observe(&h.device, CS, 0, 0, &placed);
    v.observe(&h.device, CS, 0, 0, &read_other);
    let found: Vec<(Code, &str)> = (v.diagnostics.iter())
        .map(|d| (d.code, d.resource.as_str()))
        .collect();
    assert_eq!(found, [(Code::ReadAfterWrite, "other")]);
    // Setting the slot again with SetResources drops the override.
    let mut rebound = placed.clone();
    rebound.insert(2, write(&h)[1].clone());
    assert_eq!(
        run(&h, &[(CS, rebound), (CS, read(&h))]),
        vec![Code::ReadAfterWrite]
    );
}

#[test]
fn a_draw_writes_its_stream_output_targets() {
    // FS-14: what the geometry stages stream out is a write; the draw that reads it back as
    // vertices is ordered after it only by a barrier.
    let h = setup();
    let gfx = QueueId::Graphics;
    let draw = Command::Draw {
        draws: 1,
        vertices: 3000,
        pixels: 0,
    };
    let stream_out = vec![
        Command::SetPipelineState(1),
        Command::SOSetTargets {
            buffers: vec![h.tex],
            offsets: vec![0],
        },
        draw.clone(),
        Command::SOSetTargets {
            buffers: Vec::new(),
            offsets: Vec::new(),
        },
    ];
    let read_back = vec![
        Command::SetVertexBuffers {
            buffers: vec![h.tex],
        },
        draw,
    ];
    // The draws set no viewport or targets (V0201): only the hazards matter here.
    let hazards = |subs: &[(QueueId, Vec<Command>)]| {
        let mut found = run(&h, subs);
        found.retain(|c| *c != Code::StateNotSet);
        found
    };
    assert_eq!(
        hazards(&[(gfx, stream_out.clone()), (gfx, read_back.clone())]),
        vec![Code::ReadAfterWrite]
    );
    let mut g = BarrierGroup::default();
    g.global.push(GlobalBarrier {
        sync_before: Sync::VERTEX_SHADING,
        sync_after: Sync::VERTEX_SHADING,
        access_before: Access::STREAM_OUTPUT,
        access_after: Access::VERTEX_BUFFER,
    });
    let barrier = vec![Command::Barrier(g)];
    assert!(hazards(&[(gfx, stream_out), (gfx, barrier), (gfx, read_back)]).is_empty());
}
