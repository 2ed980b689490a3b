//! Swap chains and their buffers. Under fast semantics the application owns view rotation
//! (FS-9) and must wait for presentation before writing a buffer (FS-5); the three rotation
//! strategies are the seed's three render loops.

use bevy_ecs::prelude::*;
use glam::UVec2;
use serde::{Deserialize, Serialize};

use super::Format;
use crate::device::ObjectKey;

/// How the runtime keeps its back-buffer views pointing at the buffer at index 0 (FS-9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    /// RL-5: one view per buffer made up front; the runtime advances its own index once per
    /// frame and re-derives it from the swap count when it drifts.
    SavedViews,
    /// RL-6: a view of buffer 0 made every frame, kept in a ring of N+1 slots each with the
    /// fence of the frame that used it; a slot is reused only when its fence has passed.
    FencedRing,
    /// RL-7: one pre-allocated view re-pointed at buffer 0 every frame (PlaceSwapChainView).
    #[default]
    PlaceView,
}

impl Rotation {
    /// Every strategy, for tests and sweeps.
    pub const ALL: [Rotation; 3] = [
        Rotation::SavedViews,
        Rotation::FencedRing,
        Rotation::PlaceView,
    ];
}

/// A swap chain entity. Its buffers are entities carrying [`SwapChainBuffer`].
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwapChain {
    pub buffers: u32,
    pub format: Format,
    pub extent: UVec2,
    /// Vertical blanks per present; 0 presents immediately.
    #[serde(default = "one")]
    pub vsync_interval: u32,
    #[serde(default)]
    pub rotation: Rotation,
    /// Its buffers may also be written through UAVs: a compute pass that writes the back
    /// buffer directly. The runtime then rotates a UAV beside each render-target view (FS-9).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unordered_access: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn one() -> u32 {
    1
}

impl SwapChain {
    /// What each of its buffers is: a render target with DCC, which the display cannot read
    /// without a decompression (FS-4).
    pub fn buffer_texture(&self) -> super::Texture {
        let flags = super::TextureFlags {
            render_target: true,
            dcc: true,
            unordered_access: self.unordered_access,
            ..Default::default()
        };
        super::Texture::new_2d(self.format, self.extent, flags)
    }
}

/// One buffer of a swap chain, by creation index (not by its current position in the chain).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapChainBuffer {
    pub chain: Entity,
    pub index: u32,
}

/// Per-chain rotation state: which buffer the runtime believes is at index 0 this frame,
/// and the device view through which passes write it.
#[derive(Component, Clone, Debug, Default)]
pub struct BackBuffer {
    /// The buffer entity at index 0 this frame (set by the acquire system).
    pub buffer: Option<Entity>,
    /// The device views that passes bind to write the chain this frame.
    pub view: Option<ChainViews>,
    /// RL-5: the application's own index, advanced once per frame.
    pub saved_index: u32,
    /// RL-5: one set of views per buffer, by creation index.
    pub saved_views: Vec<ChainViews>,
    /// RL-6: the ring of N+1 view sets with the fence that covers each one's last use.
    pub ring: Vec<Option<(ChainViews, u64)>>,
    /// RL-6: the next ring slot.
    pub ring_cursor: usize,
    /// RL-7: the pre-allocated views.
    pub placed_view: Option<ChainViews>,
    /// Times the runtime had to recover its index from the swap count (RL-5).
    pub recoveries: u64,
    /// Views of buffers that were replaced, with the fence that covers their last use; they
    /// are destroyed once it passes (FS-6).
    pub retiring: Vec<(ObjectKey, u64)>,
}

impl BackBuffer {
    /// The buffers were replaced (resize): saved per-buffer views (RL-5) are stale and retire
    /// behind `fence`, the newest frame fence. Ring views retire as the ring turns (RL-6);
    /// the placed view is simply re-pointed (RL-7).
    pub fn retire_saved_views(&mut self, fence: u64) {
        for views in self.saved_views.drain(..) {
            self.retiring.extend(views.keys().map(|v| (v, fence)));
        }
        self.saved_index = 0;
    }
}

/// The views of one back buffer that passes write it through: its render-target view, and
/// a UAV when the chain allows unordered access. Both point at the same buffer, so both go
/// stale at a present and rotate together (FS-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainViews {
    pub rtv: ObjectKey,
    pub uav: Option<ObjectKey>,
}

impl ChainViews {
    /// Every view in the set, for re-pointing and retiring them together.
    pub fn keys(self) -> impl Iterator<Item = ObjectKey> {
        std::iter::once(self.rtv).chain(self.uav)
    }

    /// The view that binds `access` of the chain: the UAV for unordered access, the
    /// render-target view otherwise.
    pub fn for_access(self, access: crate::model::UseAccess) -> Option<ObjectKey> {
        match access {
            crate::model::UseAccess::UnorderedAccess => self.uav,
            _ => Some(self.rtv),
        }
    }
}

/// A swap chain asked to change size at the start of this frame.
#[derive(Component, Clone, Copy, Debug)]
pub struct ResizeRequest(pub glam::UVec2);

/// The device swap chain behind a swap-chain entity.
#[derive(Component, Clone, Copy, Debug)]
pub struct GpuChain {
    pub key: crate::device::SwapChainKey,
    /// Swap count when the current buffers were created; RL-5 recovers from swaps since.
    pub base_swaps: u64,
}
