//! Scenes: frames authored as RON files, loaded into a bevy `World` and written back out.
//!
//! A scene is the whole input of a run: the resources, views, passes and swap chains of a
//! frame, the settings, and a timeline of scripted changes. It is plain data so that frames
//! can be written, diffed and reviewed like code, and so the runtime's behaviour follows
//! from what the file says and nothing else.
//!
//! ```ron
//! // A scene starts with a comment saying what it shows.
//! Scene(
//!     settings: (frames_in_flight: 2),
//!     entities: [
//!         (name: "swapchain", swap_chain: (buffers: 2, format: Bgra8Unorm, extent: (1920, 1080))),
//!         (name: "depth", texture: (format: D32Float, extent: (1920, 1080), flags: (depth_stencil: true)), lifetime: Transient),
//!         (name: "main", pass: (
//!             uses: [
//!                 (target: "swapchain", access: RenderTarget, clear: true),
//!                 (target: "depth", access: DepthWrite, clear: true),
//!             ],
//!             work: Draw(draws: 100, vertices: 300000, pixels: 2073600),
//!         )),
//!     ],
//!     timeline: [(frame: 100, event: Resize(chain: "swapchain", extent: (1280, 720)))],
//! )
//! ```
//!
//! Entities refer to each other by name; loading resolves names to `Entity` values. Because
//! scenes are written by hand, loading is strict and its errors are precise: unknown fields
//! are rejected, every reference must name an entity of the right kind, every use must fit
//! its target and queue, sizes must be sane, and the enabled passes must be orderable. Each
//! error carries the file, line, column and entity, and a misspelt name comes with the
//! closest existing names. Loading is all or nothing: the world is only touched once the
//! whole scene has passed validation.
//!
//! A scene may also carry command scripts (`script:` at the top, or on a pass): the device
//! commands a title issues, with names instead of handles, executed as written instead of
//! the frame graph or a pass's generated body ([`crate::model::Script`]). Their names are
//! checked like every other reference; whether the stream they make is legal is the
//! validation layer's question when they run.
//!
//! The pipeline is [`parse`] (text to [`SceneFile`]), [`validate()`] (every rule, with
//! positions found again in the text), and spawning; [`load_str`] and [`load_file`] run all
//! three. [`save()`] turns a world back into a [`SceneFile`] and [`to_ron`] into text; load ->
//! save -> load is a fixed point, which the round-trip tests check on every scene.

mod author;
mod barrier_mix;
mod check;
mod copies;
mod costs;
mod cycle;
mod error;
mod exclusive;
mod fit;
mod format;
mod index;
mod indirect;
mod limits;
mod load;
mod locate;
mod names;
mod placement;
mod predicate;
mod queries;
mod ranges;
mod refs;
mod releases;
mod resize;
mod resolve;
mod save;
mod scan;
mod script;
mod script_bundle;
mod script_check;
mod script_frame;
mod script_locate;
mod script_names;
mod script_refs;
mod textures;
mod view_format;
mod write;

use std::path::Path;

use bevy_ecs::world::World;

pub use author::{BUILT_SCENE, PassBuilder, SceneBuilder};
pub use check::validate;
pub use costs::{MAX_CYCLES, MAX_TIME_US};
pub use error::{Location, SceneError};
pub use format::{
    EntityDef, EventDef, EventKindDef, PassDef, SceneFile, UseDef, ViewDef, ron_options,
};
pub use limits::{
    MAX_ARRAY_SIZE, MAX_BUFFER_BYTES, MAX_CPU_FRAME_US, MAX_EXTENT, MAX_FRAMES_IN_FLIGHT,
    MAX_RECORD_THREADS, MAX_SCENE_BYTES, MAX_WORK, fault_problem,
};
pub use names::{edit_distance, suggest};
pub use save::save;
pub use write::to_ron;

use locate::Locator;

