//! GPU execution: per-queue command streams run in order, fences signal when reached, waits
//! stall, and the present engine flips. Queues interact only through fences and presentation,
//! so running each queue as far as it can, round-robin until nothing moves, gives the same
//! times in any order: the result is deterministic.

use hashbrown::HashMap;
use slotmap::SecondaryMap;
use std::collections::VecDeque;

use super::{
    Command, DeviceError, FenceId, Memory, ObjectKey, PresentEngine, Profile, QUEUE_COUNT, QueueId,
};

/// Why a command started later than its queue was free.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stall {
    #[default]
    None,
    /// Waiting on a fence from another queue (FN-2).
    Fence,
    /// Waiting for a buffer to leave presentation (FS-5).
    Present,
    /// Waiting for the CPU to submit the work.
    Submit,
}

/// One executed command on the GPU timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Executed {
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub name: &'static str,
    pub start_ns: u64,
    pub end_ns: u64,
    /// Time between the queue becoming free and the command starting, and why.
    pub stall_ns: u64,
    pub stall: Stall,
}

struct Pending {
    cmd: Command,
    frame: u64,
    label: u32,
    submit_ns: u64,
    /// Objects the command references, views resolved to their resources too.
    refs: Vec<ObjectKey>,
    /// For Present: the buffer the CPU rotated out of index 0.
    shows: Option<ObjectKey>,
    /// For DMA engines: copies use DMA bandwidth.
    bytes: u64,
}

#[derive(Default)]
struct QueueState {
    stream: VecDeque<Pending>,
    /// Commands at the front of `stream` that have been kicked off (FN-3).
    kicked: usize,
    t: u64,
}

#[derive(Clone, Copy, Debug)]
struct FenceState {
    signal: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default)]
struct RefState {
    pending: u32,
    last_end: u64,
}

/// The GPU side of the device.
#[derive(Default)]
pub(super) struct Gpu {
    queues: [QueueState; QUEUE_COUNT],
    fences: HashMap<FenceId, FenceState>,
    /// Signalled fences per queue, oldest first, for pruning the map.
    signalled: [VecDeque<FenceId>; QUEUE_COUNT],
    /// Per queue: every fence with a sequence up to this one has signalled and been pruned.
    retired_upto: [u64; QUEUE_COUNT],
    refs: SecondaryMap<ObjectKey, RefState>,
    pub(super) executed: Vec<Executed>,
}

enum Step {
    Done,
    Blocked,
}

impl Gpu {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn submit(
        &mut self,
        queue: QueueId,
        frame: u64,
        label: u32,
        cmd: Command,
        cpu_ns: u64,
        memory: &mut Memory,
        present: &mut PresentEngine,
    ) -> Result<(), DeviceError> {
        let graphics_only = matches!(
            cmd,
            Command::Draw { .. }
                | Command::SetRenderTargets { .. }
                | Command::SetViewport { .. }
                | Command::ClearRenderTarget(_)
                | Command::ClearDepthStencil(_)
                | Command::Decompress(_)
                | Command::WaitOnPresent(_)
                | Command::Present(_)
        );
        let dma = matches!(queue, QueueId::Dma { .. });
        let copy_ok = matches!(
            cmd,
            Command::CopyResource { .. }
                | Command::Map { .. }
                | Command::Unmap(_)
                | Command::InsertFence { .. }
                | Command::WaitFence(_)
                | Command::Kickoff
                | Command::Barrier(_)
        );
        if (graphics_only && queue != QueueId::Graphics) || (dma && !copy_ok) {
            return Err(DeviceError::WrongQueue {
                command: cmd.name(),
                queue,
            });
        }
        let mut refs = Vec::new();
        cmd.objects(&mut refs);
        let direct = refs.len();
        for i in 0..direct {
            let resource = memory.resource_of(refs[i])?;
            if resource != refs[i] {
                refs.push(resource);
            }
        }
        let mut shows = None;
        let q = &mut self.queues[queue.index()];
        match &cmd {
            Command::PlaceSwapChainView { view, buffer } => memory.repoint(*view, *buffer)?,
            Command::Present(chain) => {
                let b = present
                    .present_cpu(*chain)
                    .ok_or(DeviceError::NoSwapChain)?;
                refs.push(b);
                shows = Some(b);
            }
            Command::InsertFence { fence, .. } => {
                self.fences.insert(*fence, FenceState { signal: None });
            }
            _ => {}
        }
        let bytes = match &cmd {
            Command::CopyResource { bytes, .. } => *bytes,
            _ => 0,
        };
        let kicks = matches!(
            cmd,
            Command::Kickoff | Command::Present(_) | Command::InsertFence { kickoff: true, .. }
        );
        for &r in &refs {
            if let Some(state) = self.refs.entry(r) {
                state.or_default().pending += 1;
            }
        }
        q.stream.push_back(Pending {
            cmd,
            frame,
            label,
            submit_ns: cpu_ns,
            refs,
            shows,
            bytes,
        });
        if kicks {
            q.kicked = q.stream.len();
        }
        Ok(())
    }

    /// Run every queue until nothing can move. Returns commands executed.
    pub(super) fn run(
        &mut self,
        profile: &Profile,
        memory: &Memory,
        present: &mut PresentEngine,
    ) -> usize {
        let mut executed = 0;
        loop {
            let mut progressed = false;
            for qi in 0..QUEUE_COUNT {
                while self.queues[qi].kicked > 0 {
                    match self.step(qi, profile, memory, present) {
                        Step::Done => {
                            executed += 1;
                            progressed = true;
                        }
                        Step::Blocked => break,
                    }
                }
            }
            if !progressed {
                return executed;
            }
        }
    }

