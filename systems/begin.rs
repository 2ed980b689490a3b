//! Begin: apply the timeline's events for this frame, then give every new resource, view and
//! swap chain its device object. Releases only set a request (FS-6); `release` destroys. On
//! the first frame the device takes its profile, semantics and compute-unit limit from the
//! settings (CC-2, CTX-4).

use bevy_ecs::prelude::*;

use crate::barrier::Layout;
use crate::device::{Command, Device, ObjectDesc, Profile, QueueId};
use crate::error::RuntimeError;
use crate::frame::{
    ChainPrologues, Clock, FrameSubmissions, RecordedLegacy, RecordedLists, RecordedOrigins,
};
use crate::model::*;
use crate::plan::GraphDirty;

use super::submitter::Submitter;

/// The device as the settings ask for it, before any work (CC-2, CTX-4).
fn configure_device(
    device: &mut Device,
    settings: &Settings,
) -> Result<(), crate::device::DeviceError> {
    if device.profile.name != settings.profile
        && let Some(profile) = Profile::by_name(&settings.profile)
    {
        device.set_profile(profile);
    }
    // Semantics belongs to the context (CTX-4): legacy barriers are priced as legacy (EB-10)
    // on a context that stays fast, so fast-context rules (FS-7, FS-14) hold under them too.
    device.set_semantics(settings.semantics);
    device.set_flags(settings.device_flags);
    // A device without enhanced barriers runs the legacy strategy whatever was asked (EB-11).
    device.set_legacy_barriers(settings.barriers_run() == BarrierMode::Legacy);
    // The loose file of seed 004 sends legacy barriers down the driver's previous path.
    device.set_legacy_barrier_translation(settings.legacy_barrier_translation);
    device.set_api(settings.api);
    // Pipe-0 queues start at 4 CUs (CC-2); unless the scene says otherwise the runtime lets
    // them use every CU, as engines do: priority alone keeps them below graphics.
    let cus = (settings.compute_cu_limit).unwrap_or(device.profile.compute_units);
    for index in 0..crate::device::COMPUTE_QUEUES_PER_PIPE[0] {
        device.set_compute_unit_limit(QueueId::Compute { pipe: 0, index }, cus)?;
    }
    Ok(())
}

/// CC-8: the system suspends the title for `frames` refreshes. Suspend locks compute and DMA
/// once their kicked-off work drains; Resume unlocks them and resets all state (FS-11), which
/// the recorder sets again in every list anyway (FS-12).
fn suspend(submitter: &mut Submitter, clock: &mut Clock, frames: u32) -> Result<(), RuntimeError> {
    let label = submitter.device().label("suspend");
    let suspend = vec![Command::Suspend];
    submitter.submit(QueueId::Graphics, label, suspend, clock.cpu_ns)?;
    clock.cpu_ns += submitter.device().profile.vsync_period_ns * frames as u64;
    submitter.submit(
        QueueId::Graphics,
        label,
        vec![Command::Resume],
        clock.cpu_ns,
    )
}

/// The one point where the stages' outputs of the last tick are emptied, before any stage
/// of this one adds to them.
pub fn start_frame(
    mut prologues: ResMut<ChainPrologues>,
    mut lists: ResMut<RecordedLists>,
    mut origins: ResMut<RecordedOrigins>,
    mut legacy: ResMut<RecordedLegacy>,
    mut submissions: ResMut<FrameSubmissions>,
) {
    prologues.0.clear();
    lists.0.clear();
    origins.0.clear();
    legacy.0.clear();
    *submissions = FrameSubmissions::default();
}

