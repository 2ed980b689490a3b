//! Rotate views: after every present, views of swap-chain buffers point at the wrong buffer
//! (FS-9). Each chain keeps its view pointing at buffer 0 with one of the seed's three loops.

use bevy_ecs::prelude::*;

use crate::barrier::SubresourceRange;

use crate::device::{Command, Device, FenceId, ObjectDesc};
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
            Rotation::SavedViews => saved_view(&mut device, name, e, &mut back, &buffers),
            Rotation::FencedRing => fenced_ring(
                &mut device,
                name,
                chain.buffers as usize,
                &mut back,
                buffer,
                &mut clock.cpu_ns,
                &mut stats,
            ),
            Rotation::PlaceView => {
                let view = match back.placed_view {
                    Some(v) => Ok(v),
                    None => device.create(
                        &format!("{name}.placed_rtv"),
                        ObjectDesc::View {
                            of: buffer,
                            kind: ViewKind::Rtv,
                            range: SubresourceRange::ALL,
                        },
                    ),
                };
                view.inspect(|&v| {
                    back.placed_view = Some(v);
                    prologue.push(Command::PlaceSwapChainView { view: v, buffer });
                })
            }
        };
        back.view = Some(result.map_err(RuntimeError::device(frame.0))?);
        stats.rotations += 1;
        prologues.extend(e, prologue);
    }
    Ok(())
}

/// RL-5: views made once per buffer; pick the one for the title's index.
fn saved_view(
    device: &mut Device,
    name: &Name,
    chain: Entity,
    back: &mut BackBuffer,
    buffers: &Query<(&SwapChainBuffer, &GpuObject), Without<ReleaseRequest>>,
) -> Result<crate::device::ObjectKey, crate::device::DeviceError> {
    if back.saved_views.is_empty() {
        let mut mine: Vec<_> = buffers.iter().filter(|(b, _)| b.chain == chain).collect();
        mine.sort_unstable_by_key(|(b, _)| b.index);
        for (b, obj) in mine {
            let v = device.create(
                &format!("{name}.rtv[{}]", b.index),
                ObjectDesc::View {
                    of: obj.0,
                    kind: ViewKind::Rtv,
                    range: SubresourceRange::ALL,
                },
            )?;
            back.saved_views.push(v);
        }
    }
    back.saved_views
        .get(back.saved_index as usize)
        .copied()
        .ok_or(crate::device::DeviceError::NoSwapChain)
}

/// RL-6: a new view of buffer 0 each frame, in a ring of N+1 slots. A slot is reused only
/// when the fence of the frame that last used it has passed; then its old view is released.
fn fenced_ring(
    device: &mut Device,
    name: &Name,
    buffer_count: usize,
    back: &mut BackBuffer,
    buffer: crate::device::ObjectKey,
    cpu_ns: &mut u64,
    stats: &mut crate::report::RunStats,
) -> Result<crate::device::ObjectKey, crate::device::DeviceError> {
    let slots = buffer_count + 1;
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
        back.retiring.push((old, fence));
    }
    let view = device.create(
        &format!("{name}.ring_rtv[{cursor}]"),
        ObjectDesc::View {
            of: buffer,
            kind: ViewKind::Rtv,
            range: SubresourceRange::ALL,
        },
    )?;
    // The fence is filled in at present, once this frame's fence exists.
    back.ring[cursor] = Some((view, 0));
    back.ring_cursor = (cursor + 1) % slots;
    Ok(view)
}
