//! Recording: a compiled pass, resolved to device objects ([`PassRecipe`]), becomes one
//! command list on its own deferred context (CTX-2). Recipes touch no ECS data, so the lists
//! of a frame record in parallel when there are enough of them to pay for the threads.

mod recipe;

use bevy_tasks::{ComputeTaskPool, ParallelSliceMut, TaskPool};

use crate::device::{CommandList, DeferredContext, DeviceError};
use crate::model::Semantics;
pub use recipe::{BoundUse, PassRecipe, record_pass};

/// Passes below this count record on the calling thread: spawning tasks costs more than
/// recording a handful of short lists.
pub const PARALLEL_RECORD_THRESHOLD: usize = 16;

/// Record every recipe on its own context from `pool` (grown with contexts of `semantics` as
/// needed, CTX-4), in recipe order.
pub fn record_all(
    recipes: Vec<PassRecipe>,
    pool: &mut Vec<DeferredContext>,
    semantics: Semantics,
) -> Vec<Result<CommandList, DeviceError>> {
    while pool.len() < recipes.len() {
        let id = pool.len() as u32;
        pool.push(DeferredContext::new(id, semantics));
    }
    let contexts = std::mem::take(pool);
    let (mut jobs, rest): (Vec<_>, Vec<_>) = {
        let mut it = contexts.into_iter();
        let jobs: Vec<(PassRecipe, DeferredContext)> =
            recipes.into_iter().zip(it.by_ref()).collect();
        (jobs, it.collect::<Vec<_>>())
    };
    let results = if jobs.len() >= PARALLEL_RECORD_THRESHOLD {
        let tasks = ComputeTaskPool::get_or_init(TaskPool::default);
        let chunk = jobs.len().div_ceil(tasks.thread_num().max(1));
        jobs.par_chunk_map_mut(tasks, chunk, |_, chunk| {
            (chunk.iter_mut())
                .map(|(r, ctx)| record_pass(r, ctx))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect()
    } else {
        (jobs.iter_mut())
            .map(|(r, ctx)| record_pass(r, ctx))
            .collect()
    };
    *pool = jobs.into_iter().map(|(_, c)| c).chain(rest).collect();
    results
}
