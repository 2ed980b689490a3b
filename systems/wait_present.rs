//! Wait on present: a swap-chain view carries no wait for presentation (FS-5), so every frame
//! the runtime inserts one for the buffer at index 0, to run before the first pass that
//! touches it. It is never placed after that buffer's present (RL-2 would hang the GPU): the
//! wait belongs to the frame that writes the buffer, and present comes last in a frame.

use bevy_ecs::prelude::*;

use crate::device::Command;
use crate::frame::ChainPrologues;
use crate::model::{BackBuffer, Fault, GpuObject, Settings};

/// Queue a wait on present for each chain's current back buffer.
pub fn wait_on_present(
    mut prologues: ResMut<ChainPrologues>,
    settings: Res<Settings>,
    chains: Query<(Entity, &BackBuffer)>,
    objects: Query<&GpuObject>,
) {
    let _span = tracy_client::span!("wait on present");
    let skip = settings.fault == Some(Fault::SkipWaitOnPresent);
    for (e, back) in &chains {
        let Some(buffer) = back.buffer.and_then(|b| objects.get(b).ok()) else {
            continue;
        };
        let wait = if skip {
            Vec::new()
        } else {
            vec![Command::WaitOnPresent(buffer.0)]
        };
        prologues.extend(e, wait);
    }
}
