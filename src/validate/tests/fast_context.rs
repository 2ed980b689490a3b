//! Fast-context restrictions: no Get* calls (FS-7), no UpdateSubresource and the 16-bit
//! primitive-reset index, append and counter UAVs (FS-14), and raw memory copies and fills on compute contexts (CC-6).

use super::*;
use crate::model::Semantics;

fn codes(device: &Device, queue: QueueId, cmds: &[Command]) -> Vec<Code> {
    let mut v = Validator::new(true);
    v.observe(device, queue, 0, 0, cmds);
    v.diagnostics.iter().map(|d| d.code).collect()
}

fn buffer(device: &mut Device, name: &str, usage: BufferUsage) -> ObjectKey {
    device
        .create(
            name,
            ObjectDesc::Buffer(Buffer {
                size: 4096,
                usage,
                unordered_access: false,
            }),
        )
        .unwrap()
}

#[test]
fn fs7_get_call_on_a_fast_context() {
    let mut f = fixture();
    let bad = frame(&f, |c| {
        let set = pos(c, "SetRenderTargets");
        c.insert(set + 1, Command::GetState);
    });
    assert_eq!(
        codes(&f.device, QueueId::Graphics, &bad),
        vec![Code::GetOnFastContext]
    );
    // The same stream on a legacy context is fine: it shadows its state.
    f.device.set_semantics(Semantics::Legacy);
    assert!(codes(&f.device, QueueId::Graphics, &bad).is_empty());
}

#[test]
fn fs14_update_subresource_on_a_fast_context() {
    let mut f = fixture();
    let plain = buffer(&mut f.device, "plain", BufferUsage::Default);
    let cmds = [Command::UpdateSubresource {
        resource: plain,
        bytes: 256,
    }];
    assert_eq!(
        codes(&f.device, QueueId::Graphics, &cmds),
        vec![Code::UpdateSubresourceOnFastContext]
    );
    f.device.set_semantics(Semantics::Legacy);
    assert!(codes(&f.device, QueueId::Graphics, &cmds).is_empty());
}

#[test]
fn fs14_counter_uav_on_a_fast_context() {
    let mut f = fixture();
    let mut uav = |kind| {
        let b = buffer(&mut f.device, "list", BufferUsage::Default);
        let range = crate::barrier::SubresourceRange::ALL;
        let view = ObjectDesc::View { of: b, kind, range };
        f.device.create("list_uav", view).unwrap()
    };
    let (counter, plain) = (uav(ViewKind::UavCounter), uav(ViewKind::Uav));
    let bind = |v| Command::SetResources {
        stage: ShaderStage::Compute,
        first_slot: 0,
        views: vec![v],
        writes: true,
    };
    let clear = |v| Command::ClearUnorderedAccess(v);
    for cmd in [bind(counter), clear(counter)] {
        let found = codes(&f.device, QueueId::Graphics, std::slice::from_ref(&cmd));
        assert_eq!(found, vec![Code::CounterUavOnFastContext], "{cmd:?}");
    }
    // A plain UAV is fine on a fast context, a counter one on a legacy context.
    assert!(codes(&f.device, QueueId::Graphics, &[bind(plain)]).is_empty());
    f.device.set_semantics(Semantics::Legacy);
    assert!(codes(&f.device, QueueId::Graphics, &[bind(counter)]).is_empty());
}

#[test]
fn fs14_16_bit_strip_reset_index_on_a_legacy_context() {
    let mut f = fixture();
    let cmds = [Command::SetPrimitiveResetIndex(0xFFFF)];
    // Fast contexts take 0xFFFF (and must be given it for 16-bit strips).
    assert!(codes(&f.device, QueueId::Graphics, &cmds).is_empty());
    f.device.set_semantics(Semantics::Legacy);
    assert_eq!(
        codes(&f.device, QueueId::Graphics, &cmds),
        vec![Code::ResetIndexOnLegacyContext]
    );
    let default = [Command::SetPrimitiveResetIndex(0xFFFF_FFFF)];
    assert!(codes(&f.device, QueueId::Graphics, &default).is_empty());
}

#[test]
fn cc6_raw_copy_and_fill_sizes_are_multiples_of_4() {
    let mut f = fixture();
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    let a = buffer(&mut f.device, "a", BufferUsage::Default);
    let b = buffer(&mut f.device, "b", BufferUsage::Default);
    let copy = |bytes| Command::RawCopy {
        src: a,
        dst: b,
        offset: 3,
        bytes,
    };
    let fill = |bytes| Command::RawFill {
        dst: b,
        offset: 1,
        bytes,
        value: 0,
    };
    assert_eq!(
        codes(&f.device, cs, &[copy(1022)]),
        vec![Code::RawSizeNotMultipleOf4]
    );
    assert_eq!(
        codes(&f.device, cs, &[fill(6)]),
        vec![Code::RawSizeNotMultipleOf4]
    );
    // Byte-aligned addresses are fine; the size is what must be a multiple of 4.
    assert!(codes(&f.device, cs, &[copy(1024)]).is_empty());
    assert!(codes(&f.device, cs, &[fill(8)]).is_empty());
}

#[test]
fn cc6_raw_copy_of_non_graphics_memory() {
    let mut f = fixture();
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    let a = buffer(&mut f.device, "a", BufferUsage::Default);
    let b = buffer(&mut f.device, "b", BufferUsage::Default);
    let copy = |src| Command::RawCopy {
        src,
        dst: b,
        offset: 0,
        bytes: 256,
    };
    assert_eq!(
        codes(&f.device, cs, &[copy(f.dynamic)]),
        vec![Code::RawOnDynamicMemory]
    );
    assert!(codes(&f.device, cs, &[copy(a)]).is_empty());
}

#[test]
fn cc6_raw_copies_are_tracked_as_copies_at_compute_shading() {
    let mut f = fixture();
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    let b = buffer(&mut f.device, "b", BufferUsage::Default);
    let fill = Command::RawFill {
        dst: b,
        offset: 0,
        bytes: 256,
        value: 7,
    };
    // Two fills of one buffer with no barrier between them: write-after-write (FS-3).
    let found = codes(&f.device, cs, &[fill.clone(), fill.clone()]);
    assert_eq!(found, vec![Code::WriteAfterWrite]);
    // A barrier ordering the compute-shading writes removes it.
    use crate::barrier::*;
    let mut g = BarrierGroup::default();
    g.buffers.push(BufferBarrier {
        sync_before: Sync::ALL,
        sync_after: Sync::ALL,
        access_before: Access::COPY_DEST,
        access_after: Access::COPY_DEST,
        resource: b,
    });
    let found = codes(&f.device, cs, &[fill.clone(), Command::Barrier(g), fill]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn cc6_the_device_runs_raw_copies_on_compute_queues_only() {
    let mut f = fixture();
    let b = buffer(&mut f.device, "b", BufferUsage::Default);
    let fill = Command::RawFill {
        dst: b,
        offset: 0,
        bytes: 256,
        value: 0,
    };
    let cs = QueueId::Compute { pipe: 0, index: 0 };
    assert!(f.device.submit(cs, 0, 0, [fill.clone()], 0).is_ok());
    assert!(matches!(
        f.device.submit(QueueId::Graphics, 0, 0, [fill], 0),
        Err(DeviceError::WrongQueue { .. })
    ));
}
