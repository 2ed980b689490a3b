//! Query read-back: at the start of each frame, before its passes are submitted, the CPU
//! reads the query results each pass resolved `read_after` frames ago (`frames_in_flight`
//! by default), as an engine maps its readback buffer to show GPU timings or to cull by
//! last frame's occlusion. Every read goes through the validation layer, which reports one
//! made before a fence after the resolve has passed (CTX-6, V0905); the counts of queries
//! resolved and read go to the run's statistics.

use bevy_ecs::prelude::*;
use hashbrown::HashMap;

use super::submitter::Submitter;
use crate::frame::Clock;
use crate::model::{FrameIndex, Pass, PassQueries, Settings};
use crate::plan::CompiledGraph;

/// Read the results resolved `read_after` frames ago, and count this frame's resolves.
pub fn read_pass_queries(
    graph: Res<CompiledGraph>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    settings: Res<Settings>,
    passes: Query<&Pass>,
    mut first_resolved: Local<HashMap<Entity, u64>>,
    mut submitter: Submitter,
) {
    for p in &graph.passes {
        let Ok(pass) = passes.get(p.entity) else {
            continue;
        };
        let Some(q) = &pass.queries else { continue };
        let first = *first_resolved.entry(p.entity).or_insert(frame.0);
        submitter.stats().queries_resolved += q.count() as u64;
        let lag = q.read_after.unwrap_or(settings.frames_in_flight) as u64;
        // Frame `frame - lag` resolved these results, if the pass ran then.
        let Some(read) = frame.0.checked_sub(lag).filter(|&f| f >= first) else {
            continue;
        };
        let slot = PassQueries::<Entity>::first_slot(pass.order, read);
        let (device, mut sink) = submitter.split();
        let name = format!("{} (frame {read})", p.name);
        sink.query_read(device, slot, &name, clock.cpu_ns, p.label, false);
        submitter.stats().queries_read += q.count() as u64;
    }
}
