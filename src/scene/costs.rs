//! Rules of a pass's cost and compute queue: numbers the device can price, on queues it has.
//!
//! A cost prices a draw or a dispatch ([`crate::device::ShaderCost`]): on a copy, or on a
//! pass that only clears, it would be ignored, so it is an error there. Its numbers are
//! bounded like every amount that reaches a simulated clock (see `limits`): at most 2^20
//! lane-cycles per pixel or thread (a thousand times a heavy shader's), 2^40 bytes read or
//! written, and a measured time above zero and at most one second. A compute queue is asked
//! for by compute passes only, on pipe 0 (six queues) or 1 (three queues) (CC-2).

use super::check::Check;
use super::error::SceneError;
use super::format::PassDef;
use super::limits::MAX_WORK;
use crate::device::COMPUTE_QUEUES_PER_PIPE;
use crate::model::{QueueKind, Work};

/// Most shading lane-cycles per pixel or thread a cost may give.
pub const MAX_CYCLES: u32 = 1 << 20;
/// Longest measured time a cost may give, microseconds (one second).
pub const MAX_TIME_US: f64 = 1_000_000.0;

/// Rule: pass definition `id`'s cost and compute queue are ones the device can honour.
pub fn pass(c: &Check, id: usize, p: &PassDef) -> Result<(), SceneError> {
    let err =
        |key: &str, message: String| c.out_of_range(c.loc.def_key(id, key, 0), Some(id), message);
    if let Some(cost) = &p.cost {
        if matches!(p.work, Work::Copy { .. } | Work::None) {
            return Err(err(
                "cost",
                "a cost prices a pass's Draw or Dispatch (direct or indirect); this pass has neither".to_owned(),
            ));
        }
        if let Some(cycles) = cost.cycles
            && !(1..=MAX_CYCLES).contains(&cycles)
        {
            return Err(err(
                "cycles",
                format!(
                    "cycles must be 1 to {MAX_CYCLES} lane-cycles per pixel or thread, not {cycles}"
                ),
            ));
        }
        for (key, n) in [
            ("read_bytes", cost.read_bytes),
            ("written_bytes", cost.written_bytes),
        ] {
            if n > MAX_WORK {
                return Err(err(
                    key,
                    format!("{key} must be at most {MAX_WORK} (2^40), not {n}"),
                ));
            }
        }
        if let Some(t) = cost.time_us
            && !(t.is_finite() && t > 0.0 && t <= MAX_TIME_US)
        {
            return Err(err(
                "time_us",
                format!(
                    "time_us must be a positive number of microseconds up to {MAX_TIME_US} \
                     (one second), not {t}"
                ),
            ));
        }
    }
    if let Some(q) = &p.compute_queue {
        if p.queue != QueueKind::Compute {
            return Err(err(
                "compute_queue",
                format!(
                    "compute_queue applies to passes on the Compute queue, not {:?}",
                    p.queue
                ),
            ));
        }
        if let Some(pipe) = q.pipe
            && pipe > 1
        {
            return Err(err(
                "pipe",
                format!("pipe must be 0 (below graphics) or 1 (above graphics) (CC-2), not {pipe}"),
            ));
        }
        // Without a pipe the queue is on the `compute_pipe` setting's: the index must exist
        // on both pipes.
        let queues = match q.pipe {
            Some(pipe) => COMPUTE_QUEUES_PER_PIPE[pipe as usize],
            None => COMPUTE_QUEUES_PER_PIPE[0].min(COMPUTE_QUEUES_PER_PIPE[1]),
        };
        if q.index >= queues {
            let on = q
                .pipe
                .map_or("either pipe".to_owned(), |p| format!("pipe {p}"));
            return Err(err(
                "index",
                format!(
                    "index must be 0 to {} on {on} (CC-2: pipe 0 has {} queues, pipe 1 has {}), \
                     not {}",
                    queues - 1,
                    COMPUTE_QUEUES_PER_PIPE[0],
                    COMPUTE_QUEUES_PER_PIPE[1],
                    q.index
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scene::check::tests::problem;

    const B: &str = r#"(name: "b", buffer: (size: 64, unordered_access: true)),"#;

    fn dispatch(extra: &str) -> Option<String> {
        problem(&format!(
            r#"{B} (name: "p", pass: (queue: Compute, uses: [(target: "b", access: UnorderedAccess)], work: Dispatch(threads: 64), {extra}))"#
        ))
    }

    #[test]
    fn costs_and_queues_in_range_load() {
        assert_eq!(dispatch("cost: (cycles: 900, read_bytes: 4096)"), None);
        assert_eq!(dispatch("cost: (time_us: 250.5)"), None);
        assert_eq!(dispatch("compute_queue: (pipe: 1, index: 2)"), None);
        assert_eq!(dispatch("compute_queue: (index: 2)"), None);
    }

    #[test]
    fn costs_out_of_range_are_located_errors() {
        let m = dispatch("cost: (cycles: 0)").unwrap();
        assert!(m.contains("cycles must be 1 to 1048576"), "{m}");
        assert!(m.starts_with("u.ron:1:"), "{m}");
        let m = dispatch("cost: (time_us: -1.0)").unwrap();
        assert!(m.contains("time_us must be a positive number"), "{m}");
        let m = dispatch("cost: (read_bytes: 1099511627777)").unwrap();
        assert!(m.contains("read_bytes must be at most"), "{m}");
        let none = format!(r#"{B} (name: "p", pass: (cost: (cycles: 4)))"#);
        assert!(problem(&none).is_some_and(|m| m.contains("prices a pass's Draw or Dispatch")));
    }

    #[test]
    fn compute_queues_the_device_lacks_are_errors() {
        let m = dispatch("compute_queue: (pipe: 1, index: 3)").unwrap();
        assert!(m.contains("index must be 0 to 2 on pipe 1"), "{m}");
        let m = dispatch("compute_queue: (index: 3)").unwrap();
        assert!(m.contains("on either pipe"), "{m}");
        let m = dispatch("compute_queue: (pipe: 2)").unwrap();
        assert!(m.contains("pipe must be 0"), "{m}");
        let graphics = format!(
            r#"{B} (name: "p", pass: (uses: [(target: "b", access: UnorderedAccess)], work: Dispatch(threads: 64), compute_queue: (index: 1)))"#
        );
        assert!(problem(&graphics).is_some_and(|m| m.contains("not Graphics")));
    }
}
