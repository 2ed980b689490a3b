//! Validation: every rule a parsed scene must pass before anything is spawned.
//!
//! Loading is all or nothing: a scene either passes every check here and is spawned
//! completely, or nothing touches the world and the first problem is reported. Checking the
//! parsed file, not the spawned world, is what makes that possible, and it keeps the rules in
//! one place that does not depend on the ECS. The checks run in the order an author reads
//! the file and fixes it: the shape of each definition, then unique names (everything else
//! resolves names), settings, each definition's sizes and references in file order, the
//! timeline, the command scripts, and finally the pass graph as a whole (a cycle only exists once every single
//! reference is fine).
//!
//! [`Check`] carries what every rule needs (the index of names, the locator for positions)
//! and builds errors, so each rule module states only the rule.

use super::error::{Location, SceneError};
use super::format::SceneFile;
use super::index::{Kinds, SceneIndex};
use super::locate::Locator;
use super::names::suggest;
use super::{cycle, limits, placement, refs, releases, script_check};

/// Checks `scene`, parsed from `text` of `file`, against every scene rule.
pub fn validate(scene: &SceneFile, text: &str, file: &str) -> Result<(), SceneError> {
    let check = Check {
        loc: Locator::new(file, text, scene),
        index: SceneIndex::new(scene),
    };
    for id in 0..check.index.defs.len() {
        check.shape(id)?;
    }
    check.unique_names()?;
    limits::settings(&check, &scene.settings)?;
    for id in 0..check.index.defs.len() {
        limits::definition(&check, id)?;
        refs::definition(&check, id)?;
        placement::definition(&check, id)?;
    }
    for (i, event) in scene.timeline.iter().enumerate() {
        refs::event(&check, i, &event.event)?;
    }
    releases::check(&check, scene)?;
    script_check::check(&check, scene)?;
    cycle::check(&check)
}

/// The shared state of one validation and the error constructors.
pub struct Check<'a> {
    pub loc: Locator<'a>,
    pub index: SceneIndex<'a>,
}

