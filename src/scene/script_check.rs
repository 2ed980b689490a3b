//! The rules a command script must pass before anything runs: every name means an object of
//! a kind its slot takes, every fence waited on is inserted somewhere, and what only makes
//! sense in a whole frame stays out of a pass.
//!
//! A script executes as written, so the device and the validation layer judge the stream
//! itself: a script that binds a released buffer or waits on present after presenting is
//! *allowed* here, because finding that is what `fastframe check` is for. What loading
//! refuses is a script that cannot mean anything: a misspelt name (with suggestions, at the
//! quoted name's line and column, like every other scene error), a buffer bound as a render
//! target, a fence nobody inserts, a view bound in a slot of another kind, a buffer index a
//! swap chain does not have, a resolve of textures that cannot be resolved (`resolve`), a
//! predicate or query result outside its buffer or a resolve of a query no script ends
//! (`predicate`).
//! Scripts of passes may not `CreateView`, `Release`, `Present` or make the calls that act on
//! queues, fences or the CPU (a legacy `ResourceBarrier` is the one call they may make): a
//! pass's list is recorded ahead of its submission and the runtime presents the frame.

use hashbrown::HashMap;

use super::check::Check;
use super::error::SceneError;
use super::fit;
use super::format::{PassDef, SceneFile, ViewDef};
use super::index::Kinds;
use super::names::suggest;
use super::script::split_index;
use super::script_names::Named;
use super::script_refs::{Names, Scope, buffer_index, location, owner, reference, view_fits};
use crate::device::{Command, FastSet};
use crate::model::{ScriptCall, ScriptCommand, ViewKind};

/// Rules: every script of `scene` (the frame script and every pass script) is meaningful.
pub fn check(c: &Check, scene: &SceneFile) -> Result<(), SceneError> {
    let named = Named::of(c, scene);
    for id in 0..c.index.defs.len() {
        let Some(pass) = c.index.def(id).and_then(|d| d.pass.as_ref()) else {
            continue;
        };
        uses(c, id, pass)?;
        if let Some(commands) = &pass.script {
            let names = Names {
                locals: HashMap::new(),
                fences: &named.fences,
                resizes: HashMap::new(),
            };
            for cmd in commands {
                command(c, Scope::Pass(id), &names, &named, cmd)?;
            }
        }
    }
    super::barrier_mix::check(c, scene)?;
    match &scene.script {
        Some(script) => super::script_frame::check(c, script, &named),
        None => Ok(()),
    }
}

/// Rule: a scene view of `"chain[i]"` views a swap chain that has buffer `i`, with a kind
/// and range that fit it. `None` when `v.of` is not such a name (the ordinary rules apply).
pub fn indexed_view(c: &Check, id: usize, v: &ViewDef) -> Option<Result<(), SceneError>> {
    if c.index.id(&v.of).is_some() {
        return None;
    }
    let (chain, index) = split_index(&v.of)?;
    c.index.id(chain)?;
    let at = || c.loc.def_key_value(id, "of", 0);
    Some((|| {
        let chain_id = c.resolve(at, Some(id), chain, Kinds::SWAP_CHAIN)?;
        buffer_index(c, at(), Some(id), chain_id, index)?;
        let Some((_, res)) = c.index.resource(chain_id) else {
            return Ok(());
        };
        let what = format!("swap chain {chain:?}");
        if let Some(problem) = fit::view_kind(v.kind, &res, &what) {
            return Err(c.misuse(c.loc.def_key(id, "kind", 0), id, problem));
        }
        if let Some((key, problem)) = fit::view_range(v, &res) {
            return Err(c.out_of_range(c.loc.def_key(id, key, 0), Some(id), problem));
        }
        if let Some(problem) = super::view_format::view_format(v, &res, &what) {
            return Err(c.misuse(c.loc.def_key(id, "format", 0), id, problem));
        }
        Ok(())
    })())
}

/// Rule: a pass use never targets a view of one particular swap-chain buffer; passes write
/// the back buffer through the swap chain, which the runtime rotates (FS-9).
fn uses(c: &Check, id: usize, pass: &PassDef) -> Result<(), SceneError> {
    for (j, u) in pass.uses.iter().enumerate() {
        let of = (c.index.id(&u.target))
            .and_then(|t| c.index.def(t)?.view.as_ref())
            .map(|v| v.of.as_str());
        if let Some(of) = of
            && c.index.id(of).is_none()
            && split_index(of).is_some()
        {
            return Err(c.misuse(
                c.loc.def_key_value(id, "target", j),
                id,
                format!(
                    "view {:?} views one buffer of a swap chain ({of:?}): only scripts may use it; a pass writes the back buffer through the swap chain itself (FS-9)",
                    u.target
                ),
            ));
        }
    }
    Ok(())
}

