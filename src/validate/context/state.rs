//! The validator's shadow of the pipeline state a context has set: what each draw and
//! dispatch runs with, piece by piece.
//!
//! A fast context shadows nothing (FS-7), so the validation layer keeps its own copy. It is
//! what two rules need: FS-14 (a 16-bit indexed strip needs the primitive-reset index 0xFFFF
//! on a fast context: the default 0xFFFFFFFF never matches a 16-bit index) and FS-12 (no
//! state is saved or restored around command lists, so the immediate context must not
//! rely on getting back state a list changed). Every piece is a [`StateKey`]; its value is
//! what was set, compared as plain numbers. Present, Resume and ClearState reset it all
//! (FS-11), back to the defaults: triangle lists, 32-bit indices, reset index 0xFFFFFFFF.

use slotmap::Key;
use std::collections::BTreeMap;

use crate::device::{Command, IndexFormat, ObjectKey, ShaderStage, Topology};

/// One piece of pipeline state, ordered so that findings about several pieces come out in
/// one order every run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StateKey {
    Targets,
    Viewport,
    Pipeline,
    Topology,
    IndexFormat,
    ResetIndex,
    /// One shader-resource slot of a stage.
    Resource(ShaderStage, u32),
    VertexBuffers,
    IndexBuffer,
    ConstantBuffers(ShaderStage),
}

impl StateKey {
    /// How a message names it.
    pub fn describe(self) -> String {
        match self {
            StateKey::Targets => "render targets".into(),
            StateKey::Viewport => "viewport".into(),
            StateKey::Pipeline => "pipeline state".into(),
            StateKey::Topology => "primitive topology".into(),
            StateKey::IndexFormat => "index format".into(),
            StateKey::ResetIndex => "primitive-reset index".into(),
            StateKey::Resource(stage, slot) => format!("{stage:?} resource slot {slot}"),
            StateKey::VertexBuffers => "vertex buffers".into(),
            StateKey::IndexBuffer => "index buffer".into(),
            StateKey::ConstantBuffers(stage) => format!("{stage:?} constant buffers"),
        }
    }
}

/// The state set on one context since its last reset, piece by piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateShadow {
    values: BTreeMap<StateKey, Vec<u64>>,
}

fn keys(list: &[ObjectKey]) -> Vec<u64> {
    list.iter().map(|k| k.data().as_ffi()).collect()
}

