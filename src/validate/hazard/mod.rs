//! Hazards by happens-before (barrier-spec D, FS-1, FS-2, FN-2), never by timing.
//!
//! Every access to a resource becomes a record: which queue, where in its stream, which
//! stages, which access. Later accesses are checked against the last write and the reads since:
//!
//! - on one queue, an earlier access is ordered before a later one only through barriers:
//!   a barrier whose SyncBefore reaches the earlier access's stages (directly, or through
//!   stages an earlier barrier already ordered after it) extends the set of stages ordered
//!   after it by its SyncAfter, and the later access must run entirely in that set;
//! - a write is visible to a later read only once a barrier's AccessBefore wrote it back and
//!   its AccessAfter covers the read (FS-2, EB-3);
//! - across queues, only through a fence inserted after the first access and waited on
//!   before the second, tracked with vector clocks so that chains of waits count (FN-2); a
//!   write must also have been written back before the fence, and the reading queue must
//!   invalidate its caches after it;
//! - a DMA engine reads memory through no caches of its own (its accesses are COPY only,
//!   barrier-spec A5; EB-3's caches are the shader and output-merger engines'), so what it
//!   reads after a fence needs no invalidate there; the producer's write-back before the
//!   fence is demanded on every engine, DMA included.
//!
//! A texture layout transition counts as a read-modify-write at the barrier (barrier-spec D).
//! Accesses and barriers that name some subresources of a texture touch only those (`part`);
//! placed resources sharing memory meet through their byte ranges (`memory`).

mod barrier;
mod fences;
mod memory;
mod part;

pub use memory::Aliases;
pub use part::Part;

use hashbrown::HashMap;
use std::collections::VecDeque;

use crate::barrier::{Access, BarrierGroup, Sync};
use crate::device::{FenceId, ObjectKey, QUEUE_COUNT, QueueId};

/// One access of a resource by a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touch {
    pub resource: ObjectKey,
    pub access: Access,
    pub stages: Sync,
    pub write: bool,
    /// The subresources touched, when not all of them (a view of some mips or slices).
    pub part: Option<Part>,
    /// A shader access that bypasses the CUs' L1 caches (a dispatch with L1 bypassed, CC-4):
    /// it reads L2, so a write already written back is visible to it with no invalidation.
    pub through_l2: bool,
}

/// The hazard kinds of barrier-spec D.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HazardKind {
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite,
    ReadRacingWrite,
    WriteRacingWrite,
    WriteRacingRead,
    /// Ordered, but the write was never written back and made visible (FS-2, EB-3).
    WriteNotVisible,
    PresentAfterWrite,
}

impl HazardKind {
    /// The specification's name.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::ReadAfterWrite => "READ_AFTER_WRITE",
            HazardKind::WriteAfterRead => "WRITE_AFTER_READ",
            HazardKind::WriteAfterWrite => "WRITE_AFTER_WRITE",
            HazardKind::ReadRacingWrite => "READ_RACING_WRITE",
            HazardKind::WriteRacingWrite => "WRITE_RACING_WRITE",
            HazardKind::WriteRacingRead => "WRITE_RACING_READ",
            HazardKind::WriteNotVisible => "WRITE_NOT_VISIBLE",
            HazardKind::PresentAfterWrite => "PRESENT_AFTER_WRITE",
        }
    }
}

/// A hazard found, with the earlier access it conflicts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hazard {
    pub kind: HazardKind,
    pub resource: ObjectKey,
    pub earlier_queue: QueueId,
    pub earlier_label: u32,
    pub earlier_frame: u64,
    /// The placed resource sharing `resource`'s memory that the earlier access went through
    /// (EB-5); `None` when it touched `resource` itself.
    pub through: Option<ObjectKey>,
}

#[derive(Clone, Copy, Debug)]
struct Record {
    queue: usize,
    pos: u64,
    stages: Sync,
    access: Access,
    write: bool,
    /// Stages of later work on the same queue that are ordered after this access.
    chained: Sync,
    /// Stages ordered after this access by barriers on resources sharing its memory, which
    /// count for accesses through those only (`memory`).
    via_alias: Sync,
    /// Accesses this write has been made visible to (written back and invalidated); all of
    /// them after a barrier with AccessAfter COMMON.
    visible: Access,
    visible_all: bool,
    /// A layout transition made by a barrier, not an access by work.
    transition: bool,
    /// Reached by the beginning half of a split barrier whose end has not come (barrier-spec
    /// A4): the end half orders it as though its SyncBefore had reached it.
    split_open: bool,
    written_back: bool,
    /// Other queues that invalidated their caches for this write after a fence ordered it
    /// before them (bit per queue index).
    visible_on: u16,
    label: u32,
    frame: u64,
}

#[derive(Clone, Default)]
struct ResourceState {
    write: Option<Record>,
    reads: Vec<Record>,
}

type VectorClock = [u64; QUEUE_COUNT];

