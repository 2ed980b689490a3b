//! Distributions in fixed memory: a long run must not keep a number per frame.
//!
//! GPU figures are simulated and deterministic, and a steady scene repeats the same few
//! values frame after frame, so [`Sample`] keeps each distinct value with its count: exact
//! nearest-rank percentiles in memory bounded by the values that occur, not the frames. CPU
//! tick times are measured and never repeat exactly, so [`LogHistogram`] keeps counts in
//! buckets 1% wide: percentiles within 1%, memory bounded by the range (a few hundred buckets
//! from a microsecond to a minute).

use std::collections::BTreeMap;

use super::Distribution;

/// Nearest-rank percentile `p` of counted values, in order.
fn rank(values: impl Iterator<Item = (u64, u64)>, total: u64, p: f64) -> u64 {
    let want = ((p * total as f64).ceil() as u64).clamp(1, total.max(1));
    let mut seen = 0;
    let mut last = 0;
    for (v, n) in values {
        seen += n;
        last = v;
        if seen >= want {
            break;
        }
    }
    last
}

/// Exact values with their counts, nanoseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    counts: BTreeMap<u64, u64>,
    len: u64,
    sum: u128,
}

impl Sample {
    pub fn push(&mut self, ns: u64) {
        *self.counts.entry(ns).or_default() += 1;
        self.len += 1;
        self.sum += ns as u128;
    }

    /// Values pushed.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Distinct values kept.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// Mean and nearest-rank percentiles, microseconds (as [`Distribution::of`] gives them
    /// for the values one by one).
    pub fn distribution_us(&self) -> Distribution {
        if self.len == 0 {
            return Distribution::default();
        }
        let us = |ns: u64| ns as f64 / 1000.0;
        let at = |p| us(rank(self.counts.iter().map(|(&v, &n)| (v, n)), self.len, p));
        Distribution {
            mean: self.sum as f64 / 1000.0 / self.len as f64,
            p50: at(0.50),
            p99: at(0.99),
            max: us(self.counts.last_key_value().map_or(0, |(&v, _)| v)),
        }
    }
}

/// Counts in buckets 1% wide, nanoseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogHistogram {
    buckets: BTreeMap<u32, u64>,
    len: u64,
    sum: u128,
    max: u64,
}

const GROWTH: f64 = 1.01;

impl LogHistogram {
    pub fn record(&mut self, ns: u64) {
        let bucket = ((ns.max(1) as f64).ln() / GROWTH.ln()) as u32;
        *self.buckets.entry(bucket).or_default() += 1;
        self.len += 1;
        self.sum += ns as u128;
        self.max = self.max.max(ns);
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Buckets kept.
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// Exact mean and maximum; percentiles at their bucket's middle (within 1%),
    /// microseconds.
    pub fn distribution_us(&self) -> Distribution {
        if self.len == 0 {
            return Distribution::default();
        }
        let middle = |b: u64| GROWTH.powf(b as f64 + 0.5) / 1000.0;
        let at = |p| {
            middle(rank(
                self.buckets.iter().map(|(&b, &n)| (b as u64, n)),
                self.len,
                p,
            ))
        };
        Distribution {
            mean: self.sum as f64 / 1000.0 / self.len as f64,
            p50: at(0.50).min(self.max as f64 / 1000.0),
            p99: at(0.99).min(self.max as f64 / 1000.0),
            max: self.max as f64 / 1000.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample gives what the values one by one give, in memory for its distinct values.
    #[test]
    fn a_sample_is_exact_and_keeps_distinct_values_only() {
        let mut s = Sample::default();
        let values: Vec<u64> = (0..10_000).map(|i| 1_000 * (1 + i % 7)).collect();
        for &v in &values {
            s.push(v);
        }
        let one_by_one: Vec<f64> = values.iter().map(|&v| v as f64 / 1000.0).collect();
        assert_eq!(s.distribution_us(), Distribution::of(&one_by_one));
        assert_eq!((s.len(), s.distinct()), (10_000, 7));
        assert_eq!(Sample::default().distribution_us(), Distribution::default());
    }

    #[test]
    fn a_histogram_is_within_a_percent_in_few_buckets() {
        let mut h = LogHistogram::default();
        let values: Vec<u64> = (1..=100_000u64).map(|i| 500 + i * 37 % 900_000).collect();
        for &v in &values {
            h.record(v);
        }
        let exact = Distribution::of(
            &values
                .iter()
                .map(|&v| v as f64 / 1000.0)
                .collect::<Vec<_>>(),
        );
        let d = h.distribution_us();
        assert!((d.mean - exact.mean).abs() < 1e-6 * exact.mean);
        assert_eq!(d.max, exact.max);
        for (a, b) in [(d.p50, exact.p50), (d.p99, exact.p99)] {
            assert!((a - b).abs() <= 0.01 * b, "{a} vs {b}");
        }
        assert!(h.buckets() < 800, "{}", h.buckets());
    }
}
