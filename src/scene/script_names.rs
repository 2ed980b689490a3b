//! The names a scene's scripts introduce besides objects, collected before any script is
//! checked so that a name may be used before the command that introduces it: fences
//! (`InsertFence`, `Signal`), queries (`EndQuery`, CTX-6), command lists (`lists`), bundles and fast
//! binding batches (`SetFastResourcesIntoBatch`, RB-2).

use hashbrown::HashSet;

use super::check::Check;
use super::format::SceneFile;
use crate::device::Command;
use crate::model::{ScriptCall, ScriptCommand};

/// Names scripts introduce besides objects: fences (`InsertFence`), queries (`EndQuery`)
/// and command lists (`lists`).
pub(super) struct Named<'a> {
    pub fences: HashSet<&'a str>,
    pub queries: HashSet<&'a str>,
    pub lists: HashSet<&'a str>,
    /// Bundles (`bundles`), which `ExecuteBundle` replays.
    pub bundles: HashSet<&'a str>,
    /// Batches `SetFastResourcesIntoBatch` builds (RB-2).
    pub batches: HashSet<&'a str>,
}

impl<'a> Named<'a> {
    /// The names the scripts of `scene` introduce.
    pub fn of(c: &Check<'a>, scene: &'a SceneFile) -> Named<'a> {
        Named {
            fences: fence_names(c, scene),
            queries: query_names(c, scene),
            lists: (scene.script.iter())
                .flat_map(|s| s.lists.iter().map(|l| l.name.as_str()))
                .collect(),
            bundles: (scene.script.iter())
                .flat_map(|s| s.bundles.iter().map(|b| b.name.as_str()))
                .collect(),
            batches: (all_commands(c, scene))
                .filter_map(|c| match c {
                    ScriptCommand::Call(ScriptCall::SetFastResourcesIntoBatch { name, .. }) => {
                        Some(name.as_str())
                    }
                    _ => None,
                })
                .collect(),
        }
    }
}

/// Every command of every script of `scene`: pass scripts, frame lists, command lists.
fn all_commands<'a>(
    c: &Check<'a>,
    scene: &'a SceneFile,
) -> impl Iterator<Item = &'a ScriptCommand<String>> {
    let pass_commands = (0..c.index.defs.len())
        .filter_map(|id| c.index.def(id)?.pass.as_ref()?.script.as_ref())
        .flatten();
    let frame_commands = (scene.script.iter())
        .flat_map(|s| s.frames.iter().flatten())
        .flat_map(|s| s.commands.iter());
    let list_commands = (scene.script.iter())
        .flat_map(|s| s.lists.iter())
        .flat_map(|l| l.commands.iter());
    pass_commands.chain(frame_commands).chain(list_commands)
}

/// Every fence name an `InsertFence` of any script introduces.
fn fence_names<'a>(c: &Check<'a>, scene: &'a SceneFile) -> HashSet<&'a str> {
    (all_commands(c, scene))
        .filter_map(|c| match c {
            ScriptCommand::Device(Command::InsertFence { fence, .. }) => Some(fence.as_str()),
            ScriptCommand::Call(call) => call.fence().filter(|(_, sets)| *sets).map(|(f, _)| f),
            _ => None,
        })
        .collect()
}

/// Every query name an `EndQuery` of any script ends (CTX-6).
fn query_names<'a>(c: &Check<'a>, scene: &'a SceneFile) -> HashSet<&'a str> {
    (all_commands(c, scene))
        .filter_map(|c| match c {
            ScriptCommand::Device(Command::EndQuery(name)) => Some(name.as_str()),
            _ => None,
        })
        .collect()
}
