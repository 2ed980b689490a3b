//! Release: under fast semantics nothing is reference counted (FS-6), so a release is only a
//! request. The object is destroyed once every fence covering its last GPU use has passed;
//! the device refuses anything earlier, so a mistake here is an error, never a corruption.

use bevy_ecs::prelude::*;

use crate::device::{Device, FenceId, ObjectKey};
use crate::error::RuntimeError;
use crate::frame::{Clock, Fatal, ImplicitViews};
use crate::model::*;
use crate::report::RunStats;

fn passed(device: &Device, fences: &[u64], cpu_ns: u64) -> bool {
    fences
        .iter()
        .all(|&f| !device.is_fence_pending(FenceId(f), cpu_ns))
}

/// Destroy every requested object whose fences have passed.
pub fn release_objects(
    mut commands: Commands,
    mut device: ResMut<Device>,
    mut implicit: ResMut<ImplicitViews>,
    mut fatal: ResMut<Fatal>,
    mut stats: ResMut<RunStats>,
    clock: Res<Clock>,
    frame: Res<FrameIndex>,
    new_requests: Query<(), Added<ReleaseRequest>>,
    requests: Query<(
        Entity,
        &ReleaseRequest,
        Option<&GpuObject>,
        Option<&LastUse>,
        Has<SwapChainBuffer>,
    )>,
    mut chains: Query<&mut BackBuffer>,
) {
    let _span = tracy_client::span!("release");
    stats.releases_requested += new_requests.iter().count() as u64;
    let cpu = clock.cpu_ns;
    let mut fail = |source| {
        fatal.set(RuntimeError::Device {
            frame: frame.0,
            source,
        });
    };
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
                if let Err(err) = device.destroy(v, cpu) {
                    fail(err);
                }
            }
            if let Err(err) = device.destroy(*key, cpu) {
                fail(err);
                continue;
            }
        }
        stats.releases_completed += 1;
        let latency = frame.0 - request.requested;
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
                if let Err(err) = device.destroy(view, cpu) {
                    fail(err);
                }
            } else {
                keep.push((view, fence));
            }
        }
        back.retiring = keep;
    }
}
