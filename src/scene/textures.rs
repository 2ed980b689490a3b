//! Texture descriptions a device would refuse to create, refused at load with the line.
//!
//! Sizes: each side 1 to 16384 texels (2048 for a 3D texture, D3D12's
//! `D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION`), at most 2048 slices, a mip chain no longer
//! than the largest side allows (3D textures count their depth too, since it halves per
//! mip), 1/2/4/8 samples with one mip when multisampled.
//!
//! Dimension and format rules (D3D12 `CreateResource` and the format support tables):
//! - a 3D texture has no array slices (`DepthOrArraySize` is its depth), no depth format and
//!   no multisampling;
//! - a block-compressed (BC1-BC7) texture has mip 0 a whole number of 4x4 blocks (smaller
//!   mips round up to a block), one sample, and none of the render-target, depth-stencil or
//!   UAV allow flags: BC formats are sampled only;
//! - the depth-stencil flag needs a depth format and the render-target flag a colour one
//!   that can be rendered to; the UAV flag a format with a typed UAV (not sRGB).

use super::check::Check;
use super::error::SceneError;
use super::limits::{MAX_ARRAY_SIZE, extent_problem, full_mip_chain};
use crate::model::{BLOCK_SIDE, Texture};

/// Largest side of a 3D texture, in texels (width, height or depth).
pub const MAX_EXTENT_3D: u32 = 2048;

/// Rule: a texture's sizes, dimension and format are ones the device can create.
pub fn texture(c: &Check, id: usize, t: &Texture) -> Result<(), SceneError> {
    let at = |key: &str| c.loc.def_key(id, key, 0);
    let range = |key: &str, message: String| c.out_of_range(at(key), Some(id), message);
    let misuse = |key: &str, message: String| c.misuse(at(key), id, message);
    if let Some(problem) = extent_problem(t.extent) {
        return Err(range("extent", problem));
    }
    if t.depth == 0 || t.depth > MAX_EXTENT_3D {
        return Err(range(
            "depth",
            format!(
                "depth must be 1 (a 2D texture) to {MAX_EXTENT_3D} (a 3D texture), not {}",
                t.depth
            ),
        ));
    }
    if t.is_3d() {
        three_d(t).map_or(Ok(()), |(key, m)| Err(misuse(key, m)))?;
    }
    let max_mips = full_mip_chain(t.extent.max_element().max(t.depth));
    if t.mips == 0 || t.mips > max_mips {
        let depth = if t.is_3d() {
            format!("x{}", t.depth)
        } else {
            String::new()
        };
        return Err(range(
            "mips",
            format!(
                "mips must be 1 to {max_mips} for a {}x{}{depth} texture, not {}",
                t.extent.x, t.extent.y, t.mips
            ),
        ));
    }
    if t.array_size == 0 || t.array_size > MAX_ARRAY_SIZE {
        return Err(range(
            "array_size",
            format!(
                "array_size must be 1 to {MAX_ARRAY_SIZE}, not {}",
                t.array_size
            ),
        ));
    }
    if ![1, 2, 4, 8].contains(&t.samples) {
        return Err(range(
            "samples",
            format!("samples must be 1, 2, 4 or 8, not {}", t.samples),
        ));
    }
    if t.samples > 1 && t.mips > 1 {
        return Err(range(
            "mips",
            format!("a multisampled texture has one mip, not {}", t.mips),
        ));
    }
    format_problem(t).map_or(Ok(()), |(key, m)| Err(misuse(key, m)))
}

/// What a 3D texture breaks, if anything: the offending field and the message.
fn three_d(t: &Texture) -> Option<(&'static str, String)> {
    let side = t.extent.max_element();
    if side > MAX_EXTENT_3D {
        return Some((
            "extent",
            format!(
                "a 3D texture (depth {}) is at most {MAX_EXTENT_3D} texels per side, not {}x{}",
                t.depth, t.extent.x, t.extent.y
            ),
        ));
    }
    if t.array_size != 1 {
        return Some((
            "array_size",
            format!(
                "a 3D texture (depth {}) has no array slices, so array_size must be 1, not {}",
                t.depth, t.array_size
            ),
        ));
    }
    if t.format.is_depth() {
        return Some((
            "format",
            format!(
                "a 3D texture (depth {}) cannot have the depth format {:?}: depth buffers are 2D",
                t.depth, t.format
            ),
        ));
    }
    (t.samples != 1).then(|| {
        (
            "samples",
            format!(
                "a 3D texture (depth {}) cannot be multisampled (samples {})",
                t.depth, t.samples
            ),
        )
    })
}

