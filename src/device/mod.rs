//! The simulated device: contexts, command lists, queues, fences and kickoffs, the present
//! engine, memory, and a deterministic timing model.
//!
//! It behaves like hardware with fast semantics: it executes commands and nothing more. It
//! knows nothing about passes or graphs, tracks no hazards and restores no state. Two things
//! it does refuse, because the alternative would be a crash rather than a wrong picture:
//! using a destroyed object, and destroying an object the GPU may still reference (FS-6).
//! A GPU that can never make progress is reported as a deadlock or a hang (FN-3, RL-2), not
//! looped on.
//!
//! Time has two clocks. The CPU clock advances as the runtime records frames; the GPU clock
//! of each queue advances as it executes. Submitted work starts no earlier than its submission;
//! a fence has passed, from the CPU's point of view, once its signal time is not later than
//! the CPU clock. The GPU runs ahead eagerly on [`Device::simulate`], so fence times are known
//! as soon as they are decided.

mod command;
mod context;
mod error;
mod exec;
mod fence;
mod object;
mod present;
mod queue;
mod timing;

pub use command::{Command, CommandList, MapMode, ShaderStage};
pub use context::{ContextKind, DeferredContext};
pub use error::DeviceError;
pub use exec::{Executed, Stall};
pub use fence::{FENCE_SEQUENCE_BITS, FenceId};
pub use object::{Memory, Object, ObjectDesc, ObjectKey};
pub use present::{PresentEngine, SwapChainKey, SwapChainState};
pub use queue::{COMPUTE_QUEUES_PER_PIPE, DMA_ENGINES, QUEUE_COUNT, QueueId};
pub use timing::Profile;

use bevy_ecs::prelude::Resource;
use exec::Gpu;

/// One submitted command as the device saw it on the CPU side, kept when tracing is on: for
/// tests and tools that check streams without trusting the runtime that produced them.
#[derive(Clone, Debug, PartialEq)]
pub struct Submitted {
    pub queue: QueueId,
    pub frame: u64,
    pub label: u32,
    pub command: Command,
    /// Resources written through render-target views by this command (views resolved at
    /// submission, after any earlier PlaceSwapChainView).
    pub writes: Vec<ObjectKey>,
    /// The buffer at index 0 of every swap chain at submission, before this command.
    pub back_buffers: Vec<ObjectKey>,
}

/// The simulated device, an ECS resource of the runtime.
#[derive(Resource)]
pub struct Device {
    /// When `Some`, every submitted command is appended here.
    pub trace: Option<Vec<Submitted>>,
    pub profile: Profile,
    pub memory: Memory,
    pub present: PresentEngine,
    gpu: Gpu,
    fence_sequence: [u64; QUEUE_COUNT],
    labels: Vec<String>,
}

impl Default for Device {
    fn default() -> Self {
        Self::new(Profile::default())
    }
}

impl Device {
    /// A device with the given timing profile.
    pub fn new(profile: Profile) -> Self {
        Self {
            trace: None,
            profile,
            memory: Memory::default(),
            present: PresentEngine::default(),
            gpu: Gpu::default(),
            fence_sequence: [0; QUEUE_COUNT],
            labels: vec![String::new()],
        }
    }

    /// Intern a label (a pass name) for commands and diagnostics.
    pub fn label(&mut self, name: &str) -> u32 {
        if let Some(i) = self.labels.iter().position(|l| l == name) {
            return i as u32;
        }
        self.labels.push(name.to_owned());
        (self.labels.len() - 1) as u32
    }

    /// The text of a label.
    pub fn label_name(&self, label: u32) -> &str {
        self.labels.get(label as usize).map_or("", |s| s.as_str())
    }

    /// Create a texture, buffer or view.
    pub fn create(&mut self, name: &str, desc: ObjectDesc) -> Result<ObjectKey, DeviceError> {
        if let ObjectDesc::View { of, .. } = &desc {
            self.memory.get(*of)?;
        }
        Ok(self.memory.create(name, desc))
    }

    /// Destroy an object at CPU time `cpu_ns`. Refused while any command referencing it is
    /// unexecuted or finishes after `cpu_ns` (FS-6: the final release waits for the fence).
    pub fn destroy(&mut self, key: ObjectKey, cpu_ns: u64) -> Result<(), DeviceError> {
        self.memory.get(key)?;
        if self.is_presenting(key, cpu_ns) {
            return Err(DeviceError::InUse {
                object: self.memory.name(key),
                pending: 0,
            });
        }
        self.gpu.check_idle(key, cpu_ns, &self.memory)?;
        self.memory.destroy(key)?;
        self.present.forget(key);
        Ok(())
    }

