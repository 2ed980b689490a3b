//! A script's `ResizeBuffers` names a swap chain, the extent its new buffers take and
//! perhaps their new format. All are checked at the call itself, not at the first place the chain's name appears in the
//! script, because a port resizes long after it first used the chain (FS-6: what the call
//! releases is the runtime's and the validation layer's question).

use super::check::Check;
use super::error::{Location, SceneError};
use super::script_refs::{Names, Scope, reference};
use crate::model::{Format, Slot};

/// Rule: `chain` is a swap chain, `extent` a sane size for its buffers and `format`, when
/// given, one the display can show (as a chain's own format must be), each error at the
/// call's `chain` argument.
pub(super) fn check(
    c: &Check,
    scope: Scope,
    names: &Names,
    chain: &str,
    extent: (u32, u32),
    format: Option<Format>,
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
    if let Some(problem) = super::limits::extent_problem(glam::uvec2(extent.0, extent.1)) {
        return Err(c.out_of_range(at(), None, problem));
    }
    match format {
        Some(f) if !f.is_display() => Err(c.out_of_range(
            at(),
            None,
            format!(
                "ResizeBuffers: a swap chain's buffers need a display format (Bgra8Unorm, \
                 Rgba8Unorm, Rgb10A2Unorm or Rgba16Float), not {f:?}"
            ),
        )),
        _ => Ok(()),
    }
}
