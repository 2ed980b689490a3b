//! Writing trace events: one JSON object a line inside `traceEvents`, as records become
//! final; thread names and the trailer at the end.

use hashbrown::HashMap;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;

use super::detail::{Detail, Details};
use super::event::{Event, us};
use super::lanes::{Lanes, Thread, is_front_end, lane_for, tid};
use crate::device::{Device, Executed, FenceId, QUEUE_COUNT, QueueId, Submitted};
use crate::report::tracy::{ZoneBuilder, ZoneKind, ZoneTree};

/// The streaming writer.
pub struct TraceWriter {
    out: Box<dyn Write + Send + Sync>,
    error: Option<std::io::Error>,
    first: bool,
    scene: String,
    cap: usize,
    written: usize,
    dropped: u64,
    details: Details,
    zones: ZoneBuilder,
    /// Records waiting for the watermark.
    pending: Vec<Executed>,
    /// Per queue, the command lanes and front-end lanes: the ends of the slices open on each
    /// (a stack: a slice inside another nests on its lane).
    lanes: [(Lanes, Lanes); QUEUE_COUNT],
    /// Signals seen lately: fence, its queue thread, time and frame.
    signals: HashMap<FenceId, (u64, u64, u64)>,
    flows: u64,
    threads: BTreeMap<u64, String>,
    /// Partial flushes counted at the last counter sample.
    flushes: u64,
}

impl TraceWriter {
    pub fn new(scene: &str, out: Box<dyn Write + Send + Sync>, cap: usize) -> TraceWriter {
        let mut w = TraceWriter {
            out,
            error: None,
            first: true,
            scene: scene.to_owned(),
            cap,
            written: 0,
            dropped: 0,
            details: Details::default(),
            zones: ZoneBuilder::default(),
            pending: Vec::new(),
            lanes: Default::default(),
            signals: HashMap::new(),
            flows: 0,
            threads: BTreeMap::new(),
            flushes: 0,
        };
        w.raw("{\"traceEvents\":[\n");
        let name = format!("fastframe GPU: {scene}");
        w.event(&Event {
            name: "process_name",
            cat: "",
            ph: "M",
            pid: 1,
            tid: 0,
            ts: None,
            dur: None,
            id: None,
            bp: None,
            args: json!({ "name": name }),
        });
        w
    }

    fn raw(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }

    fn event(&mut self, e: &Event) {
        let text = serde_json::to_string(e).unwrap_or_default();
        let sep = if self.first { "" } else { ",\n" };
        self.first = false;
        self.raw(sep);
        self.raw(&text);
    }

    fn thread(&mut self, queue: usize, thread: Thread) -> u64 {
        let id = tid(queue, thread);
        self.threads.entry(id).or_insert_with(|| {
            let q = QueueId::from_index(queue).map_or_else(String::new, |q| q.to_string());
            match thread {
                Thread::Queue => q,
                Thread::Commands(0) => format!("{q} commands"),
                Thread::Commands(l) => format!("{q} commands +{l}"),
                Thread::FrontEnd(0) => format!("{q} front end"),
                Thread::FrontEnd(l) => format!("{q} front end +{l}"),
            }
        });
        id
    }

    pub fn read_submissions(&mut self, device: &Device, log: &[Submitted]) {
        self.details.read(device, log);
    }

    pub fn held(&self) -> usize {
        self.pending.len() + self.details.held() + self.signals.len()
    }

