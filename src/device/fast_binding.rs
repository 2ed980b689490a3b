//! Fast resource binding (RB-1, RB-2): `SetFastResources` and its batches, as the seed
//! describes them, and what they cost.
//!
//! A call is a list of set-type tokens ([`FastSet`]), each naming a stage, a first slot and
//! the resources bound to consecutive slots from there: SRVs, UAVs, constant buffers, vertex
//! buffers (with or without offsets) and samplers. The call writes straight into the
//! constant-engine (CE) command buffer: one room check per call, one two-dword packet header
//! per run of consecutive slots, then each resource's descriptor. So a call is cheaper per
//! resource the more it sets, at most eight resources in any permutation (RB-1), and a vertex
//! buffer object needs the with-offset form (`VertexBuffersWithOffset`; the plain `IA_VB`
//! form cannot carry the offset and stride a buffer object needs, RB-1).
//!
//! A [`FastBatch`] is a pre-compiled CE snippet (`SetFastResourcesIntoBatch`) that
//! `SetFastResourcesFromBatch` copies inline: the form for bindings known only at run time.
//! It names its resources as they were when it was built; whoever uses it guarantees they
//! still exist when the GPU executes it (RB-2), which the validation layer checks.
//!
//! The legacy binding calls (`SetResources`, `SetVertexBuffers`, `SetConstantBuffers`) are
//! priced here too, as per-slot binding: each slot its own packet, header included, and its
//! own room check on the CPU. Both forms count their dwords with [`binding_dwords`], which the
//! run summary reports (`record.binding_dwords`) and the front end pays for ([`front_ns`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Command, ReferenceType, ShaderStage};

/// RB-1: at most eight resources in one `SetFastResources` (or `IntoBatch`) call.
pub const MAX_FAST_RESOURCES: usize = 8;
/// RB-1: the packet header a run of consecutive slots shares, in dwords.
pub const HEADER_DWORDS: u32 = 2;
/// Front-end time per CE dword, in picoseconds: the constant engine parses and stores one
/// dword a nanosecond.
pub const CE_DWORD_PS: u64 = 1000;

/// One set-type token of a fast binding call: a stage's consecutive slots from `slot`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FastSet<R> {
    /// `D3D11X_SET_FAST_<stage>` with shader-resource views.
    Srv {
        stage: ShaderStage,
        #[serde(default)]
        slot: u32,
        views: Vec<R>,
    },
    /// `D3D11X_SET_FAST_<stage>` with unordered-access views (the shaders write them).
    Uav {
        stage: ShaderStage,
        #[serde(default)]
        slot: u32,
        views: Vec<R>,
    },
    /// `D3D11X_SET_FAST_<stage>_WITH_OFFSET` with constant buffers.
    ConstantBuffers {
        stage: ShaderStage,
        #[serde(default)]
        slot: u32,
        buffers: Vec<R>,
    },
    /// `D3D11X_SET_FAST_IA_VB_WITH_OFFSET`: vertex buffers with offset and stride.
    VertexBuffersWithOffset {
        #[serde(default)]
        slot: u32,
        buffers: Vec<R>,
    },
    /// `D3D11X_SET_FAST_IA_VB`: no offset or stride, so no vertex buffer object (RB-1).
    VertexBuffers {
        #[serde(default)]
        slot: u32,
        buffers: Vec<R>,
    },
    /// `D3D11X_SET_FAST_<stage>` with samplers, by id (state, not memory).
    Samplers {
        stage: ShaderStage,
        #[serde(default)]
        slot: u32,
        samplers: Vec<u32>,
    },
}

impl<R> FastSet<R> {
    /// The objects the token binds (samplers are none).
    pub fn objects(&self) -> &[R] {
        match self {
            FastSet::Srv { views, .. } | FastSet::Uav { views, .. } => views,
            FastSet::ConstantBuffers { buffers, .. }
            | FastSet::VertexBuffersWithOffset { buffers, .. }
            | FastSet::VertexBuffers { buffers, .. } => buffers,
            FastSet::Samplers { .. } => &[],
        }
    }

    /// Resources the token sets, samplers included: what RB-1's limit of eight counts.
    pub fn len(&self) -> usize {
        match self {
            FastSet::Samplers { samplers, .. } => samplers.len(),
            _ => self.objects().len(),
        }
    }

    /// True when the token sets nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Dwords of one descriptor: an image descriptor is eight, a buffer's or a sampler's four.
    pub fn descriptor_dwords(&self) -> u32 {
        match self {
            FastSet::Srv { .. } | FastSet::Uav { .. } => 8,
            _ => 4,
        }
    }

