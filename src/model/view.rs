//! Views: how a pass sees a resource (EB-6 subresource ranges, FS-13 minimum LOD).

use crate::barrier::SubresourceRange;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// The view kinds of the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ViewKind {
    /// Render-target view.
    Rtv,
    /// Depth-stencil view.
    Dsv,
    /// Read-only depth-stencil view: depth tests without depth writes, so the depth buffer
    /// can stay in a write layout or be read elsewhere at the same time.
    DsvReadOnly,
    /// Shader-resource view.
    Srv,
    /// Unordered-access view.
    Uav,
    /// Unordered-access view of a buffer with an append or a hidden counter
    /// (`D3D11_BUFFER_UAV_FLAG_APPEND` / `_COUNTER`): legacy contexts only (FS-14).
    UavCounter,
}

impl ViewKind {
    /// Whether the view binds unordered access (a UAV with or without a counter).
    pub fn is_uav(self) -> bool {
        matches!(self, ViewKind::Uav | ViewKind::UavCounter)
    }
}

/// A view entity: what it views (a resource or a swap chain's current back buffer),
/// its kind, the subresources it covers, for SRVs its minimum LOD (FS-13), and the format
/// it sees the texels as.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct View {
    pub of: Entity,
    pub kind: ViewKind,
    pub range: SubresourceRange,
    pub min_lod: f32,
    /// The format the view reads or writes the texels as, when not the resource's own: one
    /// of its family (`Format::family`), say an sRGB render-target view of a UNORM texture.
    pub format: Option<crate::model::Format>,
}
