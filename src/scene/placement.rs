//! Heaps and placed resources (EB-5, EB-9d): a heap has a size, and a placed texture or
//! buffer names a heap and fits inside it.
//!
//! The bytes a resource needs are what the device will account for it (a texture's
//! [`crate::model::Texture::bytes`], a buffer's size), so a scene the loader accepts is one
//! the device will not refuse. Overlapping placements are the point of heaps (aliasing) and
//! are allowed in command scripts, where using them without activation barriers is the
//! validation layer's finding; passes may not use them, the planner planning no aliasing.

use super::check::Check;
use super::error::SceneError;
use super::index::Kinds;

/// The bytes `def` occupies from its offset, if it is a placed texture or buffer.
fn extent(def: &crate::scene::format::EntityDef) -> Option<(&str, u64, u64)> {
    let placed = def.placed.as_ref()?;
    let bytes = match (&def.texture, &def.buffer) {
        (Some(t), _) => t.bytes(),
        (None, Some(b)) => b.size,
        (None, None) => return None,
    };
    Some((
        &placed.heap,
        placed.offset,
        placed.offset.saturating_add(bytes),
    ))
}

/// Rule: a pass may not use a placed resource whose memory another placed resource shares.
/// Handing aliased memory over takes a deactivation and a later activation (EB-5), which the
/// frame-graph planner does not plan: aliasing is for command scripts.
pub fn pass_use(c: &Check, pass: usize, use_index: usize, res: usize) -> Result<(), SceneError> {
    let Some((heap, start, end)) = c.index.def(res).and_then(extent) else {
        return Ok(());
    };
    let other = (0..c.index.defs.len()).find(|&o| {
        o != res
            && c.index
                .def(o)
                .and_then(extent)
                .is_some_and(|(h, s, e)| h == heap && s < end && start < e)
    });
    match other {
        None => Ok(()),
        Some(o) => Err(c.misuse(
            c.loc.def_key_value(pass, "target", use_index),
            pass,
            format!(
                "{:?} shares heap {heap:?} memory with {:?}: passes cannot use aliased resources, because the planner plans no activation barriers (EB-5); use them from a command script, or give them memory of their own",
                c.index.name(res).unwrap_or_default(),
                c.index.name(o).unwrap_or_default(),
            ),
        )),
    }
}

/// Largest heap a scene may declare: 16 GiB.
pub const MAX_HEAP: u64 = 16 << 30;

/// Rules: a heap's size is 1 byte to 16 GiB; a placed resource names a heap and its bytes,
/// from its offset, end inside the heap.
pub fn definition(c: &Check, id: usize) -> Result<(), SceneError> {
    let Some(def) = c.index.def(id) else {
        return Ok(());
    };
    if let Some(heap) = &def.heap
        && (heap.size == 0 || heap.size > MAX_HEAP)
    {
        return Err(c.out_of_range(
            c.loc.def_key(id, "size", 0),
            Some(id),
            format!(
                "heap size {} is out of range: it must be 1 to {MAX_HEAP} bytes",
                heap.size
            ),
        ));
    }
    let Some(placed) = &def.placed else {
        return Ok(());
    };
    let heap_id = c.resolve(
        || c.loc.def_key_value(id, "heap", 0),
        Some(id),
        &placed.heap,
        Kinds::HEAP,
    )?;
    let Some(size) = c.index.def(heap_id).and_then(|d| d.heap).map(|h| h.size) else {
        return Ok(());
    };
    let (what, bytes) = match (&def.texture, &def.buffer) {
        (Some(t), _) => ("texture", t.bytes()),
        (None, Some(b)) => ("buffer", b.size),
        (None, None) => return Ok(()),
    };
    let end = placed.offset.checked_add(bytes);
    if end.is_none_or(|end| end > size) {
        let ends = end.map_or_else(|| "past 2^64".to_string(), |e| e.to_string());
        return Err(c.out_of_range(
            c.loc.def_key(id, "offset", 0),
            Some(id),
            format!(
                "{what} {:?} needs {bytes} bytes: placed at offset {} it ends at byte {ends}, past the end of heap {:?} ({size} bytes)",
                def.name, placed.offset, placed.heap
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scene::check::tests::problem;

    const HEAP: &str = r#"(name: "h", heap: (size: 8192)),"#;

    #[test]
    fn placed_resources_fit_their_heap() {
        let fits = format!(
            r#"{HEAP} (name: "b", buffer: (size: 4096), placed: (heap: "h", offset: 4096))"#
        );
        assert_eq!(problem(&fits), None);
        let past = format!(
            r#"{HEAP} (name: "b", buffer: (size: 4096), placed: (heap: "h", offset: 4097))"#
        );
        let message = problem(&past).unwrap_or_default();
        // At the `offset` key: after `Scene(entities: [`, 1-based.
        let column = "Scene(entities: [".len() + past.find("offset").unwrap_or_default() + 1;
        assert!(
            message.starts_with(&format!("u.ron:1:{column}: "))
                && message.contains("ends at byte 8193, past the end of heap \"h\" (8192 bytes)"),
            "{message}"
        );
        let huge = format!(
            r#"{HEAP} (name: "b", buffer: (size: 4096), placed: (heap: "h", offset: 18446744073709551615))"#
        );
        assert!(problem(&huge).is_some_and(|m| m.contains("past 2^64")));
    }

    #[test]
    fn placed_names_a_heap_and_only_resources_are_placed() {
        let typo = format!(r#"{HEAP} (name: "b", buffer: (size: 16), placed: (heap: "g"))"#);
        assert!(
            problem(&typo).is_some_and(|m| m.contains(r#"unknown name "g" (did you mean "h"?)"#))
        );
        let not_heap = r#"(name: "t", buffer: (size: 16)), (name: "b", buffer: (size: 16), placed: (heap: "t"))"#;
        assert!(problem(not_heap).is_some_and(|m| m.contains("expected a heap")));
        let view = format!(
            r#"{HEAP} (name: "b", buffer: (size: 16)), (name: "v", view: (of: "b", kind: Srv), placed: (heap: "h"))"#
        );
        assert!(problem(&view).is_some_and(|m| m.contains("`placed` only applies")));
        assert!(
            problem(r#"(name: "h", heap: (size: 0))"#).is_some_and(|m| m.contains("heap size 0"))
        );
    }

    #[test]
    fn passes_use_placed_resources_only_when_nothing_aliases_them() {
        let two = |second_offset: u32| {
            format!(
                r#"{HEAP} (name: "a", buffer: (size: 4096, unordered_access: true), placed: (heap: "h", offset: 0)),
                (name: "b", buffer: (size: 4096), placed: (heap: "h", offset: {second_offset})),
                (name: "p", pass: (queue: Compute, uses: [(target: "a", access: UnorderedAccess)], work: Dispatch(threads: 64)))"#
            )
        };
        assert_eq!(problem(&two(4096)), None, "side by side: no aliasing");
        let aliased = problem(&two(2048)).unwrap_or_default();
        assert!(
            aliased.contains(r#""a" shares heap "h" memory with "b""#) && aliased.contains("EB-5"),
            "{aliased}"
        );
    }
}
