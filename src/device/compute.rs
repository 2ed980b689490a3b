//! What the device checks of the compute context's own calls (seed 002).
//!
//! A placement call (`CSSetPlacementResource`, CC-3) binds one view at one slot with a base
//! address that overrides the one stored in the view: the buffer `base`, `offset` bytes in.
//! The shaders then address the view's extent from there, so an extent that runs past the end
//! of `base` reads and writes memory the title does not own (a page fault at best). The seed
//! gives the override and no alignment of its own; the device asks for a 4-byte (dword)
//! aligned offset, the unit its raw memory operations work in (CC-6) and the alignment of a
//! buffer's dword loads and stores. It refuses either mistake, as the validator reports it
//! (V0213), rather than let the GPU touch memory outside the buffer.

use super::{Command, DeviceError, Memory};

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