    fn step(
        &mut self,
        qi: usize,
        profile: &Profile,
        memory: &Memory,
        present: &mut PresentEngine,
    ) -> Step {
        let queue = QueueId::from_index(qi).unwrap_or_default();
        let q = &self.queues[qi];
        let Some(p) = q.stream.front() else {
            return Step::Blocked;
        };
        let ready = q.t.max(p.submit_ns);
        let mut stall = if p.submit_ns > q.t {
            Stall::Submit
        } else {
            Stall::None
        };
        let mut stall_ns = p.submit_ns.saturating_sub(q.t);
        let bytes_of = |k: ObjectKey| {
            memory
                .resource_of(k)
                .and_then(|r| memory.get(r))
                .map_or(0, |o| o.bytes)
        };
        let (start, end) = match &p.cmd {
            Command::WaitFence(f) => match self.signal_ns(*f) {
                Some(s) => {
                    if s > ready {
                        stall = Stall::Fence;
                        stall_ns += s - ready;
                    }
                    (ready.max(s), ready.max(s))
                }
                None => return Step::Blocked,
            },
            Command::WaitOnPresent(b) => {
                let buffer = memory.resource_of(*b).unwrap_or(*b);
                match present.free_at(buffer) {
                    Some(t) => {
                        if t > ready {
                            stall = Stall::Present;
                            stall_ns += t - ready;
                        }
                        (ready.max(t), ready.max(t))
                    }
                    None => return Step::Blocked,
                }
            }
            cmd => {
                let dma = matches!(queue, QueueId::Dma { .. }) && p.bytes > 0;
                (ready, ready + profile.cost(cmd, bytes_of, dma))
            }
        };
        let mut signalled = None;
        match &p.cmd {
            Command::InsertFence { fence, .. } => {
                if let Some(s) = self.fences.get_mut(fence) {
                    s.signal = Some(end);
                    signalled = Some(*fence);
                }
            }
            Command::Present(chain) => {
                if let Some(b) = p.shows {
                    present.present_gpu(*chain, b, end, profile.vsync_period_ns);
                }
            }
            _ => {}
        }
        for &r in &p.refs {
            if let Some(state) = self.refs.get_mut(r) {
                state.pending = state.pending.saturating_sub(1);
                state.last_end = state.last_end.max(end);
            }
        }
        self.executed.push(Executed {
            queue,
            frame: p.frame,
            label: p.label,
            name: p.cmd.name(),
            start_ns: start,
            end_ns: end,
            stall_ns,
            stall,
        });
        let q = &mut self.queues[qi];
        q.stream.pop_front();
        q.kicked -= 1;
        q.t = end;
        if let Some(f) = signalled {
            self.retire_old_fences(qi, f);
        }
        Step::Done
    }

    pub(super) fn signal_ns(&self, fence: FenceId) -> Option<u64> {
        match self.fences.get(&fence) {
            Some(s) => s.signal,
            // Pruned: it signalled long ago (fences on one queue signal in order).
            None => fence
                .queue()
                .filter(|q| fence.sequence() <= self.retired_upto[q.index()])
                .map(|_| 0),
        }
    }

    /// Keep the fence map bounded: a queue's fences signal in order, so once many newer ones
    /// have signalled, an old one only needs to be remembered as "passed".
    fn retire_old_fences(&mut self, qi: usize, fence: FenceId) {
        const KEEP: usize = 4096;
        let list = &mut self.signalled[qi];
        list.push_back(fence);
        while list.len() > KEEP {
            if let Some(old) = list.pop_front() {
                self.fences.remove(&old);
                self.retired_upto[qi] = self.retired_upto[qi].max(old.sequence());
            }
        }
    }

    pub(super) fn queue_time(&self, queue: QueueId) -> u64 {
        self.queues[queue.index()].t
    }

    /// FS-6: refuse to destroy what unexecuted or unfinished (at `cpu_ns`) work references.
    pub(super) fn check_idle(
        &mut self,
        key: ObjectKey,
        cpu_ns: u64,
        memory: &Memory,
    ) -> Result<(), DeviceError> {
        let Some(state) = self.refs.get(key).copied() else {
            return Ok(());
        };
        if state.pending > 0 || state.last_end > cpu_ns {
            return Err(DeviceError::InUse {
                object: memory.name(key),
                pending: state.pending,
            });
        }
        self.refs.remove(key);
        Ok(())
    }

    /// Why `fence` can never signal, given that the GPU has run as far as it can.
    pub(super) fn diagnose_stuck(&self, fence: FenceId, memory: &Memory) -> DeviceError {
        if !self.fences.contains_key(&fence) && self.signal_ns(fence).is_none() {
            return DeviceError::UnknownFence { fence };
        }
        let mut waits = Vec::new();
        let mut target = fence;
        loop {
            let Some(queue) = target.queue() else {
                return DeviceError::UnknownFence { fence: target };
            };
            let q = &self.queues[queue.index()];
            let front = if q.kicked > 0 { q.stream.front() } else { None };
            match front.map(|p| &p.cmd) {
                None => {
                    return DeviceError::Deadlock {
                        waits,
                        not_kicked: Some(target),
                    };
                }
                Some(Command::WaitFence(g)) => {
                    let cycle = waits.iter().any(|(wq, _)| *wq == queue);
                    waits.push((queue, *g));
                    if cycle || !self.fences.contains_key(g) {
                        return DeviceError::Deadlock {
                            waits,
                            not_kicked: None,
                        };
                    }
                    target = *g;
                }
                Some(Command::WaitOnPresent(b)) => {
                    return DeviceError::Hang {
                        queue,
                        buffer: memory.name(memory.resource_of(*b).unwrap_or(*b)),
                    };
                }
                Some(_) => {
                    return DeviceError::Deadlock {
                        waits,
                        not_kicked: Some(target),
                    };
                }
            }
        }
    }
}
