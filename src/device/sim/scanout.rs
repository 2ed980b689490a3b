//! The display side of the present engine, on the GPU timeline (RL-5, FS-5).
//!
//! A buffer is queued for presentation as soon as the front end reads its Present; the
//! present reaches the display once everything before it on the graphics queue has finished
//! (it is a bottom-of-pipe event), and the flip happens at the next vertical blank, at least
//! one period after the previous flip. The buffer shown stays busy until a later flip
//! replaces it; until that flip is decided its free time is unknown, and a wait on present
//! for it waits (RL-2: forever, if only a later present on the same queue could decide it). The CPU side (rotation, swap count) is [`super::super::PresentEngine`].

use hashbrown::HashMap;

use super::super::{ObjectKey, SwapChainKey};

/// When a buffer can be written again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Busy {
    /// Queued or on screen; the flip that frees it has not been decided yet.
    UntilNextFlip,
    /// Free from this time on.
    FreeAt(u64),
}

#[derive(Clone, Copy, Debug, Default)]
struct ChainDisplay {
    displayed: Option<ObjectKey>,
    last_flip_ns: Option<u64>,
}

/// Presentation state of every buffer and chain.
#[derive(Default)]
pub(crate) struct Scanout {
    busy: HashMap<ObjectKey, Busy>,
    chains: HashMap<SwapChainKey, ChainDisplay>,
    flips: u64,
}

impl Scanout {
    /// The front end read a Present of `buffer`: it is queued for presentation, busy until a
    /// flip after its own replaces it.
    pub fn queue(&mut self, buffer: ObjectKey) {
        self.busy.insert(buffer, Busy::UntilNextFlip);
    }

    /// A present of `buffer` reached the display engine at `t`. Returns the flip time; the
    /// buffer previously on screen becomes free at that flip. `period_ns` 0 flips at once.
    pub fn present(
        &mut self,
        chain: SwapChainKey,
        buffer: ObjectKey,
        t: u64,
        period_ns: u64,
    ) -> u64 {
        let c = self.chains.entry(chain).or_default();
        let flip = if period_ns == 0 {
            t.max(c.last_flip_ns.unwrap_or(0))
        } else {
            let next_blank = t.div_ceil(period_ns) * period_ns;
            match c.last_flip_ns {
                Some(last) => next_blank.max(last + period_ns),
                None => next_blank,
            }
        };
        self.busy.insert(buffer, Busy::UntilNextFlip);
        if let Some(prev) = c.displayed.replace(buffer)
            && prev != buffer
        {
            self.busy.insert(prev, Busy::FreeAt(flip));
        }
        c.last_flip_ns = Some(flip);
        self.flips += 1;
        flip
    }

    /// When `buffer` may be written: `Some(t)` once known (0 if never presented), `None`
    /// while it waits for a flip that has not been decided.
    pub fn free_at(&self, buffer: ObjectKey) -> Option<u64> {
        match self.busy.get(&buffer) {
            None => Some(0),
            Some(Busy::FreeAt(t)) => Some(*t),
            Some(Busy::UntilNextFlip) => None,
        }
    }

    /// Forget a destroyed buffer.
    pub fn forget(&mut self, buffer: ObjectKey) {
        self.busy.remove(&buffer);
    }

    /// Flips so far.
    pub fn flips(&self) -> u64 {
        self.flips
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    #[test]
    fn flips_at_vsync_and_frees_the_previous_buffer() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (a, b) = (keys.insert(()), keys.insert(()));
        let mut chains: SlotMap<SwapChainKey, ()> = SlotMap::with_key();
        let chain = chains.insert(());
        let mut s = Scanout::default();
        assert_eq!(s.free_at(a), Some(0));
        assert_eq!(s.present(chain, a, 5, 100), 100);
        // `a` is on screen until the next flip, which is not decided yet.
        assert_eq!(s.free_at(a), None);
        // The next flip is at least one period after the last, even if presented early.
        assert_eq!(s.present(chain, b, 120, 100), 200);
        assert_eq!(s.free_at(a), Some(200));
        assert_eq!(s.flips(), 2);
    }
}