impl StateShadow {
    /// Record what a state-setting command sets; false for other commands.
    pub fn set(&mut self, cmd: &Command) -> bool {
        let mut put = |key, value| {
            self.values.insert(key, value);
        };
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                let mut v = keys(rtvs);
                v.push(dsv.map_or(0, |d| d.data().as_ffi()));
                put(StateKey::Targets, v);
            }
            Command::SetViewport { width, height } => {
                put(StateKey::Viewport, vec![*width as u64, *height as u64])
            }
            Command::SetPipelineState(p) => put(StateKey::Pipeline, vec![*p as u64]),
            Command::SetPrimitiveTopology(t) => put(StateKey::Topology, vec![*t as u64]),
            Command::SetIndexFormat(f) => put(StateKey::IndexFormat, vec![*f as u64]),
            Command::SetPrimitiveResetIndex(n) => put(StateKey::ResetIndex, vec![*n as u64]),
            Command::SetResources {
                stage,
                first_slot,
                views,
                ..
            } => {
                for (i, v) in views.iter().enumerate() {
                    let slot = first_slot.saturating_add(i as u32);
                    put(StateKey::Resource(*stage, slot), keys(&[*v]));
                }
            }
            Command::SetVertexBuffers { buffers } => put(StateKey::VertexBuffers, keys(buffers)),
            Command::SetIndexBuffer(b) => put(StateKey::IndexBuffer, keys(&[*b])),
            Command::SetConstantBuffers { stage, buffers } => {
                put(StateKey::ConstantBuffers(*stage), keys(buffers))
            }
            _ => return false,
        }
        true
    }

    /// The keys a state-setting command sets (empty for other commands).
    pub fn keys_set(cmd: &Command) -> Vec<StateKey> {
        let mut probe = StateShadow::default();
        probe.set(cmd);
        probe.values.into_keys().collect()
    }

    /// Every piece set, with its value.
    pub fn values(&self) -> impl Iterator<Item = (StateKey, &[u64])> {
        self.values.iter().map(|(k, v)| (*k, v.as_slice()))
    }

    /// The value of one piece, if set since the last reset.
    pub fn get(&self, key: StateKey) -> Option<&[u64]> {
        self.values.get(&key).map(|v| v.as_slice())
    }

    fn first(&self, key: StateKey) -> Option<u64> {
        self.values.get(&key).and_then(|v| v.first().copied())
    }

    /// The topology of the next draw.
    pub fn topology(&self) -> Topology {
        match self.first(StateKey::Topology) {
            Some(v) if v == Topology::TriangleStrip as u64 => Topology::TriangleStrip,
            Some(v) if v == Topology::LineStrip as u64 => Topology::LineStrip,
            Some(v) if v == Topology::LineList as u64 => Topology::LineList,
            Some(v) if v == Topology::PointList as u64 => Topology::PointList,
            _ => Topology::TriangleList,
        }
    }

    /// The index format of the next indexed draw.
    pub fn index_format(&self) -> IndexFormat {
        match self.first(StateKey::IndexFormat) {
            Some(v) if v == IndexFormat::R16Uint as u64 => IndexFormat::R16Uint,
            _ => IndexFormat::R32Uint,
        }
    }

    /// The primitive-reset index: 0xFFFFFFFF until set (FS-14).
    pub fn reset_index(&self) -> u32 {
        self.first(StateKey::ResetIndex)
            .map_or(u32::MAX, |v| v as u32)
    }

    /// True when an index buffer is bound: the next draw is an indexed draw.
    pub fn indexed(&self) -> bool {
        self.get(StateKey::IndexBuffer)
            .is_some_and(|v| v.iter().any(|&k| k != 0))
    }

    /// The pieces a draw (`graphics`) or dispatch runs with.
    pub fn used(&self, graphics: bool) -> Vec<StateKey> {
        let mut out = vec![StateKey::Pipeline];
        let stages: &[ShaderStage] = if graphics {
            out.extend([
                StateKey::Targets,
                StateKey::Viewport,
                StateKey::Topology,
                StateKey::VertexBuffers,
                StateKey::IndexBuffer,
                StateKey::IndexFormat,
                StateKey::ResetIndex,
            ]);
            &[ShaderStage::Vertex, ShaderStage::Pixel]
        } else {
            &[ShaderStage::Compute]
        };
        for key in self.values.keys() {
            match key {
                StateKey::Resource(s, _) | StateKey::ConstantBuffers(s) if stages.contains(s) => {
                    out.push(*key)
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_until_set() {
        let mut s = StateShadow::default();
        assert_eq!(s.topology(), Topology::TriangleList);
        assert_eq!(s.index_format(), IndexFormat::R32Uint);
        assert_eq!(s.reset_index(), 0xFFFF_FFFF);
        assert!(!s.indexed());
        assert!(s.set(&Command::SetPrimitiveTopology(Topology::TriangleStrip)));
        assert!(s.set(&Command::SetIndexFormat(IndexFormat::R16Uint)));
        assert!(s.set(&Command::SetPrimitiveResetIndex(0xFFFF)));
        assert!(!s.set(&Command::ClearState));
        assert_eq!(s.topology(), Topology::TriangleStrip);
        assert_eq!(s.index_format(), IndexFormat::R16Uint);
        assert_eq!(s.reset_index(), 0xFFFF);
    }

    #[test]
    fn draws_use_their_stages_state_only() {
        let mut s = StateShadow::default();
        s.set(&Command::SetConstantBuffers {
            stage: ShaderStage::Compute,
            buffers: vec![],
        });
        assert!(
            !s.used(true)
                .contains(&StateKey::ConstantBuffers(ShaderStage::Compute))
        );
        assert!(
            s.used(false)
                .contains(&StateKey::ConstantBuffers(ShaderStage::Compute))
        );
        assert_eq!(
            StateShadow::keys_set(&Command::SetViewport {
                width: 1,
                height: 1
            }),
            vec![StateKey::Viewport]
        );
    }
}
