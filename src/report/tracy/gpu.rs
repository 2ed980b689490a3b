//! Sending the GPU zones to Tracy: one GPU context per simulated queue, created once per
//! process (Tracy allows 255) and named after the queue, on the device's 100 MHz clock (a
//! tick is 10 ns, CC-7).
//!
//! Calibration: the simulated GPU has no wall clock, so each runtime anchors simulated time 0
//! at its own start (`sync_gpu_time`): a frame's GPU zones sit where its simulated time says,
//! after the runtime began, beside the CPU spans of the ticks that submitted it. Zones are
//! sent in the order Tracy nests them (a pass, its children, its end) with their start and
//! end times, each uploaded right after its begin or end. Compiled only with the `tracy`
//! feature.

use std::sync::OnceLock;
use std::time::Instant;
use tracy_client::{Client, GpuContext, GpuContextType};

use super::zones::ZoneTree;
use crate::device::{QUEUE_COUNT, QueueId};

/// Nanoseconds per tick of the device clock (100 MHz, CC-7).
const TICK_NS: u64 = 10;

static CONTEXTS: [OnceLock<Option<GpuContext>>; QUEUE_COUNT] =
    [const { OnceLock::new() }; QUEUE_COUNT];

/// The queues that have a Tracy GPU context, by index (created at the first zone sent).
pub fn contexts() -> Vec<QueueId> {
    (0..QUEUE_COUNT)
        .filter(|&i| CONTEXTS[i].get().is_some_and(Option::is_some))
        .filter_map(QueueId::from_index)
        .collect()
}

/// One runtime's connection to the contexts.
#[derive(Debug)]
pub struct Sink {
    origin: Instant,
    anchored: [bool; QUEUE_COUNT],
    /// Queue names by index (the zones' source-location function).
    names: Vec<String>,
}

impl Default for Sink {
    fn default() -> Self {
        Sink {
            origin: Instant::now(),
            anchored: [false; QUEUE_COUNT],
            names: (0..QUEUE_COUNT)
                .map(|i| QueueId::from_index(i).map_or_else(String::new, |q| q.to_string()))
                .collect(),
        }
    }
}

impl Sink {
    /// The device clock's reading now, with simulated time 0 at this runtime's start.
    fn now_ticks(&self) -> i64 {
        (self.origin.elapsed().as_nanos() as u64 / TICK_NS) as i64
    }

    fn context(&mut self, client: &Client, queue: QueueId) -> Option<&'static GpuContext> {
        let i = queue.index();
        let now = self.now_ticks();
        let created = &CONTEXTS[i];
        let fresh = created.get().is_none();
        let ctx = created
            .get_or_init(|| {
                let name = format!("GPU {queue}");
                (client.clone())
                    .new_gpu_context(Some(&name), GpuContextType::Invalid, now, TICK_NS as f32)
                    .ok()
            })
            .as_ref()?;
        if !self.anchored[i] {
            if !fresh {
                ctx.sync_gpu_time(now);
            }
            self.anchored[i] = true;
        }
        Some(ctx)
    }

    /// Send `trees`; `label` names a pass.
    pub fn send<'a>(&mut self, trees: &[ZoneTree], label: impl Fn(u32) -> &'a str) {
        let Some(client) = Client::running() else {
            return;
        };
        let ticks = |ns: u64| (ns / TICK_NS) as i64;
        for tree in trees {
            let Some(ctx) = self.context(&client, tree.queue) else {
                continue;
            };
            let function = self.names[tree.queue.index()].as_str();
            let name = |k: super::ZoneKind| match k {
                super::ZoneKind::Pass { label: l } => label(l),
                other => other.static_name().unwrap_or("?"),
            };
            let Ok(mut span) = ctx.span_alloc(name(tree.zone.kind), function, file!(), line!())
            else {
                continue;
            };
            span.upload_timestamp_start(ticks(tree.zone.start_ns));
            for c in &tree.children {
                if let Ok(mut child) = ctx.span_alloc(name(c.kind), function, file!(), line!()) {
                    child.upload_timestamp_start(ticks(c.start_ns));
                    child.end_zone();
                    child.upload_timestamp_end(ticks(c.end_ns));
                }
            }
            span.end_zone();
            span.upload_timestamp_end(ticks(tree.zone.end_ns));
        }
    }
}
