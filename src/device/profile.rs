//! Device profiles: what makes one simulated GPU differ from another, as data.
//!
//! The timing model (see `sim/`) is the same for every GPU; a [`Profile`] supplies its
//! numbers: compute units and clock, memory and DMA bandwidth, what the front end spends on a
//! command, how fast the fixed-function units go, cache write-back and invalidation latencies,
//! vsync, and the hang timeout. Two profiles are bundled and selectable by name (scene setting
//! `profile`, command-line `--profile`):
//!
//! - `console-2013`: a 2013-class console. 12 compute units of 64 lanes at 853 MHz (768 ALUs,
//!   1.31 TFLOPS), 16 colour back-ends (ROPs), DDR3-2133 on a 256-bit bus (68.3 GB/s), four
//!   move engines sharing 25.6 GB/s. Sources: Microsoft's Xbox One SoC talk at Hot Chips 25
//!   (August 2013) and Digital Foundry's interview with the Xbox One architects (October 2013).
//!   The 32 MB of ESRAM is not modelled: every surface lives in main memory.
//! - `console-2020` (the default): a 2020-class console. 52 compute units at 1.825 GHz (12.15
//!   TFLOPS), 64 ROPs (116 Gpixel/s), 560 GB/s of GDDR6 bandwidth (the 10 GB "GPU optimal"
//!   pool; the other 6 GB at 336 GB/s are not modelled). Sources: Microsoft's Xbox Series X
//!   specification announcement (March 2020) and its Hot Chips 32 talk (August 2020). DMA
//!   engine bandwidth is not published; 32 GB/s is an assumption.
//!
//! Everything else is a model assumption, not a published figure, and is the same number of
//! GPU cycles on both profiles (so the older console is slower by its clock): the front end
//! spends 36 cycles per command packet, a draw launch 365 cycles and a dispatch launch 274; a
//! vertex costs 64 lane-cycles of shading, a pixel 64 and a compute thread 128; the geometry
//! front end sets up 2 (2013) or 4 (2020) vertices per clock; cache write-backs and
//! invalidations take a few hundred to a few thousand cycles (see [`CacheCosts`]). Both
//! profiles flip at 60 Hz, and both take work still running 3 s after a Suspend began for a
//! hang (CC-8: the system waits at suspend with a timeout of seconds; the 33.3 ms of one 30 Hz
//! frame is guidance for performance). Pipe-0 compute queues start limited to 4 CUs (CC-2).

/// Latencies of one cache's write-back and invalidation, nanoseconds (EB-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCost {
    pub writeback_ns: u64,
    pub invalidate_ns: u64,
}

/// Cache operation latencies per cache (EB-3). Write-backs of several caches run in parallel,
/// then their invalidations in parallel: a barrier pays the slowest of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheCosts {
    /// Colour back-end cache (render targets).
    pub color: CacheCost,
    /// Depth back-end cache.
    pub depth: CacheCost,
    /// The vector path L0/L1 (shader reads, UAVs, vertex fetch).
    pub vector: CacheCost,
    /// The scalar cache K$ (constants).
    pub scalar: CacheCost,
    /// The shared L2 (only for consumers outside it: copies across engines).
    pub l2: CacheCost,
}

