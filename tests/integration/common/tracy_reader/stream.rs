//! The client's LZ4 stream: each block is a little-endian `u32` compressed size and that many
//! bytes, compressed with `LZ4_compress_fast_continue`, so a block may copy from up to 64 KiB
//! of what the blocks before it decompressed to. The reader keeps that tail as the dictionary
//! of the next block.

use super::protocol::FRAME_SIZE;

/// How far back an LZ4 match may reach.
const WINDOW: usize = 64 * 1024;

/// The decompressing side of one connection.
#[derive(Default)]
pub struct Lz4Stream {
    history: Vec<u8>,
    out: Vec<u8>,
}

impl Lz4Stream {
    /// Decompress one block (at most `FRAME_SIZE` bytes once decompressed).
    pub fn block(&mut self, compressed: &[u8]) -> Result<&[u8], String> {
        self.out.resize(FRAME_SIZE, 0);
        let n =
            lz4_flex::block::decompress_into_with_dict(compressed, &mut self.out, &self.history)
                .map_err(|e| format!("LZ4 block of {} bytes: {e}", compressed.len()))?;
        self.out.truncate(n);
        self.history.extend_from_slice(&self.out);
        let excess = self.history.len().saturating_sub(WINDOW);
        self.history.drain(..excess);
        Ok(&self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block that copies from the one before it decompresses only with the dictionary.
    #[test]
    fn tracy_blocks_reach_back_into_the_blocks_before() {
        let first = b"GPU graphics GPU compute0.0 GPU dma0 gbuffer ssao lighting".repeat(50);
        let second = b"lighting ssao gbuffer GPU dma0 GPU compute0.0 GPU graphics".repeat(3);
        let a = lz4_flex::block::compress(&first);
        let b = lz4_flex::block::compress_with_dict(&second, &first);
        assert!(b.len() < second.len() / 2, "the second block refers back");
        let mut s = Lz4Stream::default();
        assert_eq!(s.block(&a).unwrap(), &first[..]);
        assert_eq!(s.block(&b).unwrap(), &second[..]);
        // Without the first block's output the second does not decode to the same bytes.
        let mut fresh = Lz4Stream::default();
        assert_ne!(fresh.block(&b).ok(), Some(&second[..]));
    }
}
