//! Why a frame graph cannot be compiled or its barriers planned as it stands.
//!
//! Errors carry ids (pass entities, queues, layouts), never names: planning works on ids and
//! must not format strings it may not need. The name of a pass is looked up only when an error
//! is shown to a person, by [`PlanError::describe`] with whatever knows the names (the world's
//! `Name`s, or the compiled graph).

use bevy_ecs::prelude::Entity;
use thiserror::Error;

use crate::barrier::{Layout, ResourceStates};
use crate::device::QueueId;

/// A frame graph that cannot be compiled or planned.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// More passes than the compiler numbers (32-bit declaration order).
    #[error("{count} passes are too many")]
    TooManyPasses { count: usize },
    /// More passes than the barrier planner numbers across its walked frames.
    #[error("a graph of {count} passes is too large to plan")]
    TooLargeToPlan { count: usize },
    /// A use names a view whose resource was released or never existed.
    #[error("pass {pass} uses a view of a released or missing resource")]
    ViewOfMissing { pass: Entity },
    /// A use names a released or dormant object (FS-6).
    #[error(
        "pass {pass} uses a released or dormant object; disable the pass before releasing what it uses (FS-6)"
    )]
    Unavailable { pass: Entity },
    /// The passes' dependencies contradict each other; the passes on the cycle, in order, and
    /// why each runs before the next.
    #[error("dependency cycle through {} passes", passes.len())]
    Cycle {
        passes: Vec<Entity>,
        because: Vec<Option<CycleEdge>>,
    },
    /// No queue that touches a texture may move it into the layout a pass needs
    /// (barrier-spec A5).
    #[error(
        "pass {pass} on {queue} needs texture layout {} but the texture is in {} and no queue that touches it can transition it (barrier-spec A5)",
        want.spec_name(), from.spec_name()
    )]
    NoTransition {
        pass: Entity,
        queue: QueueId,
        want: Layout,
        from: Layout,
    },
    /// Passes read one texture in ways no single layout allows at once (barrier-spec A6).
    #[error("{} passes read one texture in ways no single layout allows at once (barrier-spec A6)", passes.len())]
    NoCommonReadLayout { passes: Vec<Entity> },
    /// Legacy strategy: the queue of the last use cannot hand a resource back to COMMON
    /// (EB-10).
    #[error("legacy: {pass} cannot release {resource} from {state:?} on {queue}")]
    LegacyRelease {
        pass: Entity,
        resource: Entity,
        queue: QueueId,
        state: ResourceStates,
    },
    /// Legacy strategy: a queue cannot take a resource from the state another left it in
    /// (EB-10).
    #[error("legacy: pass {pass} on {queue} cannot take {resource} from {state:?}")]
    LegacyTake {
        pass: Entity,
        resource: Entity,
        queue: QueueId,
        state: ResourceStates,
    },
    /// Legacy strategy: a queue cannot make a transition between two states (EB-10).
    #[error("legacy: pass {pass} on {queue} cannot move {resource} from {from:?} to {to:?}")]
    LegacyMove {
        pass: Entity,
        resource: Entity,
        queue: QueueId,
        from: ResourceStates,
        to: ResourceStates,
    },
    /// Legacy strategy: a texture copied onto itself, which legacy states cannot express
    /// (EB-9c).
    #[error(
        "pass {pass} copies a texture onto itself, which legacy resource states cannot express (a texture is COPY_SOURCE or COPY_DEST, never both; EB-9c): copy through a temporary texture, or plan with barriers = enhanced"
    )]
    LegacyCopyToSelf { pass: Entity },
}

/// Why one pass of a dependency cycle runs before the next: the ordering rule and the
/// resource that applied it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CycleEdge {
    /// The second is declared `after` the first.
    After,
    /// The first writes the resource and the second, declared later, reads that version.
    Reads(Entity),
    /// The first reads the resource and the second, declared later, writes its next version.
    Rewrites(Entity),
    /// The first writes a resource that keeps nothing between frames and the second, declared
    /// earlier, reads it before any write: it reads the frame's final version.
    ReadsFinal(Entity),
    /// Both write the resource, the first declared first.
    BothWrite(Entity),
}

impl CycleEdge {
    /// The same edge with its resource renamed by `f`.
    pub fn map(self, f: impl Fn(Entity) -> Entity) -> CycleEdge {
        match self {
            CycleEdge::After => CycleEdge::After,
            CycleEdge::Reads(r) => CycleEdge::Reads(f(r)),
            CycleEdge::Rewrites(r) => CycleEdge::Rewrites(f(r)),
            CycleEdge::ReadsFinal(r) => CycleEdge::ReadsFinal(f(r)),
            CycleEdge::BothWrite(r) => CycleEdge::BothWrite(f(r)),
        }
    }