/// Apply every timeline event due at this frame, in scene order.
pub fn apply_timeline(
    mut commands: Commands,
    frame: Res<FrameIndex>,
    mut timeline: ResMut<Timeline>,
    mut dirty: ResMut<GraphDirty>,
    views: Query<(Entity, &View)>,
    settings: Res<Settings>,
    mut submitter: Submitter,
    mut clock: ResMut<Clock>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("begin: timeline");
    if frame.0 == 0 {
        configure_device(submitter.device(), &settings).map_err(RuntimeError::device(frame.0))?;
    }
    while let Some((at, event)) = timeline.events.get(timeline.cursor).cloned() {
        if at > frame.0 {
            break;
        }
        timeline.cursor += 1;
        dirty.0 = true;
        match event {
            TimelineEvent::Resize { chain, extent } => {
                commands.entity(chain).insert(ResizeRequest(extent));
            }
            TimelineEvent::Enable(pass) => {
                commands.entity(pass).remove::<Disabled>();
            }
            TimelineEvent::Disable(pass) => {
                commands.entity(pass).insert(Disabled);
            }
            TimelineEvent::Add(e) => {
                commands.entity(e).remove::<Dormant>();
            }
            TimelineEvent::Suspend { frames } => {
                suspend(&mut submitter, &mut clock, frames)?;
            }
            TimelineEvent::Release(e) => {
                // `try_insert`: an entity already destroyed is already released. The loader
                // refuses the scenes that would do this (scene/releases.rs); a world built
                // by hand is not a reason to panic.
                let request = ReleaseRequest { requested: frame.0 };
                commands.entity(e).try_insert(request);
                // Views die with the resource they view.
                for (v, view) in &views {
                    if view.of == e {
                        commands.entity(v).try_insert(request);
                    }
                }
            }
        }
    }
    Ok(())
}

type NewResource<'a> = (
    Entity,
    &'a Name,
    Option<&'a Texture>,
    Option<&'a Buffer>,
    Option<&'a Lifetime>,
    Option<&'a Placed>,
);

