//! What ran: the settings a summary names, so two summaries say what they compare.

use serde::Serialize;

use crate::model::{BarrierMode, BindingMode, Order, Rotation, Semantics, Settings};

/// The settings of a run as the summary reports them (kebab-case names, as the command line
/// spells them).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunSettings {
    /// `enhanced`, `conservative` or `legacy`: the strategy that ran.
    pub barriers: &'static str,
    /// The strategy asked for when the device could not run it and `legacy` ran instead
    /// (EB-11: the 2013 console has no enhanced barriers); `None` when it ran as asked.
    pub barriers_requested: Option<&'static str>,
    /// The rotation every swap chain used (RL-5..RL-7), each named once; empty with no chain.
    pub rotation: Vec<&'static str>,
    pub frames_in_flight: u32,
    /// The `--fault` that ran, as the command line spells it.
    pub fault: Option<String>,
    pub profile: String,
    pub async_compute: bool,
    /// Compute passes estimated shorter than this many microseconds ran on graphics.
    pub async_min_us: f64,
    pub compute_pipe: u8,
    /// `fast` or `legacy` (CTX-4).
    pub semantics: &'static str,
    /// `on` or `off`.
    pub validation: &'static str,
    /// `batches`, `calls` or `per-slot` (RB-1, RB-2).
    pub binding: &'static str,
    /// Threads recording the deferred contexts (CTX-7).
    pub record_threads: u32,
    /// `declaration`, `fewer-barriers` or `overlap`: the order passes ran in.
    pub order: &'static str,
    /// The runtime places the frame graph's transients in one shared heap (the `aliasing`
    /// setting, with a strategy that issues enhanced barriers).
    pub aliasing: bool,
    /// The title's build defines `D3DCOMPILE_NO_DEBUG` (seed 002): its `SetFastResources`
    /// calls cost half the CPU. Named only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub d3dcompile_no_debug: bool,
}

impl RunSettings {
    /// The settings that ran; `chains` are the scene's swap chains' own rotations, which
    /// `settings.rotation` overrides.
    pub fn new(settings: &Settings, chains: impl IntoIterator<Item = Rotation>) -> RunSettings {
        let mut rotation: Vec<&'static str> = Vec::new();
        for r in chains {
            let name = rotation_name(settings.rotation.unwrap_or(r));
            if !rotation.contains(&name) {
                rotation.push(name);
            }
        }
        rotation.sort_unstable();
        RunSettings {
            barriers: barrier_mode_name(settings.barriers_run()),
            barriers_requested: settings.barriers_refused().map(barrier_mode_name),
            rotation,
            frames_in_flight: settings.frames_in_flight,
            fault: settings.fault.as_ref().map(|f| f.to_string()),
            profile: settings.profile.clone(),
            async_compute: settings.async_compute,
            async_min_us: settings.async_min_us,
            compute_pipe: settings.compute_pipe,
            semantics: match settings.semantics {
                Semantics::Fast => "fast",
                Semantics::Legacy => "legacy",
            },
            validation: if settings.validation { "on" } else { "off" },
            binding: match settings.binding {
                BindingMode::Batches => "batches",
                BindingMode::Calls => "calls",
                BindingMode::PerSlot => "per-slot",
            },
            record_threads: settings.record_threads,
            order: match settings.order {
                Order::Declaration => "declaration",
                Order::FewerBarriers => "fewer-barriers",
                Order::Overlap => "overlap",
            },
            aliasing: settings.aliasing_runs(),
            d3dcompile_no_debug: settings.d3dcompile_no_debug,
        }
    }

    /// One line for the table.
    pub fn line(&self) -> String {
        let rotation = if self.rotation.is_empty() {
            "none".to_owned()
        } else {
            self.rotation.join("+")
        };
        // A strategy the device could not run is said where the one that ran is named.
        let barriers = match self.barriers_requested {
            Some(asked) => format!(
                "{} ({asked} asked for: {} has no enhanced barriers, EB-11)",
                self.barriers, self.profile
            ),
            None => self.barriers.to_owned(),
        };
        format!(
            "barriers {}  rotation {}  frames in flight {}  fault {}  order {}",
            barriers,
            rotation,
            self.frames_in_flight,
            self.fault.as_deref().unwrap_or("none"),
            self.order
        )
    }
}

fn barrier_mode_name(b: BarrierMode) -> &'static str {
    match b {
        BarrierMode::Enhanced => "enhanced",
        BarrierMode::Conservative => "conservative",
        BarrierMode::Legacy => "legacy",
    }
}

fn rotation_name(r: Rotation) -> &'static str {
    match r {
        Rotation::SavedViews => "saved-views",
        Rotation::FencedRing => "fenced-ring",
        Rotation::PlaceView => "place-view",
    }
}
