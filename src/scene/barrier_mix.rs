//! Legacy and enhanced barriers in one title (EB-10, seed 004). The driver translates legacy
//! `ResourceBarrier` calls into enhanced barriers; a title can turn that off by deploying the
//! loose file `D3D__DisableLegacyResourceBarrierTranslation` (the scene setting
//! `legacy_barrier_translation: false`), and in that mode the driver does not support mixing
//! the two kinds. Scripts say which they use, so loading refuses the mix.

use super::check::Check;
use super::error::SceneError;
use super::format::SceneFile;
use crate::device::Command;
use crate::model::{ScriptCall, ScriptCommand};

/// Rule: with legacy barrier translation off (the loose file of seed 004, EB-10), the
/// driver does not support legacy `ResourceBarrier` calls and enhanced `Barrier` calls in
/// one title.
pub fn check(c: &Check, scene: &SceneFile) -> Result<(), SceneError> {
    if scene.settings.legacy_barrier_translation {
        return Ok(());
    }
    let passes = (0..c.index.defs.len())
        .filter_map(|id| c.index.def(id).and_then(|d| d.pass.as_ref()))
        .flat_map(|p| p.script.iter().flatten());
    let frames = (scene.script.iter()).flat_map(|s| {
        let submitted = s
            .frames
            .iter()
            .flatten()
            .flat_map(|sub| sub.commands.iter());
        let recorded = (s.lists.iter().flat_map(|l| l.commands.iter()))
            .chain(s.bundles.iter().flat_map(|b| b.commands.iter()));
        submitted.chain(recorded)
    });
    let (mut legacy, mut enhanced) = (false, false);
    for cmd in passes.chain(frames) {
        match cmd {
            ScriptCommand::Call(ScriptCall::ResourceBarrier(_)) => legacy = true,
            ScriptCommand::Device(Command::Barrier(_)) => enhanced = true,
            _ => {}
        }
    }
    if legacy && enhanced {
        return Err(c.out_of_range(
            c.loc.top("script"),
            None,
            "legacy_barrier_translation is off (D3D__DisableLegacyResourceBarrierTranslation, EB-10): the driver does not support mixing ResourceBarrier and Barrier calls; use one kind".into(),
        ));
    }
    Ok(())
}
