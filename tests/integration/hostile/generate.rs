//! A structure-aware generator of valid-but-hostile scenes: well-formed RON in the scene
//! format, names that mostly resolve, and numbers drawn from the edges of what the loader
//! accepts (and, one choice in a hundred, a step past them): one, the largest extent, buffer
//! and amount of work, `u64::MAX`; uses that fit their targets on every queue; releases of
//! resources still in use, of views and of their resources in either order (refused one way
//! round); resources added late and released before or after they are added; timelines
//! that disable, enable, resize and suspend at the same frames; faults aimed at passes.
//!
//! It is plain code over a seed, with no dependency, so the stable test
//! (`tests/integration/hostile.rs`) and the cargo-fuzz target (`fuzz/`, which takes its seed
//! and choices from the fuzzer's bytes) share it.

/// Where the generator's choices come from: a seeded xorshift64* for the test, the fuzzer's
/// bytes for the fuzz target.
pub trait Choices {
    /// The next 64 random bits.
    fn bits(&mut self) -> u64;

    /// A number below `n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.bits() % n as u64) as usize
        }
    }

    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.bits() % 100 < percent
    }

    /// One of `items`.
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// xorshift64*: deterministic on every machine.
pub struct Rng(pub u64);

impl Choices for Rng {
    fn bits(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// One choice in a hundred steps past what the loader accepts; the others stay on or
/// inside its edges, so most scenes load and the runtime meets the edges.
const INVALID_PERCENT: u64 = 1;

/// One of `valid` (edges included), or rarely one of `invalid`.
fn edge<T: Copy>(c: &mut impl Choices, valid: &[T], invalid: &[T]) -> T {
    if !invalid.is_empty() && c.chance(INVALID_PERCENT) {
        *c.pick(invalid)
    } else {
        *c.pick(valid)
    }
}

/// An extent side: usually small, sometimes at the limit.
fn side(c: &mut impl Choices) -> u32 {
    if c.chance(85) {
        1 + c.below(512) as u32
    } else {
        edge(c, &[1, 2, 16383, 16384], &[0, 16385, u32::MAX])
    }
}

/// An amount of work: usually modest, sometimes at 2^40.
fn amount(c: &mut impl Choices) -> u64 {
    if c.chance(85) {
        c.bits() % 4_000_000
    } else {
        edge(c, &[0, 1, 1 << 40], &[(1 << 40) + 1, u64::MAX])
    }
}

/// What a resource is, so that most uses fit it.
#[derive(Clone, Copy, PartialEq)]
enum Res {
    Color { uav: bool },
    Depth,
    Buffer { uav: bool },
}

/// The accesses that fit `res`.
fn accesses(res: Res, queue: &str) -> &'static [&'static str] {
    match (res, queue) {
        (_, "Copy") => &["CopySource", "CopyDest"],
        (Res::Color { uav: true }, "Compute") => &["ShaderRead", "UnorderedAccess"],
        (Res::Color { .. } | Res::Depth, "Compute") => &["ShaderRead"],
        (Res::Color { uav: true }, _) => &[
            "RenderTarget",
            "ShaderRead",
            "UnorderedAccess",
            "CopySource",
            "CopyDest",
        ],
        (Res::Color { .. }, _) => &["RenderTarget", "ShaderRead", "CopySource", "CopyDest"],
        (Res::Depth, _) => &["DepthWrite", "DepthRead", "ShaderRead"],
        (Res::Buffer { uav: true }, _) => &[
            "UnorderedAccess",
            "ShaderRead",
            "ConstantBuffer",
            "VertexBuffer",
            "IndexBuffer",
            "IndirectArgument",
            "CopySource",
            "CopyDest",
        ],
        (Res::Buffer { .. }, _) => &[
            "ShaderRead",
            "ConstantBuffer",
            "VertexBuffer",
            "IndexBuffer",
            "IndirectArgument",
            "CopySource",
            "CopyDest",
        ],
    }
}

const COLOR_FORMATS: [&str; 9] = [
    "Rgba8Unorm",
    "Bgra8Unorm",
    "Rgb10A2Unorm",
    "R11G11B10Float",
    "Rgba16Float",
    "Rg16Float",
    "R8Unorm",
    "R16Float",
    "R32Float",
];
const DEPTH_FORMATS: [&str; 3] = ["D32Float", "D24UnormS8Uint", "D32FloatS8X24Uint"];
const ROTATIONS: [&str; 3] = ["SavedViews", "FencedRing", "PlaceView"];
const FAULTS: [&str; 7] = [
    "skip-wait-on-present",
    "skip-rotation",
    "early-release",
    "skip-decompress",
    "skip-rebind",
    "skip-cache-flush",
    "drop-nth-barrier=1:0",
];

/// A hostile scene.
pub fn scene(c: &mut impl Choices) -> String {
    let res: Vec<Res> = (0..1 + c.below(6))
        .map(|_| match c.below(4) {
            0 => Res::Depth,
            1 => Res::Buffer { uav: c.chance(50) },
            _ => Res::Color { uav: c.chance(40) },
        })
        .collect();
    let views = c.below(3);
    let passes = 1 + c.below(6);
    let mut out = String::from("Scene(\n    settings: (");
    out += &format!("frames_in_flight: {}, ", edge(c, &[1, 2, 2, 3, 8], &[0, 9]));
    out += &format!("async_compute: {}, ", c.chance(50));
    out += &format!("compute_pipe: {}, ", edge(c, &[0, 0, 1], &[2]));
    out += &format!(
        "barriers: {}, ",
        c.pick(&["Enhanced", "Enhanced", "Legacy", "Conservative"])
    );
    let cpu = edge(
        c,
        &["1000.0", "0.001", "16666.0", "1000000.0"],
        &["1e300", "-1.0", "0.0"],
    );
    out += &format!("cpu_frame_us: {cpu}, ");
    if c.chance(20) {
        out += &format!(
            "compute_cu_limit: Some({}), ",
            edge(c, &[1, 4, 52, 256], &[0, 257])
        );
    }
    if c.chance(20) {
        out += &format!(
            "profile: \"{}\", ",
            edge(c, &["console-2013", "console-2020"], &["console-2030"])
        );
    }
    if c.chance(10) {
        let target = if c.chance(90) {
            format!("p{}", c.below(passes))
        } else {
            "nobody".into()
        };
        let fault = match c.below(3) {
            0 => c.pick(&FAULTS).to_string(),
            1 => format!("drop-barrier={target}"),
            _ => format!("drop-fence-wait={target}"),
        };
        out += &format!("fault: \"{fault}\", ");
    }
    out += "),\n    entities: [\n";
    out += &format!(
        "        (name: \"sc\", swap_chain: (buffers: {}, format: {}, extent: ({}, {}), vsync_interval: {}, rotation: {})),\n",
        edge(c, &[2, 2, 3, 4], &[1, 5]),
        edge(
            c,
            &["Bgra8Unorm", "Rgba8Unorm", "Rgb10A2Unorm"],
            &["D32Float"]
        ),
        side(c),
        side(c),
        edge(c, &[0, 1, 1, 4], &[5]),
        c.pick(&ROTATIONS),
    );
    for (i, &r) in res.iter().enumerate() {
        out += &format!("        (name: \"r{i}\", {}),\n", resource(c, r));
    }
    for v in 0..views {
        let of = c.below(res.len());
        let kind = match res[of] {
            Res::Depth => *c.pick(&["Dsv", "DsvReadOnly", "Srv"]),
            Res::Color { uav: true } => *c.pick(&["Rtv", "Srv", "Uav"]),
            Res::Color { .. } => *c.pick(&["Rtv", "Srv"]),
            Res::Buffer { uav: true } => *c.pick(&["Srv", "Uav"]),
            Res::Buffer { .. } => "Srv",
        };
        out += &format!("        (name: \"v{v}\", view: (of: \"r{of}\", kind: {kind})),\n");
    }
    for p in 0..passes {
        out += &format!("        (name: \"p{p}\", pass: ({})", pass(c, &res, p));
        out += if c.chance(10) {
            ", disabled: true),\n"
        } else {
            "),\n"
        };
    }
    out += "    ],\n    timeline: [\n";
    for k in 0..c.below(7) {
        let frame = *c.pick(&[0, 1, 1, 2, 3, 5, 8, u64::MAX]);
        let event = match c.below(7) {
            // A resource added late, released (before or after it is added) at random.
            6 => {
                let kind = match c.chance(50) {
                    true => Res::Buffer { uav: c.chance(50) },
                    false => Res::Depth,
                };
                let added = resource(c, kind);
                let release = *c.pick(&[0, 1, 4, 9]);
                out += &format!("        (frame: {release}, event: Release(\"a{k}\")),\n");
                format!("Add((name: \"a{k}\", {added}))")
            }
            // Twice the same name, or a view after its resource, is refused: rarely.
            0 | 1 if c.chance(50) && views > 0 => format!("Release(\"v{}\")", c.below(views)),
            0 | 1 => format!("Release(\"r{}\")", c.below(res.len())),
            2 => format!("Disable(\"p{}\")", c.below(passes)),
            3 => format!("Enable(\"p{}\")", c.below(passes)),
            4 => format!("Resize(chain: \"sc\", extent: ({}, {}))", side(c), side(c)),
            _ => format!("Suspend(frames: {})", edge(c, &[1, 2, 3, 3600], &[0, 3601])),
        };
        out += &format!("        (frame: {frame}, event: {event}),\n");
    }
    out += "    ],\n)\n";
    out
}

fn resource(c: &mut impl Choices, r: Res) -> String {
    let lifetime = c.pick(&["", ", lifetime: Transient", ", lifetime: Imported"]);
    let (format, flags) = match r {
        Res::Buffer { uav } => {
            let size = if c.chance(85) {
                1 + c.bits() % 1_000_000
            } else {
                edge(c, &[1, 4 << 30], &[0, (4 << 30) + 1, u64::MAX])
            };
            return format!("buffer: (size: {size}, unordered_access: {uav}){lifetime}");
        }
        Res::Depth => (*c.pick(&DEPTH_FORMATS), "depth_stencil: true".to_owned()),
        Res::Color { uav } => (
            *c.pick(&COLOR_FORMATS),
            format!(
                "render_target: true, unordered_access: {uav}, dcc: {}",
                c.chance(40)
            ),
        ),
    };
    let samples = edge(c, &[1, 1, 1, 1, 2, 4, 8], &[3]);
    let mips = if samples > 1 {
        1
    } else {
        edge(c, &[1, 1, 1, 2, 4], &[0, 16])
    };
    format!(
        "texture: (format: {format}, extent: ({}, {}), mips: {mips}, array_size: {}, samples: {samples}, flags: ({flags})){lifetime}",
        side(c),
        side(c),
        edge(c, &[1, 1, 1, 2, 6, 2048], &[0, 2049]),
    )
}

fn pass(c: &mut impl Choices, res: &[Res], p: usize) -> String {
    let queue = *c.pick(&[
        "Graphics", "Graphics", "Graphics", "Compute", "Compute", "Copy",
    ]);
    let mut uses = Vec::new();
    if queue == "Graphics" && c.chance(60) {
        uses.push(format!(
            "(target: \"sc\", access: RenderTarget, clear: {})",
            c.chance(50)
        ));
    }
    let mut used = Vec::new();
    for _ in 0..c.below(4) {
        let r = c.below(res.len());
        // A resource twice in one pass is refused when one use writes it (EB-1, EB-11):
        // keep that rare, so that most scenes still reach the runtime.
        if used.contains(&r) && c.chance(90) {
            continue;
        }
        used.push(r);
        let access = *c.pick(accesses(res[r], queue));
        let clear =
            matches!(access, "RenderTarget" | "DepthWrite" | "UnorderedAccess") && c.chance(30);
        uses.push(format!(
            "(target: \"r{r}\", access: {access}, clear: {clear})"
        ));
    }
    let work = match (queue, c.below(3)) {
        ("Copy", _) => format!("Copy(bytes: {})", amount(c)),
        ("Compute", _) | (_, 0) => format!(
            "Dispatch(dispatches: {}, threads: {})",
            1 + c.below(100),
            amount(c)
        ),
        (_, 1) => format!(
            "Draw(draws: {}, vertices: {}, pixels: {})",
            1 + c.below(100),
            amount(c),
            amount(c)
        ),
        _ => "None".to_owned(),
    };
    let after: Vec<String> = (0..p)
        .filter(|_| c.chance(15))
        .map(|q| format!("\"p{q}\""))
        .collect();
    format!(
        "queue: {queue}, uses: [{}], work: {work}, after: [{}]",
        uses.join(", "),
        after.join(", ")
    )
}
