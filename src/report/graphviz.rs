//! The compiled pass graph as Graphviz DOT: one cluster per queue, solid edges for
//! dependencies, dashed red edges where a fence synchronises two queues.

use crate::plan::CompiledGraph;
use std::fmt::Write;

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
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
                quote(&format!("{}\\n#{i}", p.name))
            );
        }
        let _ = writeln!(out, "  }}");
    }
    for &(a, b) in &graph.edges {
        let cross = graph.passes[a].queue != graph.passes[b].queue;
        let style = if cross {
            " [style=dashed, color=red, label=\"fence\"]"
        } else {
            ""
        };
        let _ = writeln!(out, "  p{a} -> p{b}{style};");
    }
    for name in &graph.culled {
        let _ = writeln!(
            out,
            "  {} [style=dotted, label={}];",
            quote(&format!("culled:{name}")),
            quote(&format!("{name}\\n(culled)"))
        );
    }
    out.push_str("}\n");
    out
}
