//! Acquire: find the buffer at index 0 of each swap chain. Present always shows index 0 and
//! rotates the next buffer in (RL-5); the title cannot choose, only keep in step.

use bevy_ecs::prelude::*;

use crate::device::Device;
use crate::model::{
    BackBuffer, GpuChain, GpuObject, ReleaseRequest, Rotation, Settings, SwapChain, SwapChainBuffer,
};

/// Decide each chain's back buffer for this frame.
pub fn acquire_back_buffers(
    device: Res<Device>,
    settings: Res<Settings>,
    mut chains: Query<(Entity, &SwapChain, &GpuChain, &mut BackBuffer)>,
    buffers: Query<(Entity, &SwapChainBuffer, &GpuObject), Without<ReleaseRequest>>,
) {
    let _span = tracy_client::span!("acquire");
    for (e, chain, gpu, mut back) in &mut chains {
        let rotation = settings.rotation.unwrap_or(chain.rotation);
        let mut by_index: Vec<(u32, Entity, crate::device::ObjectKey)> = buffers
            .iter()
            .filter(|(_, buf, _)| buf.chain == e)
            .map(|(b, buf, obj)| (buf.index, b, obj.0))
            .collect();
        by_index.sort_unstable_by_key(|x| x.0);
        let Some(current) = device.swap_chain_buffer(gpu.key, 0) else {
            continue;
        };
        let count = chain.buffers.max(1);
        let index = if rotation == Rotation::SavedViews {
            // RL-5: the title's own index, advanced once per frame in `present`, checked
            // against the swap count from frame statistics and recovered if it drifted.
            let swaps = device.swap_count(gpu.key) - gpu.base_swaps;
            let expected = (swaps % count as u64) as u32;
            if back.saved_index != expected {
                back.saved_index = expected;
                back.recoveries += 1;
            }
            back.saved_index
        } else {
            // RL-6 and RL-7 ask the chain for buffer 0 every frame.
            by_index.iter().find(|x| x.2 == current).map_or(0, |x| x.0)
        };
        back.buffer = by_index.iter().find(|x| x.0 == index).map(|x| x.1);
    }
}
