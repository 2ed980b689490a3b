//! Rotate views: after every present, views of swap-chain buffers point at the wrong buffer
//! (FS-9). Each chain keeps its view pointing at buffer 0 with one of the seed's three loops.

use bevy_ecs::prelude::*;

use crate::barrier::SubresourceRange;

use crate::device::{Command, Device, DeviceError, FenceId, ObjectDesc, ObjectKey};
use crate::error::RuntimeError;
use crate::frame::{ChainPrologues, Clock};
use crate::model::*;

/// Produce this frame's back-buffer view for every chain.
pub fn rotate_views(
    mut device: ResMut<Device>,
    mut prologues: ResMut<ChainPrologues>,
    mut stats: ResMut<crate::report::RunStats>,
    mut clock: ResMut<Clock>,
    settings: Res<Settings>,
    frame: Res<FrameIndex>,
    mut chains: Query<(Entity, &Name, &SwapChain, &mut BackBuffer), With<GpuChain>>,
    buffers: Query<(&SwapChainBuffer, &GpuObject), Without<ReleaseRequest>>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("rotate views");
    for (e, name, chain, mut back) in &mut chains {
        let Some(buffer) = back
            .buffer
            .and_then(|b| buffers.get(b).ok())
            .map(|(_, o)| o.0)
        else {
            continue;
        };
        let mut prologue = Vec::new();
        if settings.fault == Some(Fault::SkipRotation) && back.view.is_some() {
            // The fault: keep writing through last frame's view (FS-9).
            continue;
        }
        let result = match settings.rotation.unwrap_or(chain.rotation) {
            Rotation::SavedViews => saved_view(&mut device, name, chain, e, &mut back, &buffers),
            Rotation::FencedRing => fenced_ring(
                &mut device,
                name,
                chain,
                &mut back,
                buffer,
                &mut clock.cpu_ns,
                &mut stats,
            ),
            Rotation::PlaceView => {
                let views = match back.placed_view {
                    Some(v) => Ok(v),
                    None => create_views(&mut device, &format!("{name}.placed"), chain, buffer),
                };
                views.inspect(|&v| {
                    back.placed_view = Some(v);
                    prologue.extend(
                        v.keys()
                            .map(|view| Command::PlaceSwapChainView { view, buffer }),
                    );
                })
            }
        };
        back.view = Some(result.map_err(RuntimeError::device(frame.0))?);
        stats.rotations += 1;
        prologues.extend(e, prologue);
    }
    Ok(())
}

/// The views passes write one buffer through: a render-target view, and a UAV when the
/// chain allows unordered access. `name` is their prefix (`.rtv` and `.uav` are appended).
fn create_views(
    device: &mut Device,
    name: &str,
    chain: &SwapChain,
    of: ObjectKey,
) -> Result<ChainViews, DeviceError> {
    let view = |device: &mut Device, kind, suffix| {
        device.create(
            &format!("{name}{suffix}"),
            ObjectDesc::View {
                of,
                kind,
                range: SubresourceRange::ALL,
            },
        )
    };
    let rtv = view(device, ViewKind::Rtv, ".rtv")?;
    let uav = match chain.unordered_access {
        true => Some(view(device, ViewKind::Uav, ".uav")?),
        false => None,
    };
    Ok(ChainViews { rtv, uav })
}

/// RL-5: views made once per buffer; pick the set for the title's index.
fn saved_view(
    device: &mut Device,
    name: &Name,
    chain: &SwapChain,
    entity: Entity,
    back: &mut BackBuffer,
    buffers: &Query<(&SwapChainBuffer, &GpuObject), Without<ReleaseRequest>>,
) -> Result<ChainViews, DeviceError> {
    if back.saved_views.is_empty() {
        let mut mine: Vec<_> = buffers.iter().filter(|(b, _)| b.chain == entity).collect();
        mine.sort_unstable_by_key(|(b, _)| b.index);
        for (b, obj) in mine {
            let views = create_views(device, &format!("{name}[{}]", b.index), chain, obj.0)?;
            back.saved_views.push(views);
        }
    }
    back.saved_views
        .get(back.saved_index as usize)
        .copied()
        .ok_or(DeviceError::NoSwapChain)
}

/// RL-6: a new view of buffer 0 each frame, in a ring of N+1 slots. A slot is reused only
/// when the fence of the frame that last used it has passed; then its old view is released.
fn fenced_ring(
    device: &mut Device,
    name: &Name,
    chain: &SwapChain,
    back: &mut BackBuffer,
    buffer: ObjectKey,
    cpu_ns: &mut u64,
    stats: &mut crate::report::RunStats,
) -> Result<ChainViews, DeviceError> {
    let slots = chain.buffers as usize + 1;
    if back.ring.len() != slots {
        back.ring.resize(slots, None);
        back.ring_cursor %= slots;
    }
    let cursor = back.ring_cursor;
    if let Some((old, fence)) = back.ring[cursor].take() {
        if fence != 0 && device.is_fence_pending(FenceId(fence), *cpu_ns) {
            // The seed asserts this never happens with N+1 slots; with more frames in flight
            // than buffers it can, and the title must wait rather than free a live view.
            stats.ring_waits += 1;
            *cpu_ns = (*cpu_ns).max(device.wait_fence_cpu(FenceId(fence))?);
        }
        back.retiring.extend(old.keys().map(|v| (v, fence)));
    }
    let view = create_views(device, &format!("{name}.ring[{cursor}]"), chain, buffer)?;
    // The fence is filled in at present, once this frame's fence exists.
    back.ring[cursor] = Some((view, 0));
    back.ring_cursor = (cursor + 1) % slots;
    Ok(view)
}
