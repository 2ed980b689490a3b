//! What the device checks and models of the compute context's own calls (seed 002).
//!
//! A placement call (`CSSetPlacementResource`, CC-3) binds one view at one slot with a base
//! address that overrides the one stored in the view: the buffer `base`, `offset` bytes in.
//! The shaders then address the view's extent from there, so an extent that runs past the end
//! of `base` reads and writes memory the title does not own (a page fault at best). The seed
//! gives the override and no alignment of its own; the device asks for a 4-byte (dword)
//! aligned offset, the unit its raw memory operations work in (CC-6) and the alignment of a
//! buffer's dword loads and stores. It refuses either mistake, as the validator reports it
//! (V0213), rather than let the GPU touch memory outside the buffer.
//!
//! Dispatch flags (`SetDispatchFlags`, CC-4) are state of a compute context, in effect for
//! its later dispatches until set again or reset by Resume (FS-11). By default dispatches use
//! the CUs' L1 caches, like the graphics context's; `bypass_l1` sends their loads and stores
//! to L2, which spares an L1 invalidation before they read what another dispatch or queue
//! wrote, at the price of every load making the longer trip ([`L1_BYPASS_WORK_PERCENT`] of
//! the dispatch's shading work, a model assumption: the seed says only that bypassing "may
//! provide a benefit over using and flushing L1 appropriately"). The seed's three debug-only
//! flags re-introduce automatic flushes after each dispatch; it does not name them, so the
//! model takes the three flushes a compute context otherwise issues by hand: a compute
//! partial flush, an L1 invalidation and an L2 write-back ([`DispatchFlags::after_dispatch`]).
//! The device runs each as a barrier after the dispatch and charges it like one.
//!
//! Cache flushes take the whole cache; the hardware has no range-based flush, so "this may
//! affect any GPU work executing on the graphics context at the same time" (seed 002, CC-4).
//! The model: when a compute queue's barrier (the title's, or the debug flags' flush after a
//! dispatch) writes back or invalidates a cache the graphics shaders share (L0/L1, K$, L2),
//! every graphics work item running at that moment has lost what it had cached and stalls
//! [`GRAPHICS_REFILL_NS`] refilling it. A flush of nothing shared, or no flush at all, leaves
//! graphics work alone.

use super::barrier_cost::Lowered;
use super::{Command, DeviceError, Memory};
use crate::barrier::{Caches, Stages};

/// Shading work of a dispatch with L1 bypassed, in percent of the same dispatch through L1
/// (CC-4): every load goes to L2. A model assumption, not a figure of the seed.
pub const L1_BYPASS_WORK_PERCENT: u64 = 125;

/// How long a graphics work item in flight stalls refilling its caches after a compute
/// queue's whole-cache flush (CC-4). A model assumption, not a figure of the seed, which says
/// only that such a flush may affect concurrent graphics work: about what re-reading a
/// working set of 1 MiB takes at the 2020 profile's memory bandwidth.
pub const GRAPHICS_REFILL_NS: u64 = 2_000;

/// A compute context's dispatch flags (CC-4, `Command::SetDispatchFlags`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchFlags {
    /// Dispatches read and write through L2, not L1.
    pub bypass_l1: bool,
    /// Debug builds: a compute partial flush after each dispatch.
    pub debug_partial_flush: bool,
    /// Debug builds: an L1 invalidation after each dispatch.
    pub debug_invalidate_l1: bool,
    /// Debug builds: an L2 write-back after each dispatch.
    pub debug_flush_l2: bool,
}

impl DispatchFlags {
    /// The flags a `SetDispatchFlags` command sets; `None` for any other command.
    pub fn of<R: super::ReferenceType>(cmd: &Command<R>) -> Option<DispatchFlags> {
        match *cmd {
            Command::SetDispatchFlags {
                bypass_l1,
                debug_partial_flush,
                debug_invalidate_l1,
                debug_flush_l2,
            } => Some(DispatchFlags {
                bypass_l1,
                debug_partial_flush,
                debug_invalidate_l1,
                debug_flush_l2,
            }),
            _ => None,
        }
    }

    /// True when any debug flag is set: flushes a retail driver would not make.
    pub fn debug(&self) -> bool {
        self.debug_partial_flush || self.debug_invalidate_l1 || self.debug_flush_l2
    }

