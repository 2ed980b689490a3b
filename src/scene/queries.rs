//! A pass's queries (CTX-6, CC-7): what the runtime needs to record, resolve and read them.
//!
//! Rules: the pass is not scripted (a script records its own queries); it queries something (a timestamp pair, an occlusion query, or both);
//! occlusion counts the samples of draws, so only a draw (direct or indirect) has one, and
//! Begin/EndQuery are graphics-context calls; a DMA engine does not resolve queries. The
//! results are resolved into a buffer the pass uses as `CopyDest` (so every barrier
//! strategy plans the copy's barrier) with room for the [`QUERY_RING`] frames of results
//! the ring keeps, and read back 1 to [`MAX_READ_AFTER`] frames later.

use super::check::Check;
use super::error::SceneError;
use super::format::PassDef;
use super::index::Kinds;
use crate::model::{QUERY_RING, QueueKind, UseAccess, Work};

/// Most frames after its own that a frame's query results may be read.
pub const MAX_READ_AFTER: u32 = QUERY_RING - 1;

/// Rules: pass definition `id`'s queries can be recorded, resolved and read back.
pub fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    let Some(q) = &p.queries else { return Ok(()) };
    let at = |key: &str| c.loc.def_key(id, key, 0);
    let misuse = |key: &str, m: String| Err(c.misuse(at(key), id, m));
    if p.script.is_some() {
        return misuse(
            "queries",
            "a pass with a `script` records its own commands: write its WriteTimestamp, Begin/EndQuery and ResolveQueryData in the script instead of `queries`".into(),
        );
    }
    if q.count() == 0 {
        return misuse(
            "queries",
            "`queries` asks for nothing: give `timestamps: true`, `occlusion: true` or both".into(),
        );
    }
    if q.occlusion && !matches!(p.work, Work::Draw { .. } | Work::DrawIndirect { .. }) {
        return misuse(
            "occlusion",
            "an occlusion query counts the samples a pass's draws pass: this pass does not draw"
                .into(),
        );
    }
    if q.occlusion && p.queue != QueueKind::Graphics || p.queue == QueueKind::Copy {
        return misuse(
            "queries",
            format!(
                "a {:?}-queue pass cannot resolve these queries: occlusion queries are graphics-context calls, and DMA engines do not resolve queries",
                p.queue
            ),
        );
    }
    if let Some(lag) = q.read_after
        && !(1..=MAX_READ_AFTER).contains(&lag)
    {
        return Err(c.out_of_range(
            at("read_after"),
            Some(id),
            format!("read_after must be 1 to {MAX_READ_AFTER} frames, not {lag}"),
        ));
    }
    let buffer = c.resolve(
        || c.loc.def_key_value(id, "resolve", 0),
        Some(id),
        &q.resolve,
        Kinds::BUFFER,
    )?;
    let copied = (p.uses.iter())
        .any(|u| u.access == UseAccess::CopyDest && c.index.id(&u.target) == Some(buffer));
    if !copied {
        return misuse(
            "resolve",
            format!(
                "the pass resolves its queries into {:?}: add `(target: {:?}, access: CopyDest)` to its uses, so the resolve's barrier is planned",
                q.resolve, q.resolve
            ),
        );
    }
    let needed = q.bytes() * QUERY_RING as u64;
    let size = (c.index.def(buffer))
        .and_then(|d| d.buffer.as_ref())
        .map_or(needed, |b| b.size);
    if size < needed {
        return misuse(
            "resolve",
            format!(
                "{:?} holds {size} bytes, but {} queries of 8 bytes for each of the {QUERY_RING} frames of the ring take {needed}",
                q.resolve,
                q.count()
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scene::check::tests::problem;

    fn pass(queue: &str, work: &str, queries: &str, uses: &str) -> Option<String> {
        problem(&format!(
            r#"(name: "timings", buffer: (size: 384)),
            (name: "rt", texture: (format: Rgba8Unorm, extent: (8, 8), flags: (render_target: true))),
            (name: "p", pass: (queue: {queue}, uses: [{uses}], work: {work}, queries: ({queries})))"#
        ))
    }

    const USES: &str =
        r#"(target: "rt", access: RenderTarget), (target: "timings", access: CopyDest)"#;
    const DRAW: &str = "Draw(vertices: 3, pixels: 64)";

    #[test]
    fn queries_resolve_into_a_copied_buffer_with_room_for_the_ring() {
        let both = r#"timestamps: true, occlusion: true, resolve: "timings""#;
        assert_eq!(pass("Graphics", DRAW, both, USES), None);
        let m = pass(
            "Graphics",
            DRAW,
            both,
            r#"(target: "rt", access: RenderTarget)"#,
        );
        assert!(m.is_some_and(|m| m.contains("access: CopyDest")));
        let m = pass("Graphics", DRAW, r#"resolve: "timings""#, USES);
        assert!(m.is_some_and(|m| m.contains("asks for nothing")));
        let m = pass("Graphics", DRAW, r#"timestamps: true, resolve: "rt""#, USES);
        assert!(m.is_some_and(|m| m.contains("a buffer")), "wrong kind");
        let m = pass("Graphics", DRAW, &format!("{both}, read_after: 0"), USES);
        assert!(m.is_some_and(|m| m.contains("read_after must be 1 to 15")));
        let scripted = format!("{DRAW}, script: []");
        let m = pass("Graphics", &scripted, both, USES);
        assert!(
            m.is_some_and(|m| m.contains("records its own commands")),
            "scripted"
        );
    }

    #[test]
    fn occlusion_needs_draws_on_the_graphics_queue() {
        let uses = r#"(target: "timings", access: CopyDest)"#;
        let occlusion = r#"occlusion: true, resolve: "timings""#;
        let dispatch = "Dispatch(threads: 64)";
        let m = pass("Compute", dispatch, occlusion, uses);
        assert!(m.is_some_and(|m| m.contains("does not draw")));
        let timestamps = r#"timestamps: true, resolve: "timings""#;
        assert_eq!(pass("Compute", dispatch, timestamps, uses), None);
    }
}
