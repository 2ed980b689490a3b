//! The simulated device on its own: fences and kickoff (FN-1..FN-3), deadlocks and hangs
//! (FN-3, RL-2), lifetime (FS-6), queues (CC-2), and fences and waits in the timing model.
//! The timing model's analytic cases are in `timing.rs`.

use fastframe::device::*;
use fastframe::model::{Buffer, BufferUsage, Format, Texture, TextureFlags};
use glam::UVec2;

fn buffer(device: &mut Device, name: &str) -> ObjectKey {
    device
        .create(
            name,
            ObjectDesc::Buffer(Buffer {
                size: 1 << 20,
                usage: BufferUsage::Default,
                unordered_access: false,
            }),
        )
        .unwrap()
}

fn chain(device: &mut Device) -> (SwapChainKey, Vec<ObjectKey>) {
    let t = Texture {
        format: Format::Bgra8Unorm,
        extent: UVec2::new(64, 64),
        depth: 1,
        mips: 1,
        array_size: 1,
        samples: 1,
        flags: TextureFlags {
            render_target: true,
            ..Default::default()
        },
    };
    device.create_swap_chain("sc", t, 2, 1)
}

const COMPUTE: QueueId = QueueId::Compute { pipe: 0, index: 0 };

#[test]
fn a_fence_without_kickoff_that_is_never_kicked_off_deadlocks() {
    let mut d = Device::default();
    let f = d.next_fence(COMPUTE);
    d.submit(
        COMPUTE,
        0,
        0,
        [
            Command::Dispatch {
                dispatches: 1,
                threads: 64,
            },
            Command::InsertFence {
                fence: f,
                kickoff: false,
            },
        ],
        0,
    )
    .unwrap();
    match d.wait_fence_cpu(f) {
        Err(DeviceError::Deadlock {
            not_kicked: Some(nk),
            ..
        }) => assert_eq!(nk, f),
        other => panic!("expected a deadlock, got {other:?}"),
    }
    // A later kickoff activates it (FN-3).
    d.submit(COMPUTE, 0, 0, [Command::Kickoff], 0).unwrap();
    assert!(d.wait_fence_cpu(f).is_ok());
}