/// What the format forbids of this texture, if anything: the offending field and message.
fn format_problem(t: &Texture) -> Option<(&'static str, String)> {
    let f = t.format;
    if f.is_block_compressed() {
        if !t.extent.x.is_multiple_of(BLOCK_SIDE) || !t.extent.y.is_multiple_of(BLOCK_SIDE) {
            return Some((
                "extent",
                format!(
                    "{f:?} stores 4x4 blocks, so mip 0 must be a multiple of 4 texels on each side, not {}x{}",
                    t.extent.x, t.extent.y
                ),
            ));
        }
        if t.samples != 1 {
            return Some((
                "samples",
                format!(
                    "{f:?} is block-compressed and cannot be multisampled (samples {})",
                    t.samples
                ),
            ));
        }
    }
    if t.flags.render_target
        && let Some(why) = f.render_target_problem()
    {
        return Some((
            "render_target",
            format!("`render_target: true` is not allowed on {f:?}: it is {why}"),
        ));
    }
    if t.flags.unordered_access
        && let Some(why) = f.uav_problem()
    {
        return Some((
            "unordered_access",
            format!("`unordered_access: true` is not allowed on {f:?}: it is {why}"),
        ));
    }
    (t.flags.depth_stencil && !f.is_depth()).then(|| {
        (
            "depth_stencil",
            format!("`depth_stencil: true` needs a depth format, not {f:?}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use crate::scene::{check::validate, parse};

    fn text(texture: &str) -> String {
        format!("Scene(entities: [\n  (name: \"t\", texture: ({texture})),\n])")
    }

    /// The error's message, and whether it points at line 2, column of `key`.
    fn error(texture: &str, key: &str) -> (String, bool) {
        let text = text(texture);
        let scene = parse(&text, "t.ron").expect("parses");
        let m = validate(&scene, &text, "t.ron")
            .expect_err("the texture is refused")
            .to_string();
        let column = text
            .lines()
            .nth(1)
            .and_then(|l| l.find(key))
            .map_or(0, |c| c + 1);
        let at = m.starts_with(&format!("t.ron:2:{column}: "));
        (m, at)
    }

    fn loads(texture: &str) -> bool {
        let text = text(texture);
        parse(&text, "t.ron").is_ok_and(|s| validate(&s, &text, "t.ron").is_ok())
    }

    #[test]
    fn new_formats_and_3d_textures_load() {
        assert!(loads("format: R32Uint, extent: (64, 64)"));
        assert!(loads(
            "format: Rg16Sint, extent: (64, 64), flags: (unordered_access: true)"
        ));
        assert!(loads(
            "format: Rgba16Unorm, extent: (64, 64), flags: (render_target: true)"
        ));
        assert!(loads(
            "format: Rgba8UnormSrgb, extent: (64, 64), flags: (render_target: true)"
        ));
        assert!(loads("format: Bc7UnormSrgb, extent: (256, 128), mips: 8"));
        assert!(loads("format: Bc1Unorm, extent: (1024, 1024), mips: 11"));
        assert!(loads(
            "format: Rgba16Float, extent: (64, 64), depth: 128, mips: 8"
        ));
    }

    #[test]
    fn three_d_textures_have_no_slices_and_no_depth_format() {
        let (m, at) = error(
            "format: R8Unorm, extent: (32, 32), depth: 32, array_size: 2",
            "array_size",
        );
        assert!(m.contains("no array slices") && at, "{m}");
        let (m, at) = error("format: D32Float, extent: (32, 32), depth: 4", "format");
        assert!(m.contains("depth buffers are 2D") && at, "{m}");
        let (m, _) = error("format: R8Unorm, extent: (4096, 32), depth: 4", "extent");
        assert!(m.contains("at most 2048"), "{m}");
        // The depth halves per mip, so it lengthens the chain: 32x32x128 has 8 mips, not 9.
        assert!(loads(
            "format: R8Unorm, extent: (32, 32), depth: 128, mips: 8"
        ));
        let (m, _) = error(
            "format: R8Unorm, extent: (32, 32), depth: 128, mips: 9",
            "mips",
        );
        assert!(m.contains("1 to 8 for a 32x32x128"), "{m}");
        let (m, _) = error("format: R8Unorm, extent: (32, 32), depth: 0", "depth");
        assert!(m.contains("depth must be 1"), "{m}");
    }

    #[test]
    fn block_compressed_textures_are_sampled_only_and_whole_blocks() {
        let (m, at) = error("format: Bc1Unorm, extent: (30, 32)", "extent");
        assert!(m.contains("multiple of 4") && at, "{m}");
        let (m, at) = error(
            "format: Bc7Unorm, extent: (32, 32), flags: (render_target: true)",
            "render_target",
        );
        assert!(m.contains("only be sampled") && at, "{m}");
        let (m, _) = error(
            "format: Bc3Unorm, extent: (32, 32), flags: (unordered_access: true)",
            "unordered_access",
        );
        assert!(m.contains("no UAV"), "{m}");
        let (m, _) = error("format: Bc5Unorm, extent: (32, 32), samples: 4", "samples");
        assert!(m.contains("multisampled"), "{m}");
    }

    #[test]
    fn flags_need_a_format_that_allows_them() {
        let (m, _) = error(
            "format: Rgba8UnormSrgb, extent: (8, 8), flags: (unordered_access: true)",
            "unordered_access",
        );
        assert!(m.contains("no typed UAV"), "{m}");
        let (m, _) = error(
            "format: R32Float, extent: (8, 8), flags: (depth_stencil: true)",
            "depth_stencil",
        );
        assert!(m.contains("needs a depth format"), "{m}");
    }
}
