//! How a pass binds its resources (RB-1, RB-2): the same bindings as per-slot calls, as
//! `SetFastResources` calls, or as batches copied inline, by [`BindingMode`].
//!
//! A pass binds, per shader stage, the views of its shader reads and UAV uses on consecutive
//! slots from 0, its vertex buffers from slot 0 and, per stage, its constant buffers from slot
//! 0. As fast binding each run of one kind on consecutive slots is one set-type token, so it
//! shares one packet header (RB-1); tokens are packed in order into calls of at most eight
//! resources, a token split across two calls where it must be. A pass's bindings are known only
//! at run time, so the default is a batch per call (RB-2): built the first frame, kept with the
//! pass's context and copied inline every frame after, built again when what the pass binds
//! changed (a new object is a new key, so a batch never outlives what it names while the pass
//! still uses it). The index buffer is not a set-type token and keeps its own call.

use crate::barrier::Sync;
use crate::device::{
    Command, DeferredContext, DeviceError, FastBatch, FastSet, MAX_FAST_RESOURCES, ObjectKey,
    ShaderStage, SharedBatch, cpu_cost,
};
use crate::model::{BindingMode, UseAccess};

use super::{BoundUse, PassRecipe};

const STAGES: [ShaderStage; 3] = [
    ShaderStage::Vertex,
    ShaderStage::Pixel,
    ShaderStage::Compute,
];

/// Record the pass's bindings on `ctx`; `batches` are the pass's batches from earlier frames,
/// replaced by this frame's.
pub fn record_bindings(
    recipe: &PassRecipe,
    draw: bool,
    ctx: &mut DeferredContext,
    batches: &mut Vec<SharedBatch<ObjectKey>>,
) -> Result<(), DeviceError> {
    let index = (recipe.uses.iter())
        .find(|u| u.access == UseAccess::IndexBuffer)
        .map(|u| u.resource);
    if recipe.binding == BindingMode::PerSlot {
        return per_slot(recipe, draw, index, ctx);
    }
    let calls = pack(tokens(recipe, draw));
    for (i, sets) in calls.into_iter().enumerate() {
        if recipe.binding == BindingMode::Calls {
            ctx.push(Command::SetFastResources(sets))?;
            continue;
        }
        if batches.get(i).is_none_or(|b| b.sets != sets) {
            let batch = FastBatch { sets };
            ctx.charge(cpu_cost::into_batch_ns(&batch));
            batches.truncate(i);
            batches.push(std::sync::Arc::new(batch));
        }
        ctx.push(Command::SetFastResourcesFromBatch(batches[i].clone()))?;
    }
    if let Some(ib) = index {
        ctx.push(Command::SetIndexBuffer(ib))?;
    }
    Ok(())
}

/// The views bound on `stage`, with whether each is a UAV.
fn views(recipe: &PassRecipe, draw: bool, stage: ShaderStage) -> Vec<(ObjectKey, bool)> {
    (recipe.uses.iter())
        .filter(|u| matches!(u.access, UseAccess::ShaderRead | UseAccess::UnorderedAccess))
        .filter(|u| bound_on(stage, draw, u.stages))
        .filter_map(|u| Some((u.view?, u.access == UseAccess::UnorderedAccess)))
        .collect()
}

fn of(recipe: &PassRecipe, a: UseAccess) -> impl Iterator<Item = &BoundUse> {
    recipe.uses.iter().filter(move |u| u.access == a)
}

fn constant_buffers(recipe: &PassRecipe, draw: bool, stage: ShaderStage) -> Vec<ObjectKey> {
    (of(recipe, UseAccess::ConstantBuffer))
        .filter(|u| bound_on(stage, draw, u.stages))
        .map(|u| u.resource)
        .collect()
}

/// The legacy calls: per stage its views in calls of eight slots, the vertex buffers, the
/// index buffer, per stage its constant buffers.
fn per_slot(
    recipe: &PassRecipe,
    draw: bool,
    index: Option<ObjectKey>,
    ctx: &mut DeferredContext,
) -> Result<(), DeviceError> {
    for stage in STAGES {
        let views: Vec<ObjectKey> = views(recipe, draw, stage).iter().map(|v| v.0).collect();
        for (i, chunk) in views.chunks(MAX_FAST_RESOURCES).enumerate() {
            ctx.push(Command::SetResources {
                stage,
                first_slot: (i * MAX_FAST_RESOURCES) as u32,
                views: chunk.to_vec(),
                // A pass's UnorderedAccess use writes (UseAccess::is_write).
                writes: true,
            })?;
        }
    }
    let vbs: Vec<ObjectKey> = of(recipe, UseAccess::VertexBuffer)
        .map(|u| u.resource)
        .collect();
    if !vbs.is_empty() {
        ctx.push(Command::SetVertexBuffers { buffers: vbs })?;
    }
    if let Some(ib) = index {
        ctx.push(Command::SetIndexBuffer(ib))?;
    }
    for stage in STAGES {
        let cbs = constant_buffers(recipe, draw, stage);
        if !cbs.is_empty() {
            ctx.push(Command::SetConstantBuffers {
                stage,
                buffers: cbs,
            })?;
        }
    }
    Ok(())
}

