//! A progress line on standard error for long runs: a 1,000,000-frame run was silent for
//! minutes. Shown when standard error is a terminal and the run has taken a second (redrawn
//! in place a few times a second), or always with `--progress` (then a line a second, for
//! logs). Standard output, which carries the summary, is never touched.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use super::out;
use crate::Runtime;
use crate::error::RuntimeError;

/// Run `frames` frames and finish, saying how far the run is when that is wanted.
pub fn run(rt: &mut Runtime, frames: u64, forced: bool) -> Result<(), RuntimeError> {
    let tty = std::io::stderr().is_terminal();
    let start = Instant::now();
    let mut last: Option<Instant> = None;
    let mut result = Ok(());
    for done in 1..=frames {
        if let Err(e) = rt.tick() {
            result = Err(e);
            break;
        }
        let now = Instant::now();
        let due = if tty {
            (forced || now - start >= Duration::from_secs(1))
                && last.is_none_or(|l| now - l >= Duration::from_millis(200))
        } else {
            forced && last.is_none_or(|l| now - l >= Duration::from_secs(1))
        };
        if due {
            let text = line(done, frames, start.elapsed());
            out::eprint(&if tty {
                format!("\r{text}\x1b[K")
            } else {
                format!("{text}\n")
            });
            last = Some(now);
        }
    }
    let result = result.and_then(|()| rt.finish());
    if last.is_some() || forced {
        let ran = rt.world.resource::<crate::report::RunStats>().frames;
        let text = format!(
            "{ran} of {frames} frames in {:.1} s",
            start.elapsed().as_secs_f64()
        );
        out::eprint(&if tty {
            format!("\r{text}\x1b[K\n")
        } else {
            format!("{text}\n")
        });
    }
    result
}

/// `frame 1200/100000 (1.2%), 4000 frames/s, 25 s left`.
fn line(done: u64, frames: u64, elapsed: Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let left = (frames - done) as f64 / rate.max(1e-9);
    format!(
        "frame {done}/{frames} ({:.1}%), {rate:.0} frames/s, {left:.0} s left",
        100.0 * done as f64 / frames.max(1) as f64
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_how_far_how_fast_and_how_long() {
        let l = line(250, 1000, Duration::from_secs(1));
        assert_eq!(l, "frame 250/1000 (25.0%), 250 frames/s, 3 s left");
    }
}