/// The numbers of one simulated GPU. Times are integer nanoseconds; rates are per clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The name scenes and `--profile` select it by.
    pub name: String,
    /// Compute units shared by graphics and compute queues (CC-2).
    pub compute_units: u32,
    /// Shader lanes per compute unit.
    pub lanes_per_cu: u32,
    /// Engine clock, MHz.
    pub clock_mhz: u32,
    /// Memory bandwidth seen by the graphics and compute engines, bytes per microsecond.
    pub memory_bytes_per_us: u64,
    /// Bandwidth of one DMA engine, bytes per microsecond.
    pub dma_bytes_per_us: u64,
    /// Front-end time of any command packet, ns.
    pub command_ns: u64,
    /// Launch time of one draw call, ns (the draw's floor includes `draws * draw_ns`).
    pub draw_ns: u64,
    /// Launch time of one dispatch, ns.
    pub dispatch_ns: u64,
    /// Shading cost of a vertex, a pixel and a compute thread, lane-cycles.
    pub vertex_cycles: u32,
    pub pixel_cycles: u32,
    pub thread_cycles: u32,
    /// Geometry front-end rate, vertices per clock.
    pub vertices_per_clock: u32,
    /// Colour/depth back-end rate (ROPs), pixels per clock.
    pub pixels_per_clock: u32,
    /// Cache write-back and invalidation latencies (EB-3).
    pub caches: CacheCosts,
    /// CUs a pipe-0 compute queue may use until its limit is changed (CC-2).
    pub pipe0_cu_limit: u32,
    /// Work items a queue keeps in flight before its front end waits for one to finish.
    pub queue_depth: u32,
    /// Vertical blank period, ns.
    pub vsync_period_ns: u64,
    /// How long the system waits at Suspend for kicked-off work to finish before it takes the
    /// GPU for hung (CC-8), ns. A long work item outside a suspension is no hang.
    pub hang_timeout_ns: u64,
    /// The D3D12 enhanced Barrier API exists (EB-11: the device supports enhanced barriers).
    /// Seed 004: Xbox Series only; the 2013 console has legacy barriers alone.
    pub enhanced_barriers: bool,
}

/// Whether the bundled profile `name` has the enhanced Barrier API (EB-11, seed 004: the
/// Xbox Series has it, the 2013 console has legacy barriers alone); unknown names, which a
/// scene's load refuses, count as having it. Allocation-free, for per-frame callers.
pub fn has_enhanced_barriers(name: &str) -> bool {
    name != "console-2013"
}

/// Names of the bundled profiles, oldest first.
pub const PROFILE_NAMES: [&str; 2] = ["console-2013", "console-2020"];

/// The default profile's name.
pub const DEFAULT_PROFILE: &str = "console-2020";

/// 60 Hz, ns.
const VSYNC_60HZ_NS: u64 = 16_666_667;
/// The system's wait at Suspend for kicked-off work: "more than a few seconds" is a hang
/// (CC-8), ns. A compute workload should stay under one 30 Hz frame
/// ([`COMPUTE_WORKLOAD_GUIDANCE_NS`]) for performance; that is guidance, not this timeout.
const HANG_TIMEOUT_NS: u64 = 3_000_000_000;

/// One 30 Hz frame, the longest a compute workload should run for performance (CC-8), ns.
pub const COMPUTE_WORKLOAD_GUIDANCE_NS: u64 = 33_333_333;

/// Nanoseconds of `cycles` at `mhz`, rounded to nearest, at least 1 for a non-zero count.
fn cycles_ns(cycles: u64, mhz: u32) -> u64 {
    if cycles == 0 {
        return 0;
    }
    ((cycles * 1000 + mhz as u64 / 2) / (mhz.max(1) as u64)).max(1)
}

/// The cycle counts both bundled profiles share (model assumptions), at a given clock.
fn at_clock(
    name: &str,
    compute_units: u32,
    clock_mhz: u32,
    memory_bytes_per_us: u64,
    dma_bytes_per_us: u64,
) -> Profile {
    let ns = |cycles: u64| cycles_ns(cycles, clock_mhz);
    let cache = |writeback: u64, invalidate: u64| CacheCost {
        writeback_ns: ns(writeback),
        invalidate_ns: ns(invalidate),
    };
    Profile {
        name: name.to_owned(),
        compute_units,
        lanes_per_cu: 64,
        clock_mhz,
        memory_bytes_per_us,
        dma_bytes_per_us,
        command_ns: ns(36),
        draw_ns: ns(365),
        dispatch_ns: ns(274),
        vertex_cycles: 64,
        pixel_cycles: 64,
        thread_cycles: 128,
        vertices_per_clock: 4,
        pixels_per_clock: 64,
        caches: CacheCosts {
            color: cache(1825, 365),
            depth: cache(1825, 365),
            vector: cache(912, 547),
            scalar: cache(0, 182),
            l2: cache(9125, 1825),
        },
        pipe0_cu_limit: 4,
        queue_depth: 16,
        vsync_period_ns: VSYNC_60HZ_NS,
        hang_timeout_ns: HANG_TIMEOUT_NS,
        enhanced_barriers: true,
    }
}

