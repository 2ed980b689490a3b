//! The rules of a scene's frame script (`script: (frames: ...)`), the part of a script that
//! only a whole frame has: its frame lists and `repeat_from`, the queues its submissions
//! name, its command lists and pipeline descriptions, and the `CreateView` and
//! `ResizeBuffers` calls whose names later commands of the frame may use.
//!
//! Each command is then judged by the rules every script shares (`script_check::command`).
//! A command list is recorded on a deferred context (CTX-1), so it holds GPU work only: the
//! calls that act on the CPU, queues, fences or swap chains belong to the frame lists that
//! play it back. Bundles have rules of their own (`script_bundle`).

use hashbrown::{HashMap, HashSet};

use super::check::Check;
use super::error::SceneError;
use super::script_check::command;
use super::script_names::Named;
use super::script_refs::{Names, Scope, location};
use crate::device::Command;
use crate::model::{Script, ScriptCall, ScriptCommand};

/// Rules of the frame script: at least one frame, `repeat_from` within them, unique list
/// names, every command.
pub(super) fn check(c: &Check, script: &Script<String>, named: &Named) -> Result<(), SceneError> {
    let len = script.frames.len();
    if len == 0 {
        return Err(c.out_of_range(
            c.loc.top("script"),
            None,
            "a frame script needs at least one frame: `script: (frames: [[...]])`".into(),
        ));
    }
    if script.repeat_from >= len {
        return Err(c.out_of_range(
            c.loc.top("script"),
            None,
            format!(
                "repeat_from {} is past the last frame list (there are {len}, counted from 0)",
                script.repeat_from
            ),
        ));
    }
    for s in script.frames.iter().flatten() {
        let count = match s.queue {
            crate::model::QueueKind::Graphics => 1,
            crate::model::QueueKind::Compute => crate::device::COMPUTE_QUEUES_PER_PIPE[1],
            crate::model::QueueKind::Copy => crate::device::DMA_ENGINES,
        };
        if s.engine >= count {
            return Err(c.out_of_range(
                c.loc.top("script"),
                None,
                format!(
                    "engine {} of a {:?} submission does not exist: there are {count} (counted from 0; compute queues are counted on pipe 1's three, which every compute_pipe has)",
                    s.engine, s.queue
                ),
            ));
        }
    }
    let mut seen = HashSet::new();
    for l in &script.lists {
        if !seen.insert(l.name.as_str()) {
            return Err(c.out_of_range(
                location(c, Scope::Frame, &l.name),
                None,
                format!(
                    "two command lists are called {:?}: list names are unique",
                    l.name
                ),
            ));
        }
    }
    let mut ids = HashSet::new();
    for p in &script.pipelines {
        if !ids.insert(p.id) {
            return Err(c.out_of_range(
                c.loc.top("script"),
                None,
                format!(
                    "pipeline {} is described twice: one description per pipeline id",
                    p.id
                ),
            ));
        }
    }
    let mut locals = HashMap::new();
    let all = || {
        script
            .frames
            .iter()
            .flatten()
            .flat_map(|s| s.commands.iter())
    };
    let in_lists = || script.lists.iter().flat_map(|l| l.commands.iter());
    let in_bundles = || script.bundles.iter().flat_map(|b| b.commands.iter());
    for cmd in all().chain(in_lists()) {
        if let ScriptCommand::Call(ScriptCall::CreateView { name, kind, .. }) = cmd {
            locals.entry(name.as_str()).or_insert(*kind);
        }
    }
    let mut resizes: HashMap<&str, Vec<_>> = HashMap::new();
    for cmd in all() {
        if let ScriptCommand::Call(ScriptCall::ResizeBuffers {
            chain,
            extent,
            format,
        }) = cmd
        {
            resizes
                .entry(chain.as_str())
                .or_default()
                .push((*extent, *format));
        }
    }
    let names = Names {
        locals,
        fences: &named.fences,
        resizes,
    };
    for cmd in all() {
        command(c, Scope::Frame, &names, named, cmd)?;
    }
    for cmd in in_lists() {
        list_command(c, cmd)?;
        command(c, Scope::Frame, &names, named, cmd)?;
    }
    super::script_bundle::check(c, &script.bundles)?;
    for cmd in in_bundles() {
        command(c, Scope::Frame, &names, named, cmd)?;
    }
    Ok(())
}

/// Rule: a command list, recorded on a deferred context, holds no CPU-side call but GetData
/// (whose use there is the validator's CTX-6 finding), no Present and no playback. A legacy
/// ResourceBarrier is a call of the list itself (the driver translates it as the list is
/// recorded, EB-10), as in D3D12.
fn list_command(c: &Check, cmd: &ScriptCommand<String>) -> Result<(), SceneError> {
    if matches!(
        cmd,
        ScriptCommand::Call(
            ScriptCall::CreateView { .. }
                | ScriptCall::Release(_)
                | ScriptCall::WriteMapped { .. }
                | ScriptCall::ExecuteCommandList(_)
                | ScriptCall::ExecuteBundle(_)
                | ScriptCall::Signal { .. }
                | ScriptCall::Wait { .. }
                | ScriptCall::WaitForFenceCpu { .. }
                | ScriptCall::IsFencePending { .. }
                | ScriptCall::GetCompletedValue { .. }
                | ScriptCall::SetFastResourcesIntoBatch { .. }
                | ScriptCall::ResizeBuffers { .. }
        ) | ScriptCommand::Device(
            Command::Present(_)
                | Command::BeginCommandListExecution
                | Command::EndCommandListExecution
        )
    ) {
        return Err(c.out_of_range(
            c.loc.top("script"),
            None,
            format!(
                "{} is not allowed in a command list: lists are recorded on deferred contexts, which only record GPU work; call it from a frame list",
                cmd.name()
            ),
        ));
    }
    Ok(())
}
