//! Release: under fast semantics nothing is reference counted (FS-6), so a release is only a
//! request. The object is destroyed once every fence covering its last GPU use has passed
//! and, for a swap-chain buffer, once the display has flipped away from it. The validation
//! layer sees every destruction first, and the device refuses anything premature, so a
//! mistake here is an error, never a corruption.

use bevy_ecs::prelude::*;

use crate::device::{Device, DeviceError, FenceId, ObjectKey};
use crate::error::RuntimeError;
use crate::frame::{Clock, Fatal, FrameWork, ImplicitViews};
use crate::model::*;
use crate::report::RunStats;
use crate::validate::Validator;

fn passed(device: &Device, fences: &[u64], cpu_ns: u64) -> bool {
    fences
        .iter()
        .all(|&f| !device.is_fence_pending(FenceId(f), cpu_ns))
}

/// Destroy one device object, showing the validation layer first.
fn destroy(
    device: &mut Device,
    validator: &mut Validator,
    key: ObjectKey,
    cpu: u64,
    frame: u64,
) -> Result<(), DeviceError> {
    let label = device.label("release");
    validator.observe_release(device, key, cpu, frame, label);
    device.destroy(key, cpu)
}

/// Destroy every requested object whose fences have passed.
pub fn release_objects(
    mut commands: Commands,
    mut device: ResMut<Device>,
    mut validator: ResMut<Validator>,
    mut implicit: ResMut<ImplicitViews>,
    mut fatal: ResMut<Fatal>,
    mut stats: ResMut<RunStats>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    settings: Res<Settings>,
    work: Res<FrameWork>,
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
) {
    let _span = tracy_client::span!("release");
    stats.releases_requested += new_requests.iter().count() as u64;
    let (cpu, f) = (clock.cpu_ns, frame.0);
    let mut errors = Vec::new();
    if settings.fault() == Some(Fault::EarlyRelease) && f == 2 {
        // The fault: release a resource this frame used without waiting for its fence.
        if let Some(key) = work
            .used
            .iter()
            .find_map(|(e, _)| resources.get(*e).ok())
            .map(|g| g.0)
        {
            errors.extend(destroy(&mut device, &mut validator, key, cpu, f).err());
        }
    }
    for (e, request, gpu, last, is_chain_buffer) in &requests {
        let fences = last.map_or(&[][..], |l| l.fences.as_slice());
        // A presented buffer is read by the display until the next flip (FS-5), after its
        // frame fence has passed.
        let shown = gpu.is_some_and(|g| device.is_presenting(g.0, cpu));
        if !passed(&device, fences, cpu) || shown {
            continue;
        }
        if let Some(GpuObject(key)) = gpu {
            // Implicit views die with their resource; they were only used alongside it.
            let views: Vec<ObjectKey> = implicit
                .views
                .extract_if(|(res, _), _| *res == e)
                .map(|(_, v)| v)
                .collect();
            for v in views {
                errors.extend(destroy(&mut device, &mut validator, v, cpu, f).err());
            }
            if let Err(err) = destroy(&mut device, &mut validator, *key, cpu, f) {
                errors.push(err);
                continue;
            }
        }
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
            if fence != 0 && passed(&device, &[fence], cpu) {
                errors.extend(destroy(&mut device, &mut validator, view, cpu, f).err());
            } else {
                keep.push((view, fence));
            }
        }
        back.retiring = keep;
    }
    if let Some(source) = errors.into_iter().next() {
        fatal.set(RuntimeError::Device { frame: f, source });
    }
}