impl Profile {
    /// A 2013-class console: 12 CUs at 853 MHz, 16 ROPs, 68.3 GB/s, move engines at 25.6 GB/s.
    pub fn console_2013() -> Profile {
        Profile {
            vertices_per_clock: 2,
            pixels_per_clock: 16,
            enhanced_barriers: has_enhanced_barriers("console-2013"),
            ..at_clock("console-2013", 12, 853, 68_300, 25_600)
        }
    }

    /// A 2020-class console: 52 CUs at 1.825 GHz, 64 ROPs, 560 GB/s (DMA 32 GB/s assumed).
    pub fn console_2020() -> Profile {
        at_clock("console-2020", 52, 1825, 560_000, 32_000)
    }

    /// A bundled profile by name, or `None` for an unknown name.
    pub fn by_name(name: &str) -> Option<Profile> {
        match name {
            "console-2013" => Some(Self::console_2013()),
            "console-2020" => Some(Self::console_2020()),
            _ => None,
        }
    }

    /// All compute units in milli-CUs, the unit of CU sharing.
    pub fn capacity_mcu(&self) -> u32 {
        self.compute_units.saturating_mul(1000).max(1)
    }

    /// Nanoseconds to move `bytes` at `bytes_per_us`, rounded up (0 bandwidth costs nothing).
    pub fn transfer_ns(bytes: u64, bytes_per_us: u64) -> u64 {
        if bytes_per_us == 0 {
            return 0;
        }
        ((bytes as u128 * 1000).div_ceil(bytes_per_us as u128)).min(u64::MAX as u128) as u64
    }

    /// Shading work of `lane_cycles` in milli-CU nanoseconds (one CU does `lanes_per_cu`
    /// lane-cycles per clock), rounded up.
    pub fn work_mcu_ns(&self, lane_cycles: u64) -> u64 {
        let per_cu = self.lanes_per_cu.max(1) as u128 * self.clock_mhz.max(1) as u128;
        ((lane_cycles as u128 * 1_000_000).div_ceil(per_cu)).min(u64::MAX as u128) as u64
    }

    /// Nanoseconds for `count` units at `per_clock` per clock, rounded up.
    pub fn rate_ns(&self, count: u64, per_clock: u32) -> u64 {
        let per_us = per_clock.max(1) as u128 * self.clock_mhz.max(1) as u128;
        ((count as u128 * 1000).div_ceil(per_us)).min(u64::MAX as u128) as u64
    }
}

impl Default for Profile {
    fn default() -> Self {
        Self::console_2020()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_profiles_carry_the_public_figures() {
        let old = Profile::by_name("console-2013").unwrap();
        assert_eq!((old.compute_units, old.clock_mhz), (12, 853));
        let new = Profile::by_name("console-2020").unwrap();
        assert_eq!((new.compute_units, new.clock_mhz), (52, 1825));
        assert_eq!(new.memory_bytes_per_us, 560_000);
        assert_eq!(Profile::default(), new);
        assert!(Profile::by_name("console-2030").is_none());
        for name in PROFILE_NAMES {
            let profile = Profile::by_name(name).unwrap();
            assert_eq!(profile.name, name);
            assert_eq!(profile.enhanced_barriers, has_enhanced_barriers(name));
        }
        // Same cycles, slower clock: the older console's front end is slower.
        assert!(old.command_ns > new.command_ns);
        assert_eq!(new.command_ns, 20);
        assert!(new.enhanced_barriers && !old.enhanced_barriers);
    }

    #[test]
    fn conversions_round_up() {
        let p = Profile {
            clock_mhz: 1000,
            lanes_per_cu: 64,
            ..Profile::default()
        };
        // 64 lane-cycles is one CU-cycle: 1 CU-ns at 1 GHz, 1000 milli-CU-ns.
        assert_eq!(p.work_mcu_ns(64), 1000);
        assert_eq!(p.rate_ns(10, 4), 3);
        assert_eq!(Profile::transfer_ns(1000, 1000), 1000);
        assert_eq!(Profile::transfer_ns(1, 3), 334);
        assert_eq!(Profile::transfer_ns(5, 0), 0);
    }
}
