//! A buffer barrier from AccessBefore NO_ACCESS is how a placed buffer is activated (EB-5,
//! barrier-spec A3.2), and also how a buffer is declared again on a queue after a fence or
//! after its own write-back left it NO_ACCESS (A3.1, A9). Its contents are garbage (V0812 on
//! a read before a write) only when memory it shares was used since its own last use.

use super::*;
use crate::barrier::{Access, BarrierGroup, BufferBarrier, Sync};

fn buffer(size: u64) -> ObjectDesc {
    ObjectDesc::Buffer(Buffer {
        size,
        usage: BufferUsage::Default,
        unordered_access: false,
    })
}

fn barrier(resource: ObjectKey, before: Access, after: Access) -> Command {
    let sync = |a: Access| {
        if a == Access::NO_ACCESS {
            Sync::NONE
        } else {
            Sync::COPY
        }
    };
    Command::Barrier(BarrierGroup {
        buffers: vec![BufferBarrier {
            resource,
            sync_before: if before == Access::NO_ACCESS {
                Sync::COPY
            } else {
                sync(before)
            },
            sync_after: sync(after),
            access_before: before,
            access_after: after,
        }],
        ..Default::default()
    })
}

/// Codes found when `a` is written, written back to NO_ACCESS, declared again from NO_ACCESS
/// and read; `b`, sharing its bytes, is used in between when `b_between`.
fn codes(b_between: bool) -> Vec<Code> {
    let mut device = Device::default();
    let h = device.memory.create_heap("heap", 1024);
    let a = device.memory.create_placed("a", buffer(256), h, 0).unwrap();
    let b = device.memory.create_placed("b", buffer(256), h, 0).unwrap();
    let (src, dst) = (
        device.create("src", buffer(256)).unwrap(),
        device.create("dst", buffer(256)).unwrap(),
    );
    let copy = |src, dst| Command::CopyResource {
        src,
        dst,
        bytes: 256,
    };
    let (none, dest, source) = (Access::NO_ACCESS, Access::COPY_DEST, Access::COPY_SOURCE);
    let mut cmds = vec![barrier(a, none, dest), copy(src, a), barrier(a, dest, none)];
    if b_between {
        cmds.extend([barrier(b, none, dest), copy(src, b), barrier(b, dest, none)]);
    }
    cmds.extend([barrier(a, none, source), copy(a, dst)]);
    let mut v = Validator::new(true);
    v.observe(&device, QueueId::Graphics, 0, 0, &cmds);
    v.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn declaring_a_placed_buffer_again_keeps_its_contents_unless_its_memory_was_taken() {
    assert!(
        !codes(false).contains(&Code::AliasReadBeforeWrite),
        "{:?}",
        codes(false)
    );
    assert!(
        codes(true).contains(&Code::AliasReadBeforeWrite),
        "{:?}",
        codes(true)
    );
}
