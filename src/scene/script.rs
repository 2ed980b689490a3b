//! Command scripts in the scene format: names in the file, [`Target`]s in the world.
//!
//! A script refers to objects the way the rest of a scene does, by name, with two additions
//! a render loop needs: `"chain[i]"` names buffer `i` of a swap chain by creation index (the
//! back-buffer pointers a title saves up front, RL-5), and a name a script's own
//! `CreateView` introduces stands for that view once it is made (RL-6). Loading turns each
//! name into a [`Target`] (the checks in [`super::script_check`] have already proved every
//! name means something); saving turns targets back into the same names, so a script
//! survives load -> save -> load unchanged.

use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;

use crate::model::{BundleDef, ListDef, Script, ScriptCommand, Submission, Target};

/// `"chain[1]"` -> `("chain", 1)`; `None` for a name without a trailing decimal index.
pub fn split_index(name: &str) -> Option<(&str, u32)> {
    let open = name.strip_suffix(']')?.rfind('[')?;
    let digits = name.get(open + 1..name.len() - 1)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name.get(..open)?, digits.parse().ok()?))
}

/// What `name` stands for: an indexed swap-chain buffer, a scene entity, or (anything else)
/// a view the script makes itself.
fn target(name: &str, resolve: &impl Fn(&str) -> Option<Entity>) -> Target {
    if let Some((chain, index)) = split_index(name)
        && let Some(chain) = resolve(chain)
    {
        return Target::ChainBuffer { chain, index };
    }
    match resolve(name) {
        Some(e) => Target::Entity(e),
        None => Target::Local(name.to_string()),
    }
}

/// A pass script with names resolved.
pub fn resolve_commands(
    commands: &[ScriptCommand<String>],
    resolve: &impl Fn(&str) -> Option<Entity>,
) -> Vec<ScriptCommand<Target>> {
    (commands.iter())
        .filter_map(|c| c.try_map(|_, name| Ok::<_, ()>(target(name, resolve))).ok())
        .collect()
}

/// A frame script with names resolved.
pub fn resolve_script(
    script: &Script<String>,
    resolve: &impl Fn(&str) -> Option<Entity>,
) -> Script<Target> {
    Script {
        frames: (script.frames.iter())
            .map(|frame| {
                (frame.iter())
                    .map(|s| Submission {
                        queue: s.queue,
                        engine: s.engine,
                        label: s.label.clone(),
                        commands: resolve_commands(&s.commands, resolve),
                    })
                    .collect()
            })
            .collect(),
        repeat_from: script.repeat_from,
        lists: (script.lists.iter())
            .map(|l| ListDef {
                name: l.name.clone(),
                semantics: l.semantics,
                commands: resolve_commands(&l.commands, resolve),
            })
            .collect(),
        bundles: (script.bundles.iter())
            .map(|b| BundleDef {
                name: b.name.clone(),
                commands: resolve_commands(&b.commands, resolve),
            })
            .collect(),
        pipelines: script.pipelines.clone(),
    }
}

/// The name a target is written as. An entity without a `Name` is written as its id, which
/// loading then reports as an unknown name.
fn name(world: &World, target: &Target) -> String {
    let name_of = |e: Entity| {
        world
            .get::<Name>(e)
            .map_or_else(|| e.to_string(), |n| n.as_str().to_string())
    };
    match target {
        Target::Entity(e) => name_of(*e),
        Target::ChainBuffer { chain, index } => format!("{}[{index}]", name_of(*chain)),
        Target::Local(name) => name.clone(),
    }
}

/// A pass script with targets written back as names.
pub fn name_commands(
    world: &World,
    commands: &[ScriptCommand<Target>],
) -> Vec<ScriptCommand<String>> {
    (commands.iter())
        .filter_map(|c| c.try_map(|_, t| Ok::<_, ()>(name(world, t))).ok())
        .collect()
}

/// A frame script with targets written back as names.
pub fn name_script(world: &World, script: &Script<Target>) -> Script<String> {
    Script {
        frames: (script.frames.iter())
            .map(|frame| {
                (frame.iter())
                    .map(|s| Submission {
                        queue: s.queue,
                        engine: s.engine,
                        label: s.label.clone(),
                        commands: name_commands(world, &s.commands),
                    })
                    .collect()
            })
            .collect(),
        repeat_from: script.repeat_from,
        lists: (script.lists.iter())
            .map(|l| ListDef {
                name: l.name.clone(),
                semantics: l.semantics,
                commands: name_commands(world, &l.commands),
            })
            .collect(),
        bundles: (script.bundles.iter())
            .map(|b| BundleDef {
                name: b.name.clone(),
                commands: name_commands(world, &b.commands),
            })
            .collect(),
        pipelines: script.pipelines.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_names_split() {
        assert_eq!(split_index("swapchain[1]"), Some(("swapchain", 1)));
        assert_eq!(split_index("a[b][12]"), Some(("a[b]", 12)));
        assert_eq!(split_index("swapchain"), None);
        assert_eq!(split_index("swapchain[]"), None);
        assert_eq!(split_index("swapchain[-1]"), None);
        assert_eq!(split_index("swapchain[99999999999]"), None);
        assert_eq!(split_index("]"), None);
        assert_eq!(split_index("é[1]"), Some(("é", 1)));
    }
}
