//! The GPU zones Tracy is sent, as plain data: computed from the simulation's timeline, so a
//! test can check them without a Tracy server.
//!
//! Per queue, zones follow the timeline in start order: a zone per pass (its commands on the
//! queue, from the first one's start to the last one's end), inside it a zone per Barrier
//! command, and a zone per wait (the part of an idle gap the command that ends it waited
//! for, named by the cause, as `report::queue_time` charges it) between them: a wait ends a
//! pass's zone, and the pass goes on in a zone after it, so a pass's zones are time it ran. Tracy draws a GPU context as one row of nested zones, so zones on a queue never
//! overlap: where two passes' work overlaps (work items run concurrently), the later pass's
//! zone begins where the earlier one ends (a pass an earlier zone covers entirely has none),
//! and a child is cut to its parent.
//!
//! Records arrive in completion order, so a queue keeps them until a watermark says no
//! earlier start can still come (as `report::queue_time` does), and keeps the current pass
//! open until a record of another pass starts. Times are the simulated nanoseconds; the
//! emitter converts them to the device's 100 MHz clock (CC-7).

use crate::device::{Executed, QUEUE_COUNT, QueueId};
use crate::report::Cause;

/// What a zone shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneKind {
    /// A pass's commands on the queue; `label` names it (`Device::label_name`).
    Pass { label: u32 },
    /// One Barrier command (EB-2..EB-5).
    Barrier,
    /// The queue idle, waiting for `Cause`.
    Wait(Cause),
}

impl ZoneKind {
    /// The zone's name when it is not a pass: a static string, interned once by Tracy.
    pub fn static_name(self) -> Option<&'static str> {
        match self {
            ZoneKind::Pass { .. } => None,
            ZoneKind::Barrier => Some("Barrier"),
            ZoneKind::Wait(c) => Some(match c {
                Cause::Fence => "wait: fence",
                Cause::Present => "wait: present",
                Cause::Submit => "wait: CPU submit",
                Cause::Drain => "wait: drain",
                Cause::Block => "wait: blocked by barrier",
                Cause::Suspend => "wait: suspended",
                Cause::Full => "wait: queue full",
                Cause::FrontEnd => "front end",
                Cause::Done => "done",
            }),
        }
    }
}

/// One zone, ns on the simulated GPU clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone {
    pub kind: ZoneKind,
    pub start_ns: u64,
    pub end_ns: u64,
}

/// A top-level zone with the zones nested in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneTree {
    pub queue: QueueId,
    pub zone: Zone,
    pub children: Vec<Zone>,
}

#[derive(Clone, Debug)]
struct Open {
    label: u32,
    start: u64,
    end: u64,
    children: Vec<Zone>,
}

#[derive(Clone, Debug, Default)]
struct QueueZones {
    pending: Vec<Executed>,
    started: bool,
    busy_until: u64,
    /// End of the last zone made top-level.
    closed_end: u64,
    open: Option<Open>,
}

impl QueueZones {
    fn place(&mut self, queue: QueueId, x: &Executed, out: &mut Vec<ZoneTree>) {
        let wait = match Cause::of(x.stall) {
            Some(cause) if self.started && x.start_ns > self.busy_until => {
                let from = self.busy_until.max(x.start_ns.saturating_sub(x.stall_ns));
                (from < x.start_ns).then_some(Zone {
                    kind: ZoneKind::Wait(cause),
                    start_ns: from,
                    end_ns: x.start_ns,
                })
            }
            _ => None,
        };
        self.started = true;
        // A wait ends the pass's zone (a pass's zone is time it ran; a pass that waits half
        // way has a zone before the wait and one after), and so does another pass.
        if wait.is_some() || self.open.as_ref().is_some_and(|o| o.label != x.label) {
            self.close(queue, out);
        }
        if let Some(w) = wait {
            let start = w.start_ns.max(self.closed_end);
            if start < w.end_ns {
                self.closed_end = w.end_ns;
                let zone = Zone {
                    start_ns: start,
                    ..w
                };
                out.push(ZoneTree {
                    queue,
                    zone,
                    children: Vec::new(),
                });
            }
        }
        let open = self.open.get_or_insert_with(|| Open {
            label: x.label,
            start: x.start_ns,
            end: x.end_ns,
            children: Vec::new(),
        });
        open.end = open.end.max(x.end_ns);
        if x.name == "Barrier" {
            open.children.push(Zone {
                kind: ZoneKind::Barrier,
                start_ns: x.start_ns,
                end_ns: x.end_ns,
            });
        }
        self.busy_until = self.busy_until.max(x.end_ns);
    }

