//! Release: under fast semantics nothing is reference counted (FS-6), so a release is only a
//! request. The object is destroyed once every fence covering its last GPU use has passed
//! and, for a swap-chain buffer, once the display has flipped away from it. The validation
//! layer sees every destruction first, and the device refuses anything premature, so a
//! mistake here is an error, never a corruption.

use bevy_ecs::prelude::*;

use super::submitter::Submitter;
use crate::device::{Device, FenceId, ObjectKey};
use crate::error::RuntimeError;
use crate::frame::{Clock, FrameSubmissions, ImplicitViews};
use crate::model::*;

fn passed(device: &Device, fences: &[u64], cpu_ns: u64) -> bool {
    fences
        .iter()
        .all(|&f| !device.is_fence_pending(FenceId(f), cpu_ns))
}

/// Destroy one device object, showing the validation layer first.
fn destroy(submitter: &mut Submitter, key: ObjectKey, cpu: u64) -> Result<(), RuntimeError> {
    let label = submitter.device().label("release");
    submitter.release(key, label, cpu)
}

/// Destroy every requested object whose fences have passed.
pub fn release_objects(
    mut commands: Commands,
    mut submitter: Submitter,
    mut implicit: ResMut<ImplicitViews>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    settings: Res<Settings>,
    work: Res<FrameSubmissions>,
    new_requests: Query<(), Added<ReleaseRequest>>,
    requests: Query<(
        Entity,
        &ReleaseRequest,
        Option<&GpuObject>,
        Option<&LastUse>,
        Has<SwapChainBuffer>,
    )>,
    resources: Query<&GpuObject, (Or<(With<Texture>, With<Buffer>)>, Without<SwapChainBuffer>)>,
    mut chains: Query<&mut BackBuffer>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("release");
    submitter.stats().releases_requested += new_requests.iter().count() as u64;
    let (cpu, f) = (clock.cpu_ns, frame.0);
    let mut errors = Vec::new();
    if settings.fault == Some(Fault::EarlyRelease) && f == 2 {
        // The fault: release a resource this frame used without waiting for its fence.
        if let Some(key) = work
            .used
            .iter()
            .find_map(|(e, _)| resources.get(*e).ok())
            .map(|g| g.0)
        {
            errors.extend(destroy(&mut submitter, key, cpu).err());
        }
    }
    for (e, request, gpu, last, is_chain_buffer) in &requests {
        let fences = last.map_or(&[][..], |l| l.fences.as_slice());
        // A presented buffer is read by the display until the next flip (FS-5), after its
        // frame fence has passed.
        let device = submitter.device();
        let shown = gpu.is_some_and(|g| device.is_presenting(g.0, cpu));
        if !passed(device, fences, cpu) || shown {
            continue;
        }
        if let Some(GpuObject(key)) = gpu {
            // Implicit views die with their resource; they were only used alongside it.
            let views: Vec<ObjectKey> = implicit
                .views
                .extract_if(|(res, _, _), _| *res == e)
                .map(|(_, v)| v)
                .collect();
            for v in views {
                errors.extend(destroy(&mut submitter, v, cpu).err());
            }
            if let Err(err) = destroy(&mut submitter, *key, cpu) {
                errors.push(err);
                continue;
            }
        }
        let stats = submitter.stats();
        stats.releases_completed += 1;
        let latency = f - request.requested;
        if is_chain_buffer {
            stats.buffer_retire_latency_frames_max =
                stats.buffer_retire_latency_frames_max.max(latency);
        } else {
            stats.release_latency_frames_max = stats.release_latency_frames_max.max(latency);
        }
        commands.entity(e).despawn();
    }
    for mut back in &mut chains {
        let mut keep = Vec::new();
        for (view, fence) in std::mem::take(&mut back.retiring) {
            if fence != 0 && passed(submitter.device(), &[fence], cpu) {
                errors.extend(destroy(&mut submitter, view, cpu).err());
            } else {
                keep.push((view, fence));
            }
        }
        back.retiring = keep;
    }
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