/// The pass's bindings as set-type tokens: one per run of one kind on consecutive slots.
fn tokens(recipe: &PassRecipe, draw: bool) -> Vec<FastSet<ObjectKey>> {
    let mut out = Vec::new();
    for stage in STAGES {
        let views = views(recipe, draw, stage);
        let mut slot = 0;
        for run in views.chunk_by(|a, b| a.1 == b.1) {
            let keys: Vec<ObjectKey> = run.iter().map(|v| v.0).collect();
            let n = keys.len() as u32;
            out.push(match run[0].1 {
                true => FastSet::Uav {
                    stage,
                    slot,
                    views: keys,
                },
                false => FastSet::Srv {
                    stage,
                    slot,
                    views: keys,
                },
            });
            slot += n;
        }
    }
    let vbs: Vec<ObjectKey> = of(recipe, UseAccess::VertexBuffer)
        .map(|u| u.resource)
        .collect();
    if !vbs.is_empty() {
        // RB-1: a vertex buffer object needs the with-offset form.
        out.push(FastSet::VertexBuffersWithOffset {
            slot: 0,
            buffers: vbs,
        });
    }
    for stage in STAGES {
        let cbs = constant_buffers(recipe, draw, stage);
        if !cbs.is_empty() {
            out.push(FastSet::ConstantBuffers {
                stage,
                slot: 0,
                buffers: cbs,
            });
        }
    }
    out
}

/// Pack tokens in order into calls of at most eight resources (RB-1), splitting a token
/// where a call fills up (its second part starts at the next slot).
fn pack(tokens: Vec<FastSet<ObjectKey>>) -> Vec<Vec<FastSet<ObjectKey>>> {
    let mut calls: Vec<Vec<FastSet<ObjectKey>>> = Vec::new();
    let mut room = 0;
    for mut token in tokens {
        while !token.is_empty() {
            if room == 0 {
                calls.push(Vec::new());
                room = MAX_FAST_RESOURCES;
            }
            let (head, rest) = split(token, room);
            room -= head.len();
            if let Some(call) = calls.last_mut() {
                call.push(head);
            }
            token = rest;
        }
    }
    calls
}

/// The first `n` resources of a token, and the rest from the slot after them.
fn split(token: FastSet<ObjectKey>, n: usize) -> (FastSet<ObjectKey>, FastSet<ObjectKey>) {
    let cut = |mut list: Vec<ObjectKey>| {
        let rest = list.split_off(n.min(list.len()));
        (list, rest)
    };
    let next = |slot: u32, head: &[ObjectKey]| slot + head.len() as u32;
    match token {
        FastSet::Srv { stage, slot, views } => {
            let (a, b) = cut(views);
            let s = next(slot, &a);
            let head = FastSet::Srv {
                stage,
                slot,
                views: a,
            };
            let rest = FastSet::Srv {
                stage,
                slot: s,
                views: b,
            };
            (head, rest)
        }
        FastSet::Uav { stage, slot, views } => {
            let (a, b) = cut(views);
            let s = next(slot, &a);
            let head = FastSet::Uav {
                stage,
                slot,
                views: a,
            };
            let rest = FastSet::Uav {
                stage,
                slot: s,
                views: b,
            };
            (head, rest)
        }
        FastSet::ConstantBuffers {
            stage,
            slot,
            buffers,
        } => {
            let (a, b) = cut(buffers);
            let s = next(slot, &a);
            let head = FastSet::ConstantBuffers {
                stage,
                slot,
                buffers: a,
            };
            let rest = FastSet::ConstantBuffers {
                stage,
                slot: s,
                buffers: b,
            };
            (head, rest)
        }
        FastSet::VertexBuffersWithOffset { slot, buffers } => {
            let (a, b) = cut(buffers);
            let s = next(slot, &a);
            let head = FastSet::VertexBuffersWithOffset { slot, buffers: a };
            let rest = FastSet::VertexBuffersWithOffset {
                slot: s,
                buffers: b,
            };
            (head, rest)
        }
        // The recorder makes no other tokens.
        other => (
            other,
            FastSet::VertexBuffersWithOffset {
                slot: 0,
                buffers: Vec::new(),
            },
        ),
    }
}

/// Whether a use performed by `stages` is bound on shader `stage`: a dispatch binds on the
/// compute stage alone; a draw on the vertex stage when the use names vertex shading, on the
/// pixel stage when it names pixel shading or neither shader stage (a use is bound where the
/// planned barriers made it visible, FS-3).
fn bound_on(stage: ShaderStage, draw: bool, stages: Sync) -> bool {
    let stages = stages.expand();
    match stage {
        ShaderStage::Compute => !draw,
        ShaderStage::Vertex => draw && stages.contains(Sync::VERTEX_SHADING),
        ShaderStage::Pixel => {
            draw && (stages.contains(Sync::PIXEL_SHADING)
                || !stages.intersects(Sync::VERTEX_SHADING | Sync::PIXEL_SHADING))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cbs(n: usize) -> FastSet<ObjectKey> {
        FastSet::ConstantBuffers {
            stage: ShaderStage::Pixel,
            slot: 0,
            buffers: vec![ObjectKey::default(); n],
        }
    }

    #[test]
    fn calls_hold_at_most_eight_and_a_split_token_goes_on_at_the_next_slot() {
        let calls = pack(vec![cbs(5), cbs(6)]);
        let sizes: Vec<usize> = (calls.iter())
            .map(|c| c.iter().map(FastSet::len).sum())
            .collect();
        assert_eq!(sizes, [8, 3]);
        assert_eq!(calls[0].len(), 2);
        let FastSet::ConstantBuffers { slot, buffers, .. } = &calls[1][0] else {
            panic!("{calls:?}")
        };
        assert_eq!((*slot, buffers.len()), (3, 3));
    }

    #[test]
    fn nothing_bound_is_no_call() {
        assert!(pack(Vec::new()).is_empty());
        assert_eq!(pack(vec![cbs(8)]).len(), 1);
    }
}
