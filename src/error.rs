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
    /// The frame graph cannot be scheduled as it stands at this frame (exit code 1).
    #[error("frame {frame}: {message}")]
    Schedule { frame: u64, message: String },
}

impl RuntimeError {
    /// Process exit code: 2 for bad input, 1 for device and schedule errors.
    pub fn exit_code(&self) -> i32 {
        match self {
            RuntimeError::Scene(_) => 2,
            RuntimeError::Device { .. } | RuntimeError::Schedule { .. } => 1,
        }
    }
}

impl From<crate::scene::SceneError> for RuntimeError {
    fn from(e: crate::scene::SceneError) -> Self {
        RuntimeError::Scene(Box::new(e))
    }
}
