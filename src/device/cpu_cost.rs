//! What the simulated CPU spends on commands (CTX-7): queuing a command on a context costs
//! the driver time at record; playing a recorded list back costs far less, a fixed price for
//! the list and a little per command, because the list's command buffer is only chained in.
//! That is why deferred contexts exist: the recording cost of a frame's lists is spread over
//! threads, and the immediate context pays only the playback ([`record_span_ns`]).
//!
//! Binding is priced by form (RB-1, RB-2): a legacy per-slot call pays an entry and, per
//! slot, a descriptor fetch, a packet and a room check; `SetFastResources` pays one room
//! check and writes its dwords inline; `SetFastResourcesFromBatch` pays one room check and
//! copies a pre-compiled snippet, a quarter of a nanosecond a dword. Building the batch
//! ([`into_batch_ns`]) costs what the call it replaces would, once.
//!
//! `SetFastResources` is inlined at every call site from `D3D11_X.H`. Seed 002: defining
//! `D3DCOMPILE_NO_DEBUG` to 1 before including the header "will remove an if statement and
//! halve the code size for every SetFastResources invocation". The model reads half the code
//! as half the time: a call costs half as much in such a build ([`record_ns_built`]). The seed
//! says it of `SetFastResources` alone, so batches, their building and the per-slot calls cost
//! the same in either build, and so does what the front end reads (the dwords are the same).
//! The seed says the define "does have some implications" without saying which; none is
//! modelled.
//!
//! The device creation flags change what the immediate context pays (FS-15, [`flags_ns`]): a
//! kickoff without fast kickoffs makes a kernel round trip; a command written to a cached
//! command buffer pollutes the caches the title's own data lives in; a CPU read of a
//! write-combined dynamic buffer bypasses the caches, uncached loads that cost many times a
//! cached read. A fast immediate context has all three flags, so its kickoffs and command
//! writes are the cheap ones and its dynamic buffers are the slow ones to read.
//!
//! The numbers are the model's, in the proportions the seeds give (a fast call is "the
//! fastest way", a list "plays back much more cheaply"), not measurements of a console.

use super::{Command, FastBatch, ReferenceType, binding_dwords, legacy_slots};
use crate::model::DeviceFlags;

/// Queue one command on a context: the driver's entry and its packet.
pub const COMMAND_NS: u64 = 120;
/// Per-slot binding, per slot: descriptor fetch, packet header and room check.
pub const SLOT_NS: u64 = 90;
/// One room check in the constant-engine command buffer (RB-1).
pub const ROOM_CHECK_NS: u64 = 20;
/// Write one constant-engine dword inline (`SetFastResources`).
pub const DWORD_NS: u64 = 2;
/// Copy one dword of a batch inline (`SetFastResourcesFromBatch`), in picoseconds.
pub const COPY_DWORD_PS: u64 = 250;
/// Play back a recorded list on the immediate context: chain its command buffer in.
pub const PLAYBACK_LIST_NS: u64 = 1000;
/// Play back one command of a list.
pub const PLAYBACK_COMMAND_NS: u64 = 4;

/// A kickoff without `D3D11_CREATE_DEVICE_FAST_KICKOFFS`: the kernel round trip (FS-15).
pub const SLOW_KICKOFF_NS: u64 = 6_000;
/// A command written to a cached (not write-combined) command buffer: the cache lines it
/// evicts and writes back (FS-15).
pub const CACHED_COMMAND_NS: u64 = 15;
/// CPU read of cached memory, bytes per ns.
pub const CACHED_READ_BYTES_PER_NS: u64 = 16;
/// CPU read of write-combined memory, ns per byte: uncached loads (FS-15).
pub const WRITE_COMBINED_READ_NS_PER_BYTE: u64 = 4;

