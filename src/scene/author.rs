//! Authoring a scene in Rust: [`SceneBuilder`] spawns the same entities, components and
//! resources the loader spawns from a `.ron` file, with `Entity` values where a file has names.
//!
//! A scene is ECS data, so nothing stops a program from spawning `Texture`, `Pass` and
//! friends itself and handing the world to [`crate::Runtime::from_world`]. Two things make
//! that clumsy and easy to get subtly wrong, and they are what the builder is for:
//!
//! - Pass `order`, the tie-breaker of every ordering decision, must be the pass's position
//!   among the declared passes: live passes in declaration order, then the passes a timeline
//!   `Add` brings to life, in timeline order. The builder assigns it when it builds.
//! - The loader checks every rule a scene must keep (references of the right kind, uses that
//!   fit their target and queue, an orderable graph, sane sizes). Hand-spawned components
//!   skip all of it. [`SceneBuilder::build`] saves the world as a scene and runs the loader's
//!   own [`super::validate()`] on it, so a code-built scene is refused exactly where the
//!   same scene in a file would be, with the entity's name in the error.
//!
//! Use it when a frame is generated or parameterised by code (a tool, a test, a benchmark
//! sweeping sizes); write a `.ron` file when the frame is fixed data to review and diff. The
//! two are interchangeable: [`super::save()`] turns a built world into the file that loads
//! into the same world. Declaring entities in the order a file lists them (live ones first,
//! then those the timeline adds) gives the loaded scene's entity ids as well, so the two run
//! identically; `examples/deferred` builds `scenes/deferred.ron` that way.
//!
//! ```
//! use fastframe::prelude::*;
//! use fastframe::scene::SceneBuilder;
//! use glam::uvec2;
//!
//! let mut scene = SceneBuilder::new(Settings::default());
//! let chain = scene.swap_chain("swapchain", SwapChain {
//!     buffers: 2,
//!     format: Format::Bgra8Unorm,
//!     extent: uvec2(1280, 720),
//!     vsync_interval: 1,
//!     rotation: Rotation::PlaceView,
//!     unordered_access: false,
//! });
//! let flags = TextureFlags { depth_stencil: true, ..Default::default() };
//! let depth = scene.texture("depth", Texture::new_2d(Format::D32Float, uvec2(1280, 720), flags), Lifetime::Transient);
//! scene
//!     .pass("main", QueueKind::Graphics, Work::Draw { draws: 10, vertices: 3000, pixels: 921600 })
//!     .clears(chain, UseAccess::RenderTarget)
//!     .clears(depth, UseAccess::DepthWrite);
//! let mut rt = Runtime::from_world(scene.build().expect("a valid scene"), "main");
//! rt.run(3).expect("runs");
//! assert_eq!(rt.summary().stats.frames, 3);
//! ```

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;

use super::SceneError;
use crate::barrier::SubresourceRange;
use crate::model::{
    BackBuffer, Buffer, ComputeQueue, Disabled, Dormant, FrameIndex, Lifetime, Pass, PassCost,
    QueueKind, Settings, SwapChain, Texture, Timeline, TimelineEvent, Use, UseAccess, View,
    ViewKind, Work,
};

/// The file name a built scene's validation errors are located in (the saved text of the
/// world, see [`SceneBuilder::build`]).
pub const BUILT_SCENE: &str = "<SceneBuilder>";

/// Spawns a scene's entities into a world of its own, each with its `Name`; see the module
/// documentation.
pub struct SceneBuilder {
    world: World,
    /// Every pass, in declaration order.
    passes: Vec<Entity>,
    /// Timeline events in declaration order (sorted stably by frame when built).
    events: Vec<(u64, TimelineEvent)>,
}

impl SceneBuilder {
    /// An empty scene run with `settings`.
    pub fn new(settings: Settings) -> SceneBuilder {
        let mut world = World::new();
        world.insert_resource(settings);
        SceneBuilder {
            world,
            passes: Vec::new(),
            events: Vec::new(),
        }
    }

    /// A texture; `Transient` lets the frame graph own its contents, `Imported` (what a file
    /// means when it gives no lifetime) keeps them across frames.
    pub fn texture(&mut self, name: &str, texture: Texture, lifetime: Lifetime) -> Entity {
        self.spawn(name, (texture, lifetime))
    }

