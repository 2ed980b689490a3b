//! The present engine, CPU side. Under fast semantics a present shows the buffer at index 0
//! at the next vertical blank and rotates the next buffer into index 0 (RL-5); the swap count
//! is the frame statistics a title recovers its index from. The GPU side (when the flip
//! happens, when a shown buffer is free again, FS-5) lives in the simulation's scanout, since
//! it is decided on the GPU timeline.

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
}

/// All swap chains.
#[derive(Default)]
pub struct PresentEngine {
    chains: SlotMap<SwapChainKey, SwapChainState>,
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_rotates_and_counts_swaps() {
        let mut keys: SlotMap<ObjectKey, ()> = SlotMap::with_key();
        let (a, b) = (keys.insert(()), keys.insert(()));
        let mut pe = PresentEngine::default();
        let chain = pe.create("sc", vec![a, b], 1);
        assert_eq!(pe.present_cpu(chain), Some(a));
        assert_eq!(pe.chain(chain).unwrap().buffers[0], b);
        assert_eq!(pe.chain(chain).unwrap().swaps, 1);
        assert_eq!(pe.find_buffer(a), Some(1));
        assert_eq!(pe.back_buffers(), vec![b]);
    }
}
