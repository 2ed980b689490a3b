//! Size and count limits: zero, negative or absurd numbers are errors, not allocations.
//!
//! The simulated device would happily try to model a 0x0 texture or a 2^40-byte buffer, and
//! the result would be a confusing crash or report far from the typo that caused it. The
//! limits are those of a D3D12-class console GPU: textures up to 16384 texels per side and
//! 2048 slices, a full mip chain at most (floor(log2(largest side)) + 1 levels), 1/2/4/8
//! samples with one mip when multisampled, buffers up to 4 GiB, swap chains of 2 to 4
//! buffers with a colour format and a vsync interval of 0 to 4; settings within what the
//! runtime implements (1 to 8 frames in flight, compute pipe 0 or 1 (CC-2), a positive
//! finite CPU frame time, a bundled device profile, a compute-unit limit the profile's GPU
//! has).
//!
//! Every number that reaches a simulated clock is bounded too, so that the device's integer
//! nanoseconds can represent any run: a CPU frame of at most one second, and work of at most
//! 2^40 (about 10^12) vertices, pixels, threads or bytes per pass or command. Such an amount
//! already takes seconds of simulated GPU time, the system's timeout at suspend (CC-8), so
//! the bound refuses nothing the model could report on; a larger one could only saturate
//! the clocks and report nonsense (2^64 ns is 584 years). The device's arithmetic saturates
//! as well (`src/device/cost.rs`), for worlds built without the loader.

use glam::UVec2;

use super::check::Check;
use super::error::SceneError;
use super::index::{Kind, Kinds};
use crate::device::Command;
use crate::model::{Buffer, Fault, ScriptCommand, ScriptRef, Settings, SwapChain, Work};

/// Largest texture or swap-chain side, in texels.
pub const MAX_EXTENT: u32 = 16384;
/// Most array slices of a texture.
pub const MAX_ARRAY_SIZE: u32 = 2048;
/// Largest buffer, in bytes (4 GiB).
pub const MAX_BUFFER_BYTES: u64 = 4 << 30;
/// Largest compute-unit limit a scene may ask for; the device clamps it to what it has.
pub const MAX_COMPUTE_UNITS: u32 = 256;
/// Frames the CPU may run ahead, at most.
pub const MAX_FRAMES_IN_FLIGHT: u32 = 8;
/// Largest scene file, in bytes (64 MiB; a generated chain of 100,000 passes is 28 MiB).
pub const MAX_SCENE_BYTES: u64 = 64 << 20;
/// Threads recording deferred contexts, at most (CTX-7).
pub const MAX_RECORD_THREADS: u32 = 64;
/// Longest simulated CPU frame, in microseconds (one second).
pub const MAX_CPU_FRAME_US: f64 = 1_000_000.0;
/// Most vertices, pixels, threads or bytes of one pass's work or one command (2^40).
pub const MAX_WORK: u64 = 1 << 40;

/// Rule: settings are within what the runtime implements.
pub fn settings(c: &Check, s: &Settings) -> Result<(), SceneError> {
    let err = |key: &str, message: String| c.out_of_range(c.loc.setting(key), None, message);
    if !(1..=MAX_FRAMES_IN_FLIGHT).contains(&s.frames_in_flight) {
        return Err(err(
            "frames_in_flight",
            format!(
                "frames_in_flight must be 1 to {MAX_FRAMES_IN_FLIGHT}, not {}",
                s.frames_in_flight
            ),
        ));
    }
    if !s.cpu_frame_us.is_finite() || s.cpu_frame_us <= 0.0 || s.cpu_frame_us > MAX_CPU_FRAME_US {
        return Err(err(
            "cpu_frame_us",
            format!(
                "cpu_frame_us must be a positive number of microseconds up to \
                 {MAX_CPU_FRAME_US} (one second), not {}",
                s.cpu_frame_us
            ),
        ));
    }
    if !s.async_min_us.is_finite() || s.async_min_us < 0.0 || s.async_min_us > MAX_CPU_FRAME_US {
        return Err(err(
            "async_min_us",
            format!(
                "async_min_us must be 0 (off) or a positive number of microseconds up to \
                 {MAX_CPU_FRAME_US}, not {}",
                s.async_min_us
            ),
        ));
    }
    if !(1..=MAX_RECORD_THREADS).contains(&s.record_threads) {
        return Err(err(
            "record_threads",
            format!(
                "record_threads must be 1 to {MAX_RECORD_THREADS}, not {}",
                s.record_threads
            ),
        ));
    }
    let Some(profile) = crate::device::Profile::by_name(&s.profile) else {
        let close = super::names::suggest(&s.profile, crate::device::PROFILE_NAMES);
        let hint = match close.first() {
            Some(c) => format!(" (did you mean {c:?}?)"),
            None => String::new(),
        };
        return Err(err(
            "profile",
            format!(
                "unknown device profile {:?}{hint}; bundled profiles: {}",
                s.profile,
                crate::device::PROFILE_NAMES.join(", ")
            ),
        ));
    };
    if let Some(cus) = s.compute_cu_limit
        && !(1..=MAX_COMPUTE_UNITS).contains(&cus)
    {
        return Err(err(
            "compute_cu_limit",
            format!(
                "compute_cu_limit must be 1 to {MAX_COMPUTE_UNITS} compute units, not {cus} \
                 (CC-2; {} has {}, and a larger limit means all of them)",
                profile.name, profile.compute_units
            ),
        ));
    }
    if let Some(fault) = &s.fault
        && let Some(problem) = fault_problem(fault, &c.index.names_of(Kinds::PASS.list))
    {
        return Err(err("fault", problem));
    }
    if s.compute_pipe > 1 {
        return Err(err(
            "compute_pipe",
            format!(
                "compute_pipe must be 0 (below graphics) or 1 (above graphics) (CC-2), not {}",
                s.compute_pipe
            ),
        ));
    }
    Ok(())
}