/// Parses scene text. `file` names the text in errors. Syntax errors, unknown fields and
/// unknown variants come from the RON parser, at its position, with the entity around it
/// when one can be found.
pub fn parse(text: &str, file: &str) -> Result<SceneFile, SceneError> {
    ron_options().from_str(text).map_err(|e| {
        let locator = Locator::unparsed(file, text);
        let (line, column) = (e.span.start.line, e.span.start.col);
        SceneError::Syntax {
            location: Location {
                file: file.to_string(),
                line,
                column,
            },
            entity: locator.entity_at(locator.offset_of(line, column)),
            message: syntax_message(&e.code),
        }
    })
}

/// RON's message, with the closest expected identifiers appended for an unknown field or
/// variant (the list RON gives can be long).
fn syntax_message(code: &ron::Error) -> String {
    let (found, expected) = match code {
        ron::Error::NoSuchEnumVariant {
            found, expected, ..
        }
        | ron::Error::NoSuchStructField {
            found, expected, ..
        } => (found, *expected),
        _ => return code.to_string(),
    };
    let close = suggest(found, expected.iter().copied());
    if close.is_empty() {
        return code.to_string();
    }
    let close: Vec<String> = close.iter().map(|c| format!("`{c}`")).collect();
    format!("{code} (did you mean {}?)", close.join(" or "))
}

/// Parses, validates and spawns scene text into `world`. On error the world is untouched.
pub fn load_str(text: &str, file: &str, world: &mut World) -> Result<(), SceneError> {
    let scene = parse(text, file)?;
    validate(&scene, text, file)?;
    load::spawn(&scene, world);
    if scene.script.is_some() {
        world.insert_resource(script_locate::locate(&scene, text, file));
    }
    let scripted = |e: &format::EntityDef| e.pass.as_ref().is_some_and(|p| p.script.is_some());
    if scene.entities.iter().any(scripted) {
        world.insert_resource(script_locate::locate_passes(&scene, text, file));
    }
    Ok(())
}

/// Reads the scene file at `path` and loads it into `world`. A file that cannot be read is
/// a [`SceneError::Io`] located at the file alone (line and column 0).
pub fn load_file(path: &Path, world: &mut World) -> Result<(), SceneError> {
    let file = path.display().to_string();
    let text = read(path)?;
    load_str(&text, &file, world)
}

/// Reads and validates the scene file at `path` without loading it.
pub fn read_file(path: &Path) -> Result<SceneFile, SceneError> {
    let file = path.display().to_string();
    let text = read(path)?;
    let scene = parse(&text, &file)?;
    validate(&scene, &text, &file)?;
    Ok(scene)
}

/// Writes `world`'s scene to `path` (see [`save()`] and [`to_ron`]).
pub fn save_file(world: &World, path: &Path) -> Result<(), SceneError> {
    std::fs::write(path, to_ron(&save(world))).map_err(|e| SceneError::Io {
        location: Location::file_only(&path.display().to_string()),
        message: e.to_string(),
    })
}

/// Reads a scene file: a regular file of at most [`MAX_SCENE_BYTES`]. Anything else is
/// refused before it is opened or read to its end: a FIFO without a writer would block the
/// open forever, and `/dev/zero` would be read until memory runs out.
fn read(path: &Path) -> Result<String, SceneError> {
    use std::io::Read;
    let io = |message: String| SceneError::Io {
        location: Location::file_only(&path.display().to_string()),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io(format!(
            "not a regular file ({}): a scene is read from a file",
            if meta.is_dir() {
                "a directory"
            } else {
                "a device, FIFO or socket"
            }
        )));
    }
    let too_big = || {
        io(format!(
            "larger than {} MiB, the most a scene may be",
            MAX_SCENE_BYTES >> 20
        ))
    };
    if meta.len() > MAX_SCENE_BYTES {
        return Err(too_big());
    }
    let file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
    let mut text = String::new();
    // The file may grow after the metadata was read: read one byte past the cap at most.
    (file.take(MAX_SCENE_BYTES + 1))
        .read_to_string(&mut text)
        .map_err(|e| io(e.to_string()))?;
    if text.len() as u64 > MAX_SCENE_BYTES {
        return Err(too_big());
    }
    Ok(text)
}
