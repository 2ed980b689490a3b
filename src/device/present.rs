//! The present engine. Under fast semantics a present shows the buffer at index 0 at the next
//! vertical blank and rotates the next buffer into index 0 (RL-5). A shown buffer stays busy
//! until a later flip replaces it; writing it earlier needs a wait on present (FS-5).

use hashbrown::HashMap;
use slotmap::SlotMap;

use super::ObjectKey;

slotmap::new_key_type! {
    /// Handle to a device swap chain.
    pub struct SwapChainKey;
}

/// CPU-side view of one swap chain.
#[derive(Clone, Debug)]
pub struct SwapChainState {
    pub name: String,
    /// Buffers in rotation order: `buffers[0]` is the current back buffer.
    pub buffers: Vec<ObjectKey>,
    /// Presents issued so far: the frame statistics' swap count (RL-5).
    pub swaps: u64,
    pub vsync_interval: u32,
    /// GPU side: the buffer on screen, and when the last flip happened.
    displayed: Option<ObjectKey>,
    last_flip_ns: Option<u64>,
}

/// When a buffer can be written again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Busy {
    /// Queued or on screen; the flip that frees it has not been decided yet.
    UntilNextFlip,
    /// Free from this time on.
    FreeAt(u64),
}

/// All swap chains plus the GPU-side presentation state of their buffers.
#[derive(Default)]
pub struct PresentEngine {
    chains: SlotMap<SwapChainKey, SwapChainState>,
    busy: HashMap<ObjectKey, Busy>,
    flips: u64,
}

impl PresentEngine {
    /// Register a chain whose buffers were created by the caller.
    pub fn create(
        &mut self,
        name: &str,
        buffers: Vec<ObjectKey>,
        vsync_interval: u32,
    ) -> SwapChainKey {
        self.chains.insert(SwapChainState {
            name: name.to_owned(),
            buffers,
            swaps: 0,
            vsync_interval,
            displayed: None,
            last_flip_ns: None,
        })
    }

    /// A chain's CPU-side state.
    pub fn chain(&self, key: SwapChainKey) -> Option<&SwapChainState> {
        self.chains.get(key)
    }

    /// Replace a chain's buffers (resize). The old ones keep their presentation state so
    /// that a wait on present for them still resolves.
    pub fn replace_buffers(
        &mut self,
        key: SwapChainKey,
        buffers: Vec<ObjectKey>,
    ) -> Option<Vec<ObjectKey>> {
        let chain = self.chains.get_mut(key)?;
        Some(std::mem::replace(&mut chain.buffers, buffers))
    }

    /// CPU side of Present: returns the buffer shown and rotates the next into index 0.
    pub fn present_cpu(&mut self, key: SwapChainKey) -> Option<ObjectKey> {
        let chain = self.chains.get_mut(key)?;
        let shown = *chain.buffers.first()?;
        chain.buffers.rotate_left(1);
        chain.swaps += 1;
        Some(shown)
    }

    /// GPU side of Present: the present command reached the engine at `t`. Returns the flip
    /// time; the buffer previously on screen becomes free at that flip.
    pub fn present_gpu(
        &mut self,
        key: SwapChainKey,
        buffer: ObjectKey,
        t: u64,
        period_ns: u64,
    ) -> u64 {
        let Some(chain) = self.chains.get_mut(key) else {
            return t;
        };
        let period = period_ns * chain.vsync_interval as u64;
        let flip = if period == 0 {
            t.max(chain.last_flip_ns.unwrap_or(0))
        } else {
            let next_blank = t.div_ceil(period) * period;
            match chain.last_flip_ns {
                Some(last) => next_blank.max(last + period),
                None => next_blank,
            }
        };
        // Presentation state lives on the GPU timeline: a buffer is busy from the moment its
        // present executes, not from the CPU call.
        self.busy.insert(buffer, Busy::UntilNextFlip);
        if let Some(prev) = chain.displayed.replace(buffer)
            && prev != buffer
        {
            self.busy.insert(prev, Busy::FreeAt(flip));
        }
        chain.last_flip_ns = Some(flip);
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

    /// The buffer at index 0 of every chain.
    pub fn back_buffers(&self) -> Vec<ObjectKey> {
        self.chains
            .values()
            .filter_map(|c| c.buffers.first().copied())
            .collect()
    }

    /// Position of `buffer` in its chain's rotation (0 is the back buffer), if it belongs to
    /// a chain.
    pub fn find_buffer(&self, buffer: ObjectKey) -> Option<usize> {
        self.chains
            .values()
            .find_map(|c| c.buffers.iter().position(|b| *b == buffer))
    }

    /// Forget a destroyed buffer.
    pub fn forget(&mut self, buffer: ObjectKey) {
        self.busy.remove(&buffer);
    }

    /// Flips performed by the GPU so far.
    pub fn flips(&self) -> u64 {
        self.flips
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_rotates_and_flips_at_vsync() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (a, b) = (keys.insert(()), keys.insert(()));
        let mut pe = PresentEngine::default();
        let chain = pe.create("sc", vec![a, b], 1);
        assert_eq!(pe.present_cpu(chain), Some(a));
        assert_eq!(pe.chain(chain).unwrap().buffers[0], b);
        assert_eq!(pe.chain(chain).unwrap().swaps, 1);
        // The CPU call alone does not occupy the buffer; the GPU executing it does.
        assert_eq!(pe.free_at(a), Some(0));
        assert_eq!(pe.free_at(b), Some(0));
        assert_eq!(pe.present_gpu(chain, a, 5, 100), 100);
        // `a` is on screen until the next flip, which is not decided yet.
        assert_eq!(pe.free_at(a), None);
        pe.present_cpu(chain);
        // The next flip is at least one period after the last, even if presented early.
        assert_eq!(pe.present_gpu(chain, b, 120, 100), 200);
        assert_eq!(pe.free_at(a), Some(200));
        assert_eq!(pe.flips(), 2);
    }
}
