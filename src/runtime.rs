//! `Runtime`: a bevy `World` holding a scene plus the frame schedule that runs it.

use bevy_ecs::prelude::*;
use std::path::Path;
use std::time::Instant;

use crate::device::Device;
use crate::error::RuntimeError;
use crate::frame::*;
use crate::model::{FrameIndex, Settings, Timeline};
use crate::plan::{BarrierPlan, CompiledGraph, GraphDirty};
use crate::report::{GpuTrace, HostMemory, RunSettings, RunStats, Summary};
use crate::validate::Validator;

/// A loaded scene and the schedule that turns it into frames.
pub struct Runtime {
    pub world: World,
    schedule: Schedule,
    scene: String,
}

impl Runtime {
    /// Load a RON scene file.
    pub fn from_scene(path: impl AsRef<Path>) -> Result<Runtime, RuntimeError> {
        let path = path.as_ref();
        let mut world = World::new();
        crate::scene::load_file(path, &mut world)?;
        Ok(Self::from_world(world, &path.display().to_string()))
    }

    /// Load a scene from text; `file` names it in errors.
    pub fn from_str(text: &str, file: &str) -> Result<Runtime, RuntimeError> {
        let mut world = World::new();
        crate::scene::load_str(text, file, &mut world)?;
        Ok(Self::from_world(world, file))
    }

    /// Wrap a world that already holds a scene's entities (and optionally `Settings`).
    pub fn from_world(mut world: World, scene: &str) -> Runtime {
        let validation = world
            .get_resource::<Settings>()
            .is_some_and(|s| s.validation);
        world.init_resource::<Settings>();
        world.init_resource::<FrameIndex>();
        world.init_resource::<Timeline>();
        world.init_resource::<Device>();
        // The driver learns a pipeline's shaders when it is created: the views they access
        // (`device::ShaderSlots`).
        let pipelines = (world.get_resource::<crate::model::FrameScript>())
            .map(|s| s.0.pipelines.clone())
            .unwrap_or_default();
        for p in pipelines {
            let slots = crate::device::ShaderSlots::new(p.views);
            world
                .resource_mut::<Device>()
                .set_pipeline_slots(p.id, Some(slots));
        }
        world.init_resource::<GpuTrace>();
        world.init_resource::<crate::report::tracy::GpuZones>();
        world.init_resource::<Clock>();
        world.init_resource::<Fatal>();
        world.init_resource::<FramesInFlight>();
        world.init_resource::<PassFences>();
        world.init_resource::<ImplicitViews>();
        world.init_resource::<ContextPool>();
        world.init_resource::<ChainPrologues>();
        world.init_resource::<RecordedLists>();
        world.init_resource::<crate::frame::RecordedOrigins>();
        world.init_resource::<crate::frame::RecordedLegacy>();
        world.init_resource::<FrameSubmissions>();
        world.init_resource::<CompiledGraph>();
        world.init_resource::<BarrierPlan>();
        world.init_resource::<crate::plan::AliasPlan>();
        world.init_resource::<crate::frame::TransientHeap>();
        world.init_resource::<crate::plan::PlanFrame>();
        world.init_resource::<GraphDirty>();
        world.init_resource::<RunStats>();
        world.init_resource::<crate::model::ScriptState>();
        world.insert_resource(Validator::new(validation));
        #[cfg(feature = "tracy")]
        tracy_client::Client::start();
        Runtime {
            world,
            schedule: crate::systems::frame_schedule(),
            scene: scene.to_owned(),
        }
    }

