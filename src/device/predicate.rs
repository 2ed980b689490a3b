//! The 64-bit values the GPU writes and reads for predication: query results a
//! `ResolveQueryData` writes into a buffer, eight bytes each, and the predicate a
//! `SetPredication` reads from one.
//!
//! D3D12 validates both calls on the CPU: a predicate's offset is a multiple of 8 and its
//! value lies inside a buffer, and a resolve's results fit the buffer they are written to.
//! A call that breaks either would have the GPU read or write memory the title does not own,
//! so the device refuses it, as the loader refuses it in a script at the argument's line
//! (`scene::predicate`). Whether the buffer is in PREDICATION (or COPY_DEST) when the GPU
//! gets there is the validation layer's question (EB-1, EB-11), not the device's.

use std::fmt;

use super::{Command, DeviceError, Memory, ObjectDesc};

/// Bytes of one predicate or one query result.
pub const VALUE_BYTES: u64 = 8;

/// A SetPredication or ResolveQueryData whose value does not fit its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueFault {
    /// The call's name.
    pub call: &'static str,
    /// Byte offset of the first value in the buffer.
    pub offset: u64,
    /// Bytes the call reads or writes there.
    pub bytes: u64,
    /// The buffer's size, bytes; `None` when the object is not a buffer.
    pub size: Option<u64>,
}

impl fmt::Display for ValueFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(size) = self.size else {
            return write!(f, "{}: the object is not a buffer", self.call);
        };
        if !self.offset.is_multiple_of(VALUE_BYTES) {
            return write!(
                f,
                "{}: offset {} is not a multiple of {VALUE_BYTES} bytes",
                self.call, self.offset
            );
        }
        write!(
            f,
            "{}: {} bytes at offset {} run past the end of the {size}-byte buffer",
            self.call, self.bytes, self.offset
        )
    }
}

/// The fault of `cmd` when it is a SetPredication or ResolveQueryData whose value(s) do not
/// fit their buffer (unknown objects are the liveness check's business, FS-6).
pub fn value_fault(memory: &Memory, cmd: &Command) -> Option<ValueFault> {
    let (call, key, offset, bytes) = match cmd {
        Command::SetPredication {
            buffer: Some(b),
            offset,
            ..
        } => ("SetPredication", *b, *offset, VALUE_BYTES),
        Command::ResolveQueryData {
            dst, count, offset, ..
        } => (
            "ResolveQueryData",
            *dst,
            *offset,
            u64::from(*count).saturating_mul(VALUE_BYTES),
        ),
        _ => return None,
    };
    let object = memory.get(key).ok()?;
    let size = matches!(object.desc, ObjectDesc::Buffer(_)).then_some(object.bytes);
    let fits = size.is_some_and(|size| offset.checked_add(bytes).is_some_and(|end| end <= size));
    (!fits || !offset.is_multiple_of(VALUE_BYTES)).then_some(ValueFault {
        call,
        offset,
        bytes,
        size,
    })
}

/// Refuse a predicate or a resolve that does not fit its buffer.
pub(super) fn check_value(memory: &Memory, cmd: &Command) -> Result<(), DeviceError> {
    match value_fault(memory, cmd) {
        Some(fault) => Err(DeviceError::ValueOutsideBuffer {
            detail: fault.to_string(),
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::PredicationOp;
    use crate::model::{Buffer, Texture};

    #[test]
    fn a_predicate_and_a_resolve_must_fit_their_buffer() {
        let mut m = Memory::default();
        let desc = Buffer {
            size: 16,
            usage: Default::default(),
            unordered_access: false,
        };
        let results = m.create("results", ObjectDesc::Buffer(desc));
        let set = |offset| Command::SetPredication {
            buffer: Some(results),
            offset,
            op: PredicationOp::EqualZero,
        };
        assert_eq!(value_fault(&m, &set(0)), None);
        assert_eq!(value_fault(&m, &set(8)), None);
        let past = value_fault(&m, &set(16)).expect("past the end");
        assert_eq!((past.bytes, past.size), (8, Some(16)));
        assert!(value_fault(&m, &set(4)).is_some(), "misaligned");
        assert!(value_fault(&m, &set(u64::MAX - 7)).is_some(), "no overflow");
        let off = Command::SetPredication {
            buffer: None,
            offset: 3,
            op: PredicationOp::NotEqualZero,
        };
        assert_eq!(
            value_fault(&m, &off),
            None,
            "turning predication off reads nothing"
        );
        let resolve = |count, offset| Command::ResolveQueryData {
            dst: results,
            first: 0,
            count,
            offset,
        };
        assert_eq!(value_fault(&m, &resolve(2, 0)), None);
        assert_eq!(value_fault(&m, &resolve(1, 8)), None);
        assert!(
            value_fault(&m, &resolve(3, 0)).is_some(),
            "24 bytes into 16"
        );
        assert!(
            value_fault(&m, &resolve(2, 8)).is_some(),
            "16 bytes from 8 into 16"
        );
        assert!(value_fault(&m, &resolve(1, 4)).is_some(), "misaligned");
        assert!(matches!(
            check_value(&m, &set(12)),
            Err(DeviceError::ValueOutsideBuffer { .. })
        ));
        let tex = Texture {
            format: crate::model::Format::Rgba8Unorm,
            extent: glam::UVec2::new(4, 4),
            depth: 1,
            mips: 1,
            array_size: 1,
            samples: 1,
            flags: Default::default(),
        };
        let tex = m.create("t", ObjectDesc::Texture(tex));
        let into_texture = Command::ResolveQueryData {
            dst: tex,
            first: 0,
            count: 1,
            offset: 0,
        };
        let fault = value_fault(&m, &into_texture).expect("a texture holds no query results");
        assert_eq!(fault.size, None);
    }
}
