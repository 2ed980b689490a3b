//! The first timing model: each queue runs its commands in order, each command costing a
//! front-end overhead plus its work over the profile's rates. Deterministic: integer
//! nanoseconds derived from IEEE arithmetic on fixed inputs.

use super::Command;
use crate::barrier::Layout;

/// Rates of the simulated GPU. Defaults approximate a 2020-class console.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Front-end cost of any command, ns.
    pub command_ns: u64,
    /// Fixed cost of a draw call, ns.
    pub draw_ns: u64,
    /// Fixed cost of a dispatch, ns.
    pub dispatch_ns: u64,
    pub vertices_per_us: f64,
    pub pixels_per_us: f64,
    pub threads_per_us: f64,
    /// Graphics and compute engine memory bandwidth, bytes per microsecond.
    pub memory_bytes_per_us: f64,
    /// DMA engine bandwidth, bytes per microsecond.
    pub dma_bytes_per_us: f64,
    /// A full pipeline drain (idle) with its cache write-back and invalidation, ns.
    pub full_flush_ns: u64,
    /// A layout transition's fixed cost, ns.
    pub transition_ns: u64,
    /// Vertical blank period, ns (60 Hz).
    pub vsync_period_ns: u64,
}

impl Default for Profile {
    fn default() -> Self {
        Self {
            command_ns: 20,
            draw_ns: 400,
            dispatch_ns: 300,
            vertices_per_us: 8_000.0,
            pixels_per_us: 100_000.0,
            threads_per_us: 400_000.0,
            memory_bytes_per_us: 448_000.0,
            dma_bytes_per_us: 16_000.0,
            full_flush_ns: 2_000,
            transition_ns: 150,
            vsync_period_ns: 16_666_667,
        }
    }
}

fn ns(amount: f64, per_us: f64) -> u64 {
    if per_us <= 0.0 {
        return 0;
    }
    (amount / per_us * 1000.0).round() as u64
}

impl Profile {
    /// Duration of `cmd` on an idle engine. `bytes` resolves an object to its size, and
    /// `dma` says whether the command runs on a DMA engine.
    pub fn cost(&self, cmd: &Command, bytes: impl Fn(super::ObjectKey) -> u64, dma: bool) -> u64 {
        let work = match cmd {
            Command::Draw {
                draws,
                vertices,
                pixels,
            } => {
                *draws as u64 * self.draw_ns
                    + ns(*vertices as f64, self.vertices_per_us)
                    + ns(*pixels as f64, self.pixels_per_us)
            }
            Command::Dispatch {
                dispatches,
                threads,
            } => *dispatches as u64 * self.dispatch_ns + ns(*threads as f64, self.threads_per_us),
            Command::CopyResource { bytes: n, .. } => {
                let bw = if dma {
                    self.dma_bytes_per_us
                } else {
                    self.memory_bytes_per_us
                };
                ns(*n as f64, bw)
            }
            // Fast clears write metadata only: an eighth of the surface.
            Command::ClearRenderTarget(k)
            | Command::ClearDepthStencil(k)
            | Command::ClearUnorderedAccess(k) => {
                ns(bytes(*k) as f64 / 8.0, self.memory_bytes_per_us)
            }
            // Decompression reads and writes the whole surface (FS-4).
            Command::Decompress(k) => ns(2.0 * bytes(*k) as f64, self.memory_bytes_per_us),
            Command::Barrier(group) => {
                let global = if group.global.is_empty() {
                    0
                } else {
                    self.full_flush_ns
                };
                let transitions: u64 = group
                    .textures
                    .iter()
                    .filter(|t| t.layout_before != t.layout_after)
                    .map(|t| {
                        // Leaving a compressed layout for an uncompressed one decompresses.
                        let decompress = t.layout_before.may_be_compressed()
                            && !t.layout_after.may_be_compressed()
                            && t.layout_before != Layout::Undefined;
                        self.transition_ns
                            + if decompress {
                                ns(2.0 * bytes(t.resource) as f64, self.memory_bytes_per_us)
                            } else {
                                0
                            }
                    })
                    .sum();
                global + transitions
            }
            Command::Present(_) => 1_000,
            _ => 0,
        };
        self.command_ns + work
    }
}