    fn close(&mut self, queue: QueueId, out: &mut Vec<ZoneTree>) {
        let Some(open) = self.open.take() else {
            return;
        };
        // A pass whose time an earlier zone took entirely has no zone; an instant one (a
        // fence at the end of a frame) keeps its zero-length zone.
        let start = open.start.max(self.closed_end);
        if start > open.end {
            return;
        }
        let mut children = Vec::with_capacity(open.children.len());
        let mut floor = start;
        for c in open.children {
            let (s, e) = (c.start_ns.max(floor), c.end_ns.min(open.end));
            if s < e {
                children.push(Zone {
                    start_ns: s,
                    end_ns: e,
                    ..c
                });
                floor = e;
            }
        }
        self.closed_end = open.end;
        out.push(ZoneTree {
            queue,
            zone: Zone {
                kind: ZoneKind::Pass { label: open.label },
                start_ns: start,
                end_ns: open.end,
            },
            children,
        });
    }
}

/// Zones of every queue, made as records come in.
#[derive(Clone, Debug, Default)]
pub struct ZoneBuilder {
    queues: [QueueZones; QUEUE_COUNT],
}

impl ZoneBuilder {
    /// Take records (any order).
    pub fn add(&mut self, executed: &[Executed]) {
        for x in executed {
            self.queues[x.queue.index()].pending.push(x.clone());
        }
    }

    /// The zones complete once every record starting before `watermark` is placed, per queue
    /// in time order. `u64::MAX` places everything and closes the last passes.
    pub fn take(&mut self, watermark: u64) -> Vec<ZoneTree> {
        let mut out = Vec::new();
        for (i, q) in self.queues.iter_mut().enumerate() {
            let Some(queue) = QueueId::from_index(i) else {
                continue;
            };
            q.pending.sort_by_key(|x| (x.start_ns, x.end_ns, x.seq));
            let ready = q.pending.partition_point(|x| x.start_ns < watermark);
            let records: Vec<Executed> = q.pending.drain(..ready).collect();
            for x in &records {
                q.place(queue, x, &mut out);
            }
            if watermark == u64::MAX {
                q.close(queue, &mut out);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Stall;

    fn rec(
        label: u32,
        name: &'static str,
        start: u64,
        end: u64,
        stall: Stall,
        wait: u64,
    ) -> Executed {
        Executed {
            queue: QueueId::Graphics,
            frame: 0,
            label,
            name,
            issue_ns: start,
            start_ns: start,
            end_ns: end,
            stall_ns: wait,
            stall,
            cache_ns: 0,
            decompress_ns: 0,
            path_ns: 0,
            path_barrier_ns: 0,
            seq: 0,
        }
    }

    #[test]
    fn passes_nest_their_barriers_and_waits_and_never_overlap() {
        let mut b = ZoneBuilder::default();
        b.add(&[
            rec(1, "Draw", 0, 100, Stall::None, 0),
            rec(1, "Barrier", 100, 110, Stall::Drain, 50),
            // Pass 2 starts under pass 1's barrier, then waits on a fence.
            rec(2, "Dispatch", 105, 130, Stall::None, 0),
            rec(2, "Draw", 200, 250, Stall::Fence, 60),
            rec(3, "Draw", 300, 310, Stall::Submit, 20),
        ]);
        let first = b.take(150);
        assert_eq!(first.len(), 1, "pass 2 is still open: {first:?}");
        assert_eq!(
            (first[0].zone.start_ns, first[0].zone.end_ns),
            (0, 110),
            "pass 1"
        );
        assert_eq!(first[0].children[0].kind, ZoneKind::Barrier);
        assert!(b.take(150).is_empty());
        let trees = b.take(u64::MAX);
        let kinds: Vec<(ZoneKind, u64, u64, usize)> = (trees.iter())
            .map(|t| {
                (
                    t.zone.kind,
                    t.zone.start_ns,
                    t.zone.end_ns,
                    t.children.len(),
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (ZoneKind::Pass { label: 2 }, 110, 130, 0),
                (ZoneKind::Wait(Cause::Fence), 140, 200, 0),
                (ZoneKind::Pass { label: 2 }, 200, 250, 0),
                (ZoneKind::Wait(Cause::Submit), 280, 300, 0),
                (ZoneKind::Pass { label: 3 }, 300, 310, 0),
            ]
        );
    }
}