    /// Change settings before the first tick (command-line overrides).
    pub fn settings_mut(&mut self) -> Mut<'_, Settings> {
        self.world.resource_mut::<Settings>()
    }

    /// Turn the validation layer on or off.
    pub fn set_validation(&mut self, on: bool) {
        self.world.resource_mut::<Settings>().validation = on;
        self.world.resource_mut::<Validator>().enabled = on;
    }

    /// Run one frame.
    pub fn tick(&mut self) -> Result<(), RuntimeError> {
        let start = Instant::now();
        self.schedule.run(&mut self.world);
        let elapsed = start.elapsed().as_nanos() as u64;
        self.world
            .resource_mut::<RunStats>()
            .cpu_tick
            .record(elapsed);
        match self.world.resource_mut::<Fatal>().0.take() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Run `frames` frames, then let the GPU finish (a GPU that cannot is an error).
    pub fn run(&mut self, frames: u64) -> Result<(), RuntimeError> {
        for _ in 0..frames {
            self.tick()?;
        }
        self.finish()
    }

    /// Wait for every frame in flight, as a title does before shutting down.
    pub fn finish(&mut self) -> Result<(), RuntimeError> {
        let frame = self.world.resource::<FrameIndex>().0;
        let pending: Vec<_> = self
            .world
            .resource::<FramesInFlight>()
            .frames
            .iter()
            .flat_map(|(_, f)| f.clone())
            .collect();
        let world = &mut self.world;
        for fence in pending {
            let t = world
                .resource_mut::<Device>()
                .wait_fence_cpu(fence)
                .map_err(|source| RuntimeError::Device { frame, source })?;
            let mut clock = world.resource_mut::<Clock>();
            clock.cpu_ns = clock.cpu_ns.max(t);
        }
        let executed = world.resource_mut::<Device>().drain_executed();
        world.resource_mut::<RunStats>().absorb(&executed);
        world.resource_scope(|world, mut trace: Mut<GpuTrace>| {
            trace.absorb(&mut world.resource_mut::<Device>(), &executed, u64::MAX);
        });
        world.resource_scope(|world, mut zones: Mut<crate::report::tracy::GpuZones>| {
            let device = world.resource::<Device>();
            zones.absorb(&executed, u64::MAX, |l| device.label_name(l));
        });
        Ok(())
    }

    /// Write the GPU timeline to `out` from now on, in the Chrome trace event format
    /// (Perfetto opens it), as the simulation runs; [`Runtime::finish_gpu_trace`] ends it.
    pub fn record_gpu_trace_to(&mut self, out: impl std::io::Write + Send + Sync + 'static) {
        // The trace reads what each Barrier and fence command said from the submission log.
        self.world.resource_mut::<Device>().trace = Some(Vec::new());
        let scene = self.scene.clone();
        self.world.resource_mut::<GpuTrace>().record_to(&scene, out);
    }

    /// End the trace file (after [`Runtime::run`] or [`Runtime::finish`]).
    pub fn finish_gpu_trace(&mut self) -> std::io::Result<()> {
        self.world.resource_mut::<Device>().trace = None;
        self.world.resource_mut::<GpuTrace>().finish()
    }

    /// The current compiled graph (compiled on the first tick).
    pub fn graph(&self) -> &CompiledGraph {
        self.world.resource::<CompiledGraph>()
    }

    /// The device.
    pub fn device(&self) -> &Device {
        self.world.resource::<Device>()
    }

    /// Validation diagnostics so far.
    pub fn diagnostics(&self) -> &[crate::validate::Diagnostic] {
        &self.world.resource::<Validator>().diagnostics
    }

    /// The scene's name as given when loading.
    pub fn scene_name(&self) -> &str {
        &self.scene
    }

    /// The run summary so far.
    pub fn summary(&mut self) -> Summary {
        let host = self.host_memory();
        let chains: Vec<crate::model::Rotation> = (self.world)
            .query::<&crate::model::SwapChain>()
            .iter(&self.world)
            .map(|c| c.rotation)
            .collect();
        let settings = RunSettings::new(self.world.resource::<Settings>(), chains);
        let validator = self.world.resource::<Validator>();
        let (validation_errors, validation_warnings) = validator.counts();
        let mut stats = self.world.resource::<RunStats>().clone();
        // What the device has counted of the GPU's work so far (FS-13, CC-4).
        let device = self.world.resource::<crate::device::Device>();
        stats.sampled_bytes = device.sampled_bytes();
        stats.graphics_refills = device.graphics_refills();
        Summary {
            scene: self.scene.clone(),
            settings,
            stats,
            live_entities: host.entities as u64,
            validation_errors,
            validation_warnings,
            by_rule: validator.by_rule(),
            host,
        }
    }

    /// The runtime's own memory: what its growing structures hold, and the process's
    /// resident set where the system reports it (a soak run watches both).
    pub fn host_memory(&mut self) -> HostMemory {
        // bevy keeps each resource in an entity of its own: those are the runtime's, not the
        // scene's, and a leak is in the others.
        let entities = (self.world)
            .query_filtered::<(), Without<bevy_ecs::resource::IsResource>>()
            .iter(&self.world)
            .count();
        let mut host = HostMemory {
            stats: self.world.resource::<RunStats>().footprint().into(),
            validator: self.world.resource::<Validator>().footprint().into(),
            device: self.world.resource::<Device>().footprint().into(),
            entities,
            ..Default::default()
        };
        host.read_rss();
        host
    }
}