    /// True while `buffer` is queued for or being scanned out at CPU time `cpu_ns`: the
    /// display engine still reads it, whatever the fences say.
    pub fn is_presenting(&self, buffer: ObjectKey, cpu_ns: u64) -> bool {
        self.present.free_at(buffer).is_none_or(|t| t > cpu_ns)
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

    /// The buffer at `index` of a chain's rotation (0 is the current back buffer).
    pub fn swap_chain_buffer(&self, chain: SwapChainKey, index: usize) -> Option<ObjectKey> {
        self.present.chain(chain)?.buffers.get(index).copied()
    }

    /// Frame statistics: presents so far (RL-5 recovers its index from this).
    pub fn swap_count(&self, chain: SwapChainKey) -> u64 {
        self.present.chain(chain).map_or(0, |c| c.swaps)
    }

    /// Allocate the next fence ID of `queue` (FN-1). It becomes a position in the stream only
    /// when an `InsertFence` carrying it is submitted.
    pub fn next_fence(&mut self, queue: QueueId) -> FenceId {
        let seq = &mut self.fence_sequence[queue.index()];
        *seq += 1;
        FenceId::new(queue, *seq)
    }

    /// Submit commands to `queue` at CPU time `cpu_ns`, as the immediate (or compute, or DMA)
    /// context plays them back. CPU-side effects (view placement, present rotation, fence
    /// registration, kickoff) happen now; GPU execution happens in [`Device::simulate`].
    pub fn submit(
        &mut self,
        queue: QueueId,
        frame: u64,
        label: u32,
        commands: impl IntoIterator<Item = Command>,
        cpu_ns: u64,
    ) -> Result<(), DeviceError> {
        if !queue.is_valid() {
            return Err(DeviceError::NoSuchQueue { queue });
        }
        for cmd in commands {
            let traced = self
                .trace
                .is_some()
                .then(|| (cmd.clone(), self.present.back_buffers()));
            self.gpu.submit(
                queue,
                frame,
                label,
                cmd,
                cpu_ns,
                &mut self.memory,
                &mut self.present,
            )?;
            if let Some((command, back_buffers)) = traced {
                let views: Vec<ObjectKey> = match &command {
                    Command::SetRenderTargets { rtvs, .. } => rtvs.clone(),
                    Command::ClearRenderTarget(v) => vec![*v],
                    _ => Vec::new(),
                };
                let writes = views
                    .iter()
                    .filter_map(|v| self.memory.resource_of(*v).ok())
                    .collect();
                if let Some(trace) = self.trace.as_mut() {
                    trace.push(Submitted {
                        queue,
                        frame,
                        label,
                        command,
                        writes,
                        back_buffers,
                    });
                }
            }
        }
        Ok(())
    }

    /// Let the GPU run as far as it can. Returns the number of commands executed.
    pub fn simulate(&mut self) -> usize {
        self.gpu.run(&self.profile, &self.memory, &mut self.present)
    }

    /// Signal time of a fence, if the GPU has reached it.
    pub fn fence_signal_ns(&self, fence: FenceId) -> Option<u64> {
        self.gpu.signal_ns(fence)
    }

    /// The free-threaded pending test (FN-2) at CPU time `cpu_ns`.
    pub fn is_fence_pending(&self, fence: FenceId, cpu_ns: u64) -> bool {
        self.gpu.signal_ns(fence).is_none_or(|t| t > cpu_ns)
    }

    /// Block the CPU until `fence` passes: its signal time, or why it never will.
    pub fn wait_fence_cpu(&mut self, fence: FenceId) -> Result<u64, DeviceError> {
        self.simulate();
        if let Some(t) = self.gpu.signal_ns(fence) {
            return Ok(t);
        }
        Err(self.gpu.diagnose_stuck(fence, &self.memory))
    }

    /// Commands executed since the last call, in execution order per queue.
    pub fn drain_executed(&mut self) -> Vec<Executed> {
        std::mem::take(&mut self.gpu.executed)
    }

    /// The GPU time at which `queue` finished its last executed command.
    pub fn queue_time_ns(&self, queue: QueueId) -> u64 {
        self.gpu.queue_time(queue)
    }
}