    /// The flush the debug flags add after each dispatch, as a barrier's hardware actions:
    /// drain the compute stage and hold later compute work (partial flush), write back L2,
    /// invalidate L1. `None` without debug flags.
    pub fn after_dispatch(&self) -> Option<Lowered> {
        if !self.debug() {
            return None;
        }
        let mut l = Lowered::default();
        if self.debug_partial_flush {
            l.drains = Stages::COMPUTE;
            l.blocks = Stages::COMPUTE;
        }
        if self.debug_flush_l2 {
            l.write_back = Caches::L2;
        }
        if self.debug_invalidate_l1 {
            l.invalidate = Caches::L0_L1;
        }
        Some(l)
    }

    /// A dispatch's shading work under these flags.
    pub fn work(&self, work: u64) -> u64 {
        match self.bypass_l1 {
            true => work.saturating_mul(L1_BYPASS_WORK_PERCENT) / 100,
            false => work,
        }
    }
}

/// Alignment of a placement's byte offset into its base buffer (CC-3), bytes.
pub const PLACEMENT_ALIGNMENT: u64 = 4;

/// Why a placement call's base address and offset cannot hold its view (CC-3), or `None`
/// when they can: the view's extent, the base's size.
pub fn placement_fault(memory: &Memory, cmd: &Command) -> Option<PlacementFault> {
    let Command::CSSetPlacementResource {
        view, base, offset, ..
    } = cmd
    else {
        return None;
    };
    let of = memory.resource_of(*view).ok()?;
    let bytes = memory.get(of).ok()?.bytes;
    let size = memory.get(*base).ok()?.bytes;
    let fits = offset.checked_add(bytes).is_some_and(|end| end <= size);
    let aligned = offset.is_multiple_of(PLACEMENT_ALIGNMENT);
    (!fits || !aligned).then_some(PlacementFault {
        offset: *offset,
        bytes,
        size,
        aligned,
    })
}

/// A placement whose view does not fit its base buffer at its offset (CC-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementFault {
    /// Byte offset into the base buffer.
    pub offset: u64,
    /// The view's extent, bytes.
    pub bytes: u64,
    /// The base buffer's size, bytes.
    pub size: u64,
    /// Whether the offset is a multiple of [`PLACEMENT_ALIGNMENT`].
    pub aligned: bool,
}

impl std::fmt::Display for PlacementFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let PlacementFault {
            offset,
            bytes,
            size,
            aligned,
        } = *self;
        if !aligned {
            write!(
                f,
                "byte offset {offset} is not a multiple of {PLACEMENT_ALIGNMENT}"
            )
        } else {
            write!(
                f,
                "the view's {bytes} bytes from byte {offset} run past the end of the base buffer ({size} bytes)"
            )
        }
    }
}

/// Refuse a placement whose view does not fit its base buffer (CC-3).
pub(super) fn check_placement(memory: &Memory, cmd: &Command) -> Result<(), DeviceError> {
    match placement_fault(memory, cmd) {
        Some(fault) => Err(DeviceError::PlacementBase {
            detail: fault.to_string(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::ObjectDesc;
    use crate::model::{Buffer, ViewKind};

    fn buffer(memory: &mut Memory, name: &str, size: u64) -> crate::device::ObjectKey {
        let desc = Buffer {
            size,
            usage: Default::default(),
            unordered_access: true,
        };
        memory.create(name, ObjectDesc::Buffer(desc))
    }

    #[test]
    fn a_placement_must_fit_its_base_at_an_aligned_offset() {
        // CC-3: the view's 256 bytes from the offset must end inside the 1,024-byte base.
        let mut m = Memory::default();
        let tile = buffer(&mut m, "tile", 256);
        let pool = buffer(&mut m, "pool", 1024);
        let view = m.create(
            "tile.uav",
            ObjectDesc::View {
                of: tile,
                kind: ViewKind::Uav,
                range: crate::barrier::SubresourceRange::ALL,
            },
        );
        let place = |offset| Command::CSSetPlacementResource {
            slot: 0,
            view,
            base: pool,
            offset,
        };
        assert_eq!(placement_fault(&m, &place(0)), None);
        assert_eq!(placement_fault(&m, &place(768)), None);
        let past = placement_fault(&m, &place(772)).expect("past the end");
        assert!(past.aligned && past.bytes == 256 && past.size == 1024);
        let odd = placement_fault(&m, &place(2)).expect("misaligned");
        assert!(!odd.aligned);
        assert!(
            placement_fault(&m, &place(u64::MAX)).is_some(),
            "no overflow"
        );
        assert!(matches!(
            check_placement(&m, &place(1000)),
            Err(DeviceError::PlacementBase { .. })
        ));
        assert!(check_placement(&m, &place(512)).is_ok());
    }
}
