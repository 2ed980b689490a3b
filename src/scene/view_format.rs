//! A view's own format: the texels of a texture seen as another format of its family.
//!
//! The use that matters is sRGB: a UNORM texture (or swap chain) rendered through an sRGB
//! render-target view, so the hardware encodes gamma on write, and sampled through an sRGB
//! shader-resource view, so it decodes on read; or an integer view of a float texture's
//! bits. A view may name any format of the resource's family (`Format::family`: what D3D12
//! creates as one `TYPELESS` format, or lists as the resource's castable formats). The kind's
//! format rules then hold for the view's format: no sRGB UAV, no block-compressed render
//! target, and a depth-stencil view sees the depth format itself. Buffers have no format.

use super::format::ViewDef;
use super::index::Resource;
use crate::model::ViewKind;

/// Rule: a view's format belongs to its texture's family and suits the view's kind.
pub fn view_format(v: &ViewDef, res: &Resource, what: &str) -> Option<String> {
    let f = v.format?;
    let t = match res {
        Resource::Buffer(_) => {
            return Some(format!(
                "a view of {what} cannot have a format: buffers are untyped here"
            ));
        }
        Resource::Texture(t) => t,
    };
    if f.family() != t.format.family() {
        return Some(format!(
            "a view of {what} cannot see its {:?} texels as {f:?}: a view's format must be of the texture's family (same bits per texel and channel layout, as an sRGB or integer form of the same format)",
            t.format
        ));
    }
    match v.kind {
        ViewKind::Dsv | ViewKind::DsvReadOnly if f != t.format => Some(format!(
            "a depth-stencil view of {what} sees its depth format {:?}, not {f:?}",
            t.format
        )),
        ViewKind::Rtv => f
            .render_target_problem()
            .map(|why| format!("an Rtv with format {f:?} is not possible: {f:?} is {why}")),
        ViewKind::Uav => f
            .uav_problem()
            .map(|why| format!("a Uav with format {f:?} is not possible: {f:?} is {why}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{check::validate, parse};

    fn check(tex: &str, view: &str) -> Result<(), String> {
        let text = format!(
            "Scene(entities: [\n  (name: \"t\", texture: ({tex})),\n  (name: \"v\", view: (of: \"t\", {view})),\n])"
        );
        let scene = parse(&text, "v.ron").map_err(|e| e.to_string())?;
        validate(&scene, &text, "v.ron").map_err(|e| e.to_string())
    }

    const RT: &str =
        "format: Rgba8Unorm, extent: (8, 8), flags: (render_target: true, unordered_access: true)";

    #[test]
    fn srgb_views_of_unorm_textures_load() {
        assert_eq!(check(RT, "kind: Rtv, format: Rgba8UnormSrgb"), Ok(()));
        assert_eq!(check(RT, "kind: Srv, format: Rgba8UnormSrgb"), Ok(()));
        assert_eq!(check(RT, "kind: Uav, format: Rgba8Uint"), Ok(()));
        assert_eq!(
            check(
                "format: Bc7Unorm, extent: (8, 8)",
                "kind: Srv, format: Bc7UnormSrgb"
            ),
            Ok(())
        );
    }

    #[test]
    fn view_formats_stay_in_the_family_and_fit_the_kind() {
        let e = check(RT, "kind: Srv, format: Bgra8UnormSrgb").unwrap_err();
        // Line 3, at `format` inside the view.
        assert!(e.starts_with("v.ron:3:42: ") && e.contains("family"), "{e}");
        let e = check(RT, "kind: Uav, format: Rgba8UnormSrgb").unwrap_err();
        assert!(e.contains("no typed UAV"), "{e}");
        let e = check(
            "format: D32Float, extent: (8, 8), flags: (depth_stencil: true)",
            "kind: Dsv, format: R32Float",
        )
        .unwrap_err();
        assert!(e.contains("family"), "{e}");
    }
}
