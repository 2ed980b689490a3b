//! The command line: `run`, `check`, `graph`, `barriers`, `timeline`, `trace-view`, `compare`
//! and `gen`. Exit codes: 0 success, 1 validation or
//! device error, 2 bad input or usage, a failed write included (a closed pipe is not one:
//! see `cli/out.rs`).
//! Overrides of the scene's settings, and what they may not say, are in `cli/overrides.rs`;
//! errors and findings are shown compiler-style by `cli/snippet.rs`, and `cli/findings.rs`
//! says how many findings were not printed.

mod barriers;
mod findings;
mod generate;
mod graph;
mod out;
mod overrides;
mod pictures;
mod progress;
mod run;
mod snippet;

pub use generate::{MAX_GEN_PASSES, ShapeArg};
use overrides::load;
pub use overrides::{BarriersArg, OrderArg, Overrides, RotationArg, Switch};
pub use run::RunArgs;
pub use snippet::Sources;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

use crate::error::RuntimeError;
use crate::report::{CheckJson, SCHEMA_VERSION};

/// fastframe: a frame-graph runtime for a simulated console GPU with fast semantics.
#[derive(Parser, Debug)]
#[command(name = "fastframe", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Commands,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Run a scene and print a summary.
    Run(RunArgs),
    /// Run a scene briefly with validation and report problems (exit 1 on errors).
    Check {
        scene: PathBuf,
        /// Frames to run.
        #[arg(long, default_value_t = 8)]
        frames: u64,
        /// Print diagnostics as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        overrides: Overrides,
    },
    /// Print the compiled pass graph as Graphviz DOT.
    Graph {
        scene: PathBuf,
        /// List each pass's barriers (the steady frame's) in its node.
        #[arg(long)]
        barriers: bool,
    },
    /// List each Barrier call a frame submits: every barrier's sync, access and layout before
    /// and after, and the hardware packets and cache operations the call lowers to (EB-12).
    Barriers {
        scene: PathBuf,
        /// The frame to list (0 is the first; later frames show the steady plan).
        #[arg(long, default_value_t = 2)]
        frame: u64,
        /// Print one JSON object per call, one per line.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        overrides: Overrides,
    },
    /// Draw the last frame's queues as an SVG timeline: passes, barriers, waits by cause,
    /// fence arrows, vertical blanks.
    Timeline {
        scene: PathBuf,
        /// Frames to run; the last one is drawn.
        #[arg(long, default_value_t = 3)]
        frames: u64,
        /// The SVG file to write.
        #[arg(short = 'o', long)]
        out: PathBuf,
        #[command(flatten)]
        overrides: Overrides,
    },
    /// Draw a trace file (`run --trace`, or any Chrome trace) as a track view in SVG: a track
    /// per thread with its slices nested, counters, and flow arrows, over one window.
    TraceView {
        trace: PathBuf,
        /// The SVG file to write.
        #[arg(short = 'o', long)]
        out: PathBuf,
        /// Draw the span of this frame's commands (the slices with this `frame` argument;
        /// the last frame by default).
        #[arg(long)]
        frame: Option<u64>,
        /// Draw from this time instead, in the trace's microseconds.
        #[arg(long, requires = "to_us")]
        from_us: Option<f64>,
        /// Draw up to this time, in microseconds.
        #[arg(long, requires = "from_us")]
        to_us: Option<f64>,
    },
    /// Run a scene under several configurations: a table of frame time and synchronisation,
    /// and with -o an SVG bar chart.
    Compare {
        scene: PathBuf,
        /// Barrier strategies, comma-separated.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "enhanced,legacy,conservative"
        )]
        barriers: Vec<BarriersArg>,
        /// Asynchronous compute, comma-separated: on, off or on,off.
        #[arg(long, value_delimiter = ',', default_value = "on")]
        async_compute: Vec<Switch>,
        /// Pass orders, comma-separated: declaration, fewer-barriers, overlap.
        #[arg(long, value_delimiter = ',', default_value = "declaration")]
        order: Vec<OrderArg>,
        /// Frames to run per configuration.
        #[arg(long, default_value_t = 60)]
        frames: u64,
        /// The SVG bar chart to write.
        #[arg(short = 'o', long)]
        out: Option<PathBuf>,
    },
    /// Write a generated scene (a frame graph of a named shape and size) to stdout or a file.
    Gen {
        /// chain, mixed, layered or fan-in.
        #[arg(long, value_enum)]
        shape: ShapeArg,
        /// Passes (besides the last one, which writes the swap chain).
        #[arg(long, default_value_t = 1000)]
        passes: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fraction of passes on asynchronous compute, 0 to 1 (the shape's default otherwise).
        #[arg(long)]
        compute: Option<f64>,
        /// Fraction of textures that are transient, 0 to 1.
        #[arg(long, default_value_t = 0.0)]
        transient: f64,
        /// Textures of mixed sizes (256 to 1024 pixels square, 4 or 8 bytes a pixel) instead
        /// of all 256 square RGBA8.
        #[arg(long)]
        mixed_sizes: bool,
        /// Write the scene here instead of to stdout.
        #[arg(short = 'o', long)]
        out: Option<PathBuf>,
    },
}