/// What the device creation flags add to queuing `cmd` on the immediate context, and what
/// a CPU read of mapped memory costs (FS-15).
pub fn flags_ns<R: ReferenceType>(cmd: &Command<R>, flags: DeviceFlags) -> u64 {
    let kickoff = matches!(
        cmd,
        Command::Kickoff | Command::Present(_) | Command::InsertFence { kickoff: true, .. }
    );
    let mut ns = 0;
    if kickoff && !flags.fast_kickoffs {
        ns += SLOW_KICKOFF_NS;
    }
    if !flags.write_combined_command_buffers {
        ns += CACHED_COMMAND_NS;
    }
    if let Command::ReadMapped { bytes, .. } = cmd {
        ns += match flags.write_combined_dynamic_buffers {
            true => bytes.saturating_mul(WRITE_COMBINED_READ_NS_PER_BYTE),
            false => bytes.div_ceil(CACHED_READ_BYTES_PER_NS),
        };
    }
    ns
}

/// CPU time to queue `cmd` on the immediate context of a device with `flags` (FS-15).
pub fn immediate_ns<R: ReferenceType>(cmd: &Command<R>, flags: DeviceFlags) -> u64 {
    record_ns(cmd) + flags_ns(cmd, flags)
}

/// CPU time to queue `cmd` on a context (immediate or deferred), in ns, in a debug build
/// (`D3DCOMPILE_NO_DEBUG` not defined, [`record_ns_built`]).
pub fn record_ns<R: ReferenceType>(cmd: &Command<R>) -> u64 {
    record_ns_built(cmd, false)
}

/// CPU time to queue `cmd` on a context, in ns, in a build that defines `D3DCOMPILE_NO_DEBUG`
/// (`no_debug`) or not: a `SetFastResources` invocation without its debug if statement is
/// half the code, and costs half as much (seed 002, RB-1).
pub fn record_ns_built<R: ReferenceType>(cmd: &Command<R>, no_debug: bool) -> u64 {
    match cmd {
        Command::SetFastResources(_) => {
            let call = ROOM_CHECK_NS + binding_dwords(cmd).unwrap_or(0) as u64 * DWORD_NS;
            match no_debug {
                true => call.div_ceil(2),
                false => call,
            }
        }
        Command::SetFastResourcesFromBatch(b) => {
            ROOM_CHECK_NS + b.dwords() as u64 * COPY_DWORD_PS / 1000
        }
        Command::ExecuteCommandList { commands, .. } => playback_ns(commands.len()),
        // A command standing for many draw or dispatch calls pays for each.
        Command::Draw { draws: n, .. } | Command::Dispatch { dispatches: n, .. } => {
            COMMAND_NS * (*n).max(1) as u64
        }
        _ => COMMAND_NS + legacy_slots(cmd) as u64 * SLOT_NS,
    }
}

/// CPU time to build `batch` (`SetFastResourcesIntoBatch`), in ns.
pub fn into_batch_ns<R>(batch: &FastBatch<R>) -> u64 {
    COMMAND_NS + batch.dwords() as u64 * DWORD_NS
}

/// CPU time to play back a list of `commands` commands on the immediate context, in ns.
pub fn playback_ns(commands: usize) -> u64 {
    PLAYBACK_LIST_NS + commands as u64 * PLAYBACK_COMMAND_NS
}

