//! The scene's definitions by number and by name, and what each name stands for.
//!
//! Validation and loading both need to answer "what is `x`?" before any entity exists.
//! [`SceneIndex`] numbers every definition, the live ones (`entities`) first and then the
//! dormant ones (timeline `Add`s, in timeline order), and resolves a name to its number and
//! to a [`Kind`]. It also answers "what resource does this target really touch?": a view
//! touches what it views, and a swap chain stands for its current back buffer, a texture
//! with the chain's format and extent that can be a render target. Checking uses against
//! that one description keeps the rules for direct and indirect targets identical.

use hashbrown::HashMap;

use super::format::{EntityDef, EventKindDef, SceneFile};
use crate::model::{Buffer, Format, TextureFlags};

/// What a definition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Texture,
    Buffer,
    View,
    Pass,
    SwapChain,
    Heap,
}

impl Kind {
    /// The kind with its article, for messages: "a texture".
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Texture => "a texture",
            Kind::Buffer => "a buffer",
            Kind::View => "a view",
            Kind::Pass => "a pass",
            Kind::SwapChain => "a swap chain",
            Kind::Heap => "a heap",
        }
    }
}

/// The kinds a reference accepts, and how a message says so.
#[derive(Clone, Copy, Debug)]
pub struct Kinds {
    pub list: &'static [Kind],
    pub described: &'static str,
}

impl Kinds {
    /// What a view may view.
    pub const VIEWABLE: Kinds = Kinds {
        list: &[Kind::Texture, Kind::Buffer, Kind::SwapChain],
        described: "a texture, a buffer or a swap chain",
    };
    /// What a pass may use.
    pub const USABLE: Kinds = Kinds {
        list: &[Kind::Texture, Kind::Buffer, Kind::View, Kind::SwapChain],
        described: "a texture, a buffer, a view or a swap chain",
    };
    /// What a timeline `Release` may free: the things with device objects of their own.
    pub const RELEASABLE: Kinds = Kinds {
        list: &[Kind::Texture, Kind::Buffer, Kind::View],
        described: "a texture, a buffer or a view",
    };
    /// What a script's `Release` may free: a scene heap too, once nothing is placed in it
    /// (FS-6; the device holds no reference counts).
    pub const SCRIPT_RELEASABLE: Kinds = Kinds {
        list: &[Kind::Texture, Kind::Buffer, Kind::View, Kind::Heap],
        described: "a texture, a buffer, a view or a heap",
    };
    /// What `after`, `Enable` and `Disable` name.
    pub const PASS: Kinds = Kinds {
        list: &[Kind::Pass],
        described: "a pass",
    };
    /// What `placed` names.
    pub const HEAP: Kinds = Kinds {
        list: &[Kind::Heap],
        described: "a heap",
    };
    /// What a pass's `queries` resolve into.
    pub const BUFFER: Kinds = Kinds {
        list: &[Kind::Buffer],
        described: "a buffer",
    };
    /// What `Resize` names.
    pub const SWAP_CHAIN: Kinds = Kinds {
        list: &[Kind::SwapChain],
        described: "a swap chain",
    };
}

/// A definition and, for dormant ones, the timeline event that adds it.
#[derive(Clone, Copy, Debug)]
pub struct DefRef<'a> {
    pub def: &'a EntityDef,
    pub event: Option<usize>,
}

/// The texture-like facts the use and view rules look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureFacts {
    pub format: Format,
    pub flags: TextureFlags,
    /// A swap chain's back buffer, whose flags the runtime sets (a render target) and a scene
    /// cannot.
    pub swap_chain: bool,
    pub mips: u32,
    pub slices: u32,
}

/// The resource a target finally touches.
#[derive(Clone, Copy, Debug)]
pub enum Resource<'a> {
    Texture(TextureFacts),
    Buffer(&'a Buffer),
}

