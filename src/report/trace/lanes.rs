//! Threads and lanes: which thread of its queue a command goes to, and on which lane. A
//! command goes to the first lane of its thread where it is disjoint from or nested in what
//! is there (slices on one thread must nest), so a queue's commands take one lane unless two
//! really overlap without one containing the other.

/// Which thread of its queue a command goes to.
pub(super) fn is_front_end(name: &str) -> bool {
    !matches!(
        name,
        "Draw"
            | "Dispatch"
            | "CopyResource"
            | "CopyTextureRegion"
            | "ClearRenderTarget"
            | "ClearDepthStencil"
            | "ClearUnorderedAccess"
            | "RawCopy"
            | "RawFill"
            | "UpdateSubresource"
            | "Decompress"
            | "Barrier"
            | "InsertFence"
            | "WaitFence"
            | "WaitOnPresent"
            | "Present"
            | "WriteTimestamp"
            | "Suspend"
            | "Resume"
    )
}

/// Thread ids: the queue's own thread, its command lanes, its front-end lanes.
pub(super) fn tid(queue: usize, thread: Thread) -> u64 {
    let base = queue as u64 * 1000;
    match thread {
        Thread::Queue => base,
        Thread::Commands(lane) => base + 1 + lane as u64,
        Thread::FrontEnd(lane) => base + 500 + lane as u64,
    }
}

#[derive(Clone, Copy)]
pub(super) enum Thread {
    Queue,
    Commands(usize),
    FrontEnd(usize),
}

/// A thread's lanes: per lane, the ends of the slices open there, innermost last.
pub(super) type Lanes = Vec<Vec<u64>>;

/// The first lane `[start, end)` fits on: after everything open there has ended, or inside
/// the innermost slice still open (slices on a thread must nest). A new lane when none does.
pub(super) fn lane_for(lanes: &mut Lanes, start: u64, end: u64) -> usize {
    for (i, open) in lanes.iter_mut().enumerate() {
        while open.last().is_some_and(|&e| e <= start) {
            open.pop();
        }
        if open.last().is_none_or(|&e| end <= e) {
            open.push(end);
            return i;
        }
    }
    lanes.push(vec![end]);
    lanes.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lane_takes_what_follows_or_nests_and_only_real_overlap_adds_one() {
        let mut lanes = Vec::new();
        assert_eq!(lane_for(&mut lanes, 0, 100), 0);
        assert_eq!(lane_for(&mut lanes, 0, 10), 0, "nested at the same start");
        assert_eq!(lane_for(&mut lanes, 20, 30), 0, "nested later");
        assert_eq!(
            lane_for(&mut lanes, 90, 120),
            1,
            "overlaps the end of the first"
        );
        assert_eq!(lane_for(&mut lanes, 100, 110), 0, "after the first ended");
        assert_eq!(lanes.len(), 2);
    }
}
