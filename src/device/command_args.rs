//! The small value types commands take as arguments: which shader stage a binding is for,
//! how a Map treats earlier contents (CTX-5), the primitive topology and the index format
//! (FS-14's strip cuts depend on both), and the comparison a predicate makes. Kept apart from the command set itself so that each
//! reads on its own.

use serde::{Deserialize, Serialize};

/// Shader stages with binding slots, ordered as the pipeline runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShaderStage {
    Vertex,
    Pixel,
    Compute,
}

/// How a Map call treats the previous contents (CTX-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MapMode {
    /// Fresh memory; previous contents are gone. First Map of a list must be this.
    WriteDiscard,
    /// Append without touching what the GPU may still read.
    NoOverwrite,
}

/// Primitive topology of later draws (IASetPrimitiveTopology).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Topology {
    #[default]
    TriangleList,
    TriangleStrip,
    LineList,
    LineStrip,
    PointList,
}

impl Topology {
    /// Strips are the topologies a primitive-reset (strip-cut) index applies to (FS-14).
    pub fn is_strip(self) -> bool {
        matches!(self, Topology::TriangleStrip | Topology::LineStrip)
    }
}

/// Size of the indices in the bound index buffer (the format argument of IASetIndexBuffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IndexFormat {
    /// 16-bit indices: strip cuts are 0xFFFF, which fast contexts must be told (FS-14).
    R16Uint,
    #[default]
    R32Uint,
}

/// When a predicate skips the operations after SetPredication (D3D12_PREDICATION_OP): the
/// 64-bit value the GPU reads from the buffer equal to zero, or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PredicationOp {
    /// Skip while the value is zero (an occlusion query that saw no sample).
    #[default]
    EqualZero,
    /// Skip while the value is not zero.
    NotEqualZero,
}
