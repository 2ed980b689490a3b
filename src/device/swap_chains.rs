//! The device's swap chains as a title sees them: creating and resizing chains, the buffer
//! at each place of the rotation, the present count RL-5 recovers its index from, and whether
//! the display engine still reads a buffer. What happens at Present and at a wait on present
//! is the present engine's (`present`) and the simulated scan-out's (`sim::scanout`).

use super::{Device, DeviceError, ObjectDesc, ObjectKey, SwapChainKey};

impl Device {
    /// True while `buffer` is queued for or being scanned out at CPU time `cpu_ns`: the
    /// display engine still reads it, whatever the fences say.
    pub fn is_presenting(&self, buffer: ObjectKey, cpu_ns: u64) -> bool {
        let mut gpu = self.gpu();
        gpu.horizon = gpu.horizon.max(cpu_ns);
        let until = gpu.horizon;
        gpu.advance(until, None, &self.profile);
        gpu.scanout.free_at(buffer).is_none_or(|t| t > cpu_ns)
    }

    /// Create a swap chain with `count` buffers made from `buffer`'s description.
    pub fn create_swap_chain(
        &mut self,
        name: &str,
        buffer: crate::model::Texture,
        count: u32,
        vsync_interval: u32,
    ) -> (SwapChainKey, Vec<ObjectKey>) {
        let buffers: Vec<ObjectKey> = (0..count)
            .map(|i| {
                self.memory
                    .create(&format!("{name}[{i}]"), ObjectDesc::Texture(buffer.clone()))
            })
            .collect();
        let key = self.present.create(name, buffers.clone(), vsync_interval);
        (key, buffers)
    }

    /// Replace a chain's buffers with new ones of another size. The old buffers are returned
    /// for the caller to release once their fences pass (FS-6).
    pub fn resize_swap_chain(
        &mut self,
        chain: SwapChainKey,
        buffer: crate::model::Texture,
    ) -> Result<(Vec<ObjectKey>, Vec<ObjectKey>), DeviceError> {
        let state = self.present.chain(chain).ok_or(DeviceError::NoSwapChain)?;
        let (name, count) = (state.name.clone(), state.buffers.len());
        let fresh: Vec<ObjectKey> = (0..count)
            .map(|i| {
                self.memory
                    .create(&format!("{name}[{i}]"), ObjectDesc::Texture(buffer.clone()))
            })
            .collect();
        let old = self
            .present
            .replace_buffers(chain, fresh.clone())
            .ok_or(DeviceError::NoSwapChain)?;
        Ok((old, fresh))
    }

    /// ResizeBuffers lets go of an old buffer on the display's side: DXGI keeps the last
    /// frame shown by itself, so only the GPU's own use of the buffer can keep it alive when
    /// the title releases it (FS-6).
    pub fn leave_display(&mut self, buffer: ObjectKey) {
        self.gpu().scanout.forget(buffer);
    }

    /// The buffer at `index` of a chain's rotation (0 is the current back buffer).
    pub fn swap_chain_buffer(&self, chain: SwapChainKey, index: usize) -> Option<ObjectKey> {
        self.present.chain(chain)?.buffers.get(index).copied()
    }

    /// Frame statistics: presents so far (RL-5 recovers its index from this).
    pub fn swap_count(&self, chain: SwapChainKey) -> u64 {
        self.present.chain(chain).map_or(0, |c| c.swaps)
    }

    /// Flips the display engine has performed so far.
    pub fn flips(&self) -> u64 {
        self.gpu().scanout.flips()
    }
}

#[cfg(test)]
mod tests {
    use crate::device::{Command, Device, DeviceError, QueueId};
    use crate::model::{Format, Texture, TextureFlags};

    /// The display keeps the buffer it shows alive (FS-6) until ResizeBuffers lets go of
    /// it, although the GPU is done with it.
    #[test]
    fn a_shown_buffer_outlives_its_gpu_work_until_the_display_lets_go() {
        let mut d = Device::default();
        let flags = TextureFlags {
            render_target: true,
            ..Default::default()
        };
        let texture = Texture::new_2d(Format::Bgra8Unorm, glam::uvec2(64, 64), flags);
        let (sc, buffers) = d.create_swap_chain("sc", texture, 2, 1);
        let f = d.next_fence(QueueId::Graphics);
        let fence = Command::InsertFence {
            fence: f,
            kickoff: true,
        };
        d.submit(QueueId::Graphics, 0, 0, [Command::Present(sc), fence], 0)
            .unwrap();
        let t = d.wait_fence_cpu(f).unwrap();
        // Well after the flip: buffer 0 is on screen, nothing on the GPU uses it.
        let later = t + 4 * d.profile.vsync_period_ns;
        assert!(matches!(
            d.destroy(buffers[0], later),
            Err(DeviceError::OnScreen { .. })
        ));
        d.leave_display(buffers[0]);
        d.destroy(buffers[0], later).unwrap();
        assert!(!d.memory.is_live(buffers[0]));
    }
}