/// Why `fault` (a `--fault` or `fault:` value) means nothing for a scene with these
/// `passes`, if it does not: an unknown fault, or a pass target that names no pass (a fault
/// aimed at nothing would run clean, and the run would seem to show the validator missing
/// it).
pub fn fault_problem(fault: &Fault, passes: &[&str]) -> Option<String> {
    let target = match fault {
        Fault::DropBarrier(Some(pass)) | Fault::DropFenceWait(Some(pass)) => pass,
        _ => return None,
    };
    if passes.contains(&target.as_str()) {
        return None;
    }
    let hint = match super::names::suggest(target, passes.iter().copied()).first() {
        Some(close) => format!(" (did you mean {close:?}?)"),
        None => String::new(),
    };
    Some(format!(
        "fault `{fault}` aims at pass {target:?}, which the scene does not have{hint}"
    ))
}

/// Rule: the sizes of texture, buffer and swap-chain definition `id` are sane.
pub fn definition(c: &Check, id: usize) -> Result<(), SceneError> {
    let Some(def) = c.index.def(id) else {
        return Ok(());
    };
    match c.index.kind(id) {
        Some(Kind::Texture) => def
            .texture
            .as_ref()
            .map_or(Ok(()), |t| super::textures::texture(c, id, t)),
        Some(Kind::Buffer) => def.buffer.as_ref().map_or(Ok(()), |b| buffer(c, id, b)),
        Some(Kind::SwapChain) => def
            .swap_chain
            .as_ref()
            .map_or(Ok(()), |s| swap_chain(c, id, s)),
        Some(Kind::Pass) => def.pass.as_ref().map_or(Ok(()), |p| {
            work_amounts(&p.work).map_or(Ok(()), |(key, n)| {
                let at = c.loc.def_key(id, key, 0);
                Err(c.out_of_range(at, Some(id), too_much(key, n)))
            })?;
            super::costs::pass(c, id, p)
        }),
        _ => Ok(()),
    }
}

