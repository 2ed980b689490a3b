//! Submission: the one path from the runtime to the device's queues (RL-4).
//!
//! Every stream the runtime sends the device, from the passes, the present, the end-of-frame
//! fences, a Suspend/Resume or a script, is counted for the run summary, shown to the
//! validation layer, and only then submitted. Systems that submit take a [`Submitter`]
//! instead of the device, validator and statistics separately, so the independent oracle
//! sees every submission by construction rather than because each caller remembered it.
//! Final releases of objects (FS-6) take the same path: the validator judges them before the
//! device destroys anything.
//!
//! A system that must hold the device while it submits (a script resolving names between
//! batches) splits the submitter into the device and a [`Sink`], which submits to a device it
//! is handed.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;

use crate::device::{Command, Device, ObjectKey, QueueId};
use crate::error::RuntimeError;
use crate::model::FrameIndex;
use crate::report::RunStats;
use crate::validate::Validator;

/// The device with its validation layer and statistics in front of it.
#[derive(SystemParam)]
pub struct Submitter<'w> {
    device: ResMut<'w, Device>,
    validator: ResMut<'w, Validator>,
    stats: ResMut<'w, RunStats>,
    frame: Res<'w, FrameIndex>,
}

impl Submitter<'_> {
    /// Count, validate and submit `commands` on `queue` at CPU time `cpu_ns`.
    pub fn submit(
        &mut self,
        queue: QueueId,
        label: u32,
        commands: Vec<Command>,
        cpu_ns: u64,
    ) -> Result<(), RuntimeError> {
        let (device, mut sink) = self.split();
        sink.submit(device, queue, label, commands, cpu_ns)
    }

    /// The final release of `key` at CPU time `cpu_ns`, validated first (RL-3, FS-6).
    pub fn release(&mut self, key: ObjectKey, label: u32, cpu_ns: u64) -> Result<(), RuntimeError> {
        let (device, mut sink) = self.split();
        sink.release(device, key, label, cpu_ns)
    }

    /// Where the commands of the next submission are in the scene file (see [`Sink::locate`]).
    pub fn locate(&mut self, origins: Vec<std::sync::Arc<str>>) {
        self.validator.locate_next(origins);
    }

    /// Which Barrier commands of the next submission translate legacy calls (see
    /// [`Sink::legacy`]).
    pub fn legacy(&mut self, calls: Vec<crate::validate::LegacyCall>) {
        self.validator.legacy_next(calls);
    }

    /// The device, for what is not a submission: labels, fence values, objects.
    pub fn device(&mut self) -> &mut Device {
        &mut self.device
    }

    /// The run's statistics.
    pub fn stats(&mut self) -> &mut RunStats {
        &mut self.stats
    }

    /// The device and a sink that submits to it.
    pub fn split(&mut self) -> (&mut Device, Sink<'_>) {
        let sink = Sink {
            validator: &mut self.validator,
            stats: &mut self.stats,
            frame: self.frame.0,
        };
        (&mut self.device, sink)
    }
}

/// The validation layer and statistics of one frame, in front of a device handed to each
/// call.
pub struct Sink<'a> {
    validator: &'a mut Validator,
    stats: &'a mut RunStats,
    frame: u64,
}

impl Sink<'_> {
    /// The frame submissions belong to.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The run's statistics.
    pub fn stats(&mut self) -> &mut RunStats {
        self.stats
    }

    /// Count, validate and submit `commands` on `queue` at CPU time `cpu_ns`.
    pub fn submit(
        &mut self,
        device: &mut Device,
        queue: QueueId,
        label: u32,
        commands: Vec<Command>,
        cpu_ns: u64,
    ) -> Result<(), RuntimeError> {
        self.submit_batch(device, queue, label, commands, cpu_ns, true)
    }

    /// As [`submit`](Self::submit); `ends_list` false when the same command list goes on in
    /// the next batch (a script split around a CPU-side call), so the validation layer sees
    /// no list boundary there.
    pub fn submit_batch(
        &mut self,
        device: &mut Device,
        queue: QueueId,
        label: u32,
        commands: Vec<Command>,
        cpu_ns: u64,
        ends_list: bool,
    ) -> Result<(), RuntimeError> {
        self.stats.count_sync(device, queue, &commands);
        let frame = self.frame;
        (self.validator).observe_batch(device, queue, frame, label, &commands, ends_list);
        (device.submit(queue, self.frame, label, commands, cpu_ns)).map_err(|source| {
            RuntimeError::Device {
                frame: self.frame,
                source,
            }
        })
    }

    /// The final release of `key` at CPU time `cpu_ns`: the validation layer first (RL-3,
    /// FS-6), then the device, which refuses what the GPU may still use.
    pub fn release(
        &mut self,
        device: &mut Device,
        key: ObjectKey,
        label: u32,
        cpu_ns: u64,
    ) -> Result<(), RuntimeError> {
        (self.validator).observe_release(device, key, cpu_ns, self.frame, label);
        (device.destroy(key, cpu_ns)).map_err(|source| RuntimeError::Device {
            frame: self.frame,
            source,
        })
    }

    /// Where the commands of the next submission (or the next release) are in the scene
    /// file, one `file:line:col` per command, for the validation layer's findings.
    pub fn locate(&mut self, origins: Vec<std::sync::Arc<str>>) {
        self.validator.locate_next(origins);
    }

    /// Which Barrier commands of the next submission translate legacy calls (EB-7).
    pub fn legacy(&mut self, calls: Vec<crate::validate::LegacyCall>) {
        self.validator.legacy_next(calls);
    }

    /// The CPU tested or waited on `fence` at `cpu_ns` (FN-2): when it has passed, what it
    /// covers happens before everything submitted after.
    pub fn fence_observed(&mut self, device: &Device, fence: crate::device::FenceId, cpu_ns: u64) {
        (self.validator).observe_fence_cpu(device, fence, cpu_ns);
    }

    /// A CPU write of `bytes` of mapped buffer `key` (FS-1): every GPU use of it must be
    /// covered by a fence the CPU has seen pass.
    pub fn cpu_write(&mut self, device: &Device, key: ObjectKey, bytes: u64, label: u32) {
        (self.validator).observe_cpu_write(device, key, bytes, self.frame, label);
    }

    /// A CPU read of query data (CTX-6): on a deferred context when `deferred`.
    pub fn query_read(
        &mut self,
        device: &Device,
        query: u32,
        name: &str,
        cpu_ns: u64,
        label: u32,
        deferred: bool,
    ) {
        (self.validator)
            .observe_query_read(device, query, name, cpu_ns, self.frame, label, deferred);
    }
}
