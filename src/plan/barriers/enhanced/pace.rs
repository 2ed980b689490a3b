//! Threads only where they pay: the planner's choice between walking a graph on one thread
//! and walking two halves at once, made from what each has cost on this machine.
//!
//! A second thread pays on an idle multi-core machine and loses badly on a loaded one: waking
//! a core takes tens of microseconds, and two threads sharing a busy core's time each walk
//! slower than one alone (3 to 8 times slower than one thread was measured on a loaded 2-core
//! machine). No size threshold is right on both, so the threshold only says where two threads
//! *may* pay, and [`Pace`] keeps the cost per use of each way, as measured on the plans it
//! made, and picks the cheaper. Two threads are tried again now and then (after 1, 2, 4 ... up
//! to 64 plans on one thread), so a machine whose load went away gets them back, while on a
//! machine where they lose, at most one plan in 64 pays for the probe. The choice changes
//! only speed: two workers plan exactly what one does.

use std::time::Duration;

/// Plans on one thread before two are tried again, at most.
const MAX_BACKOFF: u32 = 64;

/// How the last plans went, one thread against two.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    /// Nanoseconds per use of the latest walk each way: one thread, two threads.
    single: Option<f64>,
    parallel: Option<f64>,
    /// Plans left on one thread before two are tried again, and the wait after the next
    /// loss.
    wait: u32,
    backoff: u32,
    /// Two threads above the threshold whatever they cost (tests that compare both ways).
    forced: bool,
}

impl Pace {
    /// A pace that always picks two threads above the threshold.
    #[cfg(test)]
    pub fn forced() -> Pace {
        Pace {
            forced: true,
            ..Default::default()
        }
    }

    /// Whether to walk `uses` uses on two threads, given that two may pay from `from` uses;
    /// call [`record`](Self::record) with what the walk cost.
    pub fn two_threads(&mut self, uses: usize, from: Option<usize>) -> bool {
        if from.is_none_or(|m| uses < m) {
            return false;
        }
        // One thread first, so two have something to beat.
        if self.forced {
            return true;
        }
        if self.single.is_none() {
            return false;
        }
        if self.wait > 0 {
            self.wait -= 1;
            return false;
        }
        true
    }

    /// A walk of `uses` uses took `took`, on two threads or one.
    pub fn record(&mut self, two: bool, uses: usize, took: Duration) {
        let per_use = took.as_nanos() as f64 / uses.max(1) as f64;
        if !two {
            self.single = Some(per_use);
            return;
        }
        self.parallel = Some(per_use);
        if self.single.is_some_and(|single| per_use >= single) {
            self.backoff = (self.backoff * 2).clamp(1, MAX_BACKOFF);
            self.wait = self.backoff;
        } else {
            self.backoff = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FROM: Option<usize> = Some(1_000);

    fn plan(pace: &mut Pace, single_us: u64, parallel_us: u64) -> bool {
        let two = pace.two_threads(10_000, FROM);
        let took = if two { parallel_us } else { single_us };
        pace.record(two, 10_000, Duration::from_micros(took));
        two
    }

    /// Small graphs and planners without a threshold never use two threads.
    #[test]
    fn below_the_threshold_one_thread_walks() {
        let mut pace = Pace::default();
        pace.record(false, 10, Duration::from_micros(1));
        assert!(!pace.two_threads(999, FROM));
        assert!(!pace.two_threads(1_000_000, None));
    }

    /// Where two threads are faster, every plan after the first uses them.
    #[test]
    fn two_threads_are_kept_while_they_pay() {
        let mut pace = Pace::default();
        let used: Vec<bool> = (0..6).map(|_| plan(&mut pace, 100, 60)).collect();
        assert_eq!(used, [false, true, true, true, true, true]);
    }

    /// On a loaded machine, where two threads lose, they are tried again ever more rarely:
    /// after 1, 2, 4 ... plans, and never less often than every 64 plans.
    #[test]
    fn losing_two_threads_back_off_to_one_probe_in_64() {
        let mut pace = Pace::default();
        let used: Vec<bool> = (0..400).map(|_| plan(&mut pace, 100, 500)).collect();
        let probes: Vec<usize> = (used.iter().enumerate())
            .filter(|(_, t)| **t)
            .map(|(i, _)| i)
            .collect();
        let gaps: Vec<usize> = probes.windows(2).map(|w| w[1] - w[0] - 1).collect();
        assert_eq!(&gaps[..7], [1, 2, 4, 8, 16, 32, 64]);
        assert!(gaps[7..].iter().all(|&g| g == 64), "{gaps:?}");
        assert!(
            probes.len() <= used.len() / 65 + 8,
            "few plans pay for probes"
        );
    }

    /// When the load goes away, the next probe wins and two threads stay.
    #[test]
    fn two_threads_come_back_when_they_pay_again() {
        let mut pace = Pace::default();
        for _ in 0..20 {
            plan(&mut pace, 100, 500);
        }
        let used: Vec<bool> = (0..40).map(|_| plan(&mut pace, 100, 60)).collect();
        let first = used
            .iter()
            .position(|&t| t)
            .expect("a probe within 40 plans");
        assert!(used[first..].iter().all(|&t| t));
    }
}