/// Create device objects for entities that have none yet: resources first, then views of
/// them, then swap chains and their buffer entities. Resize swap chains that asked for it.
pub fn materialize(
    mut commands: Commands,
    mut device: ResMut<Device>,
    frame: Res<FrameIndex>,
    mut dirty: ResMut<GraphDirty>,
    resources: Query<
        NewResource,
        (
            Without<GpuObject>,
            Without<Dormant>,
            Or<(With<Texture>, With<Buffer>)>,
            Without<SwapChainBuffer>,
        ),
    >,
    views: Query<(Entity, &Name, &View), (Without<GpuObject>, Without<Dormant>)>,
    objects: Query<&GpuObject>,
    chains: Query<(Entity, &Name, &SwapChain), Without<GpuChain>>,
    mut resized: Query<(
        Entity,
        &Name,
        &mut SwapChain,
        &ResizeRequest,
        &GpuChain,
        &mut BackBuffer,
    )>,
    buffers: Query<(Entity, &SwapChainBuffer)>,
    in_flight: Res<crate::frame::FramesInFlight>,
    heaps: Query<(Entity, &Name, &Heap, Option<&GpuHeap>)>,
    settings: Res<Settings>,
    script: Option<Res<FrameScript>>,
) -> Result<(), RuntimeError> {
    let failed = RuntimeError::device(frame.0);
    let latest_fence = in_flight
        .frames
        .back()
        .and_then(|(_, f)| {
            f.iter()
                .find(|f| f.queue() == Some(crate::device::QueueId::Graphics))
        })
        .map_or(0, |f| f.0);
    let _span = tracy_client::span!("begin: materialize");
    let mut created = std::collections::HashMap::new();
    // Heaps first: placed resources live in them (EB-9d).
    let mut heap_ids = std::collections::HashMap::new();
    for (e, name, heap, gpu) in &heaps {
        let id = match gpu {
            Some(g) => g.0,
            None => {
                let id = device.memory.create_heap(name.as_str(), heap.size);
                commands.entity(e).insert(GpuHeap(id));
                id
            }
        };
        heap_ids.insert(e, id);
    }
    // The frame graph places its transients once compiled (systems/alias.rs, EB-9d).
    let graph_places = settings.aliasing_runs() && script.is_none();
    for (e, name, texture, buffer, lifetime, placed) in &resources {
        if graph_places && placed.is_none() && lifetime == Some(&Lifetime::Transient) {
            continue;
        }
        let desc = match (texture, buffer) {
            (Some(t), _) => ObjectDesc::Texture(t.clone()),
            (None, Some(b)) => ObjectDesc::Buffer(b.clone()),
            _ => continue,
        };
        let made = match placed {
            Some(p) => {
                let heap = heap_ids.get(&p.heap).copied().unwrap_or(u32::MAX);
                device
                    .memory
                    .create_placed(name.as_str(), desc, heap, p.offset)
            }
            None => device.create(name.as_str(), desc),
        };
        let key = made.map_err(&failed)?;
        created.insert(e, key);
        let mut ec = commands.entity(e);
        ec.insert((GpuObject(key), LastUse::default()));
        if texture.is_some() {
            // Transients start undefined every frame (EB-5); imported textures are created in
            // COMMON like swap-chain buffers.
            let layout = match lifetime.copied().unwrap_or_default() {
                Lifetime::Transient => Layout::Undefined,
                Lifetime::Imported => Layout::Common,
            };
            ec.insert((TextureState::new(layout), SubresourceStates::default()));
        }
    }
    for (e, name, view) in &views {
        let of = created
            .get(&view.of)
            .copied()
            .or_else(|| objects.get(view.of).ok().map(|g| g.0));
        // Views of swap chains are the rotation system's business (FS-9).
        let Some(of) = of else { continue };
        let desc = ObjectDesc::View {
            of,
            kind: view.kind,
            range: view.range,
        };
        let key = device.create(name.as_str(), desc).map_err(&failed)?;
        // A view's MinLOD starts as its resource's; a scene's `min_lod` sets its own (FS-13),
        // in whole mips: a sampler clamped between two mips still reads the finer one.
        if view.min_lod > 0.0 {
            device.set_view_min_lod(key, view.min_lod as u32);
        }
        commands
            .entity(e)
            .insert((GpuObject(key), LastUse::default()));
    }
    for (e, name, chain) in &chains {
        let texture = chain.buffer_texture();
        let (key, keys) = device.create_swap_chain(
            name.as_str(),
            texture.clone(),
            chain.buffers,
            chain.vsync_interval,
        );
        spawn_buffers(&mut commands, e, &keys, &texture);
        commands.entity(e).insert((
            GpuChain { key, base_swaps: 0 },
            TextureState::new(Layout::Common),
            LastUse::default(),
        ));
        dirty.0 = true;
    }
    for (e, _name, mut chain, request, gpu, mut back) in &mut resized {
        chain.extent = request.0;
        let texture = chain.buffer_texture();
        let (_, fresh) = (device.resize_swap_chain(gpu.key, texture.clone())).map_err(&failed)?;
        // Old buffers go through deferred release: the GPU may still show them (FS-6).
        for (b, buf) in &buffers {
            if buf.chain == e {
                commands
                    .entity(b)
                    .insert(ReleaseRequest { requested: frame.0 });
            }
        }
        spawn_buffers(&mut commands, e, &fresh, &texture);
        let swaps = device.swap_count(gpu.key);
        commands
            .entity(e)
            .insert(GpuChain {
                key: gpu.key,
                base_swaps: swaps,
            })
            .remove::<ResizeRequest>();
        // Every view of the old buffers is stale; rotation rebuilds them.
        back.retire_saved_views(latest_fence);
    }
    Ok(())
}

fn spawn_buffers(
    commands: &mut Commands,
    chain: Entity,
    keys: &[crate::device::ObjectKey],
    texture: &Texture,
) {
    for (i, key) in keys.iter().enumerate() {
        commands.spawn((
            SwapChainBuffer {
                chain,
                index: i as u32,
            },
            texture.clone(),
            GpuObject(*key),
            LastUse::default(),
        ));
    }
}
