//! The frame of `scenes/deferred.ron`, built in Rust with [`SceneBuilder`]: the same
//! entities in the same order, so the world it builds runs exactly as the loaded file does
//! (the integration test `authoring` holds it to that). The scene's comment explains the
//! frame; this file only shows how each line of it reads in code.

use bevy_ecs::prelude::*;
use fastframe::model::{
    Buffer, BufferUsage, Format, Lifetime, QueueKind, Rotation, Settings, SwapChain, Texture,
    TextureFlags, TimelineEvent, UseAccess, Work,
};
use fastframe::scene::{SceneBuilder, SceneError};
use glam::{UVec2, uvec2};

const SCREEN: UVec2 = UVec2::new(1920, 1080);

/// The deferred renderer across three queues, with triple buffering and a timeline.
pub fn deferred() -> Result<World, SceneError> {
    let mut scene = SceneBuilder::new(Settings {
        frames_in_flight: 2,
        async_compute: true,
        compute_cu_limit: Some(52),
        ..Settings::default()
    });
    use Lifetime::{Imported, Transient};
    use UseAccess::*;

    let swapchain = scene.swap_chain(
        "swapchain",
        SwapChain {
            buffers: 3,
            format: Format::Bgra8Unorm,
            extent: SCREEN,
            vsync_interval: 1,
            rotation: Rotation::SavedViews,
            unordered_access: false,
        },
    );
    let depth_flags = TextureFlags {
        depth_stencil: true,
        texture_compatible: true,
        ..TextureFlags::default()
    };
    let gbuffer_flags = TextureFlags {
        render_target: true,
        dcc: true,
        texture_compatible: true,
        ..TextureFlags::default()
    };
    let uav = TextureFlags {
        unordered_access: true,
        ..TextureFlags::default()
    };
    let texture = |format, extent, flags| Texture::new_2d(format, extent, flags);
    let depth = scene.texture(
        "depth",
        texture(Format::D32Float, SCREEN, depth_flags),
        Transient,
    );
    let shadow_map = scene.texture(
        "shadow_map",
        texture(Format::D32Float, uvec2(2048, 2048), depth_flags),
        Transient,
    );
    let albedo = scene.texture(
        "gbuffer_albedo",
        texture(Format::Rgba8Unorm, SCREEN, gbuffer_flags),
        Transient,
    );
    let normal = scene.texture(
        "gbuffer_normal",
        texture(Format::Rgb10A2Unorm, SCREEN, gbuffer_flags),
        Transient,
    );
    let ao = scene.texture(
        "ambient_occlusion",
        texture(Format::R8Unorm, SCREEN, uav),
        Transient,
    );
    let hdr = scene.texture("hdr", texture(Format::Rgba16Float, SCREEN, uav), Transient);
    let splash_logo = scene.texture(
        "splash_logo",
        texture(Format::Rgba8Unorm, uvec2(512, 256), TextureFlags::default()),
        Imported,
    );
    let buffer = |size, usage| Buffer {
        size,
        usage,
        unordered_access: false,
    };
    let scene_vb = scene.buffer("scene_vb", buffer(64 << 20, BufferUsage::Default), Imported);
    let scene_ib = scene.buffer("scene_ib", buffer(16 << 20, BufferUsage::Default), Imported);
    let ui_vb = scene.buffer("ui_vb", buffer(1 << 20, BufferUsage::Dynamic), Imported);
    let staging = scene.buffer(
        "light_staging",
        buffer(64 << 10, BufferUsage::Dynamic),
        Imported,
    );
    let lights = scene.buffer("lights", buffer(64 << 10, BufferUsage::Default), Imported);

    let draw = |draws, vertices, pixels| Work::Draw {
        draws,
        vertices,
        pixels,
    };
    let dispatch = |dispatches, threads| Work::Dispatch {
        dispatches,
        threads,
    };
    let copy = Work::Copy {
        bytes: 64 << 10,
        from: None,
        to: None,
    };
    (scene.pass("upload_lights", QueueKind::Copy, copy))
        .uses(staging, CopySource)
        .uses(lights, CopyDest);
    (scene.pass(
        "depth_prepass",
        QueueKind::Graphics,
        draw(800, 3_000_000, 2_073_600),
    ))
    .clears(depth, DepthWrite)
    .uses(scene_vb, VertexBuffer)
    .uses(scene_ib, IndexBuffer);
    (scene.pass(
        "gbuffer",
        QueueKind::Graphics,
        draw(800, 3_000_000, 2_073_600),
    ))
    .clears(albedo, RenderTarget)
    .clears(normal, RenderTarget)
    .uses(depth, DepthRead)
    .uses(scene_vb, VertexBuffer)
    .uses(scene_ib, IndexBuffer);
    (scene.pass(
        "shadow_map_pass",
        QueueKind::Graphics,
        draw(600, 2_000_000, 4_194_304),
    ))
    .clears(shadow_map, DepthWrite)
    .uses(scene_vb, VertexBuffer)
    .uses(scene_ib, IndexBuffer);
    (scene.pass("ssao", QueueKind::Compute, dispatch(2, 2_073_600)))
        .uses(depth, ShaderRead)
        .uses(normal, ShaderRead)
        .uses(ao, UnorderedAccess);
    (scene.pass("lighting", QueueKind::Compute, dispatch(1, 8_294_400)))
        .uses(albedo, ShaderRead)
        .uses(normal, ShaderRead)
        .uses(depth, ShaderRead)
        .uses(shadow_map, ShaderRead)
        .uses(ao, ShaderRead)
        .uses(lights, ShaderRead)
        .uses(hdr, UnorderedAccess);
    (scene.pass("post", QueueKind::Graphics, draw(3, 9, 6_220_800)))
        .uses(hdr, ShaderRead)
        .uses(swapchain, RenderTarget);
    (scene.pass("ui", QueueKind::Graphics, draw(120, 40_000, 500_000)))
        .uses(swapchain, RenderTarget)
        .uses(ui_vb, VertexBuffer);
    let splash = (scene.pass("splash", QueueKind::Graphics, draw(1, 4, 131_072)))
        .uses(splash_logo, ShaderRead)
        .uses(swapchain, RenderTarget)
        .id();

    let resize = |extent| TimelineEvent::Resize {
        chain: swapchain,
        extent,
    };
    scene
        .at(60, resize(uvec2(1280, 720)))
        .at(100, TimelineEvent::Disable(splash))
        .at(101, TimelineEvent::Release(splash_logo))
        .at(200, resize(SCREEN));
    scene.build()
}
