//! Generated frame graphs: scenes of any size in a few named shapes, for benchmarking
//! frame-graph scheduling and for stress-testing the runtime (`fastframe gen`).
//!
//! Each shape is what a frame-graph scheduler meets at scale, in the form other schedulers'
//! benchmarks use, so figures compare:
//!
//! - `chain`: pass `i` writes texture `i` and reads textures `i-1` and `i-2`;
//! - `mixed`: the chain, with a fraction of the passes (every fourth by default) on
//!   asynchronous compute, so that fences and queue hand-overs appear;
//! - `layered`: layers of eight passes; each pass reads two outputs of the layer before and
//!   one from further back (a long-range dependency, like a history or a G-buffer read late);
//! - `fan-in`: groups of seven producers reading the last group's result, and one pass
//!   reducing their seven outputs (a downsample or light-binning shape).
//!
//! Graphics passes draw into their texture as a render target, compute passes write it as an
//! unordered-access view; every read is a shader read. A last pass reads the final outputs and
//! writes the swap chain, so the frame presents. A fraction of the textures can be transient
//! (created undefined each frame, EB-5). With mixed sizes, each texture is full, three-quarter,
//! half or quarter resolution, in a four- or eight-byte format (the spread of a real frame's
//! targets, 64 KiB to 8 MiB), which is what transient aliasing must pack. The same shape, size,
//! seed, fractions and sizes always give the same scene.

mod ecs;

pub use ecs::RESOURCE_BASE;

use glam::UVec2;

use crate::model::*;
use crate::scene::{EntityDef, PassDef, SceneFile, UseDef};

/// The shapes [`generate`] can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Chain,
    Mixed,
    Layered,
    FanIn,
}

