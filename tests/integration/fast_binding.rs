//! Fast resource binding (RB-1, RB-2) on the simulated device and in the recorder: what a
//! call costs the front end by its size, and what batches save a frame against per-slot
//! binding. The validator's findings are the mistake scenes' (`scripts.rs`).

use fastframe::device::*;
use fastframe::model::{Buffer, BufferUsage};

fn buffers(device: &mut Device, n: usize) -> Vec<ObjectKey> {
    (0..n)
        .map(|i| {
            let desc = ObjectDesc::Buffer(Buffer {
                size: 256,
                usage: BufferUsage::Default,
                unordered_access: false,
            });
            device.create(&format!("cb{i}"), desc).unwrap()
        })
        .collect()
}

/// How long the front end spent on the one command named `name` of `commands`.
fn front_time(commands: impl Fn(&[ObjectKey]) -> Command, name: &str) -> u64 {
    let mut d = Device::default();
    let keys = buffers(&mut d, 8);
    d.submit(
        QueueId::Graphics,
        0,
        0,
        [commands(&keys), Command::Kickoff],
        0,
    )
    .unwrap();
    d.run_until_idle();
    let x = d.drain_executed();
    let r = x.iter().find(|x| x.name == name).expect("the command ran");
    r.end_ns - r.start_ns
}

fn fast(n: usize) -> impl Fn(&[ObjectKey]) -> Command {
    move |keys| {
        Command::SetFastResources(vec![FastSet::ConstantBuffers {
            stage: ShaderStage::Vertex,
            slot: 0,
            buffers: keys[..n].to_vec(),
        }])
    }
}

#[test]
fn the_front_end_takes_longer_over_a_larger_call() {
    let one = front_time(fast(1), "SetFastResources");
    let eight = front_time(fast(8), "SetFastResources");
    // Seven more buffer descriptors of four dwords, a nanosecond each; one packet header.
    assert_eq!(eight - one, 7 * 4, "{one} {eight}");
    // Per-slot binding of the same eight: a packet, and a header, per slot (RB-1).
    let legacy = front_time(
        |keys| Command::SetConstantBuffers {
            stage: ShaderStage::Vertex,
            buffers: keys.to_vec(),
        },
        "SetConstantBuffers",
    );
    assert!(legacy > eight, "per-slot {legacy} ns, fast {eight} ns");
    // A batch of the same tokens costs the front end what the call does: it is copied inline.
    let batch = front_time(
        |keys| {
            let Command::SetFastResources(sets) = fast(8)(keys) else {
                unreachable!()
            };
            Command::SetFastResourcesFromBatch(std::sync::Arc::new(FastBatch { sets }))
        },
        "SetFastResourcesFromBatch",
    );
    assert_eq!(batch, eight);
}

#[test]
fn a_batch_naming_a_destroyed_buffer_is_refused_by_the_device() {
    let mut d = Device::default();
    let keys = buffers(&mut d, 1);
    let batch = std::sync::Arc::new(FastBatch {
        sets: vec![FastSet::VertexBuffersWithOffset {
            slot: 0,
            buffers: keys.clone(),
        }],
    });
    d.destroy(keys[0], 0).unwrap();
    let used = d.submit(
        QueueId::Graphics,
        0,
        0,
        [Command::SetFastResourcesFromBatch(batch)],
        0,
    );
    assert!(used.is_err(), "{used:?}");
}
