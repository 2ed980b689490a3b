//! The pictures: `timeline` and `compare` write SVG that parses (a small well-formedness check:
//! balanced tags, quoted attributes, escaped text) and holds the elements they promise.

use std::collections::HashMap;
use std::process::Command;

/// Elements by name and class, or where the text is not well-formed XML.
fn parse(svg: &str) -> Result<HashMap<String, usize>, String> {
    let mut open: Vec<String> = Vec::new();
    let mut counts = HashMap::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let text = &rest[..i];
        if text.contains('>') {
            return Err(format!("stray > in {text:?}"));
        }
        for (j, _) in text.match_indices('&') {
            let entity = &text[j..text[j..].find(';').map_or(text.len(), |k| j + k + 1)];
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity) {
                return Err(format!("bad entity {entity:?}"));
            }
        }
        rest = &rest[i..];
        // The tag's end, outside quotes.
        let mut quote = None;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                match (quote, c) {
                    (None, '"' | '\'') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    (None, '>') => return true,
                    _ => {}
                }
                false
            })
            .map(|(k, _)| k)
            .ok_or("unclosed tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(o) if o == name.trim() => {}
                o => return Err(format!("</{name}> closes {o:?}")),
            }
            continue;
        }
        let name = tag
            .split_whitespace()
            .next()
            .ok_or("empty tag")?
            .trim_end_matches('/');
        let class = tag
            .split("class=\"")
            .nth(1)
            .and_then(|c| c.split('"').next())
            .map(|c| format!("{name}.{c}"));
        *counts.entry(name.to_owned()).or_insert(0) += 1;
        if let Some(c) = class {
            *counts.entry(c).or_insert(0) += 1;
        }
        if !tag.matches('"').count().is_multiple_of(2) {
            return Err(format!("unbalanced quotes in <{tag}>"));
        }
        if !tag.ends_with('/') {
            open.push(name.to_owned());
        }
    }
    if !open.is_empty() {
        return Err(format!("unclosed {open:?}"));
    }
    Ok(counts)
}

fn fastframe(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(args)
        .output()
        .unwrap()
}

/// Run the binary and require it to succeed, showing its standard error if it does not.
fn succeeds(args: &[&str]) -> std::process::Output {
    let out = fastframe(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("fastframe-{name}-{}.svg", std::process::id()))
}

#[test]
fn the_checker_refuses_what_is_not_well_formed() {
    assert!(parse("<svg><rect/></svg>").is_ok());
    assert!(parse("<svg><rect></svg>").is_err());
    assert!(parse("<svg><text>a < b</text></svg>").is_err());
    assert!(parse("<svg><text>a & b</text></svg>").is_err());
}

