//! A sample of per-frame numbers in fixed memory: mean, nearest-rank percentiles and maximum
//! over any number of frames.
//!
//! A run's statistics must not grow with its frames (a soak of a million frames holds what a
//! run of a thousand does), yet a short run's percentiles should be exact. A [`Sample`] keeps
//! its first [`EXACT`] values as they are, and its summary is then the one
//! [`Distribution::of`] gives for them; past that it moves every value into a histogram of
//! [`SUB_BUCKETS`] buckets per power of two (a relative width of 1/128), and a percentile is
//! the middle of its bucket, clamped to the values seen: within 0.4% of the exact one. The
//! mean stays a plain sum, the maximum exact.

use super::Distribution;

/// Values kept exactly before the sample turns into a histogram.
pub const EXACT: usize = 4096;

/// Histogram buckets per power of two.
pub const SUB_BUCKETS: usize = 128;

/// Powers of two the histogram covers: 2^MIN_EXP to 2^(MIN_EXP + EXPONENTS); values outside
/// fall into the first or last bucket (frame times are far inside: 1 ns to 100 days in us).
const MIN_EXP: i64 = -20;
const EXPONENTS: usize = 64;

/// Per-frame values in fixed memory.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    exact: Vec<f64>,
    /// Empty until more than [`EXACT`] values were added; then one count per bucket (the
    /// first also holds values of 0 and below), in as many bytes as the exact values took.
    buckets: Vec<u32>,
    count: u64,
    sum: f64,
    min: f64,
    max: f64,
}

fn bucket(v: f64) -> usize {
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    // A value's power of two and its top mantissa bits (IEEE 754 double).
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let sub = ((bits >> (52 - SUB_BUCKETS.trailing_zeros())) as usize) & (SUB_BUCKETS - 1);
    let e = (exp - MIN_EXP).clamp(0, EXPONENTS as i64 - 1) as usize;
    let sub = if exp < MIN_EXP {
        0
    } else if exp - MIN_EXP >= EXPONENTS as i64 {
        SUB_BUCKETS - 1
    } else {
        sub
    };
    e * SUB_BUCKETS + sub
}

/// The middle of a bucket.
fn middle(b: usize) -> f64 {
    let (e, sub) = (b / SUB_BUCKETS, b % SUB_BUCKETS);
    let base = 2f64.powi((e as i64 + MIN_EXP) as i32);
    base * (1.0 + (sub as f64 + 0.5) / SUB_BUCKETS as f64)
}

impl Sample {
    /// Add one value.
    pub fn push(&mut self, v: f64) {
        if self.count == 0 {
            self.min = v;
            self.max = v;
            self.exact.reserve_exact(EXACT);
        }
        self.count += 1;
        self.sum += v;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        if self.buckets.is_empty() && self.exact.len() < EXACT {
            self.exact.push(v);
            return;
        }
        if self.buckets.is_empty() {
            self.buckets = vec![0; EXPONENTS * SUB_BUCKETS];
            for x in std::mem::take(&mut self.exact) {
                self.count_in(x);
            }
        }
        self.count_in(v);
    }

    fn count_in(&mut self, v: f64) {
        if let Some(n) = self.buckets.get_mut(bucket(v)) {
            *n = n.saturating_add(1);
        }
    }

    /// Values added.
    pub fn len(&self) -> u64 {
        self.count
    }

    /// True when nothing was added.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Bytes the sample has allocated.
    pub fn heap_bytes(&self) -> usize {
        self.exact.capacity() * size_of::<f64>() + self.buckets.capacity() * size_of::<u32>()
    }

    /// Mean, p50, p99 and maximum: exact while the values are kept, else from the histogram.
    pub fn distribution(&self) -> Distribution {
        if self.buckets.is_empty() {
            return Distribution::of(&self.exact);
        }
        let n = self.count;
        let rank = |p: f64| -> f64 {
            let want = ((p * n as f64).ceil() as u64).clamp(1, n);
            let mut seen = 0u64;
            for (b, &c) in self.buckets.iter().enumerate() {
                seen += u64::from(c);
                if seen >= want {
                    return middle(b).clamp(self.min, self.max);
                }
            }
            self.max
        };
        Distribution {
            mean: self.sum / n as f64,
            p50: rank(0.50),
            p99: rank(0.99),
            max: self.max,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_while_small() {
        let mut s = Sample::default();
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        for &x in &v {
            s.push(x);
        }
        assert_eq!(s.distribution(), Distribution::of(&v));
    }

    #[test]
    fn percentiles_past_the_exact_values_are_close_in_fixed_memory() {
        let mut s = Sample::default();
        let values: Vec<f64> = (0..100_000)
            .map(|i| 10.0 + (i % 1000) as f64 * 0.37)
            .collect();
        for (i, &x) in values.iter().enumerate() {
            s.push(x);
            if i == 2 * EXACT {
                assert!(s.heap_bytes() < 64 * 1024, "{}", s.heap_bytes());
            }
        }
        let bytes = s.heap_bytes();
        assert_eq!(
            bytes,
            EXACT * size_of::<f64>(),
            "the histogram takes what the values did"
        );
        s.push(1.0);
        assert_eq!(s.heap_bytes(), bytes, "no growth with more values");
        let exact = Distribution::of(&values);
        let mut values = values;
        values.push(1.0);
        let exact_with = Distribution::of(&values);
        let d = s.distribution();
        assert_eq!(d.max, exact.max);
        assert!((d.mean - exact_with.mean).abs() < 1e-6 * exact_with.mean);
        for (got, want) in [(d.p50, exact_with.p50), (d.p99, exact_with.p99)] {
            assert!((got - want).abs() <= want / 200.0, "{got} vs {want}");
        }
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let mut s = Sample::default();
        for x in [0.0, -1.0, f64::NAN, 1e-300, 1e300, f64::INFINITY] {
            for _ in 0..EXACT {
                s.push(x);
            }
        }
        let d = s.distribution();
        assert!(d.max.is_infinite());
    }
}
