//! Recording: a compiled pass, resolved to device objects ([`PassRecipe, RecipeQueries`]), becomes one
//! command list on its own deferred context (CTX-2). Recipes touch no ECS data, so the lists
//! of a frame record in parallel when there are enough of them to pay for the threads.

mod recipe;

use bevy_tasks::{ComputeTaskPool, TaskPool};

use crate::device::{CommandList, DeferredContext, DeviceError};
use crate::model::Semantics;
pub use recipe::{BoundUse, PassRecipe, RecipeQueries, record_pass};

/// Passes below this count record on the calling thread: spawning tasks costs more than
/// recording a handful of short lists.
pub const PARALLEL_RECORD_THRESHOLD: usize = 16;

/// Record every recipe on its own context from `pool` (grown with contexts of `semantics` as
/// needed, CTX-4), in recipe order. Recipes and contexts stay where they are: a frame of
/// 100,000 passes moved both into a vector of pairs and back, two allocations of tens of
/// megabytes a tick that the allocator maps fresh each time (page faults on every page).
pub fn record_all(
    recipes: &[PassRecipe],
    pool: &mut Vec<DeferredContext>,
    semantics: Semantics,
) -> Vec<Result<CommandList, DeviceError>> {
    while pool.len() < recipes.len() {
        let id = pool.len() as u32;
        pool.push(DeferredContext::new(id, semantics));
    }
    let contexts = &mut pool[..recipes.len()];
    if recipes.len() < PARALLEL_RECORD_THRESHOLD {
        return (recipes.iter().zip(contexts))
            .map(|(r, ctx)| record_pass(r, ctx))
            .collect();
    }
    let tasks = ComputeTaskPool::get_or_init(TaskPool::default);
    let chunk = recipes.len().div_ceil(tasks.thread_num().max(1));
    let parts = tasks.scope(|scope| {
        for (rs, cs) in recipes.chunks(chunk).zip(contexts.chunks_mut(chunk)) {
            scope.spawn(async move {
                (rs.iter().zip(cs))
                    .map(|(r, ctx)| record_pass(r, ctx))
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