    /// `"a" writes "r", which "b" reads (...)`, with entities named by `name`.
    pub(crate) fn describe(self, a: &str, b: &str, name: impl Fn(Entity) -> String) -> String {
        match self {
            CycleEdge::After => format!("{b:?} is declared `after` {a:?}"),
            CycleEdge::Reads(r) => format!(
                "{a:?} writes {:?}, which {b:?} reads (a read sees the latest earlier write)",
                name(r)
            ),
            CycleEdge::Rewrites(r) => format!(
                "{a:?} reads {:?} before {b:?} writes it again (uses run in declaration order)",
                name(r)
            ),
            CycleEdge::ReadsFinal(r) => format!(
                "{b:?} reads {:?} before any pass writes it, and it keeps nothing between frames, so it reads the version {a:?} writes last (declare {b:?} after the write, or import the resource to read the previous frame's)",
                name(r)
            ),
            CycleEdge::BothWrite(r) => format!(
                "{a:?} and {b:?} both write {:?} (writes run in declaration order)",
                name(r)
            ),
        }
    }
}

impl PlanError {
    /// The message for a person, with every pass named by `name`.
    pub fn describe(&self, name: impl Fn(Entity) -> String) -> String {
        use PlanError::*;
        match self {
            TooManyPasses { .. } | TooLargeToPlan { .. } => self.to_string(),
            Cycle { passes, because } => {
                let names: Vec<String> = passes.iter().map(|&p| name(p)).collect();
                let first = names.first().cloned().unwrap_or_default();
                let why: Vec<String> = (because.iter().enumerate())
                    .map(|(i, edge)| {
                        let (a, b) = (&names[i], &names[(i + 1) % names.len()]);
                        edge.map_or_else(
                            || format!("{a:?} runs before {b:?}"),
                            |e| e.describe(a, b, &name),
                        )
                    })
                    .collect();
                format!(
                    "dependency cycle: {} -> {first} ({})",
                    names.join(" -> "),
                    why.join("; ")
                )
            }
            NoCommonReadLayout { passes } => {
                let names: Vec<String> = passes.iter().map(|&p| name(p)).collect();
                format!(
                    "passes {} read one texture in ways no single layout allows at once (barrier-spec A6)",
                    names.join(", ")
                )
            }
            ViewOfMissing { pass } | Unavailable { pass } | LegacyCopyToSelf { pass } => {
                let shown = format!("pass {pass}");
                self.to_string()
                    .replacen(&shown, &format!("pass {}", name(*pass)), 1)
            }
            NoTransition { pass, .. } => {
                let shown = pass.to_string();
                self.to_string().replacen(&shown, &name(*pass), 1)
            }
            LegacyTake { pass, resource, .. }
            | LegacyMove { pass, resource, .. }
            | LegacyRelease { pass, resource, .. } => {
                let shown = pass.to_string();
                let text = self.to_string().replacen(&shown, &name(*pass), 1);
                text.replacen(&resource.to_string(), &format!("{:?}", name(*resource)), 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_passes_only_when_described() {
        let (a, b) = (
            Entity::from_raw_u32(7).unwrap(),
            Entity::from_raw_u32(9).unwrap(),
        );
        let name = |e: Entity| {
            if e == a {
                "gbuffer".into()
            } else {
                "light".into()
            }
        };
        let e = PlanError::Cycle {
            passes: vec![a, b],
            because: vec![Some(CycleEdge::Reads(a)), Some(CycleEdge::After)],
        };
        assert_eq!(
            e.describe(name),
            r#"dependency cycle: gbuffer -> light -> gbuffer ("gbuffer" writes "gbuffer", which "light" reads (a read sees the latest earlier write); "gbuffer" is declared `after` "light")"#
        );
        let e = PlanError::NoTransition {
            pass: b,
            queue: QueueId::Dma { engine: 0 },
            want: Layout::CopyDest,
            from: Layout::Common,
        };
        let shown = e.describe(name);
        assert!(
            shown.starts_with("pass light on dma0 needs texture layout COPY_DEST"),
            "{shown}"
        );
        assert!(!shown.contains(&b.to_string()), "{shown}");
        let e = PlanError::Unavailable { pass: a };
        assert!(e.describe(name).starts_with("pass gbuffer uses a released"));
    }
}
