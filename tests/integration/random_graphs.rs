//! Seeded random frame graphs: every correct graph validates clean, and dropping any one
//! barrier or fence wait the runtime emits is caught (the planner emits nothing redundant
//! and the validation layer misses nothing), in every order passes can run in.

use fastframe::Runtime;
use fastframe::device::{Command, Device};
use fastframe::model::Order;

/// xorshift64*: a tiny deterministic generator, so the corpus is the same on every machine.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Color,
    Depth,
    Buffer,
}

#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Fresh,
    Written,
    Frozen,
}

/// How a corpus draws its scenes.
#[derive(Clone, Copy)]
pub(crate) struct Mix {
    /// Chance in percent that a resource is transient.
    pub transient: u64,
    /// Passes before the final one: at least 3, below `3 + passes`.
    pub passes: usize,
    /// Textures of two sizes, so that placements share parts of each other's bytes.
    pub sizes: bool,
}

const PLAIN: Mix = Mix {
    transient: 50,
    passes: 8,
    sizes: false,
};

/// The subresources a use names: `None` for the whole resource, else one part of a colour
/// texture with two mips or two array slices (EB-6: planned, barriered and validated per
/// subresource).
type Mip = Option<usize>;

/// The parts a use covers, as indices into its resource's per-part phases.
fn covered(mip: Mip, mips: usize) -> std::ops::Range<usize> {
    match mip {
        Some(m) => m..m + 1,
        None => 0..mips,
    }
}

/// A use's text: its target, access, whether it clears and, for one part, its `range` (an
/// array slice where `slices`, else a mip).
fn use_text(r: usize, mip: Mip, slices: bool, access: &str, clear: bool) -> String {
    let range = match mip {
        Some(m) if slices => format!(", range: (first_slice: {m}, slice_count: 1)"),
        Some(m) => format!(", range: (first_mip: {m}, mip_count: 1)"),
        None => String::new(),
    };
    let clear = if clear { ", clear: true" } else { "" };
    format!("(target: \"r{r}\", access: {access}{clear}{range})")
}

/// A random scene on random queues: resources are written, read, and often written again
/// after being read (a new version), imported ones are sometimes read before their first
/// write of the frame (history: the previous frame's version), colour textures often have
/// two mips or two array slices that passes use one at a time, and the frame sometimes ends with a dispatch
/// writing the back buffer through a UAV.
fn scene(seed: u64) -> String {
    scene_with(seed, PLAIN)
}

