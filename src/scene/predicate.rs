//! A script's `SetPredication` and `ResolveQueryData` name a buffer that holds their 64-bit
//! values (`device::predicate` says why the device refuses one that does not), and a resolve
//! names a query some script ends, as `GetQueryData` does (CTX-6). Checking the definitions
//! here makes each mistake an error at the argument's line and column before anything runs.
//!
//! A script resolves one query per call: queries are named, and the device numbers them by
//! first mention, so a count of more than one would reach queries the script never meant.

use super::check::Check;
use super::error::{Location, SceneError};
use super::names::suggest;
use super::script_names::Named;
use super::script_refs::{Scope, owner, scope_owner};
use crate::device::predicate::VALUE_BYTES;

/// Rule: the predicate at `offset` of `buffer` is 8 bytes inside it at an 8-byte aligned
/// offset (`buffer` already known to be a buffer, `Slot::Buffer`).
pub(super) fn set_predication(
    c: &Check,
    scope: Scope,
    buffer: &str,
    offset: u64,
) -> Result<(), SceneError> {
    let fields = [("buffer", buffer)];
    let at = || call_location(c, scope, "SetPredication", &fields, "buffer");
    aligned(
        c,
        scope,
        "SetPredication",
        "AlignedBufferOffset",
        offset,
        at,
    )?;
    fits(c, scope, "SetPredication", buffer, offset, VALUE_BYTES, at)
}

/// Rule: `offset` is a multiple of 8 bytes (`what` is D3D12's name for it).
fn aligned(
    c: &Check,
    scope: Scope,
    call: &str,
    what: &str,
    offset: u64,
    at: impl FnOnce() -> Location,
) -> Result<(), SceneError> {
    if offset.is_multiple_of(VALUE_BYTES) {
        return Ok(());
    }
    Err(c.out_of_range(
        at(),
        scope_owner(scope),
        format!(
            "{call}: offset {offset} is not a multiple of {VALUE_BYTES} bytes (D3D12's {what})"
        ),
    ))
}

/// Rules: `query` is ended by some script, one query is resolved, and its 8 bytes fit `dst`
/// at its 8-byte aligned offset.
pub(super) fn resolve_query(
    c: &Check,
    scope: Scope,
    named: &Named,
    (dst, offset): (&str, u64),
    query: &str,
    count: u32,
) -> Result<(), SceneError> {
    let fields = [("dst", dst), ("first", query)];
    if !named.queries.contains(query) {
        return Err(SceneError::UnknownName {
            location: call_location(c, scope, "ResolveQueryData", &fields, "first"),
            entity: owner(c, scope),
            name: query.to_owned(),
            suggestions: suggest(query, named.queries.iter().copied()),
        });
    }
    let at = || call_location(c, scope, "ResolveQueryData", &fields, "dst");
    if count != 1 {
        return Err(c.out_of_range(
            at(),
            scope_owner(scope),
            format!("ResolveQueryData: a script resolves the one query it names (count 1), not {count}: write one call per query"),
        ));
    }
    aligned(
        c,
        scope,
        "ResolveQueryData",
        "AlignedDestinationBufferOffset",
        offset,
        at,
    )?;
    fits(c, scope, "ResolveQueryData", dst, offset, VALUE_BYTES, at)
}

/// Rule: `bytes` at `offset` lie inside buffer `name` (no rule when `name` is no buffer:
/// the slot check has said so already).
fn fits(
    c: &Check,
    scope: Scope,
    call: &str,
    name: &str,
    offset: u64,
    bytes: u64,
    at: impl FnOnce() -> Location,
) -> Result<(), SceneError> {
    let size = (c.index.id(name))
        .and_then(|id| c.index.def(id))
        .and_then(|d| d.buffer.as_ref())
        .map(|b| b.size);
    let Some(size) = size else {
        return Ok(());
    };
    if offset.checked_add(bytes).is_some_and(|end| end <= size) {
        return Ok(());
    }
    Err(c.out_of_range(
        at(),
        scope_owner(scope),
        format!(
            "{call}: {bytes} bytes at offset {offset} run past the end of {name:?} ({size} bytes)"
        ),
    ))
}

/// The literal of field `want` in the call meant, in the frame script or a pass's.
fn call_location(
    c: &Check,
    scope: Scope,
    call: &str,
    fields: &[(&str, &str)],
    want: &str,
) -> Location {
    match scope {
        Scope::Frame => c.loc.top_call_str("script", call, fields, want),
        Scope::Pass(id) => c.loc.def_call_str(id, "script", call, fields, want),
    }
}
