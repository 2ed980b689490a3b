//! `fastframe gen`: a generated scene ([`crate::generator`]) written to stdout or a file, its
//! numbers checked first (exit 2 for what cannot be generated).

use clap::ValueEnum;
use std::path::PathBuf;

use super::out;

/// Shapes of generated frame graphs (see [`crate::generator`]).
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum ShapeArg {
    Chain,
    Mixed,
    Layered,
    FanIn,
}

impl From<ShapeArg> for crate::generator::Shape {
    fn from(s: ShapeArg) -> Self {
        use crate::generator::Shape;
        match s {
            ShapeArg::Chain => Shape::Chain,
            ShapeArg::Mixed => Shape::Mixed,
            ShapeArg::Layered => Shape::Layered,
            ShapeArg::FanIn => Shape::FanIn,
        }
    }
}

/// The most passes `gen` writes: a scene of this size loads in seconds and runs.
pub const MAX_GEN_PASSES: usize = 1_000_000;

/// `fastframe gen`: validate the numbers, generate, write.
pub(super) fn gen_scene(spec: crate::generator::GenSpec, to: Option<&PathBuf>) -> i32 {
    if spec.passes == 0 || spec.passes > MAX_GEN_PASSES {
        eprintln!(
            "error: --passes must be 1 to {MAX_GEN_PASSES}, not {}",
            spec.passes
        );
        return 2;
    }
    for (name, f) in [("--compute", spec.compute), ("--transient", spec.transient)] {
        if !(0.0..=1.0).contains(&f) {
            eprintln!("error: {name} is a fraction from 0 to 1, not {f}");
            return 2;
        }
    }
    let text = crate::scene::to_ron(&crate::generator::generate(&spec));
    let written = match to {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => return out::print(&text).err().unwrap_or(0),
    };
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
