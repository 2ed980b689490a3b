//! A script's `ResizeBuffers` as it executes: the device's chain gets new buffers, the
//! script's state learns them (names of `chain[i]` and the chain's extent and format), and
//! the old buffers, with the device views made of them for scene views, are released at the
//! call as D3D12 requires, each checked by the validation layer first (FS-6, RL-3).

use bevy_ecs::prelude::*;

use super::Batches;
use super::resolve::Resolver;
use crate::error::RuntimeError;
use crate::model::Texture;

/// ResizeBuffers now: new buffers replace the chain's, and the old ones are released at
/// once, as D3D12 requires (the title flushed its queues first): the validation layer checks
/// each release and the device refuses one the GPU may still use (FS-6, RL-3). The display
/// lets go of them by itself. Device views the script made of the old buffers for scene
/// views are released with them, like descriptors written again.
pub(super) fn resize_buffers(
    r: &mut Resolver,
    sink: &mut Batches,
    label: u32,
    chain: Entity,
    key: crate::device::SwapChainKey,
    texture: Texture,
) -> Result<(), RuntimeError> {
    let frame = sink.sink.frame();
    let device_error = |source| RuntimeError::Device { frame, source };
    let (extent, format) = (texture.extent, texture.format);
    let (old, fresh) = (r.device.resize_swap_chain(key, texture)).map_err(device_error)?;
    for (i, k) in fresh.iter().enumerate() {
        r.state.resized.insert((chain, i as u32), *k);
    }
    r.state.resized_to.insert(chain, (extent, format));
    let stale: Vec<Entity> = (r.state.chain_views.iter())
        .filter(|(_, (_, b))| old.contains(b))
        .map(|(e, _)| *e)
        .collect();
    for e in stale {
        if let Some((view, _)) = r.state.chain_views.remove(&e)
            && r.device.memory.is_live(view)
        {
            sink.release(r.device, view, label)?;
        }
    }
    for k in old {
        r.device.leave_display(k);
        sink.release(r.device, k, label)?;
    }
    Ok(())
}
