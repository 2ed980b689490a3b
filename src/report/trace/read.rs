//! Reading a Chrome trace back: the tracks, slices, counters and flow arrows a viewer such as
//! Perfetto shows, for `fastframe trace-view` to draw.
//!
//! It reads any trace in the Chrome trace event format, not only the ones `run --trace`
//! writes, and keeps only what a track view needs: slices (`X`, or `B` and `E` pairs),
//! counter samples (`C`), flow ends (`s`, `f`) and thread names and sort indices (`M`). Arguments are reduced
//! on the way in to the frame number, the counter values and a name, so a long trace's barrier
//! details cost nothing once read. A malformed file is an error at its line and column.

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

/// A trace as a viewer sees it.
#[derive(Debug, Default)]
pub struct TraceFile {
    /// Threads by (pid, tid): their name and sort index.
    pub threads: BTreeMap<(u64, u64), Thread>,
    pub slices: Vec<Slice>,
    pub counters: Vec<Sample>,
    pub flows: Vec<Flow>,
}

/// A thread (track) of the trace.
#[derive(Debug, Default, Clone)]
pub struct Thread {
    pub name: Option<String>,
    pub sort_index: Option<i64>,
}

/// A complete slice (`ph: X`), times in microseconds.
#[derive(Debug, Clone)]
pub struct Slice {
    pub track: (u64, u64),
    pub name: String,
    pub cat: String,
    pub ts: f64,
    pub dur: f64,
    /// The `frame` argument, where the slice has one.
    pub frame: Option<u64>,
}

/// One counter sample: every numeric argument of a `C` event.
#[derive(Debug, Clone)]
pub struct Sample {
    pub name: String,
    pub ts: f64,
    pub values: Vec<(String, f64)>,
}

/// A flow arrow: from the `s` event to the `f` event with the same id.
#[derive(Debug, Clone)]
pub struct Flow {
    pub from: ((u64, u64), f64),
    pub to: ((u64, u64), f64),
}

impl TraceFile {
    /// Read a trace: an object with `traceEvents`, or the bare array the format also allows.
    pub fn read(input: impl Read) -> Result<TraceFile, serde_json::Error> {
        let Events(events) = serde_json::from_reader(std::io::BufReader::new(input))?;
        let mut file = TraceFile::default();
        let mut open: BTreeMap<(String, String), ((u64, u64), f64)> = BTreeMap::new();
        // Slices opened by `B` events and not yet closed, per thread.
        let mut begun: BTreeMap<(u64, u64), Vec<Slice>> = BTreeMap::new();
        for e in events {
            let track = (e.pid, e.tid);
            match e.ph.as_str() {
                "X" => file.slices.push(Slice {
                    track,
                    name: e.name,
                    cat: e.cat,
                    ts: e.ts.unwrap_or(0.0),
                    dur: e.dur.unwrap_or(0.0).max(0.0),
                    frame: e.args.frame,
                }),
                "B" => begun.entry(track).or_default().push(Slice {
                    track,
                    name: e.name,
                    cat: e.cat,
                    ts: e.ts.unwrap_or(0.0),
                    dur: 0.0,
                    frame: e.args.frame,
                }),
                "E" => {
                    if let Some(mut s) = begun.entry(track).or_default().pop() {
                        s.dur = (e.ts.unwrap_or(s.ts) - s.ts).max(0.0);
                        file.slices.push(s);
                    }
                }
                "C" => file.counters.push(Sample {
                    name: e.name,
                    ts: e.ts.unwrap_or(0.0),
                    values: e.args.values,
                }),
                "s" => {
                    let key = (e.cat, e.id.unwrap_or_default());
                    open.insert(key, (track, e.ts.unwrap_or(0.0)));
                }
                "f" | "t" => {
                    if let Some((from, at)) = open.remove(&(e.cat, e.id.unwrap_or_default())) {
                        file.flows.push(Flow {
                            from: (from, at),
                            to: (track, e.ts.unwrap_or(0.0)),
                        });
                    }
                }
                "M" if e.name == "thread_name" => {
                    file.threads.entry(track).or_default().name = e.args.name;
                }
                "M" if e.name == "thread_sort_index" => {
                    file.threads.entry(track).or_default().sort_index = e.args.sort_index;
                }
                _ => {}
            }
        }
        for s in &file.slices {
            file.threads.entry(s.track).or_default();
        }
        Ok(file)
    }