/// The fences of one queue the tracker still holds, and a lower bound on the clocks of those
/// it dropped.
#[derive(Default)]
struct FenceWindow {
    /// Fences with the frame each was inserted in.
    order: VecDeque<(FenceId, u64)>,
    /// Highest sequence number dropped from the map.
    dropped_upto: u64,
    /// The clock of the first fence dropped: no later fence of the queue carries less
    /// (a queue's clock only grows), so a wait on any dropped fence may use it.
    floor: Option<VectorClock>,
}

/// The happens-before tracker.
#[derive(Default)]
pub struct HazardTracker {
    resources: HashMap<ObjectKey, ResourceState>,
    /// Textures something touched in part: one state per subresource (see `part`).
    split: HashMap<ObjectKey, Vec<ResourceState>>,
    /// Per queue: how far into every queue's stream its own position is known to be ordered.
    clocks: [VectorClock; QUEUE_COUNT],
    fences: HashMap<FenceId, VectorClock>,
    /// Per queue named by a fence ID: the fences in `fences`, oldest first, and what is known
    /// of those dropped from it (bounded memory, [`fences`](self::fences) module).
    fence_window: [FenceWindow; QUEUE_COUNT],
    /// Recent fences per queue with their stream positions, for release checks (FS-6).
    recent_fences: [VecDeque<(u64, FenceId, u64)>; QUEUE_COUNT],
    /// Per queue: how far its own stream is known complete through a round trip of fences
    /// (this queue signalled, another waited and signalled, this one waited).
    completed: [u64; QUEUE_COUNT],
    /// Views and buffers bound directly: the last position each was used at, per queue
    /// (their memory has its own records; this is for releasing them, FS-6).
    uses: HashMap<ObjectKey, [Use; QUEUE_COUNT]>,
    /// How far into every queue's stream the CPU knows the GPU complete: the clocks of the
    /// fences it waited on or found passed (FN-2). Submissions after join it.
    cpu: VectorClock,
    /// Per swap-chain buffer: the presenting queue's clock at its last Present (its own
    /// entry the Present's position), which a wait on present for it joins (FS-5).
    presented: HashMap<ObjectKey, VectorClock>,
}

/// A view's or directly bound buffer's last use on one queue: its stream position (0: none)
/// and the pass label and frame of the command, for the release check's message (FS-6).
#[derive(Clone, Copy, Debug, Default)]
struct Use {
    pos: u64,
    label: u32,
    frame: u64,
}

/// Where the current command is.
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub queue: QueueId,
    pub label: u32,
    pub frame: u64,
}

/// True for a queue with no caches to invalidate before it reads: a DMA engine (FS-2 is
/// about caches).
fn cacheless(q: usize) -> bool {
    matches!(QueueId::from_index(q), Some(QueueId::Dma { .. }))
}

impl HazardTracker {
    fn ordered(&self, earlier: &Record, q: usize, stages: Sync) -> bool {
        if earlier.queue == q && self.completed[q] > earlier.pos {
            true
        } else if earlier.queue == q {
            // Output-merger work is ordered in API order: clears, draws and decompressions of
            // one render target (or depth buffer) follow each other without barriers.
            let raster = |s: Sync| s == Sync::RENDER_TARGET || s == Sync::DEPTH_STENCIL;
            (raster(stages) && earlier.stages == stages)
                || earlier.chained.contains(stages.expand())
        } else {
            self.clocks[q][earlier.queue] > earlier.pos
        }
    }

    fn visible(earlier: &Record, q: usize, stages: Sync, access: Access, through_l2: bool) -> bool {
        let raster = |s: Sync| s == Sync::RENDER_TARGET || s == Sync::DEPTH_STENCIL;
        if earlier.queue == q && raster(stages) && earlier.stages == stages && !earlier.transition {
            // Output-merger reads of what the same back end wrote go through its own cache.
            true
        } else if earlier.queue == q {
            earlier.written_back
                && (earlier.visible_all
                    || earlier.visible.contains(access)
                    || cacheless(q)
                    || through_l2)
        } else {
            // Across queues: written back by the producer, invalidated by the consumer after
            // the fence (FS-2: neither happens by itself), where there are caches; a read that
            // bypasses L1 owes no invalidation (CC-4).
            earlier.written_back
                && (earlier.visible_on & (1 << q) != 0 || cacheless(q) || through_l2)
        }
    }

    fn advance(&mut self, q: usize) -> u64 {
        self.clocks[q][q] += 1;
        self.clocks[q][q]
    }

    /// Check and record the accesses of one command (no placed memory shared).
    pub fn access(&mut self, at: At, touches: &[Touch]) -> Vec<Hazard> {
        self.access_placed(at, touches, &|_| Vec::new())
    }

    /// Check and record the accesses of one command; `aliases` gives the placed resources
    /// sharing each resource's memory, whose accesses it meets too (EB-5).
    pub fn access_placed(&mut self, at: At, touches: &[Touch], aliases: Aliases) -> Vec<Hazard> {
        let q = at.queue.index();
        let pos = self.advance(q);
        let mut out = Vec::new();
        for t in touches {
            // One finding per touch, however many subresources share it.
            let mut found = self.alias_hazards(q, pos, t, false, &aliases(t.resource));
            for slot in self.slots(t.resource, t.part).list() {
                let mut state = std::mem::take(self.state_mut(t.resource, slot));
                self.access_state(&mut state, at, pos, t, &mut found);
                *self.state_mut(t.resource, slot) = state;
            }
            out.append(&mut found);
        }
        out
    }

