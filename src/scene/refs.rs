//! References between definitions: that each name exists, is of the right kind, and that
//! what it is used for fits it.
//!
//! A scene is a web of names: views name what they view, uses name their targets, passes
//! name the passes they come `after`, timeline events name what they change. Each reference
//! is resolved to the kinds that make sense for it (a view of a texture, buffer or swap
//! chain; `after` a pass; `Resize` a swap chain; `Enable`/`Disable` a pass; `Release` a
//! texture, buffer or view, the things with device objects the timeline may free), and then
//! checked against the rules of [`super::fit`]. Errors point at the quoted name itself, so
//! the author's eye lands on the word to change.

use super::check::Check;
use super::error::SceneError;
use super::fit;
use super::format::{EventKindDef, PassDef, ViewDef};
use super::index::{Kind, Kinds};
use super::limits;
use crate::model::UseAccess;

/// Rule: the references of view and pass definition `id` resolve and fit.
pub fn definition(c: &Check, id: usize) -> Result<(), SceneError> {
    let Some(def) = c.index.def(id) else {
        return Ok(());
    };
    match c.index.kind(id) {
        Some(Kind::View) => def.view.as_ref().map_or(Ok(()), |v| view(c, id, v)),
        Some(Kind::Pass) => def.pass.as_ref().map_or(Ok(()), |p| pass(c, id, p)),
        _ => Ok(()),
    }
}

/// Rule: a timeline event names an entity of the kind it acts on, with a sane extent.
pub fn event(c: &Check, i: usize, event: &EventKindDef) -> Result<(), SceneError> {
    let (name, kinds) = match event {
        EventKindDef::Resize { chain, .. } => (chain, Kinds::SWAP_CHAIN),
        EventKindDef::Enable(name) | EventKindDef::Disable(name) => (name, Kinds::PASS),
        EventKindDef::Release(name) => (name, Kinds::RELEASABLE),
        // Checked with the other definitions.
        EventKindDef::Add(_) => return Ok(()),
        EventKindDef::Suspend { frames } => return limits::suspend(c, i, *frames),
    };
    c.resolve(|| c.loc.event_str(i, name), None, name, kinds)?;
    if let EventKindDef::Resize { extent, .. } = event {
        limits::resize(c, i, *extent)?;
    }
    Ok(())
}

/// `texture "hdr"`: a definition's kind and name, for messages.
fn describe(c: &Check, id: usize) -> String {
    let kind = c.index.kind(id).map_or("entity", |k| {
        k.describe()
            .trim_start_matches("an ")
            .trim_start_matches("a ")
    });
    format!("{kind} {:?}", c.index.name(id).unwrap_or_default())
}

/// Rules: a view views a texture, buffer or swap chain, with a kind and range that fit it.
fn view(c: &Check, id: usize, v: &ViewDef) -> Result<(), SceneError> {
    // `of: "chain[i]"`: one buffer of a swap chain, for scripts.
    if let Some(result) = super::script_check::indexed_view(c, id, v) {
        return result;
    }
    let of = c.resolve(
        || c.loc.def_key_value(id, "of", 0),
        Some(id),
        &v.of,
        Kinds::VIEWABLE,
    )?;
    let Some((_, res)) = c.index.resource(id) else {
        return Ok(());
    };
    if let Some(problem) = fit::view_kind(v.kind, &res, &describe(c, of)) {
        return Err(c.misuse(c.loc.def_key(id, "kind", 0), id, problem));
    }
    if let Some((key, problem)) = fit::view_range(v, &res) {
        return Err(c.out_of_range(c.loc.def_key(id, key, 0), Some(id), problem));
    }
    if let Some(problem) = super::view_format::view_format(v, &res, &describe(c, of)) {
        return Err(c.misuse(c.loc.def_key(id, "format", 0), id, problem));
    }
    Ok(())
}

/// Rules: every use targets something usable, with an access that fits the target, the view
/// it goes through and the pass's queue; every `after` names a pass.
fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    for (j, u) in p.uses.iter().enumerate() {
        let at = || c.loc.def_key_value(id, "target", j);
        let target = c.resolve(at, Some(id), &u.target, Kinds::USABLE)?;
        if let Some(v) = c.index.def(target).and_then(|d| d.view.as_ref())
            && let Some(problem) = fit::view_access(v.kind, u.access, &u.target)
        {
            return Err(c.misuse(at(), id, problem));
        }
        if let Some((res_id, res)) = c.index.resource(target) {
            if let Some(problem) = fit::use_access(u.access, &res, &describe(c, res_id)) {
                return Err(c.misuse(at(), id, problem));
            }
            if let Some(r) = &u.range {
                let direct = res_id == target;
                if let Some((key, problem)) = super::ranges::use_range(r, &res, direct) {
                    let nth = p.uses[..j].iter().filter(|u| u.range.is_some()).count();
                    let problem = match key {
                        "range" => problem,
                        _ => format!("range: {problem}"),
                    };
                    return Err(c.misuse(c.loc.def_key(id, "range", nth), id, problem));
                }
            }
            if let Some(problem) = fit::queue_resource(p.queue, &res, &describe(c, res_id)) {
                return Err(c.misuse(at(), id, problem));
            }
            super::placement::pass_use(c, id, j, res_id)?;
        }
        if !u.access.allowed_on(p.queue) {
            return Err(c.misuse(
                c.loc.def_key(id, "access", j),
                id,
                format!(
                    "{:?} cannot run on a {:?} queue (barrier-spec A5)",
                    u.access, p.queue
                ),
            ));
        }
        if let Some(problem) = fit::work_access(&p.work, u.access) {
            return Err(c.misuse(c.loc.def_key(id, "access", j), id, problem));
        }
        if u.clear
            && let Some(problem) = fit::clear(u.access)
        {
            return Err(c.misuse(at(), id, problem));
        }
    }
    // The output merger binds one depth-stencil view: a second depth use would be ignored.
    let depth: Vec<usize> = p
        .uses
        .iter()
        .enumerate()
        .filter(|(_, u)| matches!(u.access, UseAccess::DepthWrite | UseAccess::DepthRead))
        .map(|(j, _)| j)
        .collect();
    if let Some(&second) = depth.get(1) {
        return Err(c.misuse(
            c.loc.def_key_value(id, "target", second),
            id,
            "a pass binds at most one depth-stencil view: use the second depth buffer in another pass, or read it as ShaderRead".to_owned(),
        ));
    }
    super::exclusive::pass(c, id, p)?;
    for name in &p.after {
        c.resolve(
            || c.loc.def_key_str(id, "after", name),
            Some(id),
            name,
            Kinds::PASS,
        )?;
    }
    super::indirect::pass(c, id, p)?;
    super::queries::pass(c, id, p)?;
    super::copies::pass(c, id, p)
}
