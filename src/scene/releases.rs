//! Timeline releases: each object is released once, not before a timeline `Add` makes it,
//! and a view is not released after the resource it views.
//!
//! A timeline `Release` is the scene's final release of a device object (FS-6): the runtime
//! requests it, and the object and its entity are gone once the fences covering its last use
//! have passed. Releasing a resource also releases every view of it, as destroying a D3D
//! resource invalidates its views. A second release of the same name, or a release of a view
//! whose resource was released before it, would therefore name an object that no longer
//! exists. The D3D-era equivalent is a double `Release()`: undefined behaviour, not a no-op.
//! So the loader refuses both, at the second release, saying where the first one is; the
//! runtime never meets them (and applies timeline requests with `try_insert`, so an entity
//! that is gone is never a panic; see `systems/begin.rs`).
//!
//! Events are taken in the order they happen: by frame, same-frame events in file order, the
//! order the runtime applies them in.

use super::check::Check;
use super::error::SceneError;
use super::format::{EventKindDef, SceneFile};

/// Rule: no object is released twice, directly or through the resource it views, or before
/// it is added.
pub fn check(c: &Check, scene: &SceneFile) -> Result<(), SceneError> {
    let mut order: Vec<usize> = (0..scene.timeline.len()).collect();
    order.sort_by_key(|&i| scene.timeline.get(i).map_or(0, |e| e.frame));
    // Definition id -> (event index, frame) of its release.
    let mut released: Vec<Option<(usize, u64)>> = vec![None; c.index.defs.len()];
    // Events that have happened (for timeline `Add`s: whether the object exists yet).
    let mut happened = vec![false; scene.timeline.len()];
    for i in order {
        let Some(event) = scene.timeline.get(i) else {
            continue;
        };
        if let Some(slot) = happened.get_mut(i) {
            *slot = true;
        }
        let EventKindDef::Release(name) = &event.event else {
            continue;
        };
        let Some(id) = c.index.id(name) else {
            continue;
        };
        let earlier = |id: usize| released.get(id).copied().flatten();
        let added = c.index.defs.get(id).and_then(|d| d.event);
        let problem =
            if let Some(add) = added.filter(|&a| !happened.get(a).copied().unwrap_or(true)) {
                let at = scene.timeline.get(add).map_or(0, |e| e.frame);
                Some(format!(
                    "{name:?} is released at frame {} before it is added at frame {at} ({}): \
                 there is nothing to release yet",
                    event.frame,
                    c.loc.event_str(add, name)
                ))
            } else if let Some((first, frame)) = earlier(id) {
                Some(format!(
                    "{name:?} is released twice: it was already released at frame {frame} ({}); \
                 a released object no longer exists (FS-6)",
                    c.loc.event_str(first, name)
                ))
            } else {
                view_of_released(c, id).and_then(|of| {
                    let (first, frame) = earlier(of)?;
                    let resource = c.index.name(of).unwrap_or_default();
                    Some(format!(
                        "view {name:?} is already released: releasing {resource:?} at frame \
                     {frame} ({}) released its views with it; release the view before its \
                     resource, or not at all (FS-6)",
                        c.loc.event_str(first, &resource)
                    ))
                })
            };
        if let Some(message) = problem {
            return Err(SceneError::Misuse {
                location: c.loc.event_str(i, name),
                entity: None,
                message,
            });
        }
        if let Some(slot) = released.get_mut(id) {
            *slot = Some((i, event.frame));
        }
    }
    Ok(())
}

/// For a view definition, the definition of the resource it views.
fn view_of_released(c: &Check, id: usize) -> Option<usize> {
    let view = c.index.def(id)?.view.as_ref()?;
    c.index.id(&view.of)
}

#[cfg(test)]
mod tests {
    use crate::scene::{parse, validate};

    fn problem(timeline: &str) -> Option<String> {
        let text = format!(
            r#"Scene(
    entities: [
        (name: "t", texture: (format: Rgba8Unorm, extent: (4, 4))),
        (name: "v", view: (of: "t", kind: Srv)),
        (name: "b", buffer: (size: 16)),
    ],
    timeline: [{timeline}],
)"#
        );
        let scene = parse(&text, "r.ron").ok()?;
        validate(&scene, &text, "r.ron")
            .err()
            .map(|e| e.to_string())
    }

    #[test]
    fn each_object_is_released_once() {
        assert_eq!(problem(r#"(frame: 1, event: Release("t"))"#), None);
        let twice = r#"(frame: 1, event: Release("b")), (frame: 5, event: Release("b"))"#;
        let m = problem(twice).unwrap_or_default();
        assert!(m.starts_with("r.ron:7:75: "), "{m}");
        assert!(
            m.contains("released twice") && m.contains("frame 1 (r.ron:7:42)"),
            "{m}"
        );
    }

    #[test]
    fn an_added_object_is_released_after_it_is_added() {
        let add = r#"(frame: 3, event: Add((name: "late", buffer: (size: 4))))"#;
        assert_eq!(
            problem(&format!(r#"{add}, (frame: 3, event: Release("late"))"#)),
            None
        );
        let early = format!(r#"(frame: 2, event: Release("late")), {add}"#);
        let m = problem(&early).unwrap_or_default();
        assert!(m.starts_with("r.ron:7:42: "), "{m}");
        assert!(
            m.contains("before it is added at frame 3 (r.ron:7:81)"),
            "{m}"
        );
    }

    #[test]
    fn a_view_is_not_released_after_its_resource() {
        let before = r#"(frame: 1, event: Release("v")), (frame: 2, event: Release("t"))"#;
        assert_eq!(problem(before), None);
        // Written in the other order but happening in this one: events go by frame.
        let after = r#"(frame: 3, event: Release("v")), (frame: 2, event: Release("t"))"#;
        let m = problem(after).unwrap_or_default();
        assert!(m.starts_with("r.ron:7:42: "), "{m}");
        assert!(m.contains("view \"v\" is already released"), "{m}");
    }
}
