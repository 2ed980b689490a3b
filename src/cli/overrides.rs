//! Settings the command line may override, and loading a scene with them applied. An
//! override may not say what the scene format refuses: `--frames-in-flight` has the
//! setting's range and `--fault` must aim at a pass the scene has, else exit 2 with the
//! range or the closest names (a fault aimed at nothing would run clean and look like the
//! validator missing it).

use clap::ValueEnum;
use std::path::PathBuf;

use crate::Runtime;
use crate::error::RuntimeError;
use crate::model::Rotation;

/// Swap-chain rotation strategies (RL-5..RL-7).
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum RotationArg {
    SavedViews,
    FencedRing,
    PlaceView,
}

impl From<RotationArg> for Rotation {
    fn from(r: RotationArg) -> Self {
        match r {
            RotationArg::SavedViews => Rotation::SavedViews,
            RotationArg::FencedRing => Rotation::FencedRing,
            RotationArg::PlaceView => Rotation::PlaceView,
        }
    }
}

/// Barrier strategies.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum BarriersArg {
    Enhanced,
    Conservative,
    Legacy,
}

impl From<BarriersArg> for crate::model::BarrierMode {
    fn from(b: BarriersArg) -> Self {
        match b {
            BarriersArg::Enhanced => crate::model::BarrierMode::Enhanced,
            BarriersArg::Conservative => crate::model::BarrierMode::Conservative,
            BarriersArg::Legacy => crate::model::BarrierMode::Legacy,
        }
    }
}

/// The API a script is written to (its rules are the ones checked).
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ApiArg {
    D3d11x,
    D3d12x,
    #[value(name = "d3d12-pc")]
    D3d12Pc,
}

impl From<ApiArg> for crate::model::Api {
    fn from(a: ApiArg) -> Self {
        match a {
            ApiArg::D3d11x => crate::model::Api::D3d11x,
            ApiArg::D3d12x => crate::model::Api::D3d12x,
            ApiArg::D3d12Pc => crate::model::Api::D3d12Pc,
        }
    }
}

/// How passes bind their resources (RB-1, RB-2).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingArg {
    /// A batch per pass, copied inline each frame (SetFastResourcesFromBatch).
    Batches,
    /// SetFastResources calls, written each frame.
    Calls,
    /// The legacy per-stage calls, a packet per slot (the baseline).
    PerSlot,
}

impl From<BindingArg> for crate::model::BindingMode {
    fn from(b: BindingArg) -> Self {
        match b {
            BindingArg::Batches => crate::model::BindingMode::Batches,
            BindingArg::Calls => crate::model::BindingMode::Calls,
            BindingArg::PerSlot => crate::model::BindingMode::PerSlot,
        }
    }
}

/// The order passes run in (issue 19).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderArg {
    /// As the scene declares them.
    Declaration,
    /// Fewer cross-queue fences: queues meet rarely.
    FewerBarriers,
    /// Queues on clocks of estimated pass costs: what can start earliest, critical path first.
    Overlap,
}

impl From<OrderArg> for crate::model::Order {
    fn from(o: OrderArg) -> Self {
        match o {
            OrderArg::Declaration => crate::model::Order::Declaration,
            OrderArg::FewerBarriers => crate::model::Order::FewerBarriers,
            OrderArg::Overlap => crate::model::Order::Overlap,
        }
    }
}

/// On or off.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    On,
    Off,
}