    /// Check and record access `t` (the command at `pos` of `at.queue`) against one state.
    fn access_state(
        &self,
        state: &mut ResourceState,
        at: At,
        pos: u64,
        t: &Touch,
        out: &mut Vec<Hazard>,
    ) {
        let q = at.queue.index();
        let stages = t.stages.expand();
        let hazard = |kind_same, kind_race, e: &Record| Hazard {
            kind: if e.queue == q { kind_same } else { kind_race },
            resource: t.resource,
            earlier_queue: QueueId::from_index(e.queue).unwrap_or_default(),
            earlier_label: e.label,
            earlier_frame: e.frame,
            through: None,
        };
        let mut push = |h: Hazard| {
            if !out.contains(&h) {
                out.push(h);
            }
        };
        // One command's own accesses are ordered by the command: a texture copied onto
        // itself reads and writes it at once, which is sound only for disjoint regions
        // (barrier-spec A3.8), checked with the command itself.
        let same_command = |e: &Record| e.queue == q && e.pos == pos;
        if let Some(w) = state.write.as_ref().filter(|w| !same_command(w)) {
            if !self.ordered(w, q, stages) {
                push(if t.write {
                    hazard(HazardKind::WriteAfterWrite, HazardKind::WriteRacingWrite, w)
                } else {
                    hazard(HazardKind::ReadAfterWrite, HazardKind::ReadRacingWrite, w)
                });
            } else if (!t.write && !Self::visible(w, q, stages, t.access, t.through_l2))
                || (t.write && w.queue != q && !w.written_back)
            {
                // A read must see the write; a write from another queue must not be
                // overtaken by the first write's dirty lines landing later (FS-2).
                push(hazard(
                    HazardKind::WriteNotVisible,
                    HazardKind::WriteNotVisible,
                    w,
                ));
            }
        }
        if t.write
            && let Some(r) =
                (state.reads.iter()).find(|r| !same_command(r) && !self.ordered(r, q, stages))
        {
            push(hazard(
                HazardKind::WriteAfterRead,
                HazardKind::WriteRacingRead,
                r,
            ));
        }
        let record = Record {
            queue: q,
            pos,
            stages,
            access: t.access,
            write: t.write,
            chained: Sync::empty(),
            via_alias: Sync::empty(),
            visible: Access::empty(),
            visible_all: false,
            transition: false,
            split_open: false,
            written_back: false,
            visible_on: 0,
            label: at.label,
            frame: at.frame,
        };
        if t.write {
            state.write = Some(record);
            state.reads.clear();
        } else {
            // A newer read on the same queue covering the same stages supersedes an older
            // one: whatever orders the newer also orders the older.
            state
                .reads
                .retain(|r| !(r.queue == q && stages.contains(r.stages)));
            state.reads.push(record);
        }
    }

    /// The present engine reads `buffer` once its queue's earlier work is done (the flip is
    /// an end-of-pipe event), so only a write from another queue that no fence orders before
    /// it is a PRESENT_AFTER_WRITE. The flip blocks nothing after it: the next frame's work
    /// on the queue may start while this frame's still runs (as on the device), so Present
    /// orders no other access and every cross-frame hazard needs its own barrier.
    pub fn present(&mut self, at: At, buffer: ObjectKey) -> Option<Hazard> {
        let q = at.queue.index();
        self.advance(q);
        self.presented.insert(buffer, self.clocks[q]);
        let w = self.states_of(buffer).find_map(|s| s.write)?;
        let done = w.queue == q || self.clocks[q][w.queue] > w.pos;
        (!done).then_some(Hazard {
            kind: HazardKind::PresentAfterWrite,
            resource: buffer,
            earlier_queue: QueueId::from_index(w.queue).unwrap_or_default(),
            earlier_label: w.label,
            earlier_frame: w.frame,
            through: None,
        })
    }

    /// A wait on present for `buffer` on `queue`: the flip it waits for came after everything
    /// its queue did before that Present (an end-of-pipe event), and so after everything that
    /// queue knew complete through its fences (a compute write the present waited on), so
    /// the waiting queue's later work is ordered after all of it, as after a fence (FS-5,
    /// RL-1, FN-2). This, not Present itself, is what orders one frame's work before a later
    /// frame's on the presenting queue.
    pub fn wait_on_present(&mut self, queue: QueueId, buffer: ObjectKey) {
        let q = queue.index();
        if let Some(clock) = self.presented.get(&buffer).copied() {
            self.completed[q] = self.completed[q].max(clock[q]);
            for (i, (mine, theirs)) in self.clocks[q].iter_mut().zip(clock).enumerate() {
                if i != q {
                    *mine = (*mine).max(theirs);
                }
            }
        }
    }
}
