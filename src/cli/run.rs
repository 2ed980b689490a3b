//! `fastframe run`: a scene's frames, the summary as a table or JSON, and optionally the GPU
//! trace, the async-compute comparison and a wait for Tracy.

use std::path::PathBuf;

use super::overrides::load;
use super::{Overrides, after_output, create, fail, findings, out, progress, write_file};
use crate::error::RuntimeError;

/// What `run` takes.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    pub scene: PathBuf,
    /// Frames to run.
    #[arg(long, default_value_t = 300)]
    pub frames: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write the JSON summary to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the GPU timeline (every command on every queue) to this file, in the Chrome
    /// trace event format: open it in ui.perfetto.dev or chrome://tracing.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Check every stream with the validation layer while running.
    #[arg(long)]
    pub validate: bool,
    /// Also run with asynchronous compute switched the other way and report the gain of
    /// having it on (key `async_compute_gain`, and a table row).
    #[arg(long)]
    pub compare_async: bool,
    /// Wait for a Tracy profiler to connect before running (builds with the `tracy`
    /// feature; Tracy collects nothing before it connects).
    #[arg(long)]
    pub wait_for_profiler: bool,
    /// Say how far the run is on standard error, a line a second (without it: only when
    /// standard error is a terminal and the run takes more than a second).
    #[arg(long)]
    pub progress: bool,
    #[command(flatten)]
    pub overrides: Overrides,
}

/// Run the command; returns the exit code.
pub fn run(args: RunArgs) -> i32 {
    let RunArgs {
        scene,
        frames,
        json,
        out,
        trace,
        validate,
        compare_async,
        wait_for_profiler,
        progress,
        overrides,
    } = args;
    let mut rt = match load(&scene, Some(&overrides)) {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    if wait_for_profiler {
        out::eprint("waiting for a Tracy profiler to connect (localhost)...\n");
        if !crate::report::tracy::wait_for_profiler() {
            out::eprint("error: --wait-for-profiler needs a build with --features tracy\n");
            return 2;
        }
    }
    if validate {
        rt.set_validation(true);
    }
    // Files are opened before the run: a bad path fails now, not after it.
    let (trace_file, out_file) = match (create(trace.as_ref()), create(out.as_ref())) {
        (Ok(t), Ok(o)) => (t, o),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    if let Some(file) = trace_file {
        rt.record_gpu_trace_to(std::io::BufWriter::new(file));
    }
    let result = progress::run(&mut rt, frames, progress);
    if let Some(path) = &trace
        && let Err(e) = rt.finish_gpu_trace()
    {
        out::eprint(&format!("error: cannot write {}: {e}\n", path.display()));
        return 2;
    }
    let summary = rt.summary();
    let mut doc = summary.document();
    let mut gain_row = None;
    if compare_async {
        match async_gain(&scene, &overrides, frames, &summary) {
            Ok(gain) => {
                gain_row = Some(format!(
                    "  {:<26} {:.1} us/frame ({:.1}%): {:.1} on, {:.1} off; \
                     {:.0}% of {:.1} available\n",
                    "async compute gain",
                    gain.gain_us.0,
                    gain.gain_percent.0,
                    gain.frame_work_us.0,
                    gain.baseline_frame_work_us.0,
                    gain.taken_percent.0,
                    gain.available_us.0,
                ));
                doc.async_compute_gain = Some(gain);
            }
            Err(e) => return fail(&e),
        }
    }
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    if let (Some(path), Some(file)) = (&out, out_file)
        && let Err(code) = write_file(path, file, &text)
    {
        return code;
    }
    let written = if json {
        out::print(&format!("{text}\n"))
    } else {
        let table = summary.to_table();
        out::print(&format!("{table}{}", gain_row.unwrap_or_default()))
    };
    out::eprint(&findings::of_run(&rt));
    let code = match result {
        Err(e) => fail(&e),
        Ok(()) if summary.validation_errors > 0 => 1,
        Ok(()) => 0,
    };
    after_output(written, code)
}

/// Run the scene again with asynchronous compute the other way round; the gain of having it
/// on, as [`crate::report::Summary::gain`] reports it.
fn async_gain(
    scene: &PathBuf,
    overrides: &Overrides,
    frames: u64,
    summary: &crate::report::Summary,
) -> Result<crate::report::AsyncGain, RuntimeError> {
    let mut other = load(scene, Some(overrides))?;
    let on = !other.settings_mut().async_compute;
    other.settings_mut().async_compute = on;
    other.run(frames)?;
    let other = other.summary();
    Ok(if on {
        other.gain(summary)
    } else {
        summary.gain(&other)
    })
}
