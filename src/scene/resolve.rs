//! A script's `ResolveSubresource` names a multisampled texture and a single-sampled one of
//! its size and format family (`device::resolve` says why). The device refuses any other
//! resolve when it runs; checking the names' definitions here makes the mistake an error at
//! the name's line and column before anything runs. A swap chain, or one buffer of it, is a
//! single-sampled texture of the chain's format and extent, or of any extent and format the
//! script's `ResizeBuffers` calls give it: which one holds at the resolve depends on the
//! order the frames run in, which the device knows when it runs (and refuses a mismatch
//! then), so the loader refuses only a resolve that fits none of them.

use super::check::Check;
use super::error::SceneError;
use super::script::split_index;
use super::script_refs::{Names, Scope, owner};
use crate::device::resolve::{ResolveFault, resolve_fault};
use crate::model::{Texture, TextureFlags};

/// Rule: `src` can be resolved into `dst` (names already known to be textures or swap
/// chains, `Slot::Texture`), as the scene creates them or as a resize makes a chain.
pub(super) fn check(
    c: &Check,
    scope: Scope,
    names: &Names,
    src: &str,
    dst: &str,
) -> Result<(), SceneError> {
    let (sources, destinations) = (textures(c, names, src), textures(c, names, dst));
    let (Some(s), Some(d)) = (sources.first(), destinations.first()) else {
        return Ok(());
    };
    let fits = |s, d| resolve_fault(s, d).is_none();
    if (sources.iter()).any(|s| destinations.iter().any(|d| fits(s, d))) {
        return Ok(());
    }
    let (name, want, why) = match resolve_fault(s, d) {
        None => return Ok(()),
        Some(ResolveFault::Source(why)) => (src, "src", why),
        Some(ResolveFault::Destination(why)) => (dst, "dst", why),
    };
    let fields = [("src", src), ("dst", dst)];
    let location = match scope {
        Scope::Frame => (c.loc).top_call_str("script", "ResolveSubresource", &fields, want),
        Scope::Pass(id) => (c.loc).def_call_str(id, "script", "ResolveSubresource", &fields, want),
    };
    Err(SceneError::Misuse {
        location,
        entity: owner(c, scope),
        message: format!("ResolveSubresource: {name:?}: {why}"),
    })
}

/// The textures `name` may be: a scene texture, or a swap chain's buffer as the scene
/// creates it (first) and as any of the script's resizes may make it.
fn textures(c: &Check, names: &Names, name: &str) -> Vec<Texture> {
    let chain = split_index(name).map_or(name, |(chain, _)| chain);
    let Some(def) = c.index.id(chain).and_then(|id| c.index.def(id)) else {
        return Vec::new();
    };
    if let Some(t) = &def.texture {
        return vec![t.clone()];
    }
    let Some(sc) = def.swap_chain.as_ref() else {
        return Vec::new();
    };
    let resizes = names.resizes.get(chain).map_or(&[][..], Vec::as_slice);
    let mut extents = vec![sc.extent];
    let mut formats = vec![sc.format];
    for ((w, h), format) in resizes {
        extents.push(glam::uvec2(*w, *h));
        formats.extend(*format);
    }
    let mut out = Vec::new();
    for &extent in &extents {
        for &format in &formats {
            out.push(buffer(format, extent));
        }
    }
    out
}

/// A swap-chain buffer of that format and extent, as a resolve sees it.
fn buffer(format: crate::model::Format, extent: glam::UVec2) -> Texture {
    Texture {
        format,
        extent,
        depth: 1,
        mips: 1,
        array_size: 1,
        samples: 1,
        flags: TextureFlags {
            render_target: true,
            ..TextureFlags::default()
        },
    }
}
