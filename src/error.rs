//! The errors a run can end with, and their exit codes.

use thiserror::Error;

use crate::device::DeviceError;

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum RuntimeError {
    /// The scene could not be loaded (exit code 2).
    #[error(transparent)]
    Scene(Box<crate::scene::SceneError>),
    /// The device refused a command or can never make progress (exit code 1).
    #[error("frame {frame}: {source}")]
    Device {
        frame: u64,
        #[source]
        source: DeviceError,
    },
    /// The device refused a script's command (exit code 1): `at` is where the command is in
    /// the scene file (`file:line:col`, when known) and which list, submission and command
    /// it is. A batch is submitted at the command that ends it (a Present or a CPU-side
    /// call), so a refused submission is reported there.
    #[error("frame {frame}: {at}: {source}")]
    ScriptDevice {
        frame: u64,
        at: String,
        #[source]
        source: DeviceError,
    },
    /// The frame graph cannot be compiled or planned as it stands at this frame (exit code
    /// 1); `message` is `source` with the passes named.
    #[error("frame {frame}: {message}")]
    Plan {
        frame: u64,
        message: String,
        #[source]
        source: crate::plan::PlanError,
    },
    /// A script or pass script cannot run as written at this frame (exit code 1).
    #[error("frame {frame}: {message}")]
    Schedule { frame: u64, message: String },
}

impl RuntimeError {
    /// A planning error at `frame`, its passes named by `name` (names are looked up only
    /// here, when the error is about to be shown).
    pub fn plan(
        frame: u64,
        source: crate::plan::PlanError,
        name: impl Fn(bevy_ecs::entity::Entity) -> String,
    ) -> RuntimeError {
        let message = source.describe(name);
        RuntimeError::Plan {
            frame,
            message,
            source,
        }
    }

    /// A device error at `frame`, for `map_err`.
    pub fn device(frame: u64) -> impl Fn(DeviceError) -> RuntimeError {
        move |source| RuntimeError::Device { frame, source }
    }

    /// Process exit code: 2 for bad input, 1 for device and schedule errors.
    pub fn exit_code(&self) -> i32 {
        match self {
            RuntimeError::Scene(_) => 2,
            RuntimeError::Device { .. }
            | RuntimeError::ScriptDevice { .. }
            | RuntimeError::Plan { .. }
            | RuntimeError::Schedule { .. } => 1,
        }
    }
}

impl From<crate::scene::SceneError> for RuntimeError {
    fn from(e: crate::scene::SceneError) -> Self {
        RuntimeError::Scene(Box::new(e))
    }
}