    /// A buffer, with its lifetime as for [`SceneBuilder::texture`].
    pub fn buffer(&mut self, name: &str, buffer: Buffer, lifetime: Lifetime) -> Entity {
        self.spawn(name, (buffer, lifetime))
    }

    /// A swap chain; a pass using it uses the current back buffer.
    pub fn swap_chain(&mut self, name: &str, chain: SwapChain) -> Entity {
        self.spawn(name, (chain, BackBuffer::default()))
    }

    /// A view of every subresource of `of` (a texture, buffer or swap chain). A view of a
    /// range or with a minimum LOD is a [`View`] given to [`SceneBuilder::spawn`].
    pub fn view(&mut self, name: &str, of: Entity, kind: ViewKind) -> Entity {
        let view = View {
            of,
            kind,
            range: SubresourceRange::ALL,
            min_lod: 0.0,
            format: None,
        };
        self.spawn(name, view)
    }

    /// A pass on `queue` doing `work`, with no uses yet: add them on the returned builder.
    /// Its `order` is its place among the passes declared so far.
    pub fn pass(&mut self, name: &str, queue: QueueKind, work: Work) -> PassBuilder<'_> {
        let pass = Pass {
            queue,
            uses: Vec::new(),
            work,
            after: Vec::new(),
            order: 0,
            cost: None,
            compute_queue: None,
            queries: None,
        };
        let entity = self.spawn(name, pass);
        self.passes.push(entity);
        PassBuilder {
            world: &mut self.world,
            entity,
        }
    }

    /// Any other authored entity (a heap, a placed resource, a view of a range): `bundle`
    /// spawned with `name`.
    pub fn spawn(&mut self, name: &str, bundle: impl Bundle) -> Entity {
        self.world.spawn((Name::new(name.to_owned()), bundle)).id()
    }

    /// `event` at the start of `frame`. An `Add` makes its entity dormant until then, as a
    /// file's `Add(...)` definition is.
    pub fn at(&mut self, frame: u64, event: TimelineEvent) -> &mut SceneBuilder {
        self.events.push((frame, event));
        self
    }

    /// The world being built, for what the builder has no operation for.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The scene's world, after the loader's validation: the timeline sorted stably by frame,
    /// `Add`ed entities dormant, pass orders assigned, `Timeline` and `FrameIndex` inserted.
    /// Errors are the loader's, located in the world's saved text ([`BUILT_SCENE`]).
    pub fn build(mut self) -> Result<World, SceneError> {
        self.events.sort_by_key(|&(frame, _)| frame);
        let added: Vec<Entity> = (self.events.iter())
            .filter_map(|(_, e)| match e {
                TimelineEvent::Add(entity) => Some(*entity),
                _ => None,
            })
            .collect();
        let live = (self.passes.iter()).filter(|p| !added.contains(p));
        let dormant = added.iter().filter(|e| self.passes.contains(e));
        for (order, &pass) in live.chain(dormant).enumerate() {
            if let Some(mut p) = self.world.get_mut::<Pass>(pass) {
                p.order = u32::try_from(order).unwrap_or(u32::MAX);
            }
        }
        for &entity in &added {
            if let Ok(mut e) = self.world.get_entity_mut(entity) {
                e.insert(Dormant);
            }
        }
        self.world.insert_resource(Timeline {
            events: self.events,
            cursor: 0,
        });
        self.world.insert_resource(FrameIndex(0));
        let scene = super::save(&self.world);
        super::validate(&scene, &super::to_ron(&scene), BUILT_SCENE)?;
        Ok(self.world)
    }
}

/// Adds uses, edges and options to a pass just declared; every call changes the pass in
/// the world at once, so the builder can be dropped at any point.
pub struct PassBuilder<'a> {
    world: &'a mut World,
    entity: Entity,
}

