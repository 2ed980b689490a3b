//! The item walk on hand-made items: contexts, nested zones with times sent as differences,
//! CPU items skipped by size, a block boundary between a string and its item, and the
//! failures a malformed stream must give.

use super::*;

fn item(tag: u8, fields: &[(usize, &[u8])]) -> Vec<u8> {
    let mut v = vec![0u8; usize::from(ITEM_SIZES[usize::from(tag)])];
    v[0] = tag;
    for (at, bytes) in fields {
        v[*at..*at + bytes.len()].copy_from_slice(bytes);
    }
    v
}

fn string8(s: &str) -> Vec<u8> {
    let mut v = item(ty::SINGLE_STRING_DATA8, &[]);
    v.push(s.len() as u8);
    v.extend_from_slice(s.as_bytes());
    v
}

fn srcloc(function: &str, name: &str) -> Vec<u8> {
    let mut body = vec![0u8; 8];
    body.extend_from_slice(function.as_bytes());
    body.push(0);
    body.extend_from_slice(b"gpu.rs\0");
    body.extend_from_slice(name.as_bytes());
    let mut v = item(ty::SOURCE_LOCATION_PAYLOAD, &[]);
    v.extend_from_slice(&(body.len() as u16).to_le_bytes());
    v.extend_from_slice(&body);
    v
}

fn time(ctx: u8, query: u16, delta: i64) -> Vec<u8> {
    item(
        ty::GPU_TIME,
        &[
            (p::GPU_TIME_TIME, &delta.to_le_bytes()),
            (p::GPU_TIME_QUERY, &query.to_le_bytes()),
            (p::GPU_TIME_CONTEXT, &[ctx]),
        ],
    )
}

fn begin(ctx: u8, query: u16) -> Vec<u8> {
    item(
        ty::GPU_ZONE_BEGIN_ALLOC_SRC_LOC_SERIAL,
        &[
            (p::ZONE_BEGIN_QUERY, &query.to_le_bytes()),
            (p::ZONE_BEGIN_CONTEXT, &[ctx]),
        ],
    )
}

fn end(ctx: u8, query: u16) -> Vec<u8> {
    item(
        ty::GPU_ZONE_END_SERIAL,
        &[
            (p::ZONE_END_QUERY, &query.to_le_bytes()),
            (p::ZONE_END_CONTEXT, &[ctx]),
        ],
    )
}

/// A context, a zone with a nested zone, times as differences, and CPU items skipped by
/// size, split over two blocks between a source location and its zone.
#[test]
fn tracy_items_make_contexts_and_nested_zones() {
    let new_context = item(
        ty::GPU_NEW_CONTEXT,
        &[
            (p::NEW_CONTEXT_PERIOD, &10.0f32.to_le_bytes()),
            (p::NEW_CONTEXT_CONTEXT, &[3]),
        ],
    );
    let name = item(ty::GPU_CONTEXT_NAME, &[(p::CONTEXT_NAME_CONTEXT, &[3])]);
    let mut a = [new_context, string8("GPU graphics"), name].concat();
    a.extend(item(ty::KEEP_ALIVE, &[]));
    a.extend(srcloc("graphics", "gbuffer"));
    let b = [
        begin(3, 7),
        time(3, 7, 1000),
        srcloc("graphics", "Barrier"),
        begin(3, 6),
        time(3, 6, 5),
        end(3, 5),
        time(3, 5, 20),
        end(3, 4),
        time(3, 4, 75),
        item(ty::TERMINATE, &[]),
    ]
    .concat();
    let mut w = Walker::default();
    w.block(&a).unwrap();
    w.block(&b).unwrap();
    let c = w.finish().unwrap();
    assert!(c.terminated);
    assert_eq!(c.contexts[&3].name.as_deref(), Some("GPU graphics"));
    assert_eq!(c.contexts[&3].period_ns, 10.0);
    let got: Vec<_> = (c.zones.iter())
        .map(|z| {
            (
                z.name.as_str(),
                z.function.as_str(),
                z.depth,
                z.start,
                z.end,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("gbuffer", "graphics", 0, Some(1000), Some(1100)),
            ("Barrier", "graphics", 1, Some(1005), Some(1025)),
        ]
    );
}

#[test]
fn tracy_items_fail_on_an_unknown_type_and_an_unnamed_zone() {
    let e = Walker::default().block(&[200, 0, 0]).unwrap_err();
    assert!(e.contains("unknown QueueType 200"), "{e}");
    let new_context = item(ty::GPU_NEW_CONTEXT, &[(p::NEW_CONTEXT_CONTEXT, &[0])]);
    let mut w = Walker::default();
    let e = w.block(&[new_context, begin(0, 1)].concat()).unwrap_err();
    assert!(e.contains("source location that was not sent"), "{e}");
    // A string two items back does not name a context.
    let name = item(ty::GPU_CONTEXT_NAME, &[(p::CONTEXT_NAME_CONTEXT, &[0])]);
    let mut w = Walker::default();
    let e = (w.block(&[string8("GPU x"), item(ty::KEEP_ALIVE, &[]), name].concat())).unwrap_err();
    assert!(e.contains("without its string"), "{e}");
}
