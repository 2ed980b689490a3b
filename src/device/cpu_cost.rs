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
//! The numbers are the model's, in the proportions the seeds give (a fast call is "the
//! fastest way", a list "plays back much more cheaply"), not measurements of a console.

use super::{Command, FastBatch, ReferenceType, binding_dwords, legacy_slots};

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

/// CPU time to queue `cmd` on a context (immediate or deferred), in ns.
pub fn record_ns<R: ReferenceType>(cmd: &Command<R>) -> u64 {
    match cmd {
        Command::SetFastResources(_) => {
            ROOM_CHECK_NS + binding_dwords(cmd).unwrap_or(0) as u64 * DWORD_NS
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
    fn threads_share_the_recording() {
        let costs = [10, 10, 10, 10];
        assert_eq!(record_span_ns(&costs, 1), 40);
        assert_eq!(record_span_ns(&costs, 2), 20);
        assert_eq!(record_span_ns(&costs, 8), 10);
        assert_eq!(record_span_ns(&[5, 30, 5, 5], 2), 30);
        assert_eq!(record_span_ns(&[], 4), 0);
    }
}
