//! A script's `ResizeBuffers` names a swap chain and the extent its new buffers take. Both
//! are checked at the call itself, not at the first place the chain's name appears in the
//! script, because a port resizes long after it first used the chain (FS-6: what the call
//! releases is the runtime's and the validation layer's question).

use super::check::Check;
use super::error::{Location, SceneError};
use super::script_refs::{Names, Scope, reference};
use crate::model::Slot;

/// Rule: `chain` is a swap chain and `extent` a sane size for its buffers, each error at the
/// call's `chain` argument.
pub(super) fn check(
    c: &Check,
    scope: Scope,
    names: &Names,
    chain: &str,
    extent: (u32, u32),
) -> Result<(), SceneError> {
    let fields = [("chain", chain)];
    let at = || -> Location {
        match scope {
            Scope::Frame => c
                .loc
                .top_call_str("script", "ResizeBuffers", &fields, "chain"),
            Scope::Pass(id) => c
                .loc
                .def_call_str(id, "script", "ResizeBuffers", &fields, "chain"),
        }
    };
    reference(c, scope, names, Slot::Chain, chain).map_err(|e| e.relocated(at()))?;
    match super::limits::extent_problem(glam::uvec2(extent.0, extent.1)) {
        Some(problem) => Err(c.out_of_range(at(), None, problem)),
        None => Ok(()),
    }
}