/// Settings the command line may override.
#[derive(clap::Args, Debug, Clone)]
pub struct Overrides {
    /// Rotation strategy for every swap chain.
    #[arg(long, value_enum)]
    pub rotation: Option<RotationArg>,
    /// Run compute passes on an asynchronous compute queue (off: on graphics).
    #[arg(long, value_enum)]
    pub async_compute: Option<Switch>,
    /// With async compute on, compute passes estimated shorter than this many microseconds
    /// stay on the graphics queue (0: none do).
    #[arg(long, value_parser = parse_async_min_us, allow_negative_numbers = true)]
    pub async_min_us: Option<f64>,
    /// Place transients in one shared heap by lifetime (off: each has its own memory).
    #[arg(long, value_enum)]
    pub aliasing: Option<Switch>,
    /// Frames the CPU may run ahead of the GPU (1 to 8, as the scene setting).
    #[arg(long, value_parser = clap::value_parser!(u32)
        .range(1..=i64::from(crate::scene::MAX_FRAMES_IN_FLIGHT)))]
    pub frames_in_flight: Option<u32>,
    /// Barrier strategy: minimal enhanced barriers, or full flushes (the baseline).
    #[arg(long, value_enum)]
    pub barriers: Option<BarriersArg>,
    /// The simulated GPU (the scene's `profile` setting otherwise).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(crate::device::PROFILE_NAMES))]
    pub profile: Option<String>,
    /// Omit one kind of step to see validation catch it: skip-wait-on-present,
    /// skip-rotation, drop-barrier[=PASS], drop-fence-wait[=PASS], early-release,
    /// skip-decompress, skip-rebind, skip-cache-flush.
    #[arg(long)]
    pub fault: Option<crate::model::Fault>,
    /// The API whose rules the streams are checked by: d3d11x (fast semantics), d3d12x
    /// (Xbox Series D3D12), d3d12-pc (caches flushed at each ExecuteCommandLists).
    #[arg(long, value_enum)]
    pub api: Option<ApiArg>,
    /// How passes bind their resources: batches (the default), fast calls, or per-slot
    /// legacy calls (RB-1, RB-2).
    #[arg(long, value_enum)]
    pub binding: Option<BindingArg>,
    /// CPU threads recording deferred contexts (1 to 64, as the scene setting, CTX-7).
    #[arg(long, value_parser = clap::value_parser!(u32)
        .range(1..=i64::from(crate::scene::MAX_RECORD_THREADS)))]
    pub record_threads: Option<u32>,
    /// The order passes run in: declaration, fewer-barriers or overlap.
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
}

/// Load `scene` and apply the command line's overrides, refusing what the scene format
/// would refuse (a fault aimed at a pass the scene does not have).
pub(super) fn load(
    scene: &PathBuf,
    overrides: Option<&Overrides>,
) -> Result<Runtime, RuntimeError> {
    let mut rt = Runtime::from_scene(scene)?;
    if let Some(fault) = overrides.and_then(|o| o.fault.as_ref()) {
        let mut passes = rt
            .world
            .query_filtered::<&bevy_ecs::name::Name, bevy_ecs::query::With<crate::model::Pass>>();
        let names: Vec<&str> = passes.iter(&rt.world).map(|n| n.as_str()).collect();
        if let Some(problem) = crate::scene::fault_problem(fault, &names) {
            return Err(crate::scene::SceneError::OutOfRange {
                location: crate::scene::Location::file_only(&scene.display().to_string()),
                entity: None,
                message: format!("--fault: {problem}"),
            }
            .into());
        }
    }
    if let Some(o) = overrides {
        let mut s = rt.settings_mut();
        if let Some(r) = o.rotation {
            s.rotation = Some(r.into());
        }
        if let Some(a) = o.async_compute {
            s.async_compute = a == Switch::On;
        }
        if let Some(us) = o.async_min_us {
            s.async_min_us = us;
        }
        if let Some(a) = o.aliasing {
            s.aliasing = a == Switch::On;
        }
        if let Some(f) = o.frames_in_flight {
            s.frames_in_flight = f;
        }
        if let Some(p) = &o.profile {
            s.profile = p.clone();
        }
        if let Some(b) = o.barriers {
            s.barriers = b.into();
        }
        if let Some(f) = &o.fault {
            s.fault = Some(f.clone());
        }
        if let Some(a) = o.api {
            s.api = a.into();
        }
        if let Some(b) = o.binding {
            s.binding = b.into();
        }
        if let Some(t) = o.record_threads {
            s.record_threads = t;
        }
        if let Some(order) = o.order {
            s.order = order.into();
        }
    }
    Ok(rt)
}

/// `--async-min-us`: what the scene setting accepts, 0 to one second.
fn parse_async_min_us(text: &str) -> Result<f64, String> {
    let max = crate::scene::MAX_CPU_FRAME_US;
    match text.parse::<f64>() {
        Ok(us) if us.is_finite() && (0.0..=max).contains(&us) => Ok(us),
        _ => Err(format!(
            "expected 0 (off) or a number of microseconds up to {max}, not {text:?}"
        )),
    }
}