    pub fn absorb<'a>(
        &mut self,
        executed: &[Executed],
        watermark: u64,
        label: impl Fn(u32) -> &'a str,
    ) {
        self.zones.add(executed);
        let trees = self.zones.take(watermark);
        for t in &trees {
            self.zone(t, &label);
        }
        self.pending.extend_from_slice(executed);
        // Longer first at one start: the longer slice is the one the shorter nests in.
        let key = |x: &Executed| (x.start_ns, std::cmp::Reverse(x.end_ns), x.queue, x.seq);
        self.pending.sort_by_key(key);
        let ready = self.pending.partition_point(|x| x.start_ns < watermark);
        let records: Vec<Executed> = self.pending.drain(..ready).collect();
        // Signals first: a wait may start at the very instant its fence signals.
        let details: Vec<Option<Detail>> = (records.iter())
            .map(|x| {
                let d = self.details.take(x.queue, x.seq);
                if let Some(Detail::Signal(f)) = d {
                    self.signals
                        .insert(f, (tid_of_queue(x.queue.index()), x.end_ns, x.frame));
                }
                d
            })
            .collect();
        for (x, detail) in records.iter().zip(details) {
            self.command(x, detail, &label);
        }
        // A signal is waited on within the frames in flight; older ones are gone.
        if let Some(newest) = records.iter().map(|x| x.frame).max() {
            self.signals.retain(|_, s| s.2 + 16 > newest);
        }
    }

    fn zone<'a>(&mut self, t: &ZoneTree, label: &impl Fn(u32) -> &'a str) {
        let tid = self.thread(t.queue.index(), Thread::Queue);
        for z in std::iter::once(&t.zone).chain(&t.children) {
            let (name, cat, args) = match z.kind {
                ZoneKind::Pass { label: l } => (label(l), "pass", Value::Null),
                ZoneKind::Barrier => ("Barrier", "barrier", Value::Null),
                ZoneKind::Wait(c) => (
                    z.kind.static_name().unwrap_or("wait"),
                    "wait",
                    json!({ "cause": c.key(), "length_us": us(z.end_ns - z.start_ns) }),
                ),
            };
            self.event(&Event {
                name,
                cat,
                ph: "X",
                pid: 1,
                tid,
                ts: Some(us(z.start_ns)),
                dur: Some(us(z.end_ns - z.start_ns)),
                id: None,
                bp: None,
                args,
            });
        }
    }

    fn command<'a>(
        &mut self,
        x: &Executed,
        detail: Option<Detail>,
        label: &impl Fn(u32) -> &'a str,
    ) {
        if self.written >= self.cap {
            self.dropped += 1;
            return;
        }
        self.written += 1;
        let q = x.queue.index();
        let front = is_front_end(x.name);
        let lanes = if front {
            &mut self.lanes[q].1
        } else {
            &mut self.lanes[q].0
        };
        let lane = lane_for(lanes, x.start_ns, x.end_ns.max(x.start_ns));
        let thread = if front {
            Thread::FrontEnd(lane)
        } else {
            Thread::Commands(lane)
        };
        let tid = self.thread(q, thread);
        let mut args = json!({
            "pass": label(x.label), "frame": x.frame,
            "stall": format!("{:?}", x.stall), "stall_us": us(x.stall_ns),
            "cache_us": us(x.cache_ns), "decompress_us": us(x.decompress_ns),
        });
        let queue_tid = tid_of_queue(q);
        match detail {
            Some(Detail::Barrier(b)) => args["barrier"] = b,
            Some(Detail::Signal(f)) => args["fence"] = json!(f.to_string()),
            Some(Detail::Wait(f)) => {
                args["fence"] = json!(f.to_string());
                if let Some(&(from, at, _)) = self.signals.get(&f) {
                    self.flow(f, from, at, queue_tid, x.start_ns);
                }
            }
            None => {}
        }
        self.event(&Event {
            name: x.name,
            cat: "command",
            ph: "X",
            pid: 1,
            tid,
            ts: Some(us(x.start_ns)),
            dur: Some(us(x.end_ns.saturating_sub(x.start_ns))),
            id: None,
            bp: None,
            args,
        });
    }

    /// An arrow from a signal to a wait on the queues' threads: it starts a nanosecond before
    /// the signal (inside the signalling pass's slice, which ends with it) and ends where
    /// the wait ended (the start of the waiting pass's slice).
    fn flow(&mut self, fence: FenceId, from: u64, at: u64, to: u64, until: u64) {
        self.flows += 1;
        let id = self.flows;
        let name = format!("fence {fence}");
        for (ph, tid, ts) in [("s", from, at.saturating_sub(1)), ("f", to, until)] {
            self.event(&Event {
                name: &name,
                cat: "fence",
                ph,
                pid: 1,
                tid,
                ts: Some(us(ts)),
                dur: None,
                id: Some(id),
                bp: Some("e"),
                args: Value::Null,
            });
        }
    }

    /// Counter samples at GPU time `ts_ns`: device memory held, and the partial flushes the
    /// barriers submitted since the last sample asked for (`flushes` is the run's total).
    pub fn counters(&mut self, ts_ns: u64, memory_bytes: u64, flushes: u64) {
        let new = flushes.saturating_sub(self.flushes);
        self.flushes = flushes;
        let mib = memory_bytes as f64 / (1024.0 * 1024.0);
        for (name, args) in [
            (
                "device memory",
                json!({ "MiB": (mib * 1000.0).round() / 1000.0 }),
            ),
            ("partial flushes", json!({ "submitted": new })),
        ] {
            self.event(&Event {
                name,
                cat: "counter",
                ph: "C",
                pid: 1,
                tid: 0,
                ts: Some(us(ts_ns)),
                dur: None,
                id: None,
                bp: None,
                args,
            });
        }
    }

    pub fn finish(mut self) -> std::io::Result<()> {
        let threads = std::mem::take(&mut self.threads);
        for (tid, name) in &threads {
            for (meta, args) in [
                ("thread_name", json!({ "name": name })),
                ("thread_sort_index", json!({ "sort_index": tid })),
            ] {
                self.event(&Event {
                    name: meta,
                    cat: "",
                    ph: "M",
                    pid: 1,
                    tid: *tid,
                    ts: None,
                    dur: None,
                    id: None,
                    bp: None,
                    args,
                });
            }
        }
        let other = json!({
            "scene": self.scene,
            "dropped_commands": self.dropped,
            "fence_flows": self.flows,
        });
        let tail = format!("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{other}}}\n");
        self.raw(&tail);
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

fn tid_of_queue(q: usize) -> u64 {
    tid(q, Thread::Queue)
}
