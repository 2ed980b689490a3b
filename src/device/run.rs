//! Moving GPU time forward, and asking what happened.
//!
//! The simulation never runs ahead of the CPU: a submission later than the GPU's clock could
//! otherwise land in a past that was simulated without it. Every call that names a CPU time
//! (a submission, a fence test, a destruction, a presentation test) first lets the GPU run to
//! that time; [`Device::simulate`] runs it to the latest such time. [`Device::wait_fence_cpu`]
//! is the CPU blocking on a fence (FN-2): nothing is submitted until the fence passes, so the
//! GPU may run exactly as far as it needs. Tests and tools that want the GPU to finish
//! everything submitted use [`Device::run_until_idle`].

use super::sim::Hang;
use super::{Device, DeviceError, Executed, FenceId, QueueId, TIMESTAMP_HZ, TimestampPair};

impl Device {
    /// Let the GPU run up to the latest CPU time the device knows. Returns the number of
    /// commands that finished.
    pub fn simulate(&mut self) -> usize {
        let profile = &self.profile;
        let gpu = self.gpu.get_mut().unwrap_or_else(|e| e.into_inner());
        let until = gpu.horizon;
        gpu.advance(until, None, profile)
    }

    /// Let the GPU run as if the CPU submitted nothing more, until every queue is idle or
    /// stuck. Returns the GPU time reached. Later submissions stamped earlier than that time
    /// start when the GPU gets to them.
    pub fn run_until_idle(&mut self) -> u64 {
        let profile = &self.profile;
        let gpu = self.gpu.get_mut().unwrap_or_else(|e| e.into_inner());
        gpu.advance(u64::MAX, None, profile);
        gpu.horizon = gpu.horizon.max(gpu.now);
        gpu.now
    }

    /// Signal time of a fence, if the GPU has reached it.
    pub fn fence_signal_ns(&self, fence: FenceId) -> Option<u64> {
        self.gpu().fences.signal(fence)
    }

    /// The free-threaded pending test (FN-2) at CPU time `cpu_ns`.
    pub fn is_fence_pending(&self, fence: FenceId, cpu_ns: u64) -> bool {
        let mut gpu = self.gpu();
        gpu.horizon = gpu.horizon.max(cpu_ns);
        let until = gpu.horizon;
        gpu.advance(until, None, &self.profile);
        gpu.fences.signal(fence).is_none_or(|t| t > cpu_ns)
    }

    /// Block the CPU until `fence` passes: its signal time, or why it never will (a deadlock,
    /// FN-3; a hang, RL-2 or CC-8; a queue left suspended, CC-8).
    pub fn wait_fence_cpu(&mut self, fence: FenceId) -> Result<u64, DeviceError> {
        let profile = &self.profile;
        let gpu = self.gpu.get_mut().unwrap_or_else(|e| e.into_inner());
        if gpu.fences.signal(fence).is_none() && gpu.fences.is_known(fence) {
            gpu.advance(u64::MAX, Some(fence), profile);
        }
        if let Some(t) = gpu.fences.signal(fence) {
            gpu.horizon = gpu.horizon.max(t);
            return Ok(t);
        }
        if let Some(f) = gpu.fault {
            return Err(self.hang(f));
        }
        Err(gpu.diagnose(fence, &self.memory))
    }

    /// The hang that stopped the GPU, if one did (CC-8).
    pub fn fault(&self) -> Option<DeviceError> {
        let fault = self.gpu().fault;
        fault.map(|f| self.hang(f))
    }

    fn hang(&self, f: Hang) -> DeviceError {
        DeviceError::Hang {
            queue: f.queue,
            rule: "CC-8",
            culprit: format!(
                "{} of pass {:?} (frame {}) was still running {:.1} s after Suspend began waiting for it",
                f.name,
                self.label_name(f.label),
                f.frame,
                f.timeout_ns as f64 / 1e9
            ),
        }
    }

    /// Commands finished since the last call, in the order they finished.
    pub fn drain_executed(&mut self) -> Vec<Executed> {
        std::mem::take(&mut self.gpu_mut().executed)
    }

    /// The same into `out` (cleared first), handing the device `out`'s memory for the next
    /// records: a frame of 100,000 passes executes half a million commands, and a fresh
    /// vector each tick is tens of megabytes mapped and faulted in again.
    pub fn drain_executed_into(&mut self, out: &mut Vec<Executed>) {
        out.clear();
        std::mem::swap(out, &mut self.gpu_mut().executed);
    }

    /// The GPU time at which `queue` finished its last command.
    pub fn queue_time_ns(&self, queue: QueueId) -> u64 {
        self.gpu().queues[queue.index()].last_end
    }

    /// Graphics work items that stalled refilling their caches after a compute queue's
    /// whole-cache flush, so far (CC-4, [`super::compute::GRAPHICS_REFILL_NS`]).
    pub fn graphics_refills(&self) -> u64 {
        self.gpu().refills
    }

    /// How far the GPU has been simulated, ns.
    pub fn gpu_time_ns(&self) -> u64 {
        self.gpu().now
    }

    /// The value a `WriteTimestamp` wrote to `slot`, in 100 MHz ticks (CC-7), once the GPU
    /// has executed it.
    pub fn timestamp(&self, slot: u32) -> Option<u64> {
        self.gpu().timestamps.get(&slot).copied()
    }

    /// A synchronised GPU/CPU timestamp pair at CPU time `cpu_ns` (CC-7): both clocks run on
    /// the simulation's time base, the GPU one in 100 MHz ticks.
    pub fn timestamp_pair(&self, cpu_ns: u64) -> TimestampPair {
        TimestampPair {
            gpu_ticks: cpu_ns / (1_000_000_000 / TIMESTAMP_HZ),
            cpu_ns,
        }
    }
}
