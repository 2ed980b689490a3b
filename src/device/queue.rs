//! The queues of the simulated device (CC-2): one graphics queue, nine compute queues (six on
//! pipe 0 below graphics priority, three on pipe 1 above it) and two DMA engines.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hardware queue. `index()` gives a dense number used for arrays and fence IDs.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub enum QueueId {
    #[default]
    Graphics,
    /// A compute queue on `pipe` 0 (six queues) or 1 (three queues).
    Compute { pipe: u8, index: u8 },
    /// One of the two DMA engines.
    Dma { engine: u8 },
}

/// Queues per compute pipe (CC-2).
pub const COMPUTE_QUEUES_PER_PIPE: [u8; 2] = [6, 3];
/// DMA engines on the device.
pub const DMA_ENGINES: u8 = 2;
/// Total queue count.
pub const QUEUE_COUNT: usize = 1 + 6 + 3 + DMA_ENGINES as usize;

impl QueueId {
    /// The queue type barrier-spec A5 knows this hardware queue as: what it may name in a
    /// barrier and which layouts it may move a texture between.
    pub const fn queue_type(self) -> crate::barrier::QueueType {
        use crate::barrier::QueueType;
        match self {
            QueueId::Graphics => QueueType::Direct,
            QueueId::Compute { .. } => QueueType::Compute,
            QueueId::Dma { .. } => QueueType::Copy,
        }
    }

    /// Dense index: graphics 0, pipe-0 compute 1..=6, pipe-1 compute 7..=9, DMA 10..=11.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            QueueId::Graphics => 0,
            QueueId::Compute { pipe: 0, index } => 1 + index as usize,
            QueueId::Compute { index, .. } => 7 + index as usize,
            QueueId::Dma { engine } => 10 + engine as usize,
        }
    }

    /// Inverse of [`QueueId::index`].
    pub fn from_index(i: usize) -> Option<QueueId> {
        match i {
            0 => Some(QueueId::Graphics),
            1..=6 => Some(QueueId::Compute {
                pipe: 0,
                index: (i - 1) as u8,
            }),
            7..=9 => Some(QueueId::Compute {
                pipe: 1,
                index: (i - 7) as u8,
            }),
            10..=11 => Some(QueueId::Dma {
                engine: (i - 10) as u8,
            }),
            _ => None,
        }
    }

    /// True when the queue exists on this device (CC-2 limits).
    pub fn is_valid(self) -> bool {
        match self {
            QueueId::Graphics => true,
            QueueId::Compute { pipe, index } => {
                (pipe as usize) < 2 && index < COMPUTE_QUEUES_PER_PIPE[pipe as usize]
            }
            QueueId::Dma { engine } => engine < DMA_ENGINES,
        }
    }

    /// The report family this queue belongs to.
    pub fn family(self) -> &'static str {
        match self {
            QueueId::Graphics => "graphics",
            QueueId::Compute { .. } => "compute",
            QueueId::Dma { .. } => "dma",
        }
    }
}

impl fmt::Display for QueueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueueId::Graphics => write!(f, "graphics"),
            QueueId::Compute { pipe, index } => write!(f, "compute{pipe}.{index}"),
            QueueId::Dma { engine } => write!(f, "dma{engine}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_are_dense_and_round_trip() {
        for i in 0..QUEUE_COUNT {
            let q = QueueId::from_index(i).unwrap();
            assert!(q.is_valid());
            assert_eq!(q.index(), i);
        }
        assert!(QueueId::from_index(QUEUE_COUNT).is_none());
        assert!(!QueueId::Compute { pipe: 1, index: 3 }.is_valid());
        assert!(!QueueId::Dma { engine: 2 }.is_valid());
    }
}
