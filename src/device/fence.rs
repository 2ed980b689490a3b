//! Fences (FN-1..FN-3): 64-bit IDs unique across contexts whose top bits name the context
//! that inserted them. Reaching a fence is a write-back; testing one is free-threaded.

use super::QueueId;

/// Bits of a fence ID that hold the per-context sequence number; the rest name the context.
pub const FENCE_SEQUENCE_BITS: u32 = 56;

/// A fence ID (FN-1): `context << 56 | sequence`. Sequence numbers start at 1, so 0 is never
/// a valid fence and can stand for "no fence".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FenceId(pub u64);

impl FenceId {
    /// Compose an ID from the inserting queue and its sequence number.
    pub fn new(queue: QueueId, sequence: u64) -> FenceId {
        debug_assert!(sequence < (1 << FENCE_SEQUENCE_BITS));
        FenceId(((queue.index() as u64 + 1) << FENCE_SEQUENCE_BITS) | sequence)
    }

    /// The queue (context) named by the top bits.
    pub fn queue(self) -> Option<QueueId> {
        let ctx = (self.0 >> FENCE_SEQUENCE_BITS) as usize;
        ctx.checked_sub(1).and_then(QueueId::from_index)
    }

    /// The per-context sequence number.
    pub fn sequence(self) -> u64 {
        self.0 & ((1 << FENCE_SEQUENCE_BITS) - 1)
    }
}

impl std::fmt::Display for FenceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.queue() {
            Some(q) => write!(f, "{q}#{}", self.sequence()),
            None => write!(f, "{:#x}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_bits_name_the_context() {
        let q = QueueId::Compute { pipe: 1, index: 2 };
        let f = FenceId::new(q, 42);
        assert_eq!(f.queue(), Some(q));
        assert_eq!(f.sequence(), 42);
        assert_ne!(FenceId::new(QueueId::Graphics, 42), f);
        assert_eq!(FenceId(0).queue(), None);
    }
}
