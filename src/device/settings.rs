//! How a device is configured: the profile it models, the immediate context's semantics
//! (CTX-4), the creation flags in effect (FS-15), how barriers are priced and lowered (legacy
//! barriers translated by the driver or not, EB-10, seed 004), the API whose rules the
//! validation layer applies, and the compute-unit limits of compute queues (CC-2).
//!
//! These are set once, before work, by the runtime from a scene's settings; none of them is
//! a command, so none of them goes through submission or the validator. A context's
//! semantics is its own property: planning legacy barriers does not make a context legacy,
//! which is why the two are separate settings here.

use super::{Device, DeviceError, Profile, QueueId};
use crate::model::{Api, Semantics};

impl Device {
    /// Replace the profile (before any work: running work keeps the rates it was given).
    /// Compute-unit limits go back to the new profile's defaults (CC-2).
    pub fn set_profile(&mut self, profile: Profile) {
        self.profile = profile;
        let p = self.profile.clone();
        self.gpu_mut().reset_limits(&p);
    }

    /// The immediate context's semantics (CTX-4). Chosen per context: planning legacy
    /// barriers does not make the context legacy (see [`Device::set_legacy_barriers`]).
    pub fn set_semantics(&mut self, semantics: Semantics) {
        self.semantics = semantics;
    }

    /// The immediate context's semantics (CTX-4), for the validation layer (FS-7, FS-14).
    pub fn semantics(&self) -> Semantics {
        self.semantics
    }

    /// The device creation flags asked for (FS-15).
    pub fn set_flags(&mut self, flags: crate::model::DeviceFlags) {
        self.flags = flags;
    }

    /// The device creation flags in effect: every one with a fast immediate context (FS-15).
    pub fn flags(&self) -> crate::model::DeviceFlags {
        self.flags.effective(self.semantics)
    }

    /// Whether barriers are legacy ones the driver translates (EB-10): they hold the whole
    /// front end. A legacy context's barriers are priced so too.
    pub fn set_legacy_barriers(&mut self, legacy: bool) {
        self.legacy_barriers = legacy;
    }

    /// Whether the driver translates legacy barriers into enhanced ones (EB-10): false as
    /// when the loose file `D3D__DisableLegacyResourceBarrierTranslation` is deployed.
    pub fn set_legacy_barrier_translation(&mut self, on: bool) {
        self.legacy_barrier_translation = on;
    }

    /// The driver's path for legacy barriers (EB-10, seed 004).
    pub fn legacy_path(&self) -> crate::barrier::LegacyPath {
        crate::barrier::LegacyPath::of(self.legacy_barrier_translation)
    }

    /// Whether barriers are priced as legacy ones (EB-10).
    pub fn legacy_barriers(&self) -> bool {
        self.legacy_barriers || self.semantics == Semantics::Legacy
    }

    /// The API the streams are written to: the validation layer checks each by its rules.
    pub fn set_api(&mut self, api: Api) {
        self.api = api;
    }

    /// The API the streams are written to.
    pub fn api(&self) -> Api {
        self.api
    }

    /// Change how many compute units a compute queue may use (CC-2: pipe-0 queues start at
    /// the profile's limit, 4; the limit can be changed after creation). Clamped to the CUs
    /// the device has.
    pub fn set_compute_unit_limit(&mut self, queue: QueueId, cus: u32) -> Result<(), DeviceError> {
        if !queue.is_valid() {
            return Err(DeviceError::NoSuchQueue { queue });
        }
        if !matches!(queue, QueueId::Compute { .. }) {
            return Err(DeviceError::WrongQueue {
                command: "SetComputeUnitLimit",
                queue,
            });
        }
        let limit = cus.min(self.profile.compute_units).saturating_mul(1000);
        self.gpu_mut().queues[queue.index()].cu_limit = limit;
        Ok(())
    }
}
