//! Alias: after a compile, place the frame's transients in one shared heap by lifetime
//! ([`crate::plan::alias`], EB-5, EB-9d) and note the plan's figures for the run summary
//! (`memory.transient_*`). Runs only when compile produced a new graph.

use bevy_ecs::prelude::*;

use crate::model::{Buffer, Lifetime, Texture};
use crate::plan::{AliasPlan, Aliaser, CompiledGraph};
use crate::report::RunStats;

/// Place the transients of a newly compiled graph.
pub fn place_transients(
    graph: Res<CompiledGraph>,
    mut aliaser: Local<Aliaser>,
    mut placed: Local<Option<u64>>,
    mut plan: ResMut<AliasPlan>,
    mut stats: ResMut<RunStats>,
    resources: Query<(Option<&Texture>, Option<&Buffer>, Option<&Lifetime>)>,
) {
    if *placed == Some(graph.generation) {
        return;
    }
    *placed = Some(graph.generation);
    let bytes = |e: Entity| match resources.get(e) {
        Ok((Some(t), _, Some(Lifetime::Transient))) => Some(t.bytes()),
        Ok((_, Some(b), Some(Lifetime::Transient))) => Some(b.size),
        _ => None,
    };
    aliaser.place_into(&graph, bytes, &mut plan);
    stats.transient_peak_bytes = plan.peak_bytes;
    stats.transient_lower_bound_bytes = plan.lower_bound_bytes;
    stats.transient_unaliased_bytes = plan.unaliased_bytes;
}
