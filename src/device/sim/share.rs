//! Sharing the compute units (CC-2): strict priority between levels, fair shares within one.
//!
//! Compute pipe 1 comes first, then graphics, then compute pipe 0. Within a level the CUs
//! left over by the levels above are split max-min fairly: first among its queues (each
//! asking for the sum of its running items' caps, at most its own CU limit: 4 CUs on pipe 0
//! unless changed), then within each queue among its items, each asking for its cap. Shares
//! are integer milli-CUs; a remainder goes one milli-CU at a time to the earliest claimants,
//! so the split is deterministic.
//!
//! This runs at every event that changes who wants CUs (processor sharing): a pipe-1 dispatch
//! arriving beside a draw takes what it can use and the draw slows down (async compute
//! steals), while a pipe-0 dispatch only gets what graphics leaves idle, which for a
//! geometry-bound draw is most of the GPU (async compute overlaps).

use super::super::Profile;
use super::Gpu;

/// Queue indices by priority level: pipe 1, graphics, pipe 0 (see `QueueId::index`).
const LEVELS: [&[usize]; 3] = [&[7, 8, 9], &[0], &[1, 2, 3, 4, 5, 6]];

/// Reusable buffers, so sharing allocates nothing in steady state.
#[derive(Default)]
pub(crate) struct Scratch {
    demands: Vec<u32>,
    allot: Vec<u32>,
    caps: Vec<u32>,
    rates: Vec<u32>,
    slots: Vec<u32>,
}

/// Max-min fair split of `capacity` among `demands` into `out`: nobody gets more than asked,
/// and what someone does not need is shared among the rest.
pub(crate) fn water_fill(capacity: u32, demands: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.resize(demands.len(), 0);
    let total: u64 = demands.iter().map(|&d| d as u64).sum();
    if total <= capacity as u64 {
        out.copy_from_slice(demands);
        return;
    }
    let mut remaining = capacity;
    loop {
        let open = (0..demands.len()).filter(|&i| out[i] < demands[i]).count() as u32;
        if open == 0 {
            return;
        }
        let share = remaining / open;
        let mut settled = false;
        for i in 0..demands.len() {
            if out[i] < demands[i] && demands[i] <= share {
                out[i] = demands[i];
                remaining -= demands[i];
                settled = true;
            }
        }
        if !settled {
            let mut extra = remaining - share * open;
            for i in 0..demands.len() {
                if out[i] < demands[i] {
                    out[i] = share + u32::from(extra > 0);
                    extra = extra.saturating_sub(1);
                }
            }
            return;
        }
    }
}

impl Gpu {
    /// Give every running item its share of the compute units, from `now` on. Items whose
    /// share does not change keep their finishing time; only queues whose items changed are
    /// looked at again.
    pub(super) fn share(&mut self, profile: &Profile) {
        self.shares_dirty = false;
        let now = self.now;
        let mut remaining = profile.capacity_mcu();
        let mut s = std::mem::take(&mut self.scratch);
        for level in LEVELS {
            s.demands.clear();
            let mut any = false;
            for &qi in level {
                let q = &self.queues[qi];
                let want: u64 = (q.launched.iter())
                    .map(|&i| &self.items[i as usize])
                    .filter(|it| it.rem_at > 0)
                    .map(|it| it.w.cap as u64)
                    .sum();
                any |= want > 0;
                s.demands.push(want.min(q.cu_limit as u64) as u32);
            }
            if !any {
                continue;
            }
            water_fill(remaining, &s.demands, &mut s.allot);
            for (k, &qi) in level.iter().enumerate() {
                remaining -= s.allot[k];
                if s.demands[k] == 0 {
                    continue;
                }
                s.caps.clear();
                s.slots.clear();
                for &i in &self.queues[qi].launched {
                    let it = &self.items[i as usize];
                    if it.rem_at > 0 {
                        s.caps.push(it.w.cap);
                        s.slots.push(i);
                    }
                }
                water_fill(s.allot[k], &s.caps, &mut s.rates);
                let (mut changed, mut done_now) = (false, false);
                for (j, &i) in s.slots.iter().enumerate() {
                    let it = &mut self.items[i as usize];
                    if it.rate == s.rates[j] {
                        continue;
                    }
                    changed = true;
                    it.rem_at = it.rem(now);
                    // An item refilling its caches resumes where it would have (CC-4).
                    it.t_at = it.t_at.max(now);
                    it.rate = if it.rem_at == 0 { 0 } else { s.rates[j] };
                    it.work_done = if it.rem_at == 0 {
                        // Done exactly now: the next pass over the queue releases its CUs.
                        done_now = true;
                        now
                    } else if it.rate == 0 {
                        u64::MAX
                    } else {
                        it.t_at.saturating_add(it.rem_at.div_ceil(it.rate as u64))
                    };
                }
                if changed {
                    self.refresh_items_next(qi, profile);
                    self.refresh_next(qi);
                }
                if done_now {
                    self.wake(qi);
                }
            }
        }
        self.scratch = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn water_filling_is_max_min_fair() {
        let mut out = Vec::new();
        water_fill(10, &[2, 8, 8], &mut out);
        assert_eq!(out, vec![2, 4, 4]);
        water_fill(10, &[3, 3], &mut out);
        assert_eq!(out, vec![3, 3]);
        water_fill(10, &[9, 9, 9], &mut out);
        assert_eq!(out, vec![4, 3, 3]);
        water_fill(0, &[5], &mut out);
        assert_eq!(out, vec![0]);
    }
}
