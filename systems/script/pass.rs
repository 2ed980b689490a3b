//! Pass scripts: a scripted pass's list is recorded from its script on the pass's own
//! deferred context, between the barriers the planner recorded at its start and end, with
//! one scene-file location per command of the list for the validation layer's findings.

use bevy_ecs::prelude::*;

use super::resolve::{Resolver, Step, Targets};
use crate::device::{Command, Device};
use crate::error::RuntimeError;
use crate::frame::{ContextPool, RecordedLegacy, RecordedLists, RecordedOrigins};
use crate::model::*;
use crate::plan::CompiledGraph;

/// Record each scripted pass's list from its script, on the pass's own deferred context,
/// between the barriers the planner recorded at the pass's start and end.
pub fn record_pass_scripts(
    graph: Res<CompiledGraph>,
    frame: Res<FrameIndex>,
    mut pool: ResMut<ContextPool>,
    mut lists: ResMut<RecordedLists>,
    mut origins: ResMut<RecordedOrigins>,
    mut legacy: ResMut<RecordedLegacy>,
    mut device: ResMut<Device>,
    mut state: ResMut<ScriptState>,
    scripts: Query<&PassScript>,
    targets: Targets,
    locations: Option<Res<PassScriptLocations>>,
) -> Result<(), RuntimeError> {
    let _span = tracy_client::span!("record: scripts");
    for (i, p) in graph.passes.iter().enumerate() {
        let Ok(script) = scripts.get(p.entity) else {
            continue;
        };
        let generated = lists.0.get(i).map_or(&[][..], |l| l.commands.as_slice());
        let is_barrier = |c: &&Command| matches!(c, Command::Barrier(_));
        let lead = generated.iter().take_while(is_barrier).count();
        let trail = generated[lead..]
            .iter()
            .rev()
            .take_while(is_barrier)
            .count();
        let mut commands: Vec<Command> = generated[..lead].to_vec();
        let tail: Vec<Command> = generated[generated.len() - trail..].to_vec();
        let mut r = Resolver {
            device: &mut device,
            state: &mut state,
            targets: &targets,
            queue: p.queue,
            pass: true,
            used: Vec::new(),
        };
        let located = (locations.as_ref()).and_then(|l| l.passes.get(&p.name));
        let mut here: Vec<std::sync::Arc<str>> = vec![std::sync::Arc::from(""); lead];
        let mut calls: Vec<crate::validate::LegacyCall> = Vec::new();
        let at = |k: usize| {
            (located.and_then(|l| l.get(k))).map_or_else(String::new, |l| format!(" at {l}"))
        };
        for (k, cmd) in script.0.iter().enumerate() {
            match r.lower(cmd) {
                Ok(Step::Device(c)) => {
                    commands.push(c);
                    here.extend(located.and_then(|l| l.get(k)).cloned());
                }
                // A legacy call: the Barrier calls the driver translates it into (two for a
                // hand-over of aliased memory), and the call itself for the validation
                // layer, which tracks the legacy states it sets (EB-7).
                Ok(Step::Legacy(cs, call)) => {
                    calls.push((commands.len(), None, call));
                    for c in cs {
                        commands.push(c);
                        here.extend(located.and_then(|l| l.get(k)).cloned());
                    }
                }
                Ok(_) => {
                    return Err(RuntimeError::Schedule {
                        frame: frame.0,
                        message: format!(
                            "pass {}: {} in a pass script{}",
                            p.name,
                            cmd.name(),
                            at(k)
                        ),
                    });
                }
                Err(message) => {
                    return Err(RuntimeError::Schedule {
                        frame: frame.0,
                        message: format!("pass {}: {}{}: {message}", p.name, cmd.name(), at(k)),
                    });
                }
            }
        }
        commands.extend(tail);
        if !calls.is_empty() {
            legacy.0.insert(i, calls);
        }
        // Located only when every script command is: the indices must match the list's.
        if located.is_some_and(|l| l.len() == script.0.len()) {
            here.resize(commands.len(), std::sync::Arc::from(""));
            origins.0.insert(i, here);
        }
        let recorded = match pool.contexts.get_mut(i) {
            Some(ctx) => record(ctx, p.label, commands),
            None => Err(crate::device::DeviceError::NotRecording { context: i as u32 }),
        };
        let list = recorded.map_err(RuntimeError::device(frame.0))?;
        if let Some(slot) = lists.0.get_mut(i) {
            *slot = list;
        }
    }
    Ok(())
}

/// Record `commands` as one list on `ctx` (CTX-2).
fn record(
    ctx: &mut crate::device::DeferredContext,
    label: u32,
    commands: Vec<Command>,
) -> Result<crate::device::CommandList, crate::device::DeviceError> {
    ctx.begin(label)?;
    for c in commands {
        ctx.push(c)?;
    }
    ctx.finish()
}
