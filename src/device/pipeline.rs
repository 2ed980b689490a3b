//! What a pipeline's shaders cost, where the title says so.
//!
//! Without it a draw costs the profile's fixed lane-cycles per vertex and per pixel and a
//! dispatch its fixed lane-cycles per thread, which makes every pass as cheap as the simplest
//! shader: frames rebuilt from published studies then run several times faster than their
//! sources. A pipeline state may carry a [`ShaderCost`] instead, registered with the device
//! under the pipeline's id ([`super::Device::set_pipeline_cost`]) as a real driver learns a
//! pipeline's shaders when it is created. Draws and dispatches issued while that pipeline is
//! bound (`SetPipelineState`, until `ClearState`, `Present` or `Resume` unbind it, FS-11) are
//! priced by it:
//!
//! - `cycles`: shading lane-cycles per pixel (draws) or per thread (dispatches), in place of
//!   the profile's; vertices keep the profile's cost. This is work on the compute units,
//!   shared with whatever else runs (CC-2).
//! - `bytes`: memory traffic of one draw or dispatch (reads and writes). Moving it takes
//!   `bytes / bandwidth` however many CUs the item gets: a floor, like the fixed-function
//!   units'. Concurrent items do not divide the bandwidth between them (a limitation of the
//!   model: two memory-bound passes overlap as if each had the bus to itself).
//! - `time_ns`: a measured duration. The item takes at least that long, and its shading
//!   (its pixels or threads at their cycles) is spread over that time, so it holds only the
//!   CUs that shading needs and leaves the rest to other queues, as a measured pass that is
//!   not ALU-bound does.
//!
//! An item's time alone on the GPU is then the longest of its fixed-function floor, its
//! memory floor, its measured time and its shading over the CUs its queue may use.

use super::Profile;

/// What one draw or dispatch of a pipeline costs (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShaderCost {
    /// Shading lane-cycles per pixel or thread; `None` keeps the profile's.
    pub cycles: Option<u32>,
    /// Bytes read and written by one work item.
    pub bytes: u64,
    /// Measured duration of one work item, ns (0: none given).
    pub time_ns: u64,
}

impl ShaderCost {
    /// The cost of a pass as a scene gives it: cycles, bytes read and written, and a measured
    /// time in microseconds (rounded to the nanosecond; the loader bounds it).
    pub fn new(cycles: Option<u32>, read: u64, written: u64, time_us: Option<f64>) -> Self {
        let time_ns = time_us
            .filter(|t| t.is_finite() && *t > 0.0)
            .map_or(0, |t| (t * 1000.0).round().min(u64::MAX as f64) as u64);
        ShaderCost {
            cycles,
            bytes: read.saturating_add(written),
            time_ns,
        }
    }

    /// The floor this cost adds to an item: its memory traffic at the profile's bandwidth,
    /// or its measured time, whichever is longer.
    pub fn floor_ns(&self, profile: &Profile) -> u64 {
        Profile::transfer_ns(self.bytes, profile.memory_bytes_per_us).max(self.time_ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_floors_at_its_bytes_or_its_measured_time() {
        let p = Profile::default();
        // 560 MB at 560 GB/s is one millisecond.
        let bytes = ShaderCost::new(None, 280_000_000, 280_000_000, None);
        assert_eq!(bytes.floor_ns(&p), 1_000_000);
        let timed = ShaderCost::new(Some(200), 0, 0, Some(1500.4));
        assert_eq!(timed.time_ns, 1_500_400);
        assert_eq!(timed.floor_ns(&p), 1_500_400);
        let both = ShaderCost::new(None, 560_000_000, 0, Some(10.0));
        assert_eq!(both.floor_ns(&p), 1_000_000);
        assert_eq!(ShaderCost::new(None, 0, 0, Some(f64::NAN)).time_ns, 0);
    }
}
