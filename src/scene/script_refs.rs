//! What a name in a script may stand for, slot by slot, and where to point when it may not.
//!
//! Each reference sits in a [`Slot`] (a view bound, a buffer mapped, a back buffer waited
//! on...), and each slot takes some kinds of scene object, perhaps one buffer of a swap chain
//! (`"chain[i]"`), perhaps a view the script makes itself. A name of no kind is an unknown
//! name with the closest names the slot would take as suggestions; a name of the wrong kind
//! says what was expected. Errors point at the quoted name inside the script.

use hashbrown::{HashMap, HashSet};

use super::check::Check;
use super::error::{Location, SceneError};
use super::index::{Kind, Kinds};
use super::names::suggest;
use super::script::split_index;
use crate::model::{Slot, ViewKind};

/// Where a script lives: the scene's frame script, or the script of pass definition `id`.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scope {
    Frame,
    Pass(usize),
}

/// The names a script may use besides the scene's.
pub(super) struct Names<'a> {
    /// Views the script makes with `CreateView`, with the kind of the first one made.
    pub locals: HashMap<&'a str, ViewKind>,
    /// Fences inserted anywhere in the scene's scripts.
    pub fences: &'a HashSet<&'a str>,
    /// The extents and formats the frame script's `ResizeBuffers` calls give each chain
    /// (the format `None` when a call keeps it), whichever frame they run in.
    pub resizes: HashMap<&'a str, Vec<Resize>>,
}

/// One `ResizeBuffers` call's extent and format (`None`: the chain's current one).
pub(super) type Resize = ((u32, u32), Option<crate::model::Format>);

/// The kinds each slot takes from the scene, and whether it also takes a swap-chain buffer
/// (`"chain[i]"`) and a view made by `CreateView`.
fn slot_kinds(slot: Slot, scope: Scope) -> (Kinds, bool, bool) {
    const fn k(list: &'static [Kind], described: &'static str) -> Kinds {
        Kinds { list, described }
    }
    match slot {
        Slot::View => match scope {
            Scope::Frame => (k(&[Kind::View], "a view"), false, true),
            Scope::Pass(_) => (
                k(&[Kind::View, Kind::SwapChain], "a view or a swap chain"),
                false,
                true,
            ),
        },
        Slot::Buffer => (k(&[Kind::Buffer], "a buffer"), false, false),
        Slot::Texture => (
            k(
                &[Kind::Texture, Kind::SwapChain],
                "a texture or a swap chain",
            ),
            true,
            false,
        ),
        Slot::Copy => (
            k(
                &[Kind::Texture, Kind::Buffer, Kind::SwapChain],
                "a texture, a buffer or a swap chain",
            ),
            true,
            false,
        ),
        Slot::BackBuffer | Slot::Chain => (Kinds::SWAP_CHAIN, slot == Slot::BackBuffer, false),
        Slot::Decompress => (
            k(
                &[Kind::Texture, Kind::SwapChain, Kind::View],
                "a texture, a swap chain or a view",
            ),
            true,
            true,
        ),
        Slot::ViewOf => (Kinds::VIEWABLE, true, false),
        Slot::Release => (Kinds::SCRIPT_RELEASABLE, false, true),
    }
}

/// Rule: `name`, used in `slot`, is an object of a kind the slot takes.
pub(super) fn reference(
    c: &Check,
    scope: Scope,
    names: &Names,
    slot: Slot,
    name: &str,
) -> Result<(), SceneError> {
    let (kinds, chain_buffers, locals) = slot_kinds(slot, scope);
    let at = || location(c, scope, name);
    let wrong = |found: &'static str| SceneError::WrongKind {
        location: at(),
        entity: owner(c, scope),
        name: name.to_string(),
        expected: kinds.described,
        found,
    };
    if c.index.id(name).is_none() {
        if names.locals.contains_key(name) {
            return if locals {
                Ok(())
            } else {
                Err(wrong("a view made by CreateView"))
            };
        }
        if let Some((chain, index)) = split_index(name)
            && let Some(chain_id) = c.index.id(chain)
        {
            if c.index.kind(chain_id) != Some(Kind::SwapChain) {
                return Err(wrong(
                    "an indexed name of something that is not a swap chain",
                ));
            }
            if !chain_buffers {
                return Err(wrong("one buffer of a swap chain"));
            }
            return buffer_index(c, at(), scope_owner(scope), chain_id, index);
        }
        let mut candidates = c.index.names_of(kinds.list);
        if locals {
            candidates.extend(names.locals.keys().copied());
        }
        return Err(SceneError::UnknownName {
            location: at(),
            entity: owner(c, scope),
            name: name.to_string(),
            suggestions: suggest(name, candidates),
        });
    }
    c.resolve(at, scope_owner(scope), name, kinds).map(|_| ())
}

/// Rule: swap chain `chain_id` has a buffer `index`.
pub(super) fn buffer_index(
    c: &Check,
    at: Location,
    owner: Option<usize>,
    chain_id: usize,
    index: u32,
) -> Result<(), SceneError> {
    let Some(chain) = c.index.def(chain_id).and_then(|d| d.swap_chain.as_ref()) else {
        return Ok(());
    };
    if index < chain.buffers {
        return Ok(());
    }
    let name = c.index.name(chain_id).unwrap_or_default();
    Err(c.out_of_range(
        at,
        owner,
        format!(
            "swap chain {name:?} has {} buffers, {name}[0] to {name}[{}]: there is no {name}[{index}]",
            chain.buffers,
            chain.buffers.saturating_sub(1)
        ),
    ))
}

/// Rule: the view `name` binds in a slot of one of `kinds`.
pub(super) fn view_fits(
    c: &Check,
    scope: Scope,
    names: &Names,
    name: &str,
    kinds: &[ViewKind],
    command: &str,
) -> Result<(), SceneError> {
    let def = c.index.id(name).and_then(|id| c.index.def(id));
    let kind = match def {
        Some(d) if d.swap_chain.is_some() => Some(ViewKind::Rtv),
        Some(d) => d.view.as_ref().map(|v| v.kind),
        None => names.locals.get(name).copied(),
    };
    match kind {
        Some(k) if !kinds.contains(&k) => {
            let wanted: Vec<String> = kinds.iter().map(|k| format!("{k:?}")).collect();
            Err(SceneError::Misuse {
                location: location(c, scope, name),
                entity: owner(c, scope),
                message: format!(
                    "{command} binds {} views, but {name:?} is a {k:?} view",
                    wanted.join(" or ")
                ),
            })
        }
        _ => Ok(()),
    }
}

/// The quoted `value` inside the script of `scope`.
pub(super) fn location(c: &Check, scope: Scope, value: &str) -> Location {
    match scope {
        Scope::Frame => c.loc.top_str("script", value),
        Scope::Pass(id) => c.loc.def_key_str(id, "script", value),
    }
}

pub(super) fn scope_owner(scope: Scope) -> Option<usize> {
    match scope {
        Scope::Frame => None,
        Scope::Pass(id) => Some(id),
    }
}

pub(super) fn owner(c: &Check, scope: Scope) -> Option<String> {
    c.owner(scope_owner(scope))
}
