//! What `ResolveSubresource` accepts: a multisampled texture resolved into a single-sampled
//! one of the same size and format family.
//!
//! A resolve averages the samples of each texel of its source into the one texel of its
//! destination at the same place, so the API's contract (D3D11 and D3D12 alike; the rule
//! catalogue has no entry of its own for it) asks for a source with more than one sample, a
//! destination with exactly one, the same width and height, formats of one family (the same
//! bits seen as, say, UNORM and sRGB: a `TYPELESS` family in DXGI terms), and a format whose
//! samples can be averaged at all: depth and integer formats have no multisample resolve. A
//! buffer has no samples to resolve. Anything else is undefined on the hardware, so the
//! device refuses it as it refuses a command on a queue that cannot run it; the scene loader
//! applies the same rule to a script's names (`scene::resolve`) so that the mistake is an
//! error at its line and column before anything runs.
//!
//! The layouts the resolve needs (RESOLVE_SOURCE, RESOLVE_DEST) are the validation layer's
//! business (EB-1, V0403), as every access's layout is.

use super::{Command, DeviceError, Memory, ObjectDesc};
use crate::model::Texture;

/// Which side of a resolve is wrong, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveFault {
    /// The source cannot be resolved.
    Source(String),
    /// The destination cannot receive this source's resolve.
    Destination(String),
}

impl std::fmt::Display for ResolveFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResolveFault::Source(why) | ResolveFault::Destination(why) => f.write_str(why),
        }
    }
}

/// What is wrong with resolving `src` into `dst`, if anything.
pub fn resolve_fault(src: &Texture, dst: &Texture) -> Option<ResolveFault> {
    use ResolveFault::{Destination, Source};
    let f = src.format;
    if src.samples < 2 {
        return Some(Source(format!(
            "the source of a resolve must be multisampled; this one has {} sample",
            src.samples
        )));
    }
    if f.is_depth() || f.is_integer() {
        let kind = if f.is_depth() { "depth" } else { "integer" };
        return Some(Source(format!(
            "{f:?}: a {kind} format is not resolved (its samples cannot be averaged)"
        )));
    }
    if dst.samples != 1 {
        return Some(Destination(format!(
            "a resolve writes a single-sampled texture; this one has {} samples",
            dst.samples
        )));
    }
    if dst.format.family() != f.family() {
        return Some(Destination(format!(
            "{:?} is not of the source's family ({f:?}): a resolve keeps the texels' bits",
            dst.format
        )));
    }
    if dst.extent != src.extent || dst.depth != 1 {
        let (d, s) = (dst.extent, src.extent);
        return Some(Destination(format!(
            "a resolve writes a texture of its source's size: this one is {}x{}{}, the source {}x{}",
            d.x,
            d.y,
            if dst.depth != 1 { " (3D)" } else { "" },
            s.x,
            s.y
        )));
    }
    None
}

/// Refuse a resolve of what cannot be resolved (the contract above).
pub(super) fn check_resolve(memory: &Memory, cmd: &Command) -> Result<(), DeviceError> {
    let Command::ResolveSubresource { src, dst } = cmd else {
        return Ok(());
    };
    let texture = |key| -> Result<&Texture, DeviceError> {
        let object = memory.get(key)?;
        match &object.desc {
            ObjectDesc::Texture(t) => Ok(t),
            _ => Err(DeviceError::Resolve {
                detail: format!(
                    "{} is not a texture: only textures are resolved",
                    object.name
                ),
            }),
        }
    };
    let (s, d) = (texture(*src)?, texture(*dst)?);
    match resolve_fault(s, d) {
        None => Ok(()),
        Some(fault) => {
            let name = match fault {
                ResolveFault::Source(_) => memory.name(*src),
                ResolveFault::Destination(_) => memory.name(*dst),
            };
            Err(DeviceError::Resolve {
                detail: format!("{name}: {fault}"),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, Format, TextureFlags};
    use glam::UVec2;

    fn texture(format: Format, side: u32, samples: u32) -> Texture {
        Texture {
            format,
            extent: UVec2::splat(side),
            depth: 1,
            mips: 1,
            array_size: 1,
            samples,
            flags: TextureFlags {
                render_target: !format.is_depth(),
                depth_stencil: format.is_depth(),
                ..TextureFlags::default()
            },
        }
    }

    #[test]
    fn a_multisampled_texture_resolves_into_a_single_sampled_one_of_its_size_and_family() {
        let msaa = texture(Format::Bgra8UnormSrgb, 64, 4);
        assert_eq!(
            resolve_fault(&msaa, &texture(Format::Bgra8Unorm, 64, 1)),
            None
        );
        let source = |f| matches!(f, Some(ResolveFault::Source(_)));
        let destination = |f| matches!(f, Some(ResolveFault::Destination(_)));
        let single = texture(Format::Bgra8Unorm, 64, 1);
        assert!(source(resolve_fault(&single, &single)));
        assert!(destination(resolve_fault(&msaa, &msaa)));
        assert!(destination(resolve_fault(
            &msaa,
            &texture(Format::Bgra8Unorm, 32, 1)
        )));
        assert!(destination(resolve_fault(
            &msaa,
            &texture(Format::Rgba16Float, 64, 1)
        )));
        let depth = texture(Format::D32Float, 64, 4);
        assert!(source(resolve_fault(
            &depth,
            &texture(Format::D32Float, 64, 1)
        )));
        let uint = texture(Format::Rgba8Uint, 64, 4);
        assert!(source(resolve_fault(
            &uint,
            &texture(Format::Rgba8Uint, 64, 1)
        )));
    }

    #[test]
    fn the_device_refuses_a_resolve_of_a_buffer_or_a_single_sampled_texture() {
        let mut d = crate::device::Device::default();
        let mut create = |name, desc| d.create(name, desc).unwrap_or_else(|e| panic!("{e}"));
        let msaa = create(
            "msaa",
            ObjectDesc::Texture(texture(Format::Rgba8Unorm, 64, 4)),
        );
        let out = create(
            "out",
            ObjectDesc::Texture(texture(Format::Rgba8Unorm, 64, 1)),
        );
        let buffer = Buffer {
            size: 64 * 64 * 4,
            usage: Default::default(),
            unordered_access: false,
        };
        let b = create("b", ObjectDesc::Buffer(buffer));
        let mut resolve = |src, dst| {
            let cmd = Command::ResolveSubresource { src, dst };
            (d.submit(crate::device::QueueId::Graphics, 0, 0, [cmd], 0)
                .err())
            .map(|e| e.to_string())
        };
        assert_eq!(resolve(msaa, out), None);
        let swapped = resolve(out, msaa).unwrap_or_default();
        assert!(swapped.contains("out: the source of a resolve must be multisampled"));
        let from_buffer = resolve(b, out).unwrap_or_default();
        assert!(from_buffer.contains("b is not a texture"), "{from_buffer}");
    }
}