impl Check<'_> {
    /// Rule: an entity has a name and exactly one kind; `lifetime` only on textures and
    /// buffers (the only things with contents), `disabled` only on passes.
    fn shape(&self, id: usize) -> Result<(), SceneError> {
        let Some(def) = self.index.def(id) else {
            return Ok(());
        };
        let shape = |location: Location, message: String| SceneError::Shape {
            location,
            entity: Some(def.name.clone()),
            message,
        };
        if def.name.is_empty() {
            return Err(shape(self.loc.def(id), "the name is empty".into()));
        }
        let kinds: Vec<&str> = [
            ("texture", def.texture.is_some()),
            ("buffer", def.buffer.is_some()),
            ("view", def.view.is_some()),
            ("pass", def.pass.is_some()),
            ("swap_chain", def.swap_chain.is_some()),
            ("heap", def.heap.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, given)| given.then_some(k))
        .collect();
        if kinds.is_empty() {
            return Err(shape(
                self.loc.def(id),
                "no component: give one of texture, buffer, view, pass, swap_chain or heap".into(),
            ));
        }
        if kinds.len() > 1 {
            return Err(shape(
                self.loc.def(id),
                format!(
                    "several components ({}): give exactly one",
                    kinds.join(", ")
                ),
            ));
        }
        if def.lifetime.is_some() && def.texture.is_none() && def.buffer.is_none() {
            return Err(shape(
                self.loc.def_key(id, "lifetime", 0),
                format!(
                    "`lifetime` only applies to textures and buffers, not to a {}",
                    kinds[0]
                ),
            ));
        }
        if def.placed.is_some() && def.texture.is_none() && def.buffer.is_none() {
            return Err(shape(
                self.loc.def_key(id, "placed", 0),
                format!(
                    "`placed` only applies to textures and buffers, not to a {}",
                    kinds[0]
                ),
            ));
        }
        if def.disabled.is_some() && def.pass.is_none() {
            return Err(shape(
                self.loc.def_key(id, "disabled", 0),
                format!("`disabled` only applies to passes, not to a {}", kinds[0]),
            ));
        }
        Ok(())
    }

    /// Rule: names are unique across the scene, timeline `Add`s included.
    fn unique_names(&self) -> Result<(), SceneError> {
        for (id, d) in self.index.defs.iter().enumerate() {
            match self.index.id(&d.def.name) {
                Some(first) if first != id => {
                    return Err(SceneError::DuplicateName {
                        location: self.loc.def(id),
                        entity: d.def.name.clone(),
                        first: self.loc.def(first),
                    });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Resolves a reference from definition `owner` (if any) to a definition of one of
    /// `kinds`: unknown names get suggestions among those kinds, known names of another kind
    /// a [`SceneError::WrongKind`] saying what was expected.
    pub fn resolve(
        &self,
        location: impl FnOnce() -> Location,
        owner: Option<usize>,
        name: &str,
        kinds: Kinds,
    ) -> Result<usize, SceneError> {
        let Some(id) = self.index.id(name) else {
            return Err(SceneError::UnknownName {
                location: location(),
                entity: self.owner(owner),
                name: name.to_string(),
                suggestions: suggest(name, self.index.names_of(kinds.list)),
            });
        };
        match self.index.kind(id) {
            Some(k) if !kinds.list.contains(&k) => Err(SceneError::WrongKind {
                location: location(),
                entity: self.owner(owner),
                name: name.to_string(),
                expected: kinds.described,
                found: k.describe(),
            }),
            _ => Ok(id),
        }
    }

    /// The name of definition `owner`, for an error's entity.
    pub fn owner(&self, owner: Option<usize>) -> Option<String> {
        owner.and_then(|id| self.index.name(id))
    }

    /// A [`SceneError::OutOfRange`] owned by definition `owner`.
    pub fn out_of_range(
        &self,
        location: Location,
        owner: Option<usize>,
        message: String,
    ) -> SceneError {
        SceneError::OutOfRange {
            location,
            entity: self.owner(owner),
            message,
        }
    }

    /// A [`SceneError::Misuse`] owned by definition `owner`.
    pub fn misuse(&self, location: Location, owner: usize, message: String) -> SceneError {
        SceneError::Misuse {
            location,
            entity: self.owner(Some(owner)),
            message,
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::scene::parse;

    /// Validates `entities` (the inside of `entities: [...]`) and returns the error's message
    /// (the scene modules' unit tests share it).
    pub(in crate::scene) fn problem(entities: &str) -> Option<String> {
        let text = format!("Scene(entities: [{entities}])");
        let scene = parse(&text, "u.ron").ok()?;
        validate(&scene, &text, "u.ron")
            .err()
            .map(|e| e.to_string())
    }

    const T: &str = r#"(name: "t", texture: (format: Rgba8Unorm, extent: (4, 4), flags: (render_target: true))),"#;

    #[test]
    fn each_entity_has_one_kind_and_only_its_own_fields() {
        assert_eq!(problem(T), None);
        assert!(problem(r#"(name: "x")"#).is_some_and(|m| m.contains("no component")));
        let both = r#"(name: "x", buffer: (size: 4), pass: ())"#;
        assert!(problem(both).is_some_and(|m| m.contains("several components (buffer, pass)")));
        let lifetime = r#"(name: "x", pass: (), lifetime: Transient)"#;
        assert!(problem(lifetime).is_some_and(|m| m.starts_with("u.ron:1:40: ")));
        let disabled = r#"(name: "x", buffer: (size: 4), disabled: false)"#;
        assert!(problem(disabled).is_some_and(|m| m.contains("`disabled` only applies")));
    }

    #[test]
    fn names_are_unique_and_references_resolve_by_kind() {
        let twice = format!("{T} {T}");
        assert!(problem(&twice).is_some_and(|m| m.contains("duplicate name \"t\"")));
        let view = format!(
            r#"{T} (name: "v", view: (of: "t", kind: Srv)), (name: "w", view: (of: "v", kind: Srv))"#
        );
        assert!(problem(&view).is_some_and(|m| m.contains("\"v\" is a view")));
        let after = format!(r#"{T} (name: "p", pass: (after: ["t"]))"#);
        assert!(problem(&after).is_some_and(|m| m.contains("expected a pass")));
    }

    #[test]
    fn uses_fit_their_targets_and_passes_can_be_ordered() {
        let rt = format!(r#"{T} (name: "p", pass: (uses: [(target: "t", access: RenderTarget)]))"#);
        assert_eq!(problem(&rt), None);
        let copy = format!(
            r#"{T} (name: "p", pass: (queue: Copy, uses: [(target: "t", access: RenderTarget)]))"#
        );
        assert!(problem(&copy).is_some_and(|m| m.contains("cannot run on a Copy queue")));
        let cycle = r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: (after: ["a"]))"#;
        assert!(problem(cycle).is_some_and(|m| m.ends_with(
            r#"dependency cycle: a -> b -> a ("b" is declared `after` "a"; "a" is declared `after` "b")"#
        )));
        let off = r#"(name: "a", pass: (after: ["b"])), (name: "b", pass: (after: ["a"]), disabled: true)"#;
        assert_eq!(problem(off), None);
    }
}