/// [`scene`] drawn with `mix`.
pub(crate) fn scene_with(seed: u64, mix: Mix) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = String::from("Scene(\n    settings: (frames_in_flight: 2),\n    entities: [\n");
    let rotation = ["SavedViews", "FencedRing", "PlaceView"][rng.below(3)];
    let buffers = 2 + rng.below(2);
    let vsync = rng.below(2);
    // Drawn after the resources so that seeds without it keep the corpus they had.
    let mut chain_uav = None;
    let chain_at = out.len();
    let nres = 3 + rng.below(6);
    let mut kinds = Vec::new();
    let mut imported = Vec::new();
    let mut mips = Vec::new();
    let mut slices = Vec::new();
    for i in 0..nres {
        let kind = [Kind::Color, Kind::Color, Kind::Depth, Kind::Buffer][rng.below(4)];
        let lifetime = if rng.chance(mix.transient) {
            "Transient"
        } else {
            "Imported"
        };
        let side = if mix.sizes && rng.chance(50) {
            128
        } else {
            256
        };
        let levels = if kind == Kind::Color && rng.chance(40) {
            2
        } else {
            1
        };
        let layered = levels == 2 && rng.chance(40);
        let shape = match layered {
            true => "array_size: 2".to_owned(),
            false => format!("mips: {levels}"),
        };
        let def = match kind {
            Kind::Color => format!(
                "texture: (format: Rgba16Float, extent: ({side}, {side}), {shape}, flags: (render_target: true, unordered_access: true, dcc: true))"
            ),
            Kind::Depth => format!(
                "texture: (format: D32Float, extent: ({side}, {side}), flags: (depth_stencil: true))"
            ),
            Kind::Buffer => "buffer: (size: 65536, unordered_access: true)".to_owned(),
        };
        out += &format!("        (name: \"r{i}\", {def}, lifetime: {lifetime}),\n");
        kinds.push(kind);
        imported.push(lifetime == "Imported");
        mips.push(levels);
        slices.push(layered);
    }
    // A use of resource `r` names one mip of a two-mip texture half the time (never a copy's,
    // which moves whole resources).
    let pick_mip = |rng: &mut Rng, r: usize, copy: bool| -> Mip {
        (mips[r] == 2 && !copy && rng.chance(50)).then(|| rng.below(2))
    };
    let mut phase: Vec<[Phase; 2]> = vec![[Phase::Fresh; 2]; nres];
    let npasses = 3 + rng.below(mix.passes);
    for p in 0..npasses {
        let queue = match rng.below(20) {
            0..=9 => "Graphics",
            10..=16 => "Compute",
            _ => "Copy",
        };
        let mut uses = Vec::new();
        let mut used = Vec::new();
        let mut work = "None".to_owned();
        // One write.
        let rewrite = rng.chance(30);
        let writable: Vec<usize> = (0..nres)
            .filter(|&r| phase[r][..mips[r]].iter().any(|&f| f != Phase::Frozen) || rewrite)
            .filter(|&r| !matches!((queue, kinds[r]), ("Compute" | "Copy", Kind::Depth)))
            .collect();
        if let Some(&w) = writable.get(rng.below(writable.len().max(1))) {
            let access = match (queue, kinds[w]) {
                ("Graphics", Kind::Color) if rng.chance(60) => "RenderTarget",
                ("Graphics", Kind::Depth) => "DepthWrite",
                ("Copy", _) => "CopyDest",
                _ => "UnorderedAccess",
            };
            let mut mip = pick_mip(&mut rng, w, queue == "Copy");
            if let Some(m) = mip.filter(|&m| phase[w][m] == Phase::Frozen && !rewrite) {
                mip = Some(1 - m);
            }
            let clear = matches!(access, "RenderTarget" | "DepthWrite") && rng.chance(50);
            uses.push(use_text(w, mip, slices[w], access, clear));
            used.push(w);
            let before = phase[w];
            for m in covered(mip, mips[w]) {
                phase[w][m] = Phase::Written;
            }
            if queue == "Copy" {
                let src: Vec<usize> = (0..nres)
                    .filter(|&r| r != w && kinds[r] != Kind::Depth && mips[r] == mips[w])
                    .filter(|&r| slices[r] == slices[w])
                    .filter(|&r| phase[r][..mips[r]].iter().all(|&f| f != Phase::Fresh))
                    .filter(|&r| (kinds[r] == Kind::Buffer) == (kinds[w] == Kind::Buffer))
                    .collect();
                match src.get(rng.below(src.len().max(1))) {
                    Some(&s) => {
                        uses.push(format!("(target: \"r{s}\", access: CopySource)"));
                        used.push(s);
                        phase[s] = [Phase::Frozen; 2];
                        work = "Copy(bytes: 65536)".to_owned();
                    }
                    None => {
                        uses.pop();
                        used.pop();
                        phase[w] = before;
                    }
                }
            }
        }
        // Some reads.
        if queue != "Copy" {
            for _ in 0..rng.below(3) {
                let history = rng.chance(20);
                let mut readable = Vec::new();
                for r in (0..nres).filter(|r| !used.contains(r)) {
                    let mip = pick_mip(&mut rng, r, false);
                    let ready = covered(mip, mips[r])
                        .all(|m| phase[r][m] != Phase::Fresh || history && imported[r]);
                    if ready {
                        readable.push((r, mip));
                    }
                }
                let Some(&(r, mip)) = readable.get(rng.below(readable.len().max(1))) else {
                    break;
                };
                let depth_bound = uses.iter().any(|u: &String| u.contains("Depth"));
                let access = match (queue, kinds[r]) {
                    ("Graphics", Kind::Depth) if !depth_bound && rng.chance(50) => "DepthRead",
                    ("Graphics", Kind::Buffer) if rng.chance(50) => "VertexBuffer",
                    _ => "ShaderRead",
                };
                uses.push(use_text(r, mip, slices[r], access, false));
                used.push(r);
                for m in covered(mip, mips[r]) {
                    phase[r][m] = Phase::Frozen;
                }
            }
            work = if queue == "Graphics" {
                "Draw(draws: 2, vertices: 3000, pixels: 65536)"
            } else {
                "Dispatch(dispatches: 1, threads: 65536)"
            }
            .to_owned();
        }
        if uses.is_empty() {
            continue;
        }
        out += &format!(
            "        (name: \"p{p}\", pass: (queue: {queue}, uses: [{}], work: {work})),\n",
            uses.join(", ")
        );
    }
    // The frame ends by drawing into the back buffer, reading whatever was produced; or by a
    // dispatch writing it through a UAV, on either queue, that a draw may follow.
    let written =
        |phase: &[[Phase; 2]], r: usize| phase[r][..mips[r]].iter().all(|&f| f == Phase::Written);
    if rng.chance(25) {
        let queue = if rng.chance(50) {
            "Compute"
        } else {
            "Graphics"
        };
        chain_uav = Some(queue);
        let mut uses = vec!["(target: \"sc\", access: UnorderedAccess)".to_owned()];
        let read: Vec<usize> = (0..nres)
            .filter(|&r| written(&phase, r) && kinds[r] != Kind::Depth)
            .collect();
        for r in read {
            uses.push(format!("(target: \"r{r}\", access: ShaderRead)"));
            phase[r] = [Phase::Frozen; 2];
        }
        out += &format!(
            "        (name: \"tonemap\", pass: (queue: {queue}, uses: [{}], work: Dispatch(dispatches: 1, threads: 65536))),\n",
            uses.join(", ")
        );
    }
    let mut uses = vec![match chain_uav {
        Some(_) => "(target: \"sc\", access: RenderTarget)".to_owned(),
        None => "(target: \"sc\", access: RenderTarget, clear: true)".to_owned(),
    }];
    for r in (0..nres).filter(|&r| written(&phase, r)) {
        let access = if kinds[r] == Kind::Depth && rng.chance(50) {
            "DepthRead"
        } else {
            "ShaderRead"
        };
        if access == "DepthRead" && uses.iter().any(|u| u.contains("DepthRead")) {
            continue;
        }
        uses.push(format!("(target: \"r{r}\", access: {access})"));
    }
    if chain_uav.is_none() || rng.chance(50) {
        out += &format!(
            "        (name: \"final\", pass: (uses: [{}], work: Draw(draws: 1, vertices: 3, pixels: 65536))),\n",
            uses.join(", ")
        );
    }
    out += "    ],\n)\n";
    let chain = format!(
        "        (name: \"sc\", swap_chain: (buffers: {buffers}, format: Bgra8Unorm, extent: (256, 256), vsync_interval: {vsync}, rotation: {rotation}{})),\n",
        if chain_uav.is_some() {
            ", unordered_access: true"
        } else {
            ""
        }
    );
    out.insert_str(chain_at, &chain);
    out
}

