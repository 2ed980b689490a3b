//! The title's early-out flag for long compute work (CC-8).
//!
//! The system waits at Suspend for kicked-off compute work, with a timeout of seconds after
//! which it takes the GPU for hung. The seed's advice for work that may run long is an
//! early-out path a CPU write can trigger: the shaders poll a flag in memory and stop when the
//! CPU raises it, which a title does in its suspend handler before calling Suspend. The flag
//! is CPU-written memory, so it changes at CPU time, not in any queue's order: the spans of
//! GPU time during which it is raised are kept here, and a work item with an early-out path
//! (`WorkItem::early_out`) that is running, or launches, while it is raised ends its shading
//! there. Work without one runs on, however long it takes; only the wait at a Suspend can
//! call it a hang.

/// When the flag is raised: spans `[raised, lowered)` of GPU time, in order.
#[derive(Clone, Debug, Default)]
pub struct EarlyOut {
    spans: Vec<(u64, u64)>,
}

impl EarlyOut {
    /// The CPU raises (`true`) or lowers the flag at `at`. Spans the simulation has passed
    /// (`now`) are forgotten: nothing launched from now on can see them.
    pub fn signal(&mut self, raised: bool, at: u64, now: u64) {
        self.spans.retain(|&(_, end)| end > now);
        let open = self.spans.last().is_some_and(|&(_, end)| end == u64::MAX);
        match (raised, open) {
            (true, false) => self.spans.push((at, u64::MAX)),
            (false, true) => {
                if let Some(last) = self.spans.last_mut() {
                    last.1 = at.max(last.0);
                }
            }
            _ => {}
        }
    }

    /// The first time from `now` on at which the flag is raised (`now` itself when it is
    /// raised now); `u64::MAX` when it is never raised again.
    pub fn raised_from(&self, now: u64) -> u64 {
        (self.spans.iter())
            .filter(|&&(start, end)| end > now && end > start)
            .map(|&(start, _)| start.max(now))
            .min()
            .unwrap_or(u64::MAX)
    }
}

impl super::Gpu {
    /// The CPU raises or lowers the early-out flag at CPU time `cpu_ns` (CC-8): work with an
    /// early-out path that runs, or launches, while it is raised ends its shading then.
    pub fn signal_early_out(
        &mut self,
        raised: bool,
        cpu_ns: u64,
        profile: &crate::device::Profile,
    ) {
        let at = cpu_ns.max(self.now);
        self.early_out.signal(raised, at, self.now);
        for qi in 0..self.queues.len() {
            self.refresh_items_next(qi, profile);
            self.refresh_next(qi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_seen_while_raised() {
        let mut f = EarlyOut::default();
        assert_eq!(f.raised_from(0), u64::MAX);
        f.signal(true, 100, 0);
        assert_eq!(f.raised_from(0), 100);
        assert_eq!(f.raised_from(150), 150);
        f.signal(false, 200, 0);
        assert_eq!(f.raised_from(150), 150);
        assert_eq!(f.raised_from(200), u64::MAX);
        // Raised again later: seen from then.
        f.signal(true, 300, 0);
        assert_eq!(f.raised_from(250), 300);
    }
}
