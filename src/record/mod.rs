//! Recording: a compiled pass, resolved to device objects ([`PassRecipe, RecipeQueries`]), becomes one
//! command list on its own deferred context (CTX-2). Recipes touch no ECS data, so the lists
//! of a frame record in parallel when there are enough of them to pay for the threads.

mod binding;
mod recipe;

use bevy_tasks::{ComputeTaskPool, TaskPool};

use crate::device::{CommandList, DeferredContext, DeviceError, ObjectKey, SharedBatch};
use crate::model::Semantics;
pub use recipe::{BoundUse, PassRecipe, RecipeQueries, copy_part, record_pass};

/// Passes below this count record on the calling thread: spawning tasks costs more than
/// recording a handful of short lists.
pub const PARALLEL_RECORD_THRESHOLD: usize = 16;

/// Record every recipe on its own context from `pool` (grown with contexts of `semantics` as
/// needed, CTX-4), in recipe order, with the batches each pass slot built before (`batches`,
/// grown alike, RB-2). Recipes and contexts stay where they are: a frame of
/// 100,000 passes moved both into a vector of pairs and back, two allocations of tens of
/// megabytes a tick that the allocator maps fresh each time (page faults on every page).
/// `no_debug`: the title's build defines `D3DCOMPILE_NO_DEBUG` (seed 002), which prices every
/// context's `SetFastResources` calls, scripted ones included.
pub fn record_all(
    recipes: &[PassRecipe],
    pool: &mut Vec<DeferredContext>,
    batches: &mut Vec<Vec<SharedBatch<ObjectKey>>>,
    semantics: Semantics,
    no_debug: bool,
) -> Vec<Result<CommandList, DeviceError>> {
    while pool.len() < recipes.len() {
        let id = pool.len() as u32;
        pool.push(DeferredContext::new(id, semantics));
    }
    batches.resize_with(batches.len().max(recipes.len()), Vec::new);
    let contexts = &mut pool[..recipes.len()];
    for ctx in contexts.iter_mut() {
        ctx.no_debug = no_debug;
    }
    let batches = &mut batches[..recipes.len()];
    if recipes.len() < PARALLEL_RECORD_THRESHOLD {
        return (recipes.iter().zip(contexts).zip(batches))
            .map(|((r, ctx), b)| record_pass(r, ctx, b))
            .collect();
    }
    let tasks = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = recipes.len().div_ceil(tasks.thread_num().max(1));
    let parts = tasks.scope(|scope| {
        for ((rs, cs), bs) in (recipes.chunks(chunk))
            .zip(contexts.chunks_mut(chunk))
            .zip(batches.chunks_mut(chunk))
        {
            scope.spawn(async move {
                (rs.iter().zip(cs).zip(bs))
                    .map(|((r, ctx), b)| record_pass(r, ctx, b))
                    .collect::<Vec<_>>()
            });
        }
    });
    let mut results = Vec::with_capacity(recipes.len());
    for part in parts {
        results.extend(part);
    }
    results
}