const FRAMES: u64 = 5;
pub(crate) const DROP_FRAME: u64 = 3;

pub(crate) type Outcome = (
    Vec<String>,
    Option<String>,
    Vec<fastframe::device::Submitted>,
    u32,
);

/// Half the seeds run in declaration order, a quarter in each other order (issue 19): every
/// order must plan clean frames whose every barrier and wait is needed.
pub(crate) fn order(seed: u64) -> Order {
    match seed % 4 {
        1 => Order::FewerBarriers,
        3 => Order::Overlap,
        _ => Order::Declaration,
    }
}

pub(crate) fn run(text: &str, seed: u64, fault: Option<String>) -> Outcome {
    let mut rt = Runtime::from_str(text, &format!("random-{seed}.ron"))
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    rt.set_validation(true);
    rt.settings_mut().order = order(seed);
    rt.settings_mut().fault = fault.map(|f| f.parse().expect("a known fault"));
    rt.world.resource_mut::<Device>().trace = Some(Vec::new());
    let result = rt.run(FRAMES);
    let diags = rt.diagnostics().iter().map(|d| d.to_string()).collect();
    let mut device = rt.world.resource_mut::<Device>();
    let trace = device.trace.take().unwrap_or_default();
    let present = device.label("present");
    (diags, result.err().map(|e| e.to_string()), trace, present)
}

