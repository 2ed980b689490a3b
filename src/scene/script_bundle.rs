//! The rules of a frame script's bundles (`bundles: [(name, commands)]`), D3D12's
//! `ExecuteBundle`: what a bundle may record, and what it must set itself.
//!
//! D3D12 records a bundle on a command list of type BUNDLE, which holds draw-time work only:
//! its Close fails when it holds a clear, a copy, a resolve, a render-target, viewport or
//! scissor call, a query, a predicate, stream-output targets, a barrier or another
//! `ExecuteBundle` (bundles nest one level: a direct list executes them, a bundle does
//! not). Here loading refuses each of those at the command's line and column, and every
//! queue, fence and CPU-side call as well, which no command list records. The one
//! exception is the enhanced `Barrier`: EB-11 names "the list is not a bundle" among the
//! checks of each barrier call, so a Barrier recorded into a bundle loads and is the
//! validation layer's finding (V0805). A bundle inherits the bindings, targets, viewport
//! and predication of the list that executes it but not its pipeline state or primitive
//! topology, so a bundle that draws sets both before its first draw, and one that
//! dispatches its pipeline state before its first dispatch.

use hashbrown::HashSet;

use super::check::Check;
use super::error::SceneError;
use super::script_refs::{Scope, location};
use crate::device::Command;
use crate::model::{BundleDef, ScriptCall, ScriptCommand};

/// Rules of the bundles: unique names, and each bundle records only what a bundle may and
/// sets what it does not inherit.
pub(super) fn check(c: &Check, bundles: &[BundleDef<String>]) -> Result<(), SceneError> {
    let mut seen = HashSet::new();
    for b in bundles {
        if !seen.insert(b.name.as_str()) {
            return Err(c.out_of_range(
                location(c, Scope::Frame, &b.name),
                None,
                format!(
                    "two bundles are called {:?}: bundle names are unique",
                    b.name
                ),
            ));
        }
        recorded(c, b)?;
    }
    Ok(())
}