    /// CE dwords the token writes: one header for its run of consecutive slots (RB-1).
    pub fn dwords(&self) -> u32 {
        match self.len() {
            0 => 0,
            n => HEADER_DWORDS + n as u32 * self.descriptor_dwords(),
        }
    }

    /// The same token naming its objects by `S`.
    pub fn try_map<S, E>(&self, mut f: impl FnMut(&R) -> Result<S, E>) -> Result<FastSet<S>, E> {
        let mut all = |list: &[R]| list.iter().map(&mut f).collect::<Result<Vec<S>, E>>();
        Ok(match self {
            FastSet::Srv { stage, slot, views } => FastSet::Srv {
                stage: *stage,
                slot: *slot,
                views: all(views)?,
            },
            FastSet::Uav { stage, slot, views } => FastSet::Uav {
                stage: *stage,
                slot: *slot,
                views: all(views)?,
            },
            FastSet::ConstantBuffers {
                stage,
                slot,
                buffers,
            } => FastSet::ConstantBuffers {
                stage: *stage,
                slot: *slot,
                buffers: all(buffers)?,
            },
            FastSet::VertexBuffersWithOffset { slot, buffers } => {
                FastSet::VertexBuffersWithOffset {
                    slot: *slot,
                    buffers: all(buffers)?,
                }
            }
            FastSet::VertexBuffers { slot, buffers } => FastSet::VertexBuffers {
                slot: *slot,
                buffers: all(buffers)?,
            },
            FastSet::Samplers {
                stage,
                slot,
                samplers,
            } => FastSet::Samplers {
                stage: *stage,
                slot: *slot,
                samplers: samplers.clone(),
            },
        })
    }
}

impl<R: ReferenceType> FastSet<R> {
    /// The legacy binding call that binds what this token binds, for the checks that model
    /// bindings (a fast call replaces the D3D11 Set* methods, seed 002). Samplers bind no
    /// memory and have none.
    pub fn as_legacy(&self) -> Option<Command<R>> {
        Some(match self {
            FastSet::Srv { stage, slot, views } => Command::SetResources {
                stage: *stage,
                first_slot: *slot,
                views: views.clone(),
                writes: false,
            },
            FastSet::Uav { stage, slot, views } => Command::SetResources {
                stage: *stage,
                first_slot: *slot,
                views: views.clone(),
                writes: true,
            },
            FastSet::ConstantBuffers { stage, buffers, .. } => Command::SetConstantBuffers {
                stage: *stage,
                buffers: buffers.clone(),
            },
            FastSet::VertexBuffersWithOffset { buffers, .. }
            | FastSet::VertexBuffers { buffers, .. } => Command::SetVertexBuffers {
                buffers: buffers.clone(),
            },
            FastSet::Samplers { .. } => return None,
        })
    }
}

/// A pre-compiled CE snippet of set-type tokens (`SetFastResourcesIntoBatch`, RB-2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FastBatch<R> {
    pub sets: Vec<FastSet<R>>,
}

impl<R> FastBatch<R> {
    /// Dwords the snippet holds: what `FromBatch` copies inline.
    pub fn dwords(&self) -> u32 {
        self.sets.iter().map(FastSet::dwords).sum()
    }

    /// Resources the snippet sets.
    pub fn len(&self) -> usize {
        self.sets.iter().map(FastSet::len).sum()
    }

    /// True when the snippet sets nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same batch naming its objects by `S`.
    pub fn try_map<S, E>(&self, mut f: impl FnMut(&R) -> Result<S, E>) -> Result<FastBatch<S>, E> {
        Ok(FastBatch {
            sets: (self.sets.iter())
                .map(|s| s.try_map(&mut f))
                .collect::<Result<_, E>>()?,
        })
    }
}

/// A shared batch: built once, copied inline by every `FromBatch` that names it.
pub type SharedBatch<R> = Arc<FastBatch<R>>;

/// Binding calls and the CE dwords they write, for `record.binding_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BindingCount {
    pub calls: u64,
    pub dwords: u64,
}

/// Per-slot dwords of a legacy binding call of `slots` descriptors of `descriptor` dwords:
/// every slot is its own packet.
fn per_slot(slots: usize, descriptor: u32) -> u32 {
    slots as u32 * (HEADER_DWORDS + descriptor)
}

/// CE dwords a binding command writes and whether it is one (None for other commands): the
/// fast forms per [`FastSet::dwords`], the legacy ones per slot. An index buffer is not a
/// set-type token and is not counted.
pub fn binding_dwords<R: ReferenceType>(cmd: &Command<R>) -> Option<u32> {
    Some(match cmd {
        Command::SetResources { views, .. } => per_slot(views.len(), 8),
        Command::SetVertexBuffers { buffers } | Command::SetConstantBuffers { buffers, .. } => {
            per_slot(buffers.len(), 4)
        }
        Command::SetFastResources(sets) => sets.iter().map(FastSet::dwords).sum(),
        Command::SetFastResourcesFromBatch(b) => b.dwords(),
        // A placement call sets one compute slot (CC-3): its own packet, a view descriptor
        // whose base address the call overrides.
        Command::CSSetPlacementResource { .. } => per_slot(1, 8),
        _ => return None,
    })
}