/// Whether the validation layer notices the `k`th `what` (`barrier` or `fence-wait`) the
/// passes submit in frame `DROP_FRAME` dropped from `text`'s run.
pub(crate) fn drop_is_caught(text: &str, seed: u64, what: &str, k: usize) -> bool {
    let fault = format!("drop-nth-{what}={DROP_FRAME}:{k}");
    let (diags, ..) = run(text, seed, Some(fault));
    !diags.is_empty()
}

#[test]
fn random_graphs_validate_clean_and_every_dropped_sync_is_caught() {
    let mut total_barriers = 0;
    let mut total_waits = 0;
    let (mut ranged, mut layered, mut chain_uav) = (0, 0, 0);
    for seed in 0..1000u64 {
        let text = scene(seed);
        ranged += usize::from(text.contains("range: (first_"));
        layered += usize::from(text.contains("range: (first_slice"));
        chain_uav += usize::from(text.contains("(target: \"sc\", access: UnorderedAccess)"));
        let (diags, err, trace, present) = run(&text, seed, None);
        assert!(
            err.is_none(),
            "seed {seed} ({:?}): {err:?}\n{text}",
            order(seed)
        );
        assert!(
            diags.is_empty(),
            "seed {seed} ({:?}): {}\n{text}",
            order(seed),
            diags.join("\n")
        );
        // What the passes submitted in the frame we tamper with (the present stage's own
        // barrier and its wait on a compute queue that wrote the back buffer are not a
        // pass's: `back_buffer_uav` drops that wait).
        let in_frame = trace.iter().filter(|s| s.frame == DROP_FRAME);
        let mut barriers = 0;
        let mut waits = 0;
        for s in in_frame {
            match &s.command {
                Command::Barrier(g) if s.label != present => barriers += g.len(),
                Command::WaitFence(_) if s.label != present => waits += 1,
                _ => {}
            }
        }
        total_barriers += barriers;
        total_waits += waits;
        let mut rng = Rng(seed ^ 0xdead_beef);
        if barriers > 0 {
            let k = rng.below(barriers);
            assert!(
                drop_is_caught(&text, seed, "barrier", k),
                "seed {seed} ({:?}): dropping barrier {k} of {barriers} went unnoticed\n{text}",
                order(seed)
            );
        }
        if waits > 0 {
            let k = rng.below(waits);
            assert!(
                drop_is_caught(&text, seed, "fence-wait", k),
                "seed {seed} ({:?}): dropping fence wait {k} of {waits} went unnoticed\n{text}",
                order(seed)
            );
        }
    }
    assert!(
        ranged > 300 && layered > 100 && chain_uav > 100,
        "the corpus exercises ranges ({ranged}, of slices {layered}) and compute writing the back buffer ({chain_uav})"
    );
    assert!(
        total_barriers > 1000,
        "the corpus exercises barriers ({total_barriers})"
    );
    assert!(
        total_waits > 100,
        "the corpus exercises cross-queue waits ({total_waits})"
    );
}