/// Rules of one command: its scope allows it, its names resolve, its views fit its slots.
pub(super) fn command(
    c: &Check,
    scope: Scope,
    names: &Names,
    named: &Named,
    cmd: &ScriptCommand<String>,
) -> Result<(), SceneError> {
    // A legacy ResourceBarrier is a call of the list itself (the driver translates it as
    // the list is recorded, EB-10), so a pass may make one; the other calls act on queues,
    // fences or the CPU, which a pass's list does not own.
    if let Scope::Pass(id) = scope
        && !matches!(cmd, ScriptCommand::Call(ScriptCall::ResourceBarrier(_)))
        && matches!(
            cmd,
            ScriptCommand::Call(_)
                | ScriptCommand::Device(
                    Command::Present(_)
                        | Command::BeginCommandListExecution
                        | Command::EndCommandListExecution
                )
        )
    {
        return Err(c.misuse(
            c.loc.def_key(id, "script", 0),
            id,
            format!(
                "{} is not allowed in a pass script: a pass's list is recorded before it is submitted and the runtime presents the frame; use a frame script (`script: (frames: ...)`)",
                cmd.name()
            ),
        ));
    }
    let at = || match scope {
        Scope::Frame => c.loc.top("script"),
        Scope::Pass(id) => c.loc.def_key(id, "script", 0),
    };
    super::limits::command(c, at, super::script_refs::scope_owner(scope), cmd)?;
    // Checked at the call, before the names of every command are checked where they first
    // appear.
    if let ScriptCommand::Call(ScriptCall::ResizeBuffers {
        chain,
        extent,
        format,
    }) = cmd
    {
        super::resize::check(c, scope, names, chain, *extent, *format)?;
    }
    for (slot, name) in cmd.refs() {
        reference(c, scope, names, slot, name)?;
    }
    let want = |list: &[String], kinds: &[ViewKind]| -> Result<(), SceneError> {
        for name in list {
            view_fits(c, scope, names, name, kinds, cmd.name())?;
        }
        Ok(())
    };
    use {Command as C, ScriptCall as Call, ScriptCommand as S};
    match cmd {
        S::Device(C::SetRenderTargets { rtvs, dsv }) => {
            want(rtvs, &[ViewKind::Rtv])?;
            want(dsv.as_slice(), &[ViewKind::Dsv, ViewKind::DsvReadOnly])
        }
        S::Device(C::SetResources { views, .. }) => {
            want(views, &[ViewKind::Srv, ViewKind::Uav, ViewKind::UavCounter])
        }
        S::Device(C::SetFastResources(sets))
        | S::Call(Call::SetFastResourcesIntoBatch { sets, .. }) => {
            for set in sets {
                match set {
                    FastSet::Srv { views, .. } => want(views, &[ViewKind::Srv])?,
                    FastSet::Uav { views, .. } => {
                        want(views, &[ViewKind::Uav, ViewKind::UavCounter])?
                    }
                    _ => {}
                }
            }
            Ok(())
        }
        S::Device(C::ResolveSubresource { src, dst }) => {
            super::resolve::check(c, scope, names, src, dst)
        }
        S::Device(C::SetPredication {
            buffer: Some(b),
            offset,
            ..
        }) => super::predicate::set_predication(c, scope, b, *offset),
        S::Device(C::ResolveQueryData {
            dst,
            first,
            count,
            offset,
        }) => super::predicate::resolve_query(c, scope, named, (dst, *offset), first, *count),
        S::Device(C::ClearRenderTarget(v)) => want(std::slice::from_ref(v), &[ViewKind::Rtv]),
        S::Device(C::ClearDepthStencil(v)) => want(std::slice::from_ref(v), &[ViewKind::Dsv]),
        S::Device(C::ClearUnorderedAccess(v)) => want(
            std::slice::from_ref(v),
            &[ViewKind::Uav, ViewKind::UavCounter],
        ),
        S::Device(C::WaitFence(name)) if !names.fences.contains(name.as_str()) => {
            Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.clone(),
                suggestions: suggest(name, names.fences.iter().copied()),
            })
        }
        S::Call(Call::ExecuteCommandList(name)) if !named.lists.contains(name.as_str()) => {
            Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.clone(),
                suggestions: suggest(name, named.lists.iter().copied()),
            })
        }
        S::Call(Call::ExecuteBundle(name)) if !named.bundles.contains(name.as_str()) => {
            Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.clone(),
                suggestions: suggest(name, named.bundles.iter().copied()),
            })
        }
        S::Call(Call::SetFastResourcesFromBatch(name))
            if !named.batches.contains(name.as_str()) =>
        {
            Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.clone(),
                suggestions: suggest(name, named.batches.iter().copied()),
            })
        }
        S::Call(Call::GetQueryData(name)) if !named.queries.contains(name.as_str()) => {
            Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.clone(),
                suggestions: suggest(name, named.queries.iter().copied()),
            })
        }
        S::Call(Call::CreateView { name, of, kind }) => create_view(c, scope, name, of, *kind),
        S::Call(call) => match call.fence() {
            Some((name, false)) if !names.fences.contains(name) => Err(SceneError::UnknownName {
                location: location(c, scope, name),
                entity: owner(c, scope),
                name: name.to_owned(),
                suggestions: suggest(name, names.fences.iter().copied()),
            }),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// Rules: a `CreateView` name is not a scene name, and the view fits what it views.
fn create_view(
    c: &Check,
    scope: Scope,
    name: &str,
    of: &str,
    kind: ViewKind,
) -> Result<(), SceneError> {
    if let Some(first) = c.index.id(name) {
        return Err(SceneError::DuplicateName {
            location: location(c, scope, name),
            entity: name.to_string(),
            first: c.loc.def(first),
        });
    }
    let base = split_index(of).filter(|_| c.index.id(of).is_none());
    let viewed = base.map_or(of, |(chain, _)| chain);
    let Some(res) = c.index.id(viewed).and_then(|id| c.index.resource(id)) else {
        return Ok(());
    };
    match fit::view_kind(kind, &res.1, &format!("{viewed:?}")) {
        Some(problem) => Err(SceneError::Misuse {
            location: location(c, scope, of),
            entity: owner(c, scope),
            message: problem,
        }),
        None => Ok(()),
    }
}
