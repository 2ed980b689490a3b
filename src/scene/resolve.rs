//! A script's `ResolveSubresource` names a multisampled texture and a single-sampled one of
//! its size and format family (`device::resolve` says why). The device refuses any other
//! resolve when it runs; checking the names' definitions here makes the mistake an error at
//! the name's line and column before anything runs. A swap chain, or one buffer of it, is a
//! single-sampled texture of the chain's format and extent.

use super::check::Check;
use super::error::SceneError;
use super::script::split_index;
use super::script_refs::{Scope, owner};
use crate::device::resolve::{ResolveFault, resolve_fault};
use crate::model::{Texture, TextureFlags};

/// Rule: `src` can be resolved into `dst` (names already known to be textures or swap
/// chains, `Slot::Texture`).
pub(super) fn check(c: &Check, scope: Scope, src: &str, dst: &str) -> Result<(), SceneError> {
    let (Some(s), Some(d)) = (texture(c, src), texture(c, dst)) else {
        return Ok(());
    };
    let (name, want, why) = match resolve_fault(&s, &d) {
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

/// The texture `name` defines: a scene texture, or a swap chain's buffer.
fn texture(c: &Check, name: &str) -> Option<Texture> {
    let chain = split_index(name).map_or(name, |(chain, _)| chain);
    let def = c.index.def(c.index.id(chain)?)?;
    if let Some(t) = &def.texture {
        return Some(t.clone());
    }
    let sc = def.swap_chain.as_ref()?;
    Some(Texture {
        format: sc.format,
        extent: sc.extent,
        depth: 1,
        mips: 1,
        array_size: 1,
        samples: 1,
        flags: TextureFlags {
            render_target: true,
            ..TextureFlags::default()
        },
    })
}
