//! Queries a pass writes, resolved into a readback buffer and read by the CPU frames later.
//!
//! A pass with `queries` writes a GPU timestamp before and after its work (CC-7: the
//! 100 MHz clock, at the bottom of the pipe) and, for draws, counts the samples its draws
//! pass with an occlusion query. At the end of the pass a `ResolveQueryData` copies the
//! frame's query results into the `resolve` buffer, which the pass must use as `CopyDest` so
//! that every barrier strategy plans the copy's barrier. The CPU reads the results of frame
//! N at the start of frame N + `read_after`; the data is there only once the GPU processed
//! the resolve, that is once a fence inserted after it has passed (CTX-6: query data is
//! read after the GPU processed it). The runtime fences the end of every frame and waits
//! for frame N before starting frame N + `frames_in_flight`, so a `read_after` of at least
//! `frames_in_flight` is always safe; a shorter one reads whatever the GPU has finished and
//! the validation layer reports a read before its fence passed (V0905).
//!
//! Each frame resolves into its own slots of the query heap (a ring of [`QUERY_RING`]
//! frames), so a later frame never overwrites results the CPU has not read yet.

use serde::{Deserialize, Serialize};

/// Frames of query slots each pass keeps: more than the most frames a read may lag.
pub const QUERY_RING: u32 = 16;
/// First query slot passes use; scripts number their named queries from 0.
pub const PASS_QUERY_BASE: u32 = 1 << 24;
/// Bytes one resolved query takes in the readback buffer (a 64-bit value, CC-7).
pub const QUERY_BYTES: u64 = 8;

/// What a pass queries: `queries: (timestamps: true, occlusion: true, resolve: "timings",
/// read_after: 2)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename = "Queries", deny_unknown_fields)]
pub struct PassQueries<R> {
    /// A timestamp before and one after the pass's work.
    #[serde(default, skip_serializing_if = "is_false")]
    pub timestamps: bool,
    /// An occlusion query around the pass's draws (draw work only).
    #[serde(default, skip_serializing_if = "is_false")]
    pub occlusion: bool,
    /// The readback buffer the results are resolved into.
    pub resolve: R,
    /// Frames after its own that the CPU reads a frame's results; `frames_in_flight` when
    /// absent (the first frame whose fence the runtime has waited for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_after: Option<u32>,
}

impl<R> PassQueries<R> {
    /// Queries the pass writes each frame.
    pub fn count(&self) -> u32 {
        2 * u32::from(self.timestamps) + u32::from(self.occlusion)
    }

    /// Bytes of readback buffer one frame's results take.
    pub fn bytes(&self) -> u64 {
        self.count() as u64 * QUERY_BYTES
    }

    /// The first heap slot of the pass declared `order`-th in `frame`.
    pub fn first_slot(order: u32, frame: u64) -> u32 {
        let ring = (frame % QUERY_RING as u64) as u32;
        PASS_QUERY_BASE + (order.wrapping_mul(QUERY_RING) + ring) * 3
    }

    /// The same queries naming their buffer otherwise.
    pub fn map<S>(&self, f: impl FnOnce(&R) -> S) -> PassQueries<S> {
        PassQueries {
            timestamps: self.timestamps,
            occlusion: self.occlusion,
            resolve: f(&self.resolve),
            read_after: self.read_after,
        }
    }
}

fn is_false(v: &bool) -> bool {
    !*v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_frame_of_the_ring_has_its_own_slots() {
        let q = PassQueries {
            timestamps: true,
            occlusion: true,
            resolve: (),
            read_after: None,
        };
        assert_eq!((q.count(), q.bytes()), (3, 24));
        let slots: Vec<u32> = (0..QUERY_RING as u64)
            .map(|f| PassQueries::<()>::first_slot(2, f))
            .collect();
        // Three slots apart: no frame's queries overlap another's within the ring.
        assert!(slots.windows(2).all(|w| w[1] == w[0] + 3));
        assert_eq!(
            PassQueries::<()>::first_slot(2, 0),
            PassQueries::<()>::first_slot(2, QUERY_RING as u64)
        );
        assert!(PassQueries::<()>::first_slot(3, 0) > slots[QUERY_RING as usize - 1]);
    }
}
