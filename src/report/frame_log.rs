//! Frames in fixed memory: the frames that may still receive records are kept whole (their
//! span and book, [`super::frames`]); a frame no more records will come for is folded into
//! run totals and distributions ([`super::sample`]) and forgotten. Frames close in order, so
//! the frame time (how much later a frame finished than every frame before it) is known
//! when a frame closes.
//!
//! A record later than any frame in flight (for a frame already closed) still counts: its
//! GPU time adds to the totals, as a frame closed twice adds up, without a second frame.

use std::collections::BTreeMap;

use super::Distribution;
use super::frames::{FrameBook, FrameGpu};
use super::sample::Sample;
use crate::device::Executed;

/// First command start and last command end.
type Span = (u64, u64);

/// GPU numbers over frames: sums, and the distribution of frame work.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuTotals {
    /// Frames in which a command executed.
    pub frames: u64,
    pub work: Sample,
    pub work_ns: u64,
    pub critical_ns: u64,
    pub critical_barrier_ns: u64,
    pub lower_bound_ns: u64,
    pub barrier_ns: u64,
    pub ideal_ns: u64,
    pub overlap_ns: u64,
    pub busy_ns: [u64; 3],
}

impl GpuTotals {
    fn add(&mut self, g: &FrameGpu, new_frame: bool) {
        if g.work_ns == 0 {
            return;
        }
        if new_frame {
            self.frames += 1;
            self.work.push(g.work_ns);
        }
        self.work_ns += g.work_ns;
        self.critical_ns += g.critical_ns;
        self.critical_barrier_ns += g.critical_barrier_ns;
        self.lower_bound_ns += g.lower_bound_ns();
        self.barrier_ns += g.barrier_ns;
        self.ideal_ns += g.ideal_ns();
        self.overlap_ns += g.overlap_ns;
        for (a, b) in self.busy_ns.iter_mut().zip(g.busy_ns) {
            *a += b;
        }
    }
}

/// Frame times of closed frames.
#[derive(Clone, Debug, Default, PartialEq)]
struct Closed {
    /// The first frame's start, and the latest end of any frame so far.
    first_start: Option<u64>,
    last_end: u64,
    frame: Sample,
    span: Sample,
    gpu: GpuTotals,
    /// The newest frame closed: number, span, the end of the frames before it.
    newest: Option<(u64, Span, u64)>,
    newest_gpu: FrameGpu,
}

impl Closed {
    fn add(&mut self, frame: u64, span: Span, g: &FrameGpu) {
        let late = self.newest.is_some_and(|(f, _, _)| frame <= f);
        self.gpu.add(g, !late);
        if late {
            self.last_end = self.last_end.max(span.1);
            return;
        }
        let prev_end = self.first_start.map_or(span.0, |_| self.last_end);
        self.first_start.get_or_insert(span.0);
        self.frame.push(span.1.saturating_sub(prev_end));
        self.span.push(span.1 - span.0);
        self.last_end = self.last_end.max(span.1);
        self.newest = Some((frame, span, prev_end));
        self.newest_gpu = *g;
    }
}

/// Open frames and what the closed ones added up to.
#[derive(Clone, Debug, Default)]
pub struct FrameLog {
    open: BTreeMap<u64, (Span, FrameBook)>,
    closed: Closed,
}

impl FrameLog {
    /// Fold a record into its frame.
    pub fn add(&mut self, x: &Executed) {
        let (span, book) = (self.open)
            .entry(x.frame)
            .or_insert_with(|| ((u64::MAX, 0), FrameBook::default()));
        span.0 = span.0.min(x.start_ns);
        span.1 = span.1.max(x.end_ns);
        book.add(x);
    }

    /// Close every frame older than `keep` frames before `newest`.
    pub fn close_before(&mut self, newest: u64, keep: u64) {
        while let Some((&f, _)) = self.open.first_key_value() {
            if f + keep > newest {
                break;
            }
            if let Some((span, book)) = self.open.remove(&f) {
                self.closed.add(f, span, &book.close());
            }
        }
    }

    /// The earliest start of an open frame (records still to come start no earlier).
    pub fn watermark(&self) -> u64 {
        self.open
            .values()
            .map(|(s, _)| s.0)
            .min()
            .unwrap_or(u64::MAX)
    }

    /// Everything closed, the open frames too (a copy: the log goes on).
    fn all(&self) -> Closed {
        let mut c = self.closed.clone();
        for (&f, (span, book)) in &self.open {
            c.add(f, *span, &book.close());
        }
        c
    }

    /// Frame time (each frame's end after the ends of all before it), microseconds, and the
    /// number of frames timed.
    pub fn frame_time(&self) -> (Distribution, u64) {
        let c = self.all();
        (c.frame.distribution_us(), c.frame.len())
    }

    /// Frame latency (first command start to last command end), microseconds.
    pub fn frame_span(&self) -> Distribution {
        self.all().span.distribution_us()
    }

    /// GPU numbers over every frame.
    pub fn gpu(&self) -> GpuTotals {
        self.all().gpu
    }

    /// The first frame's start and the last frame's end.
    pub fn run_span(&self) -> Option<Span> {
        let c = self.all();
        c.first_start.map(|s| (s, c.last_end))
    }

    /// The newest frame: its number and the interval its frame time measures.
    pub fn newest_window(&self) -> Option<(u64, Span)> {
        let c = self.all();
        c.newest.map(|(f, span, prev_end)| {
            let from = if prev_end < span.1 { prev_end } else { span.0 };
            (f, (from, span.1))
        })
    }

    /// The GPU numbers of the newest closed frame (for per-frame plots).
    pub fn newest_closed(&self) -> FrameGpu {
        self.closed.newest_gpu
    }

    /// What the log holds: open frames and the distinct values of its distributions. It
    /// does not grow with frames once the frames repeat.
    pub fn held(&self) -> usize {
        let c = &self.closed;
        self.open.len() + c.frame.distinct() + c.span.distinct() + c.gpu.work.distinct()
    }
}
