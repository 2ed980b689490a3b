//! Indirect work of a pass: draws and dispatches whose arguments the GPU reads from a
//! buffer, which an earlier pass of the same frame may write (a culling dispatch, possibly
//! on an asynchronous compute queue).
//!
//! The argument buffer is the pass's one `IndirectArgument` use. That use is what the
//! planners see: every strategy moves the buffer into INDIRECT_ARGUMENT with sync
//! EXECUTE_INDIRECT (barrier-spec A6, A7) or the legacy INDIRECT_ARGUMENT state, and the
//! recorded ExecuteIndirect or DispatchIndirect names the buffer, so the validator checks
//! the read against the barriers (FS-1, FS-2). Rules: indirect work has exactly one
//! argument buffer, and indirect draws run on the graphics queue (CC-4: compute contexts
//! dispatch, directly or indirectly, and do not draw).

use super::check::Check;
use super::error::SceneError;
use super::format::PassDef;
use crate::model::{QueueKind, UseAccess, Work};

/// Rules: an indirect pass reads its arguments from exactly one buffer; an indirect draw
/// runs on the graphics queue.
pub fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    if !p.work.is_indirect() {
        return Ok(());
    }
    let at = || c.loc.def_key(id, "work", 0);
    let args = p
        .uses
        .iter()
        .filter(|u| u.access == UseAccess::IndirectArgument)
        .count();
    if args != 1 {
        return Err(c.misuse(
            at(),
            id,
            format!(
                "indirect work reads its arguments from one buffer: give the pass exactly one `IndirectArgument` use (it has {args})"
            ),
        ));
    }
    if matches!(p.work, Work::DrawIndirect { .. }) && p.queue != QueueKind::Graphics {
        return Err(c.misuse(
            at(),
            id,
            format!(
                "a DrawIndirect runs on the graphics queue, not {:?}: compute contexts dispatch and do not draw (CC-4)",
                p.queue
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scene::check::tests::problem;

    const ARGS: &str = r#"(name: "args", buffer: (size: 256, unordered_access: true)),
        (name: "rt", texture: (format: Rgba8Unorm, extent: (8, 8), flags: (render_target: true))),"#;

    fn pass(queue: &str, uses: &str, work: &str) -> Option<String> {
        problem(&format!(
            r#"{ARGS} (name: "p", pass: (queue: {queue}, uses: [{uses}], work: {work}))"#
        ))
    }

    #[test]
    fn indirect_work_reads_one_argument_buffer() {
        let rt = r#"(target: "rt", access: RenderTarget)"#;
        let args = r#"(target: "args", access: IndirectArgument)"#;
        let draw = "DrawIndirect(draws: 100, vertices: 3000, pixels: 64)";
        assert_eq!(pass("Graphics", &format!("{rt}, {args}"), draw), None);
        assert_eq!(
            pass(
                "Graphics",
                &format!("{rt}, {args}"),
                "ExecuteIndirect(draws: 4)"
            ),
            None
        );
        let none = pass("Graphics", rt, draw);
        assert!(none.is_some_and(|m| m.contains("exactly one `IndirectArgument`")));
        let compute = pass(
            "Compute",
            args,
            "DispatchIndirect(dispatches: 2, threads: 640)",
        );
        assert_eq!(compute, None);
        let drawn = pass("Compute", args, draw);
        assert!(
            drawn.as_ref().is_some_and(|m| m.contains("CC-4")),
            "{drawn:?}"
        );
    }
}
