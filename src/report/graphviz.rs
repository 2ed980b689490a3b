//! The compiled pass graph as Graphviz DOT: one cluster per queue; solid edges for
//! dependencies on one queue; red dashed edges for the fence waits the runtime inserts
//! (FS-1, FN-2), red dotted ones for waits on the previous frame's pass; grey dotted edges
//! for cross-queue dependencies that need no wait of their own (another wait or the queue's
//! order already covers them).

use crate::plan::CompiledGraph;
use std::fmt::Write;

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
            let _ = writeln!(
                out,
                "    p{i} [label={}];",
                quote(&format!("{}\n#{i}", p.name))
            );
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