/// Rules: every command of bundle `b` is one a bundle records, and its draws and
/// dispatches come after the state a bundle does not inherit.
fn recorded(c: &Check, b: &BundleDef<String>) -> Result<(), SceneError> {
    let (mut pipeline, mut topology) = (false, false);
    for (k, cmd) in b.commands.iter().enumerate() {
        let refuse = |why: &str| {
            let name = cmd.name();
            let nth = (b.commands[..k].iter())
                .filter(|c| c.name() == name)
                .count();
            let at = c
                .loc
                .top_call_after(("script", "bundles"), &b.name, name, nth);
            Err(c.out_of_range(at, None, format!("{name} in bundle {:?}: {why}", b.name)))
        };
        let device = match cmd {
            ScriptCommand::Device(d) => d,
            ScriptCommand::Call(ScriptCall::ExecuteBundle(_)) => {
                return refuse(
                    "bundles nest one level: a direct list executes a bundle, a bundle executes none (D3D12 fails its Close)",
                );
            }
            ScriptCommand::Call(_) => {
                return refuse(
                    "a bundle records draw-time GPU work only (D3D12 fails its Close otherwise): make the call from the frame list that executes it",
                );
            }
        };
        match device {
            Command::SetPipelineState(_) => pipeline = true,
            Command::SetPrimitiveTopology(_) => topology = true,
            Command::Draw { .. } | Command::ExecuteIndirect { .. } if !(pipeline && topology) => {
                return refuse(
                    "a bundle inherits neither the pipeline state nor the primitive topology of the list that executes it: set both in the bundle before its first draw",
                );
            }
            Command::Dispatch { .. } | Command::DispatchIndirect { .. } if !pipeline => {
                return refuse(
                    "a bundle does not inherit the pipeline state of the list that executes it: set it in the bundle before its first dispatch",
                );
            }
            Command::SetResources { .. }
            | Command::SetConstantBuffers { .. }
            | Command::SetVertexBuffers { .. }
            | Command::SetIndexBuffer(_)
            | Command::SetIndexFormat(_)
            | Command::SetPrimitiveResetIndex(_)
            | Command::Draw { .. }
            | Command::ExecuteIndirect { .. }
            | Command::Dispatch { .. }
            | Command::DispatchIndirect { .. }
            // EB-11's "the list is not a bundle": the validation layer's finding (V0805).
            | Command::Barrier(_) => {}
            _ => {
                return refuse(
                    "a bundle may not record clears, copies, resolves, render targets, viewports, queries, predicates, stream-output targets, fences, presents or state calls of a context (D3D12 fails its Close): record it in the list that executes the bundle",
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use bevy_ecs::prelude::*;

    use crate::model::{FrameScript, ScriptCall, ScriptCommand};
    use crate::scene::{SceneError, load_str};

    /// A scene whose one bundle records `bundle` (on line 8), executed by its frame list.
    fn scene(bundle: &str) -> String {
        format!(
            r#"Scene(
    entities: [
        (name: "rtv", view: (of: "swapchain", kind: Rtv)),
        (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (64, 64))),
        (name: "vb", buffer: (size: 256)),
    ],
    script: (frames: [[(commands: [ExecuteBundle("draw")])]], bundles: [(name: "draw", commands: [
        {bundle}
    ])]),
)
"#
        )
    }

    fn load(text: &str) -> Result<World, SceneError> {
        let mut world = World::new();
        load_str(text, "b.ron", &mut world).map(|()| world)
    }

    const DRAW: &str = "SetPipelineState(1), SetPrimitiveTopology(TriangleList), SetVertexBuffers([\"vb\"]), Draw(draws: 1, vertices: 3, pixels: 64),";

    #[test]
    fn a_bundle_loads_with_its_commands_and_the_call_that_replays_it() {
        let world = load(&scene(DRAW)).unwrap_or_else(|e| panic!("{e}"));
        let script = &world.resource::<FrameScript>().0;
        assert_eq!(script.bundles.len(), 1);
        assert_eq!(script.bundles[0].name, "draw");
        let names: Vec<&str> = script.bundles[0]
            .commands
            .iter()
            .map(|c| c.name())
            .collect();
        assert_eq!(
            names,
            [
                "SetPipelineState",
                "SetPrimitiveTopology",
                "SetVertexBuffers",
                "Draw"
            ]
        );
        assert!(matches!(
            &script.frames[0][0].commands[0],
            ScriptCommand::Call(ScriptCall::ExecuteBundle(n)) if n == "draw"
        ));
    }

    /// `bundle` fails at the first `at` on line 8, saying `says`.
    fn refused(bundle: &str, at: &str, says: &str) {
        let err = match load(&scene(bundle)) {
            Ok(_) => panic!("loaded, but a bundle may not record this: {bundle}"),
            Err(e) => e,
        };
        let column = 9 + bundle
            .find(at)
            .unwrap_or_else(|| panic!("{at} not in {bundle}"));
        let shown = err.to_string();
        assert_eq!(
            (err.location().line, err.location().column),
            (8, column),
            "{shown}"
        );
        assert!(shown.contains(says), "{shown:?} does not say {says:?}");
    }

    #[test]
    fn what_a_bundle_may_not_record_is_refused_at_the_command() {
        refused(
            &format!("ClearRenderTarget(\"rtv\"), {DRAW}"),
            "ClearRenderTarget",
            "may not record clears",
        );
        refused(
            &format!("{DRAW} SetRenderTargets(rtvs: [\"rtv\"])"),
            "SetRenderTargets",
            "render targets",
        );
        refused(
            &format!("{DRAW} ExecuteBundle(\"draw\")"),
            "ExecuteBundle",
            "bundles nest one level",
        );
        refused(
            &format!("{DRAW} ResourceBarrier([UavAll])"),
            "ResourceBarrier",
            "draw-time GPU work only",
        );
        refused(
            &format!("{DRAW} Present(\"swapchain\")"),
            "Present",
            "presents",
        );
    }

    #[test]
    fn a_bundle_sets_the_pipeline_state_and_topology_it_does_not_inherit() {
        let late = "SetPipelineState(1), Draw(draws: 1, vertices: 3, pixels: 64), SetPrimitiveTopology(TriangleList),";
        refused(late, "Draw", "primitive topology");
        let second = format!("{DRAW} Dispatch(dispatches: 1, threads: 64),");
        assert!(load(&scene(&second)).is_ok(), "the pipeline state was set");
        refused(
            "Dispatch(dispatches: 1, threads: 64), SetPipelineState(1),",
            "Dispatch",
            "pipeline state",
        );
    }

    #[test]
    fn bundle_names_are_unique_and_an_unknown_one_is_refused_with_the_names_there_are() {
        let twice = scene(DRAW).replace(
            "])]),\n)",
            &format!("]), (name: \"draw\", commands: [{DRAW}])]),\n)"),
        );
        let err = load(&twice)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("bundle names are unique"), "{err}");
        let unknown = scene(DRAW).replace("ExecuteBundle(\"draw\")", "ExecuteBundle(\"drew\")");
        let err = load(&unknown)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("drew") && err.contains("\"draw\""), "{err}");
        assert!(err.contains("b.ron:7:"), "{err}");
    }
}