impl PassBuilder<'_> {
    /// The pass reads or writes `target` (a texture, buffer, view or swap chain) as
    /// `access`, at the access's default stages.
    pub fn uses(self, target: Entity, access: UseAccess) -> Self {
        self.with(Use {
            target,
            access,
            stages: None,
            clear: false,
            range: None,
        })
    }

    /// As [`PassBuilder::uses`], clearing `target` first (render targets, depth, UAVs).
    pub fn clears(self, target: Entity, access: UseAccess) -> Self {
        self.with(Use {
            target,
            access,
            stages: None,
            clear: true,
            range: None,
        })
    }

    /// A use spelt out: stages, or a subresource range (EB-6).
    pub fn with(self, u: Use) -> Self {
        self.edit(|p| p.uses.push(u))
    }

    /// The pass runs after `pass` besides what the uses imply.
    pub fn after(self, pass: Entity) -> Self {
        self.edit(|p| p.after.push(pass))
    }

    /// What the draw or dispatch costs, in place of the profile's fixed cycles.
    pub fn cost(self, cost: PassCost) -> Self {
        self.edit(|p| p.cost = Some(cost))
    }

    /// The asynchronous compute queue a compute pass runs on (CC-2).
    pub fn compute_queue(self, queue: ComputeQueue) -> Self {
        self.edit(|p| p.compute_queue = Some(queue))
    }

    /// The pass starts disabled, skipped until a timeline `Enable`.
    pub fn disabled(self) -> Self {
        self.world.entity_mut(self.entity).insert(Disabled);
        self
    }

    /// The pass's entity, for `after`, timeline events or later edits.
    pub fn id(&self) -> Entity {
        self.entity
    }

    fn edit(self, f: impl FnOnce(&mut Pass)) -> Self {
        if let Some(mut p) = self.world.get_mut::<Pass>(self.entity) {
            f(&mut p);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TextureFlags};
    use glam::uvec2;

    fn target(scene: &mut SceneBuilder, name: &str) -> Entity {
        let flags = TextureFlags {
            render_target: true,
            ..Default::default()
        };
        let t = Texture::new_2d(Format::Rgba8Unorm, uvec2(64, 64), flags);
        scene.texture(name, t, Lifetime::Transient)
    }

    fn draw() -> Work {
        Work::Draw {
            draws: 1,
            vertices: 3,
            pixels: 4096,
        }
    }

    #[test]
    fn orders_live_passes_first_then_added_ones_in_timeline_order() {
        let mut scene = SceneBuilder::new(Settings::default());
        let rt = target(&mut scene, "rt");
        let late = (scene.pass("late", QueueKind::Graphics, draw()))
            .clears(rt, UseAccess::RenderTarget)
            .id();
        let early = (scene.pass("early", QueueKind::Graphics, draw()))
            .clears(rt, UseAccess::RenderTarget)
            .id();
        let main = (scene.pass("main", QueueKind::Graphics, draw()))
            .clears(rt, UseAccess::RenderTarget)
            .id();
        scene.at(20, TimelineEvent::Add(late));
        scene.at(10, TimelineEvent::Add(early));
        let world = scene.build().expect("valid");
        let order = |e: Entity| world.get::<Pass>(e).map(|p| p.order);
        assert_eq!(
            (order(main), order(early), order(late)),
            (Some(0), Some(1), Some(2))
        );
        assert!(world.get::<Dormant>(late).is_some() && world.get::<Dormant>(main).is_none());
        let timeline = world.resource::<Timeline>();
        assert_eq!(timeline.events.first().map(|e| e.0), Some(10));
    }

    #[test]
    fn refuses_what_the_loader_refuses_naming_the_entity() {
        let mut scene = SceneBuilder::new(Settings::default());
        let rt = target(&mut scene, "rt");
        // A render target written from the copy queue: no copy queue can (queue rules).
        (scene.pass("copy_into_rt", QueueKind::Copy, draw())).uses(rt, UseAccess::RenderTarget);
        let err = scene.build().expect_err("invalid");
        assert!(err.to_string().contains("copy_into_rt"), "{err}");
    }

    #[test]
    fn refuses_a_reference_to_an_entity_it_did_not_author() {
        let mut scene = SceneBuilder::new(Settings::default());
        let stray = scene.world_mut().spawn_empty().id();
        (scene.pass("main", QueueKind::Graphics, draw())).clears(stray, UseAccess::RenderTarget);
        assert!(scene.build().is_err());
    }
}
