//! `run --json` validates against the published schema, `docs/summary.schema.json`, with a
//! small validator of the keywords the schema uses (type, const, enum, minimum, maximum,
//! properties, required, additionalProperties, items); a key added to the summary and not to
//! the schema, or the other way round, fails here.

use serde_json::Value;
use std::process::Command;

fn schema() -> Value {
    let text = std::fs::read_to_string("docs/summary.schema.json").expect("the schema exists");
    serde_json::from_str(&text).expect("the schema is JSON")
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "integer" => v.is_u64() || v.is_i64(),
        "number" => v.is_number(),
        _ => false,
    }
}

/// Every place `v` breaks `schema`, as paths.
fn violations(schema: &Value, v: &Value, path: &str, out: &mut Vec<String>) {
    let mut bad = |why: &str| out.push(format!("{path}: {why} ({v})"));
    match &schema["type"] {
        Value::String(t) if !type_ok(t, v) => bad(&format!("not {t}")),
        Value::Array(ts) if !ts.iter().any(|t| type_ok(t.as_str().unwrap_or(""), v)) => {
            bad("none of the types")
        }
        _ => {}
    }
    if let Some(c) = schema.get("const")
        && c != v
    {
        bad(&format!("not {c}"));
    }
    if let Some(e) = schema["enum"].as_array()
        && !e.contains(v)
    {
        bad("not in the enum");
    }
    if let (Some(min), Some(x)) = (schema["minimum"].as_f64(), v.as_f64())
        && x < min
    {
        bad("below the minimum");
    }
    if let (Some(max), Some(x)) = (schema["maximum"].as_f64(), v.as_f64())
        && x > max
    {
        bad("above the maximum");
    }
    if let Some(items) = schema.get("items")
        && let Some(a) = v.as_array()
    {
        for (i, x) in a.iter().enumerate() {
            violations(items, x, &format!("{path}[{i}]"), out);
        }
    }
    let Some(o) = v.as_object() else {
        return;
    };
    for r in schema["required"].as_array().into_iter().flatten() {
        if !o.contains_key(r.as_str().unwrap()) {
            out.push(format!("{path}: missing {r}"));
        }
    }
    let props = schema["properties"].as_object();
    for (k, x) in o {
        let sub = format!("{path}.{k}");
        match (
            props.and_then(|p| p.get(k)),
            &schema["additionalProperties"],
        ) {
            (Some(s), _) => violations(s, x, &sub, out),
            (None, Value::Bool(false)) => out.push(format!("{sub}: not in the schema")),
            (None, s @ Value::Object(_)) => violations(s, x, &sub, out),
            _ => {}
        }
    }
}

fn run_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .args(args)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Microseconds have at most three decimals (the nanosecond), ratios four.
fn rounded(v: &Value, path: &str) {
    match v {
        Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().unwrap();
            let scale = if path.contains("_us") { 1e3 } else { 1e4 };
            assert!(
                ((x * scale).round() / scale - x).abs() < 1e-9,
                "{path}: {x}"
            );
        }
        Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| rounded(x, &format!("{path}.{k}"))),
        Value::Array(a) => a.iter().for_each(|x| rounded(x, path)),
        _ => {}
    }
}

#[test]
fn run_json_validates_against_the_published_schema() {
    let schema = schema();
    let runs: [&[&str]; 3] = [
        &[
            "run",
            "scenes/deferred.ron",
            "--frames",
            "20",
            "--json",
            "--compare-async",
        ],
        &[
            "run",
            "scenes/render_loop.ron",
            "--frames",
            "8",
            "--json",
            "--validate",
            "--fault",
            "skip-wait-on-present",
            "--barriers",
            "legacy",
        ],
        &[
            "run",
            "scenes/gpu_driven.ron",
            "--frames",
            "8",
            "--json",
            "--rotation",
            "fenced-ring",
        ],
    ];
    for args in runs {
        let v = run_json(args);
        let mut out = Vec::new();
        violations(&schema, &v, "$", &mut out);
        assert!(out.is_empty(), "{args:?}:\n{}", out.join("\n"));
        rounded(&v, "$");
    }
    let faulty = run_json(runs[1]);
    assert_eq!(faulty["settings"]["fault"], "skip-wait-on-present");
    assert!(
        !faulty["validation"]["by_rule"]
            .as_object()
            .unwrap()
            .is_empty()
    );
}

/// The validator is not vacuous: a key the schema does not know, a missing one and a wrong
/// type are each found.
#[test]
fn the_schema_check_finds_what_does_not_match() {
    let schema = schema();
    let good = run_json(&["run", "scenes/render_loop.ron", "--frames", "3", "--json"]);
    let count = |v: &Value| {
        let mut out = Vec::new();
        violations(&schema, v, "$", &mut out);
        out.len()
    };
    assert_eq!(count(&good), 0);
    let mut extra = good.clone();
    extra["gpu"]["new_figure"] = 1.into();
    assert_eq!(count(&extra), 1);
    let mut missing = good.clone();
    missing["sync"].as_object_mut().unwrap().remove("barriers");
    assert_eq!(count(&missing), 1);
    let mut wrong = good.clone();
    wrong["settings"]["validation"] = false.into();
    assert_eq!(count(&wrong), 1);
}