/// Every definition by number, and the first definition of every name.
pub struct SceneIndex<'a> {
    pub defs: Vec<DefRef<'a>>,
    by_name: HashMap<&'a str, usize>,
}

impl<'a> SceneIndex<'a> {
    /// Numbers the definitions of `scene`: `entities` in order, then `Add`s in timeline order.
    pub fn new(scene: &'a SceneFile) -> Self {
        let live = scene.entities.iter().map(|def| DefRef { def, event: None });
        let dormant = scene
            .timeline
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match &e.event {
                EventKindDef::Add(def) => Some(DefRef {
                    def,
                    event: Some(i),
                }),
                _ => None,
            });
        let defs: Vec<DefRef<'a>> = live.chain(dormant).collect();
        let mut by_name = HashMap::new();
        for (id, d) in defs.iter().enumerate() {
            by_name.entry(d.def.name.as_str()).or_insert(id);
        }
        Self { defs, by_name }
    }

    /// The number of the first definition called `name`.
    pub fn id(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Definition `id`.
    pub fn def(&self, id: usize) -> Option<&'a EntityDef> {
        self.defs.get(id).map(|d| d.def)
    }

    /// The name of definition `id`.
    pub fn name(&self, id: usize) -> Option<String> {
        self.def(id).map(|d| d.name.clone())
    }

    /// What definition `id` is; `None` when it has no kind or several (a shape error).
    pub fn kind(&self, id: usize) -> Option<Kind> {
        let d = self.def(id)?;
        if d.kind_count() != 1 {
            return None;
        }
        Some(if d.texture.is_some() {
            Kind::Texture
        } else if d.buffer.is_some() {
            Kind::Buffer
        } else if d.view.is_some() {
            Kind::View
        } else if d.pass.is_some() {
            Kind::Pass
        } else if d.heap.is_some() {
            Kind::Heap
        } else {
            Kind::SwapChain
        })
    }

    /// Names of the definitions whose kind is one of `kinds`, for suggestions.
    pub fn names_of(&self, kinds: &[Kind]) -> Vec<&'a str> {
        (0..self.defs.len())
            .filter(|&id| self.kind(id).is_some_and(|k| kinds.contains(&k)))
            .filter_map(|id| self.def(id).map(|d| d.name.as_str()))
            .collect()
    }

    /// The resource definition `id` touches and that resource's own number: itself for
    /// textures, buffers and swap chains, what it views for a view. `None` for passes,
    /// unresolvable views and views of views.
    pub fn resource(&self, id: usize) -> Option<(usize, Resource<'a>)> {
        let d = self.def(id)?;
        if let Some(view) = &d.view {
            let of = self.id(&view.of)?;
            return (self.kind(of) != Some(Kind::View))
                .then(|| self.direct_resource(of))
                .flatten()
                .map(|r| (of, r));
        }
        self.direct_resource(id).map(|r| (id, r))
    }

    /// A texture, buffer or swap chain as a resource; `None` otherwise.
    fn direct_resource(&self, id: usize) -> Option<Resource<'a>> {
        let d = self.def(id)?;
        match self.kind(id)? {
            Kind::Texture => d.texture.as_ref().map(|t| {
                Resource::Texture(TextureFacts {
                    format: t.format,
                    flags: t.flags,
                    swap_chain: false,
                    mips: t.mips,
                    slices: t.array_size,
                })
            }),
            Kind::Buffer => d.buffer.as_ref().map(Resource::Buffer),
            // The back buffer: created by the runtime as a render target, one mip, one slice.
            Kind::SwapChain => d.swap_chain.as_ref().map(|c| {
                Resource::Texture(TextureFacts {
                    format: c.format,
                    flags: TextureFlags {
                        render_target: true,
                        unordered_access: c.unordered_access,
                        ..TextureFlags::default()
                    },
                    swap_chain: true,
                    mips: 1,
                    slices: 1,
                })
            }),
            Kind::View | Kind::Pass | Kind::Heap => None,
        }
    }
}
