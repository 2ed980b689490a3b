//! Views: how a pass sees a resource (EB-6 subresource ranges, FS-13 minimum LOD).

use crate::barrier::SubresourceRange;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// The four view kinds of the seeds.
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
}

/// A view entity: what it views (a resource or a swap chain's current back buffer),
/// its kind, the subresources it covers and, for SRVs, its minimum LOD (FS-13).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct View {
    pub of: Entity,
    pub kind: ViewKind,
    pub range: SubresourceRange,
    pub min_lod: f32,
}