/// Create (or truncate) the file at `path`, if one is given; exit code 2 with a message if it
/// cannot be.
fn create(path: Option<&PathBuf>) -> Result<Option<std::fs::File>, i32> {
    path.map(|p| {
        std::fs::File::create(p).map_err(|e| {
            out::eprint(&format!("error: cannot write {}: {e}\n", p.display()));
            2
        })
    })
    .transpose()
}

/// Write `text` to `file` (opened from `path`); exit code 2 with a message on failure.
fn write_file(path: &std::path::Path, mut file: std::fs::File, text: &str) -> Result<(), i32> {
    use std::io::Write;
    file.write_all(text.as_bytes()).map_err(|e| {
        out::eprint(&format!("error: cannot write {}: {e}\n", path.display()));
        2
    })
}

/// Says `err` on standard error (compiler-style, with a snippet, for a located scene error)
/// and returns its exit code.
fn fail(err: &RuntimeError) -> i32 {
    out::eprint(&Sources::default().runtime_error(err));
    err.exit_code()
}

/// The exit code of a run that ended with `code`, after its output went out as `written`
/// says: a failed write is exit code 2 whatever the run found.
fn after_output(written: Result<(), i32>, code: i32) -> i32 {
    written.err().unwrap_or(code)
}

/// Run the command line; returns the process exit code.
pub fn main_with(cli: Cli) -> i32 {
    match cli.command {
        Commands::Run(args) => run::run(args),
        Commands::Check {
            scene,
            frames,
            json,
            overrides,
        } => {
            let mut rt = match load(&scene, Some(&overrides)) {
                Ok(rt) => rt,
                // A consumer of --json reads one object whatever happened: a scene that does
                // not load is a fatal error with no diagnostics (exit 2 all the same).
                Err(e) if json => {
                    let v = CheckJson {
                        schema_version: SCHEMA_VERSION,
                        diagnostics: &[],
                        errors: 1,
                        warnings: 0,
                        fatal: Some(e.to_string()),
                    };
                    let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                    return after_output(out::print(&format!("{text}\n")), e.exit_code());
                }
                Err(e) => return fail(&e),
            };
            rt.set_validation(true);
            let result = rt.run(frames);
            let diags = crate::validate::repeated(rt.diagnostics());
            let (errors, warnings) = rt.summary().validation_errors_warnings();
            let fatal = result.as_ref().err().map(|e| e.to_string());
            let text = if json {
                let v = CheckJson {
                    schema_version: SCHEMA_VERSION,
                    diagnostics: &diags,
                    errors: errors + fatal.is_some() as u64,
                    warnings,
                    fatal: fatal.clone(),
                };
                format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
            } else {
                let mut text = findings::of_check(&rt, &diags);
                if let Some(f) = &fatal {
                    text.push_str(&format!("error: {f}\n"));
                }
                text.push_str(&format!(
                    "{}: {} error(s), {} warning(s)\n",
                    scene.display(),
                    errors + fatal.is_some() as u64,
                    warnings
                ));
                text
            };
            let written = out::print(&text);
            let code = match result {
                Err(e) if e.exit_code() == 2 => 2,
                Err(_) => 1,
                Ok(()) if errors > 0 => 1,
                Ok(()) => 0,
            };
            after_output(written, code)
        }
        Commands::Gen {
            shape,
            passes,
            seed,
            compute,
            transient,
            mixed_sizes,
            out,
        } => {
            let shape = crate::generator::Shape::from(shape);
            let spec = crate::generator::GenSpec {
                shape,
                passes,
                seed,
                compute: compute.unwrap_or(shape.default_compute()),
                transient,
                mixed_sizes,
            };
            generate::gen_scene(spec, out.as_ref())
        }
        Commands::Timeline {
            scene,
            frames,
            out,
            overrides,
        } => pictures::timeline(&scene, frames, &out, &overrides),
        Commands::Compare {
            scene,
            barriers,
            async_compute,
            order,
            frames,
            out,
        } => pictures::compare(
            &scene,
            &barriers,
            &async_compute,
            &order,
            frames,
            out.as_ref(),
        ),
        Commands::TraceView {
            trace,
            out,
            frame,
            from_us,
            to_us,
        } => pictures::trace_view(&trace, &out, frame, from_us.zip(to_us)),
        Commands::Graph { scene, barriers } => graph::graph(&scene, barriers),
        Commands::Barriers {
            scene,
            frame,
            json,
            overrides,
        } => barriers::barriers(&scene, frame, json, &overrides),
    }
}