#[test]
fn queues_waiting_on_each_other_deadlock_and_name_the_fences() {
    let mut d = Device::default();
    let fg = d.next_fence(QueueId::Graphics);
    let fc = d.next_fence(COMPUTE);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [
            Command::WaitFence(fc),
            Command::InsertFence {
                fence: fg,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    d.submit(
        COMPUTE,
        0,
        0,
        [
            Command::WaitFence(fg),
            Command::InsertFence {
                fence: fc,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    match d.wait_fence_cpu(fg) {
        Err(DeviceError::Deadlock {
            waits,
            not_kicked: None,
        }) => {
            assert!(waits.contains(&(QueueId::Graphics, fc)), "{waits:?}");
            assert!(waits.contains(&(COMPUTE, fg)), "{waits:?}");
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
}

#[test]
fn waiting_on_present_after_present_hangs() {
    let mut d = Device::default();
    let (sc, buffers) = chain(&mut d);
    let f = d.next_fence(QueueId::Graphics);
    // RL-2: present buffer 0, then wait on it: only a later present could free it.
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [
            Command::WaitOnPresent(buffers[0]),
            Command::Present(sc),
            Command::WaitOnPresent(buffers[0]),
            Command::InsertFence {
                fence: f,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    match d.wait_fence_cpu(f) {
        Err(DeviceError::Hang {
            queue,
            rule,
            culprit,
        }) => {
            assert_eq!(queue, QueueId::Graphics);
            assert_eq!(rule, "RL-2");
            assert!(culprit.contains("sc[0]"), "{culprit}");
        }
        other => panic!("expected a hang, got {other:?}"),
    }
}

#[test]
fn wait_on_present_before_writing_waits_for_the_flip() {
    let mut d = Device::default();
    let (sc, buffers) = chain(&mut d);
    let f = d.next_fence(QueueId::Graphics);
    // Frame 0 shows buffer 0, frame 1 buffer 1; frame 2 writes buffer 0 again and must wait
    // for the flip that takes it off screen (the second vsync).
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [Command::WaitOnPresent(buffers[0]), Command::Present(sc)],
        0,
    )
    .unwrap();
    d.submit(
        QueueId::Graphics,
        1,
        0,
        [Command::WaitOnPresent(buffers[1]), Command::Present(sc)],
        0,
    )
    .unwrap();
    d.submit(
        QueueId::Graphics,
        2,
        0,
        [
            Command::WaitOnPresent(buffers[0]),
            Command::InsertFence {
                fence: f,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    let t = d.wait_fence_cpu(f).unwrap();
    // The wait ends at the second flip; the fence insert costs one front-end slot and, with
    // nothing in flight, passes as soon as the front end has read it.
    assert_eq!(t, 2 * d.profile.vsync_period_ns + d.profile.command_ns);
    assert_eq!(d.flips(), 2);
    assert_eq!(d.swap_count(sc), 2);
}

#[test]
fn destroying_what_the_gpu_still_uses_is_refused_until_its_fence_passes() {
    let mut d = Device::default();
    let a = buffer(&mut d, "a");
    let b = buffer(&mut d, "b");
    let f = d.next_fence(QueueId::Graphics);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [
            Command::CopyResource {
                src: a,
                dst: b,
                bytes: 1 << 20,
            },
            Command::InsertFence {
                fence: f,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    // Not executed yet (FS-6).
    assert!(matches!(d.destroy(a, 0), Err(DeviceError::InUse { .. })));
    d.run_until_idle();
    let t = d.fence_signal_ns(f).unwrap();
    assert!(t > 0);
    assert!(d.is_fence_pending(f, t - 1));
    // The fence is a bottom-of-pipe event: it passes when the copy before it ends, and until
    // then `a` is busy.
    let copy_end = t;
    assert_eq!(
        copy_end,
        Profile::transfer_ns(1 << 20, d.profile.memory_bytes_per_us)
    );
    assert!(matches!(
        d.destroy(a, copy_end - 1),
        Err(DeviceError::InUse { .. })
    ));
    assert!(!d.is_fence_pending(f, t));
    d.destroy(a, t).unwrap();
    // Using it afterwards is a device error, not a crash.
    let err = d.submit(
        QueueId::Graphics,
        1,
        0,
        [Command::CopyResource {
            src: a,
            dst: b,
            bytes: 4,
        }],
        t,
    );
    assert!(matches!(err, Err(DeviceError::Destroyed { .. })));
}

#[test]
fn commands_are_refused_on_queues_that_cannot_run_them() {
    let mut d = Device::default();
    let err = d.submit(
        QueueId::Dma { engine: 0 },
        0,
        0,
        [Command::Draw {
            draws: 1,
            vertices: 3,
            pixels: 1,
        }],
        0,
    );
    assert!(matches!(err, Err(DeviceError::WrongQueue { .. })));
    let err = d.submit(
        QueueId::Compute { pipe: 0, index: 6 },
        0,
        0,
        [Command::Kickoff],
        0,
    );
    assert!(matches!(err, Err(DeviceError::NoSuchQueue { .. })));
    // Nine compute queues (six on pipe 0, three on pipe 1) and two DMA engines exist (CC-2).
    for pipe in 0..2u8 {
        for index in 0..COMPUTE_QUEUES_PER_PIPE[pipe as usize] {
            d.submit(
                QueueId::Compute { pipe, index },
                0,
                0,
                [Command::Kickoff],
                0,
            )
            .unwrap();
        }
    }
}

#[test]
fn timing_is_work_over_rate_and_waits_end_at_the_fence() {
    let mut d = Device::default();
    let p = d.profile.clone();
    let fc = d.next_fence(COMPUTE);
    let fg = d.next_fence(QueueId::Graphics);
    let threads = 400_000;
    d.submit(
        COMPUTE,
        0,
        0,
        [
            Command::Dispatch {
                dispatches: 1,
                threads,
            },
            Command::InsertFence {
                fence: fc,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [
            Command::WaitFence(fc),
            Command::InsertFence {
                fence: fg,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    d.run_until_idle();
    // The dispatch runs alone on a pipe-0 queue, at its 4-CU limit (CC-2); the fence after it
    // passes when it ends.
    let work = p.work_mcu_ns(threads * p.thread_cycles as u64);
    let dispatch = work.div_ceil(p.pipe0_cu_limit as u64 * 1000);
    assert!(dispatch > p.dispatch_ns);
    assert_eq!(d.fence_signal_ns(fc), Some(dispatch));
    // The graphics queue waited for the compute fence, then spent one front-end slot.
    assert_eq!(d.fence_signal_ns(fg), Some(dispatch + p.command_ns));
    let stalls: Vec<_> = d
        .drain_executed()
        .into_iter()
        .filter(|x| x.stall == Stall::Fence)
        .collect();
    assert_eq!(stalls.len(), 1);
    assert_eq!(stalls[0].stall_ns, dispatch);
}

#[test]
fn old_fences_stay_passed_after_the_map_is_pruned() {
    let mut d = Device::default();
    let first = d.next_fence(QueueId::Graphics);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [Command::InsertFence {
            fence: first,
            kickoff: true,
        }],
        0,
    )
    .unwrap();
    for _ in 0..10_000 {
        let f = d.next_fence(QueueId::Graphics);
        d.submit(
            QueueId::Graphics,
            0,
            0,
            [Command::InsertFence {
                fence: f,
                kickoff: true,
            }],
            0,
        )
        .unwrap();
    }
    let end = d.run_until_idle();
    assert!(!d.is_fence_pending(first, end), "a pruned fence has passed");
    let g = d.next_fence(QueueId::Graphics);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [
            Command::WaitFence(first),
            Command::InsertFence {
                fence: g,
                kickoff: true,
            },
        ],
        0,
    )
    .unwrap();
    assert!(
        d.wait_fence_cpu(g).is_ok(),
        "waiting on a pruned fence does not block"
    );
    let never = d.next_fence(QueueId::Graphics);
    assert!(matches!(
        d.wait_fence_cpu(never),
        Err(DeviceError::UnknownFence { .. })
    ));
}