#[test]
fn timeline_draws_the_frame_s_queues() {
    let path = temp("timeline");
    succeeds(&[
        "timeline",
        "scenes/deferred.ron",
        "--frames",
        "6",
        "-o",
        path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let n = parse(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    let count = |k: &str| n.get(k).copied().unwrap_or(0);
    assert_eq!(count("svg"), 1);
    assert!(count("rect.pass") >= 5, "{n:?}");
    assert!(count("rect.barrier") > 0, "{n:?}");
    assert!(count("rect.wait") > 0, "{n:?}");
    assert!(count("line.fence") > 0, "fence arrows: {n:?}");
    assert!(
        count("line.vsync") > 0,
        "a vsync-bound frame shows its blank: {n:?}"
    );
    for pass in ["gbuffer", "ssao", "lighting"] {
        assert!(svg.contains(&format!("<title>{pass}: ")), "{pass}");
    }
    assert!(svg.contains("wait: fence") && svg.contains("wait: present"));
}

#[test]
fn compare_prints_a_table_and_draws_a_bar_per_configuration() {
    let path = temp("compare");
    let out = succeeds(&[
        "compare",
        "scenes/deferred.ron",
        "--barriers",
        "enhanced,conservative",
        "--async-compute",
        "on,off",
        "--frames",
        "10",
        "-o",
        path.to_str().unwrap(),
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert_eq!(table.lines().count(), 5, "{table}");
    assert!(table.contains("conservative, async off"), "{table}");
    let svg = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let n = parse(&svg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n.get("rect.bar"), Some(&4));
    assert!(svg.contains("enhanced, async on"));
}

/// `trace-view` draws the file `run --trace` wrote, as a viewer shows it: every queue's
/// tracks with the passes by name, barriers nested in them, fence arrows and the counters.
#[test]
fn trace_view_draws_the_trace_file_of_a_run() {
    let trace = std::env::temp_dir().join(format!("fastframe-tv-{}.json", std::process::id()));
    succeeds(&[
        "run",
        "scenes/deferred.ron",
        "--frames",
        "6",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let path = temp("trace-view");
    succeeds(&[
        "trace-view",
        trace.to_str().unwrap(),
        "-o",
        path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let n = parse(&svg).unwrap_or_else(|e| panic!("{e}"));
    let count = |k: &str| n.get(k).copied().unwrap_or(0);
    assert!(svg.contains(": frame 5<"), "the last frame by default");
    for track in [
        "graphics",
        "graphics commands",
        "compute0.0",
        "dma0",
        "device memory (MiB)",
    ] {
        assert!(svg.contains(&format!(">{track}<")), "{track}");
    }
    for pass in ["gbuffer", "ssao", "lighting"] {
        assert!(svg.contains(&format!("<title>{pass} (")), "{pass}");
    }
    assert!(svg.contains("<title>Barrier ("));
    assert!(count("rect.slice") >= 50, "{n:?}");
    assert!(count("line.flow") > 0, "fence arrows: {n:?}");
    assert!(count("rect.counter") > 0, "{n:?}");
    // A window given in microseconds draws less of the same file; a frame the run did not
    // reach, a reversed window and a file that is not a trace are errors.
    succeeds(&[
        "trace-view",
        trace.to_str().unwrap(),
        "-o",
        path.to_str().unwrap(),
        "--from-us",
        "0",
        "--to-us",
        "1",
    ]);
    let small = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(small.get("rect.slice").copied().unwrap_or(0) < count("rect.slice"));
    for bad in [&["--frame", "99"][..], &["--from-us", "5", "--to-us", "1"]] {
        let mut args = vec![
            "trace-view",
            trace.to_str().unwrap(),
            "-o",
            path.to_str().unwrap(),
        ];
        args.extend(bad);
        assert_eq!(fastframe(&args).status.code(), Some(2), "{bad:?}");
    }
    std::fs::write(&trace, "{\"traceEvents\":[\n{\"ph\":\"X\",]}").unwrap();
    let out = fastframe(&[
        "trace-view",
        trace.to_str().unwrap(),
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2 column"));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&trace);
}

#[test]
fn a_picture_to_a_bad_path_fails_before_running() {
    let out = fastframe(&[
        "timeline",
        "scenes/deferred.ron",
        "--frames",
        "1000000000",
        "-o",
        "/nonexistent/x.svg",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = fastframe(&[
        "timeline",
        "scenes/deferred.ron",
        "--frames",
        "0",
        "-o",
        "/tmp/x.svg",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// `graph --barriers` lists, in each pass's node, the barriers of the steady frame around it
/// (EB-12's triples, shortened to what changes); without the flag the nodes hold names only.
#[test]
fn graph_lists_each_pass_barriers_on_request() {
    let out = succeeds(&["graph", "scenes/deferred.ron", "--barriers"]);
    let dot = String::from_utf8_lossy(&out.stdout);
    let gbuffer = dot
        .lines()
        .find(|l| l.contains("label=\"gbuffer\\n"))
        .expect("the gbuffer node");
    assert!(
        gbuffer.contains("before: gbuffer_albedo: UNDEFINED -> RENDER_TARGET"),
        "{gbuffer}"
    );
    assert!(
        gbuffer.contains("after: gbuffer_albedo: RENDER_TARGET -> SHADER_RESOURCE"),
        "{gbuffer}"
    );
    let plain = fastframe(&["graph", "scenes/deferred.ron"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("before:"));
}