/// The first amount of `work` above [`MAX_WORK`], with its field name.
fn work_amounts(work: &Work) -> Option<(&'static str, u64)> {
    let amounts: &[(&'static str, u64)] = match *work {
        Work::Draw {
            vertices, pixels, ..
        }
        | Work::DrawIndirect {
            vertices, pixels, ..
        } => &[("vertices", vertices), ("pixels", pixels)],
        Work::Dispatch { threads, .. } | Work::DispatchIndirect { threads, .. } => {
            &[("threads", threads)]
        }
        Work::Copy { bytes, .. } => &[("bytes", bytes)],
        Work::None => &[],
    };
    amounts.iter().copied().find(|&(_, n)| n > MAX_WORK)
}

fn too_much(key: &str, n: u64) -> String {
    format!(
        "{key} must be at most {MAX_WORK} (2^40; such work already takes seconds of GPU time, \
         past the hang timeout, CC-8), not {n}"
    )
}

/// Rule: a script command's amounts of work and byte ranges are at most [`MAX_WORK`]; the
/// error is located at `at` (the script) and names the command.
pub fn command<R: ScriptRef>(
    c: &Check,
    at: impl FnOnce() -> super::error::Location,
    owner: Option<usize>,
    cmd: &ScriptCommand<R>,
) -> Result<(), SceneError> {
    let ScriptCommand::Device(device) = cmd else {
        return Ok(());
    };
    let amounts: &[(&'static str, u64)] = match *device {
        Command::Draw {
            vertices, pixels, ..
        } => &[("vertices", vertices), ("pixels", pixels)],
        Command::Dispatch { threads, .. } | Command::DispatchIndirect { threads, .. } => {
            &[("threads", threads)]
        }
        Command::ExecuteIndirect {
            vertices, pixels, ..
        } => &[("vertices", vertices), ("pixels", pixels)],
        Command::DmaFill { offset, bytes, .. } => &[("offset", offset), ("bytes", bytes)],
        Command::LzCompress { bytes, .. } | Command::LzDecompress { bytes, .. } => {
            &[("bytes", bytes)]
        }
        Command::CopyResource { bytes, .. }
        | Command::CopyTextureRegion { bytes, .. }
        | Command::UpdateSubresource { bytes, .. } => &[("bytes", bytes)],
        Command::RawCopy { offset, bytes, .. } | Command::RawFill { offset, bytes, .. } => {
            &[("offset", offset), ("bytes", bytes)]
        }
        _ => &[],
    };
    match amounts.iter().find(|&&(_, n)| n > MAX_WORK) {
        Some(&(key, n)) => {
            Err(c.out_of_range(at(), owner, format!("{}: {}", cmd.name(), too_much(key, n))))
        }
        None => Ok(()),
    }
}

/// Why an extent is not 1..=16384 on both sides, if it is not.
pub fn extent_problem(extent: UVec2) -> Option<String> {
    let bad = |v: u32| v == 0 || v > MAX_EXTENT;
    (bad(extent.x) || bad(extent.y)).then(|| {
        format!(
            "extent {}x{} is out of range: each side must be 1 to {MAX_EXTENT}",
            extent.x, extent.y
        )
    })
}

/// Levels of a full mip chain for a largest side of `side` texels.
pub fn full_mip_chain(side: u32) -> u32 {
    u32::BITS - side.max(1).leading_zeros()
}

fn buffer(c: &Check, id: usize, b: &Buffer) -> Result<(), SceneError> {
    if b.size == 0 || b.size > MAX_BUFFER_BYTES {
        return Err(c.out_of_range(
            c.loc.def_key(id, "size", 0),
            Some(id),
            format!(
                "size must be 1 to {MAX_BUFFER_BYTES} bytes (4 GiB), not {}",
                b.size
            ),
        ));
    }
    Ok(())
}

fn swap_chain(c: &Check, id: usize, s: &SwapChain) -> Result<(), SceneError> {
    let err =
        |key: &str, message: String| c.out_of_range(c.loc.def_key(id, key, 0), Some(id), message);
    if !(2..=4).contains(&s.buffers) {
        return Err(err(
            "buffers",
            format!("a swap chain has 2 to 4 buffers, not {}", s.buffers),
        ));
    }
    if let Some(problem) = extent_problem(s.extent) {
        return Err(err("extent", problem));
    }
    if !s.format.is_display() {
        return Err(err(
            "format",
            format!(
                "a swap chain's buffers need a display format (Bgra8Unorm, Rgba8Unorm, \
                 Rgb10A2Unorm or Rgba16Float), not {:?}; for sRGB output, render through \
                 an Rtv with `format: Bgra8UnormSrgb` of a Bgra8Unorm chain",
                s.format
            ),
        ));
    }
    if s.vsync_interval > 4 {
        return Err(err(
            "vsync_interval",
            format!("vsync_interval must be 0 to 4, not {}", s.vsync_interval),
        ));
    }
    Ok(())
}

/// Longest suspension a timeline may ask for, in display refreshes (one minute at 60 Hz).
pub const MAX_SUSPEND_FRAMES: u32 = 3600;

/// Rule: a timeline `Suspend` lasts 1 to 3600 refreshes (CC-8).
pub fn suspend(c: &Check, event: usize, frames: u32) -> Result<(), SceneError> {
    if (1..=MAX_SUSPEND_FRAMES).contains(&frames) {
        return Ok(());
    }
    Err(c.out_of_range(
        c.loc.event_key(event, "frames"),
        None,
        format!("a suspension lasts 1 to {MAX_SUSPEND_FRAMES} refreshes, not {frames} (CC-8)"),
    ))
}

/// Rule: a timeline `Resize` asks for a sane extent.
pub fn resize(c: &Check, event: usize, extent: UVec2) -> Result<(), SceneError> {
    match extent_problem(extent) {
        Some(problem) => Err(c.out_of_range(c.loc.event_key(event, "extent"), None, problem)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mip_chains() {
        assert_eq!(full_mip_chain(1), 1);
        assert_eq!(full_mip_chain(2), 2);
        assert_eq!(full_mip_chain(1920), 11);
        assert_eq!(full_mip_chain(2048), 12);
        assert_eq!(full_mip_chain(16384), 15);
        assert_eq!(full_mip_chain(0), 1);
    }

    #[test]
    fn extents_must_be_positive_and_bounded() {
        assert!(extent_problem(UVec2::new(1920, 1080)).is_none());
        assert!(extent_problem(UVec2::new(16384, 1)).is_none());
        assert!(extent_problem(UVec2::new(0, 1080)).is_some());
        assert!(extent_problem(UVec2::new(1920, 16385)).is_some());
    }
}