/// Wall time to record lists costing `costs` on `threads` threads (CTX-2): each list, in
/// order, goes to the thread that is free first, as a job system hands them out. With one
/// thread it is the sum.
pub fn record_span_ns(costs: &[u64], threads: u32) -> u64 {
    let mut free = vec![0u64; threads.max(1) as usize];
    for &c in costs {
        if let Some(t) = free.iter_mut().min() {
            *t += c;
        }
    }
    free.into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{FastSet, ObjectKey, ShaderStage};

    #[test]
    fn a_list_plays_back_for_much_less_than_it_took_to_record() {
        let list: Vec<Command> = vec![Command::ClearState; 50];
        let recorded: u64 = list.iter().map(record_ns).sum();
        assert!(playback_ns(list.len()) * 3 < recorded);
        let draws: Command = Command::Draw {
            draws: 100,
            vertices: 0,
            pixels: 0,
        };
        assert_eq!(record_ns(&draws), 100 * COMMAND_NS);
        assert!(playback_ns(1) * 10 < record_ns(&draws));
    }

    #[test]
    fn batches_are_cheaper_than_calls_which_are_cheaper_than_slots() {
        let keys = vec![ObjectKey::default(); 6];
        let set = FastSet::Srv {
            stage: ShaderStage::Pixel,
            slot: 0,
            views: keys.clone(),
        };
        let per_slot = record_ns(&Command::SetResources {
            stage: ShaderStage::Pixel,
            first_slot: 0,
            views: keys,
            writes: false,
        });
        let call = record_ns(&Command::SetFastResources(vec![set.clone()]));
        let batch = FastBatch { sets: vec![set] };
        let copy = record_ns(&Command::SetFastResourcesFromBatch(std::sync::Arc::new(
            batch.clone(),
        )));
        assert!(copy < call && call < per_slot, "{copy} {call} {per_slot}");
        assert_eq!(into_batch_ns(&batch), COMMAND_NS + call - ROOM_CHECK_NS);
    }

    #[test]
    fn no_debug_halves_set_fast_resources_and_nothing_else() {
        let keys = vec![ObjectKey::default(); 5];
        let set = FastSet::ConstantBuffers {
            stage: ShaderStage::Vertex,
            slot: 0,
            buffers: keys.clone(),
        };
        let call: Command = Command::SetFastResources(vec![set.clone()]);
        // A room check, then a two-dword header and five four-dword descriptors.
        let full = ROOM_CHECK_NS + (2 + 5 * 4) * DWORD_NS;
        assert_eq!(record_ns_built(&call, false), full);
        assert_eq!(record_ns_built(&call, true), full / 2);
        assert_eq!(record_ns(&call), record_ns_built(&call, false));
        // The seed says it of SetFastResources: batches and per-slot calls are unchanged.
        let copy: Command =
            Command::SetFastResourcesFromBatch(std::sync::Arc::new(FastBatch { sets: vec![set] }));
        let slots: Command = Command::SetConstantBuffers {
            stage: ShaderStage::Vertex,
            buffers: keys,
        };
        for other in [copy, slots, Command::ClearState] {
            assert_eq!(
                record_ns_built(&other, true),
                record_ns(&other),
                "{other:?}"
            );
        }
    }

    #[test]
    fn the_device_flags_price_kickoffs_command_writes_and_mapped_reads() {
        let fast = DeviceFlags::ALL;
        let legacy = DeviceFlags::default();
        // A fast immediate context's kickoffs and command writes cost what queuing does.
        let kickoff: Command = Command::Kickoff;
        assert_eq!(immediate_ns(&kickoff, fast), record_ns(&kickoff));
        assert_eq!(
            immediate_ns(&kickoff, legacy),
            record_ns(&kickoff) + SLOW_KICKOFF_NS + CACHED_COMMAND_NS
        );
        let clear: Command = Command::ClearState;
        assert_eq!(
            immediate_ns(&clear, legacy) - immediate_ns(&clear, fast),
            15
        );
        // Reading 64 KiB back from a write-combined buffer costs 64 times the cached read.
        let read: Command = Command::ReadMapped {
            resource: ObjectKey::default(),
            bytes: 65_536,
        };
        let uncached = flags_ns(&read, fast);
        let cached = flags_ns(&read, legacy) - CACHED_COMMAND_NS;
        assert_eq!((uncached, cached), (262_144, 4_096));
        // The flags a scene asks for hold on a legacy immediate context only.
        use crate::model::Semantics;
        assert_eq!(legacy.effective(Semantics::Fast), fast);
        assert_eq!(legacy.effective(Semantics::Legacy), legacy);
    }

    #[test]
    fn threads_share_the_recording() {
        let costs = [10, 10, 10, 10];
        assert_eq!(record_span_ns(&costs, 1), 40);
        assert_eq!(record_span_ns(&costs, 2), 20);
        assert_eq!(record_span_ns(&costs, 8), 10);
        assert_eq!(record_span_ns(&[5, 30, 5, 5], 2), 30);
        assert_eq!(record_span_ns(&[], 4), 0);
    }
}