    /// The highest `frame` argument of any slice.
    pub fn last_frame(&self) -> Option<u64> {
        self.slices.iter().filter_map(|s| s.frame).max()
    }

    /// The interval of `frame`, in microseconds, as `gpu.frame_us` measures a frame: from the
    /// previous frame's last end to this frame's (the first frame: from its first start). A
    /// queue that runs ahead starts a frame's work earlier; that shows as what overlaps.
    pub fn frame_window(&self, frame: u64) -> Option<(f64, f64)> {
        let span = |f: u64| {
            let of_frame = self.slices.iter().filter(move |s| s.frame == Some(f));
            of_frame.fold(None, |w: Option<(f64, f64)>, s| {
                let (a, b) = w.unwrap_or((s.ts, s.ts + s.dur));
                Some((a.min(s.ts), b.max(s.ts + s.dur)))
            })
        };
        let (first, end) = span(frame)?;
        let previous = frame.checked_sub(1).and_then(span).map(|p| p.1);
        Some((previous.filter(|&p| p < end).unwrap_or(first), end))
    }
}

/// The events of an object's `traceEvents`, or of a bare array (read in place, so a syntax
/// error keeps its position).
struct Events(Vec<RawEvent>);

impl<'de> Deserialize<'de> for Events {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Events, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Events;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a trace: an object with traceEvents, or an array of events")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Events, A::Error> {
                let mut events = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == "traceEvents" {
                        events = Some(map.next_value::<Vec<RawEvent>>()?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                events
                    .map(Events)
                    .ok_or_else(|| de::Error::missing_field("traceEvents"))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Events, A::Error> {
                let mut events = Vec::new();
                while let Some(e) = seq.next_element()? {
                    events.push(e);
                }
                Ok(Events(events))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct RawEvent {
    #[serde(default)]
    name: String,
    #[serde(default)]
    cat: String,
    #[serde(default)]
    ph: String,
    #[serde(default, deserialize_with = "number")]
    pid: u64,
    #[serde(default, deserialize_with = "number")]
    tid: u64,
    ts: Option<f64>,
    dur: Option<f64>,
    #[serde(default, deserialize_with = "flow_id")]
    id: Option<String>,
    #[serde(default)]
    args: Args,
}

/// The arguments a viewer needs; everything else is skipped without being kept.
#[derive(Default)]
struct Args {
    frame: Option<u64>,
    name: Option<String>,
    sort_index: Option<i64>,
    values: Vec<(String, f64)>,
}

impl<'de> Deserialize<'de> for Args {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Args, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Args;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of arguments")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Args, A::Error> {
                let mut args = Args::default();
                while let Some(key) = map.next_key::<String>()? {
                    match map.next_value::<Scalar>()? {
                        Scalar::Number(n) => {
                            match key.as_str() {
                                "frame" if n >= 0.0 => args.frame = Some(n as u64),
                                "sort_index" => args.sort_index = Some(n as i64),
                                _ => {}
                            }
                            args.values.push((key, n));
                        }
                        Scalar::Text(t) if key == "name" => args.name = Some(t),
                        _ => {}
                    }
                }
                Ok(args)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Args, E> {
                Ok(Args::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// An argument's value: a number or text is kept, anything else read past.
enum Scalar {
    Number(f64),
    Text(String),
    Other,
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_f64<E>(self, n: f64) -> Result<Scalar, E> {
                Ok(Scalar::Number(n))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Scalar, E> {
                Ok(Scalar::Number(n as f64))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Scalar, E> {
                Ok(Scalar::Number(n as f64))
            }
            fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(s.to_owned()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Scalar, E> {
                Ok(Scalar::Other)
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Other)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut s: A) -> Result<Scalar, A::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Scalar, A::Error> {
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// A pid or tid: a number, or text (some writers quote them), hashed to a number.
fn number<'de, D: de::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Number(n) => n as u64,
        Scalar::Text(t) => t.bytes().fold(1469598103934665603u64, |h, b| {
            (h ^ b as u64).wrapping_mul(1099511628211)
        }),
        Scalar::Other => 0,
    })
}

/// A flow id: a number or text, compared as text.
fn flow_id<'de, D: de::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Number(n) => Some(n.to_string()),
        Scalar::Text(t) => Some(t),
        Scalar::Other => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = r#"{"traceEvents":[
{"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"graphics"}},
{"name":"gbuffer","cat":"pass","ph":"X","pid":1,"tid":2,"ts":10.0,"dur":5.5,"args":{"frame":3,"barrier":{"deep":[1,2,{"x":null}]}}},
{"name":"fence 7","cat":"fence","ph":"s","pid":1,"tid":2,"ts":15.0,"id":1,"bp":"e"},
{"name":"fence 7","cat":"fence","ph":"f","pid":1,"tid":9,"ts":18.0,"id":1,"bp":"e"},
{"name":"device memory","ph":"C","pid":1,"tid":0,"ts":0,"args":{"MiB":12.5}},
{"name":"thread_sort_index","ph":"M","pid":1,"tid":2,"args":{"sort_index":2}}
],"displayTimeUnit":"ns"}"#;

    #[test]
    fn reads_slices_counters_flows_and_names() {
        let t = TraceFile::read(TRACE.as_bytes()).unwrap();
        assert_eq!(t.slices.len(), 1);
        let s = &t.slices[0];
        assert_eq!(
            (s.name.as_str(), s.ts, s.dur, s.frame),
            ("gbuffer", 10.0, 5.5, Some(3))
        );
        assert_eq!(t.threads[&(1, 2)].name.as_deref(), Some("graphics"));
        assert_eq!(t.threads[&(1, 2)].sort_index, Some(2));
        assert_eq!(t.flows.len(), 1);
        assert_eq!(t.flows[0].from, ((1, 2), 15.0));
        assert_eq!(t.flows[0].to, ((1, 9), 18.0));
        assert_eq!(t.counters[0].values, vec![("MiB".to_owned(), 12.5)]);
        assert_eq!(t.frame_window(3), Some((10.0, 15.5)));
        assert_eq!(t.last_frame(), Some(3));
    }

    #[test]
    fn a_bare_array_reads_and_malformed_input_is_located() {
        let t = TraceFile::read(r#"[{"name":"a","ph":"X","pid":"p","tid":1,"ts":1}]"#.as_bytes());
        assert_eq!(t.unwrap().slices.len(), 1);
        // Begin and end events nest as complete slices do.
        let t = TraceFile::read(
            r#"[{"name":"outer","ph":"B","pid":1,"tid":1,"ts":1},
            {"name":"inner","ph":"B","pid":1,"tid":1,"ts":2},
            {"ph":"E","pid":1,"tid":1,"ts":3},{"ph":"E","pid":1,"tid":1,"ts":9}]"#
                .as_bytes(),
        )
        .unwrap();
        let got: Vec<(&str, f64, f64)> = (t.slices.iter())
            .map(|s| (s.name.as_str(), s.ts, s.dur))
            .collect();
        assert_eq!(got, [("inner", 2.0, 1.0), ("outer", 1.0, 8.0)]);
        let e = TraceFile::read("{\"traceEvents\":[\n{\"ph\":\"X\",}]}".as_bytes()).unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 11));
    }
}
