//! `fastframe graph`: the compiled pass graph as Graphviz DOT, with each pass's barriers in
//! its node on request (`report::to_dot_with`).

use std::path::PathBuf;

use super::overrides::load;
use super::{after_output, fail, out};

/// Print the graph of `scene` after its first tick (or, with `barriers`, after the plan's
/// first frames, so that the nodes list the steady frame's barriers).
pub fn graph(scene: &PathBuf, barriers: bool) -> i32 {
    let mut rt = match load(scene, None) {
        Ok(rt) => rt,
        Err(e) => return fail(&e),
    };
    // The steady frame's barriers need the plan's first frames run.
    let result = if barriers { rt.run(3) } else { rt.tick() };
    if rt.world.contains_resource::<crate::model::FrameScript>() {
        // A frame script is the frame: there is no pass graph to draw.
        let written = out::print(&format!(
            "digraph {:?} {{\n  label=\"frame script: no pass graph\";\n}}\n",
            rt.scene_name()
        ));
        return after_output(written, result.err().map_or(0, |e| fail(&e)));
    }
    if rt.graph().generation == 0 {
        return result.err().map_or(1, |e| fail(&e));
    }
    let names = |e: bevy_ecs::entity::Entity| {
        (rt.world.get::<bevy_ecs::name::Name>(e))
            .map_or_else(|| e.to_string(), |n| n.as_str().to_owned())
    };
    let plan = rt.world.resource::<crate::plan::BarrierPlan>();
    let nodes = (barriers)
        .then(|| plan.frames.last())
        .flatten()
        .map(|frame| crate::report::NodeBarriers {
            frame,
            name: &names,
        });
    let dot = crate::report::to_dot_with(rt.scene_name(), rt.graph(), nodes);
    out::print(&dot).err().unwrap_or(0)
}