/// Slots a legacy binding call sets one by one (0 for the fast forms and other commands).
pub fn legacy_slots<R: ReferenceType>(cmd: &Command<R>) -> u32 {
    match cmd {
        Command::SetResources { views, .. } => views.len() as u32,
        Command::SetVertexBuffers { buffers } | Command::SetConstantBuffers { buffers, .. } => {
            buffers.len() as u32
        }
        Command::CSSetPlacementResource { .. } => 1,
        _ => 0,
    }
}

/// Front-end time of a binding command, in ns: a command slot per packet the front end
/// fetches (one per call for the fast forms, one per slot for the legacy ones) plus a
/// nanosecond per CE dword. `None` for other commands.
pub fn front_ns<R: ReferenceType>(cmd: &Command<R>, command_ns: u64) -> Option<u64> {
    let dwords = binding_dwords(cmd)? as u64;
    let packets = legacy_slots(cmd).max(1) as u64;
    Some(packets * command_ns + dwords * CE_DWORD_PS / 1000)
}

/// Add `cmd` to `count` when it is a binding call.
pub fn count_binding<R: ReferenceType>(count: &mut BindingCount, cmd: &Command<R>) {
    if let Some(d) = binding_dwords(cmd) {
        count.calls += 1;
        count.dwords += d as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::ObjectKey;

    fn keys(n: usize) -> Vec<ObjectKey> {
        vec![ObjectKey::default(); n]
    }

    #[test]
    fn a_placement_call_is_priced_as_one_slot() {
        // CC-3: one slot a call, so binding four slots by placement costs four per-slot
        // packets, the front end and the CPU alike.
        let k = ObjectKey::default();
        let place: Command = Command::CSSetPlacementResource {
            slot: 0,
            view: k,
            base: k,
            offset: 0,
        };
        let one: Command = Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views: keys(1),
            writes: true,
        };
        assert_eq!(binding_dwords(&place), binding_dwords(&one));
        assert_eq!(front_ns(&place, 100), front_ns(&one, 100));
        let cpu = crate::device::cpu_cost::record_ns(&place);
        assert_eq!(cpu, crate::device::cpu_cost::record_ns(&one));
        assert!(cpu > crate::device::cpu_cost::COMMAND_NS);
    }

    #[test]
    fn consecutive_slots_share_one_header() {
        let run = FastSet::Srv {
            stage: ShaderStage::Pixel,
            slot: 0,
            views: keys(3),
        };
        assert_eq!(run.dwords(), HEADER_DWORDS + 3 * 8);
        // The same three as legacy per-slot binding: a header each.
        let legacy = Command::SetResources {
            stage: ShaderStage::Pixel,
            first_slot: 0,
            views: keys(3),
            writes: false,
        };
        assert_eq!(binding_dwords(&legacy), Some(3 * (HEADER_DWORDS + 8)));
        assert_eq!(
            binding_dwords(&Command::SetFastResources(vec![run])),
            Some(26)
        );
    }

    #[test]
    fn front_end_cost_grows_with_the_call() {
        let call = |n| {
            Command::SetFastResources(vec![FastSet::ConstantBuffers {
                stage: ShaderStage::Vertex,
                slot: 0,
                buffers: keys(n),
            }])
        };
        let small = front_ns(&call(1), 36).unwrap();
        let large = front_ns(&call(8), 36).unwrap();
        assert!(large > small, "{small} {large}");
        assert_eq!(large - small, 7 * 4);
        // Per-slot binding of eight buffers fetches eight packets.
        let legacy = Command::SetConstantBuffers {
            stage: ShaderStage::Vertex,
            buffers: keys(8),
        };
        assert!(front_ns(&legacy, 36).unwrap() > large);
        assert_eq!(front_ns(&Command::<ObjectKey>::ClearState, 36), None);
    }

    #[test]
    fn samplers_count_towards_the_limit_and_bind_no_memory() {
        let s: FastSet<ObjectKey> = FastSet::Samplers {
            stage: ShaderStage::Pixel,
            slot: 3,
            samplers: vec![1, 2],
        };
        assert_eq!(s.len(), 2);
        assert!(s.objects().is_empty());
        assert!(s.as_legacy().is_none());
        assert_eq!(s.dwords(), HEADER_DWORDS + 8);
    }
}
