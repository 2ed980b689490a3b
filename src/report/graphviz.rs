//! The compiled pass graph as Graphviz DOT: one cluster per queue; solid edges for
//! dependencies on one queue; red dashed edges for the fence waits the runtime inserts
//! (FS-1, FN-2), red dotted ones for waits on the previous frame's pass; grey dotted edges
//! for cross-queue dependencies that need no wait of their own (another wait or the queue's
//! order already covers them). On request, each pass's node lists the barriers of the steady
//! frame around it: texture layout changes and accesses, buffer accesses, global flushes
//! (EB-12's triples, shortened to what changes).

use bevy_ecs::prelude::Entity;

use crate::barrier::BarrierGroupRef;
use crate::plan::{CompiledGraph, FramePlan};
use std::fmt::Write;

/// The barriers to draw in the nodes: a frame of a plan, and the names of its resources.
pub struct NodeBarriers<'a> {
    pub frame: &'a FramePlan,
    pub name: &'a dyn Fn(Entity) -> String,
}

/// One line per barrier of `group`: what it moves (a texture's layouts or its accesses, a
/// buffer's accesses, a global flush), `prefix` before each.
fn barrier_lines(
    group: BarrierGroupRef<'_, Entity>,
    prefix: &str,
    name: &dyn Fn(Entity) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for g in group.global {
        out.push(format!(
            "{prefix} global {:?} -> {:?}",
            g.sync_before, g.sync_after
        ));
    }
    for b in group.buffers {
        out.push(format!(
            "{prefix} {} {:?} -> {:?}",
            name(b.resource),
            b.access_before,
            b.access_after
        ));
    }
    for t in group.textures {
        let range = if t.range.is_all() {
            String::new()
        } else {
            format!(
                " mip {}+{} slice {}+{}",
                t.range.first_mip, t.range.mip_count, t.range.first_slice, t.range.slice_count
            )
        };
        let what = if t.layout_before == t.layout_after {
            format!("{:?} -> {:?}", t.access_before, t.access_after)
        } else {
            format!(
                "{} -> {}",
                t.layout_before.spec_name(),
                t.layout_after.spec_name()
            )
        };
        out.push(format!("{prefix} {}{range}: {what}", name(t.resource)));
    }
    out
}

/// `s` as a DOT string: quotes and backslashes escaped, line breaks as DOT's `\n`.
fn quote(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

/// Render `graph` (from the scene named `title`) as DOT.
pub fn to_dot(title: &str, graph: &CompiledGraph) -> String {
    to_dot_with(title, graph, None)
}

/// Render `graph` as DOT, with each pass's barriers in its node when `barriers` is given.
pub fn to_dot_with(title: &str, graph: &CompiledGraph, barriers: Option<NodeBarriers>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(title));
    let _ = writeln!(out, "  rankdir=LR;\n  node [shape=box, style=rounded];");
    let mut queues: Vec<_> = graph.passes.iter().map(|p| p.queue).collect();
    queues.sort();
    queues.dedup();
    for q in queues {
        let _ = writeln!(
            out,
            "  subgraph {} {{\n    label={};",
            quote(&format!("cluster_{q}")),
            quote(&q.to_string())
        );
        for (i, p) in graph
            .passes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.queue == q)
        {
            let mut label = format!("{}\n#{i}", p.name);
            if let Some(b) = &barriers {
                let (before, after) = b.frame.groups(i);
                for line in barrier_lines(before, "before:", b.name)
                    .into_iter()
                    .chain(barrier_lines(after, "after:", b.name))
                {
                    label.push('\n');
                    label.push_str(&line);
                }
            }
            let _ = writeln!(out, "    p{i} [label={}];", quote(&label));
        }
        let _ = writeln!(out, "  }}");
    }
    for &(a, b) in &graph.edges {
        let cross = graph.passes[a].queue != graph.passes[b].queue;
        let style = match (cross, graph.passes[b].waits.contains(&a)) {
            (false, _) => "",
            (true, true) => " [style=dashed, color=red, label=\"fence\"]",
            (true, false) => " [style=dotted, color=grey]",
        };
        let _ = writeln!(out, "  p{a} -> p{b}{style};");
    }
    for (b, p) in graph.passes.iter().enumerate() {
        for &a in &p.waits_previous {
            let _ = writeln!(
                out,
                "  p{a} -> p{b} [style=dotted, color=red, label=\"fence, previous frame\", constraint=false];"
            );
        }
    }
    for name in &graph.culled {
        let _ = writeln!(
            out,
            "  {} [style=dotted, label={}];",
            quote(&format!("culled:{name}")),
            quote(&format!("{name}\n(culled)"))
        );
    }
    out.push_str("}\n");
    out
}