impl Shape {
    /// Every shape, with its command-line name.
    pub const ALL: [(Shape, &'static str); 4] = [
        (Shape::Chain, "chain"),
        (Shape::Mixed, "mixed"),
        (Shape::Layered, "layered"),
        (Shape::FanIn, "fan-in"),
    ];

    /// The fraction of passes on asynchronous compute when none is asked for.
    pub fn default_compute(self) -> f64 {
        match self {
            Shape::Chain => 0.0,
            Shape::Mixed | Shape::Layered => 0.25,
            Shape::FanIn => 0.0,
        }
    }
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenSpec {
    pub shape: Shape,
    /// Passes, besides the one that writes the swap chain (at least 1).
    pub passes: usize,
    pub seed: u64,
    /// Fraction of passes on the asynchronous compute queue, 0 to 1.
    pub compute: f64,
    /// Fraction of textures that are transient, 0 to 1.
    pub transient: f64,
    /// Textures of mixed sizes and formats instead of all [`SIDE`] square RGBA8.
    pub mixed_sizes: bool,
}

/// Side of every generated texture (unless sizes are mixed) and of the swap chain, in pixels.
pub const SIDE: u32 = 256;

/// Sides of mixed-size textures: full, three-quarter, half and quarter of 1024.
const MIXED_SIDES: [u32; 4] = [1024, 768, 512, 256];

/// A deterministic stream of numbers (SplitMix64): the same seed, the same scene, on every
/// machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The textures each pass reads, by the index of the pass that wrote them.
fn reads(spec: &GenSpec, rng: &mut Rng) -> Vec<Vec<usize>> {
    let n = spec.passes;
    (0..n)
        .map(|i| match spec.shape {
            Shape::Chain | Shape::Mixed => (1..=2).filter_map(|k| i.checked_sub(k)).collect(),
            Shape::Layered => {
                let layer = i / 8;
                if layer == 0 {
                    return Vec::new();
                }
                let before = (layer - 1) * 8;
                let mut r = vec![before + rng.below(8), before + rng.below(8)];
                if layer >= 2 {
                    r.push(rng.below(before));
                }
                r.sort_unstable();
                r.dedup();
                r
            }
            Shape::FanIn => {
                let (group, k) = (i / 8, i % 8);
                match (group, k) {
                    (_, 7) => (group * 8..i).collect(),
                    (0, _) => Vec::new(),
                    _ => vec![group * 8 - 1],
                }
            }
        })
        .collect()
}

/// A generated graph before it is a scene: pass `i` writes texture `i` and reads
/// `reads[i]` (textures written by earlier passes). What benches hand other schedulers.
#[derive(Clone, Debug, PartialEq)]
pub struct GenGraph {
    pub reads: Vec<Vec<usize>>,
    /// Pass `i` runs on the asynchronous compute queue.
    pub compute: Vec<bool>,
    /// Texture `i` is transient.
    pub transient: Vec<bool>,
    /// Texture `i`'s side in pixels and format.
    pub size: Vec<(u32, Format)>,
}

impl GenGraph {
    /// Resource uses in all (one write and the reads of every pass).
    pub fn uses(&self) -> usize {
        self.reads.iter().map(|r| r.len() + 1).sum()
    }
}

/// The graph `spec` describes.
pub fn graph(spec: &GenSpec) -> GenGraph {
    let mut rng = Rng(spec.seed);
    let n = spec.passes.max(1);
    let spec = GenSpec { passes: n, ..*spec };
    let reads = reads(&spec, &mut rng);
    let compute = (0..n)
        .map(|i| match spec.shape {
            // A fixed cadence keeps the chain's fences evenly spaced.
            Shape::Mixed if spec.compute == Shape::Mixed.default_compute() => i % 4 == 3,
            _ => rng.chance(spec.compute),
        })
        .collect();
    let transient = (0..n).map(|_| rng.chance(spec.transient)).collect();
    // A stream of its own, so that mixing sizes changes nothing else.
    let mut sizes = Rng(spec.seed ^ 0x5EED_512E);
    let size = (0..n)
        .map(|_| match spec.mixed_sizes {
            false => (SIDE, Format::Rgba8Unorm),
            true => {
                let side = MIXED_SIDES[sizes.below(MIXED_SIDES.len())];
                let wide = sizes.chance(0.5);
                (
                    side,
                    if wide {
                        Format::Rgba16Float
                    } else {
                        Format::Rgba8Unorm
                    },
                )
            }
        })
        .collect();
    GenGraph {
        reads,
        compute,
        transient,
        size,
    }
}

/// The scene `spec` describes.
pub fn generate(spec: &GenSpec) -> SceneFile {
    let GenGraph {
        reads,
        compute,
        transient,
        size,
    } = graph(spec);
    let n = reads.len();
    let flags = TextureFlags {
        render_target: true,
        unordered_access: true,
        ..Default::default()
    };
    let mut entities = Vec::with_capacity(2 * n + 2);
    entities.push(EntityDef {
        name: "swapchain".into(),
        swap_chain: Some(SwapChain {
            buffers: 2,
            format: Format::Bgra8Unorm,
            extent: UVec2::splat(SIDE),
            vsync_interval: 0,
            rotation: Rotation::default(),
            unordered_access: false,
        }),
        ..Default::default()
    });
    for (i, &transient) in transient.iter().enumerate() {
        entities.push(EntityDef {
            name: format!("t{i}"),
            texture: Some(Texture::new_2d(size[i].1, UVec2::splat(size[i].0), flags)),
            lifetime: transient.then_some(Lifetime::Transient),
            ..Default::default()
        });
    }
    let read = |j: usize| UseDef {
        target: format!("t{j}"),
        access: UseAccess::ShaderRead,
        stages: None,
        clear: false,
        range: None,
    };
    let pixels = u64::from(SIDE * SIDE);
    for i in 0..n {
        let (queue, access, work) = if compute[i] {
            let work = Work::Dispatch {
                dispatches: 1,
                threads: pixels,
            };
            (QueueKind::Compute, UseAccess::UnorderedAccess, work)
        } else {
            let work = Work::Draw {
                draws: 1,
                vertices: 3,
                pixels,
            };
            (QueueKind::Graphics, UseAccess::RenderTarget, work)
        };
        let write = UseDef {
            target: format!("t{i}"),
            access,
            stages: None,
            clear: false,
            range: None,
        };
        let uses = std::iter::once(write)
            .chain(reads[i].iter().map(|&j| read(j)))
            .collect();
        entities.push(pass(format!("p{i}"), queue, uses, work));
    }
    // The frame ends by compositing its last outputs into the back buffer.
    let target = UseDef {
        target: "swapchain".into(),
        access: UseAccess::RenderTarget,
        stages: None,
        clear: true,
        range: None,
    };
    let last = (n.saturating_sub(8)..n).map(read);
    let work = Work::Draw {
        draws: 1,
        vertices: 3,
        pixels,
    };
    let uses = std::iter::once(target).chain(last).collect();
    entities.push(pass("present".into(), QueueKind::Graphics, uses, work));
    SceneFile {
        settings: Settings::default(),
        entities,
        ..Default::default()
    }
}

fn pass(name: String, queue: QueueKind, uses: Vec<UseDef>, work: Work) -> EntityDef {
    EntityDef {
        name,
        pass: Some(PassDef {
            queue,
            uses,
            work,
            after: Vec::new(),
            script: None,
            cost: None,
            compute_queue: None,
            queries: None,
        }),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(shape: Shape, passes: usize) -> GenSpec {
        GenSpec {
            shape,
            passes,
            seed: 7,
            compute: shape.default_compute(),
            transient: 0.25,
            mixed_sizes: false,
        }
    }

    #[test]
    fn reads_look_back_only_and_follow_the_shape() {
        for (shape, _) in Shape::ALL {
            let s = spec(shape, 100);
            let r = reads(&s, &mut Rng(s.seed));
            assert_eq!(r.len(), 100);
            for (i, reads) in r.iter().enumerate() {
                assert!(
                    reads.iter().all(|&j| j < i),
                    "{shape:?}: pass {i} reads {reads:?}"
                );
            }
            let counts: Vec<usize> = r.iter().map(Vec::len).collect();
            match shape {
                Shape::Chain | Shape::Mixed => assert_eq!(counts[2..], [2; 98][..]),
                Shape::Layered => assert!(counts[16..].iter().all(|&c| (2..=3).contains(&c))),
                Shape::FanIn => assert_eq!((counts[15], counts[9]), (7, 1)),
            }
        }
    }

    #[test]
    fn the_same_spec_gives_the_same_scene() {
        for (shape, _) in Shape::ALL {
            let a = generate(&spec(shape, 300));
            assert_eq!(a, generate(&spec(shape, 300)));
            let other = generate(&GenSpec {
                seed: 8,
                ..spec(shape, 300)
            });
            assert_ne!(a, other, "{shape:?}: the seed changes nothing");
            assert_eq!(a.entities.len(), 2 * 300 + 2);
        }
    }

    #[test]
    fn mixed_puts_every_fourth_pass_on_compute() {
        let scene = generate(&spec(Shape::Mixed, 12));
        let queues: Vec<QueueKind> = (scene.entities.iter())
            .filter_map(|e| e.pass.as_ref().map(|p| p.queue))
            .collect();
        let compute: Vec<usize> = (queues.iter().enumerate())
            .filter(|(_, q)| **q == QueueKind::Compute)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(compute, [3, 7, 11]);
    }
}
