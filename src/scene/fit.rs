//! Whether a use or a view fits what it targets: the creation-flag, format and view-kind
//! rules, as pure functions from facts to a complaint.
//!
//! These mirror what the device would refuse at run time, moved to load time where the
//! error can point at the line. A render-target use or view needs a texture created with
//! `render_target` (and a depth one `depth_stencil`, a UAV `unordered_access`): compression
//! metadata and the views themselves only exist where the allow flag was given (EB-4).
//! Depth uses need a depth format; render targets a colour one. Buffers have no render
//! target or depth uses and no subresources; textures have no vertex, index, constant or
//! indirect-argument uses. Through a view, the access must be the one the view kind binds
//! (an SRV is read by shaders, nothing else), and a clear only exists for render targets,
//! depth writes and UAVs (the three Clear*View commands). Each function returns `None` when
//! the rule holds, or the message saying which rule is broken.

use super::format::ViewDef;
use super::index::{Resource, TextureFacts};
use super::ranges::range;
use crate::model::{BufferUsage, QueueKind, UseAccess, ViewKind, Work};

/// Rule: a view kind fits the resource it views. `what` names the resource in messages.
pub fn view_kind(kind: ViewKind, res: &Resource, what: &str) -> Option<String> {
    match (res, kind) {
        (Resource::Buffer(_), ViewKind::Rtv | ViewKind::Dsv | ViewKind::DsvReadOnly) => {
            Some(format!(
                "{} cannot view {what}: render-target and depth-stencil views are texture-only",
                a(kind)
            ))
        }
        (Resource::Buffer(b), ViewKind::Uav | ViewKind::UavCounter) if !b.unordered_access => {
            Some(format!(
                "{} of {what} needs `unordered_access: true` on the buffer",
                a(kind)
            ))
        }
        (Resource::Texture(_), ViewKind::UavCounter) => Some(format!(
            "a UavCounter cannot view {what}: append and counter UAVs are buffer views"
        )),
        (Resource::Texture(t), ViewKind::Dsv | ViewKind::DsvReadOnly) if !t.format.is_depth() => {
            Some(format!(
                "a Dsv needs a depth format, but {what} is {:?}",
                t.format
            ))
        }
        (Resource::Texture(t), ViewKind::Dsv | ViewKind::DsvReadOnly) if !t.flags.depth_stencil => {
            Some(format!(
                "a Dsv of {what} needs `depth_stencil: true` in its flags (EB-4)"
            ))
        }
        (Resource::Texture(t), ViewKind::Rtv | ViewKind::Uav) if t.format.is_depth() => {
            Some(format!(
                "{} needs a colour format, but {what} is {:?}",
                a(kind),
                t.format
            ))
        }
        (Resource::Texture(t), ViewKind::Rtv) if t.format.render_target_problem().is_some() => {
            Some(format!(
                "an Rtv cannot view {what}: {:?} is {}",
                t.format,
                t.format.render_target_problem().unwrap_or_default()
            ))
        }
        (Resource::Texture(t), ViewKind::Uav) if t.format.uav_problem().is_some() => Some(format!(
            "a Uav cannot view {what}: {:?} is {}",
            t.format,
            t.format.uav_problem().unwrap_or_default()
        )),
        (Resource::Texture(t), ViewKind::Rtv) if !t.flags.render_target => Some(format!(
            "an Rtv of {what} needs `render_target: true` in its flags (EB-4)"
        )),
        (Resource::Texture(t), ViewKind::Uav) if t.swap_chain && !t.flags.unordered_access => {
            Some(swap_chain_uav(what))
        }
        (Resource::Texture(t), ViewKind::Uav) if !t.flags.unordered_access => Some(format!(
            "a Uav of {what} needs `unordered_access: true` in its flags"
        )),
        _ => None,
    }
}

/// A swap chain has no `flags`: its buffers are render targets, and UAV access is the
/// chain's own `unordered_access` setting.
fn swap_chain_uav(what: &str) -> String {
    format!(
        "{what} cannot be written through a UAV: its buffers are render targets only; add `unordered_access: true` to the swap chain (beside `buffers` and `format`) to let compute write it"
    )
}

/// The view kind with its article, as read aloud: "an Rtv", "a Dsv".
fn a(kind: ViewKind) -> &'static str {
    match kind {
        ViewKind::Rtv => "an Rtv",
        ViewKind::Dsv => "a Dsv",
        ViewKind::DsvReadOnly => "a DsvReadOnly",
        ViewKind::Srv => "an Srv",
        ViewKind::Uav => "a Uav",
        ViewKind::UavCounter => "a UavCounter",
    }
}

/// Rule: a view's subresource range lies within its texture, and buffers have none. Returns
/// the offending field and the message.
pub fn view_range(v: &ViewDef, res: &Resource) -> Option<(&'static str, String)> {
    if !v.min_lod.is_finite() || v.min_lod < 0.0 {
        return Some((
            "min_lod",
            format!(
                "min_lod must be a finite LOD of 0 or more, not {}",
                v.min_lod
            ),
        ));
    }
    let t: &TextureFacts = match res {
        Resource::Texture(t) => t,
        Resource::Buffer(_) => {
            let ranged = v.first_mip != 0
                || v.mip_count.is_some()
                || v.first_slice != 0
                || v.slice_count.is_some();
            return ranged.then(|| {
                (
                    "kind",
                    "a buffer view has no mips or slices: remove the range fields".to_string(),
                )
            });
        }
    };
    range("mip", v.first_mip, v.mip_count, t.mips)
        .or_else(|| range("slice", v.first_slice, v.slice_count, t.slices))
}

/// Rule: an access fits the resource it finally touches.
pub fn use_access(access: UseAccess, res: &Resource, what: &str) -> Option<String> {
    match res {
        Resource::Buffer(_) if access.texture_only() => Some(format!(
            "{what} cannot be used as {access:?}: {access:?} is a texture-only access"
        )),
        Resource::Texture(_) if access.buffer_only() => Some(format!(
            "{what} cannot be used as {access:?}: {access:?} is a buffer-only access"
        )),
        Resource::Buffer(b) if access == UseAccess::UnorderedAccess && !b.unordered_access => {
            Some(format!(
                "an UnorderedAccess use of {what} needs `unordered_access: true` on the buffer"
            ))
        }
        Resource::Buffer(_) => None,
        Resource::Texture(t) => texture_access(access, t, what),
    }
}

/// What is wrong with a pass on `queue` using `res` at all: a compute queue cannot use a
/// dynamic buffer (CC-1: compute contexts do not support dynamic resources), whatever the
/// access.
pub fn queue_resource(queue: QueueKind, res: &Resource, what: &str) -> Option<String> {
    match res {
        Resource::Buffer(b) if queue == QueueKind::Compute && b.usage == BufferUsage::Dynamic => {
            Some(format!(
                "a Compute-queue pass cannot use {what}: it is a dynamic buffer, which compute contexts do not support (CC-1); copy it into a default buffer on the graphics or copy queue and use that, or run the pass on graphics"
            ))
        }
        _ => None,
    }
}

fn texture_access(access: UseAccess, t: &TextureFacts, what: &str) -> Option<String> {
    match access {
        UseAccess::RenderTarget if t.format.is_depth() => Some(format!(
            "a RenderTarget use needs a colour format, but {what} is {:?}",
            t.format
        )),
        UseAccess::RenderTarget if t.format.is_block_compressed() => Some(format!(
            "{what} cannot be used as RenderTarget: {:?} is {}",
            t.format,
            t.format.render_target_problem().unwrap_or_default()
        )),
        UseAccess::UnorderedAccess if t.format.uav_problem().is_some() => Some(format!(
            "{what} cannot be used as UnorderedAccess: {:?} is {}",
            t.format,
            t.format.uav_problem().unwrap_or_default()
        )),
        UseAccess::RenderTarget if !t.flags.render_target => Some(format!(
            "a RenderTarget use of {what} needs `render_target: true` in its flags (EB-4)"
        )),
        UseAccess::DepthWrite | UseAccess::DepthRead if !t.format.is_depth() => Some(format!(
            "a {access:?} use needs a depth format, but {what} is {:?}",
            t.format
        )),
        UseAccess::DepthWrite | UseAccess::DepthRead if !t.flags.depth_stencil => Some(format!(
            "a {access:?} use of {what} needs `depth_stencil: true` in its flags (EB-4)"
        )),
        UseAccess::UnorderedAccess if t.swap_chain && !t.flags.unordered_access => {
            Some(swap_chain_uav(what))
        }
        UseAccess::UnorderedAccess if !t.flags.unordered_access => Some(format!(
            "an UnorderedAccess use of {what} needs `unordered_access: true` in its flags"
        )),
        _ => None,
    }
}

/// Rule: through a view, the access is the one its kind binds.
pub fn view_access(kind: ViewKind, access: UseAccess, view: &str) -> Option<String> {
    let fits = match kind {
        ViewKind::Rtv => access == UseAccess::RenderTarget,
        ViewKind::Dsv => matches!(access, UseAccess::DepthWrite | UseAccess::DepthRead),
        ViewKind::DsvReadOnly => access == UseAccess::DepthRead,
        ViewKind::Srv => access == UseAccess::ShaderRead,
        ViewKind::Uav | ViewKind::UavCounter => access == UseAccess::UnorderedAccess,
    };
    let binds = match kind {
        ViewKind::Rtv => "RenderTarget",
        ViewKind::Dsv => "DepthWrite or DepthRead",
        ViewKind::DsvReadOnly => "DepthRead",
        ViewKind::Srv => "ShaderRead",
        ViewKind::Uav | ViewKind::UavCounter => "UnorderedAccess",
    };
    (!fits).then(|| format!("{kind:?} view {view:?} is bound for {binds}, not {access:?}"))
}

/// Rule: only render-target, depth-write and unordered-access uses can clear.
pub fn clear(access: UseAccess) -> Option<String> {
    let clears = matches!(
        access,
        UseAccess::RenderTarget | UseAccess::DepthWrite | UseAccess::UnorderedAccess
    );
    (!clears).then(|| {
        format!("`clear` needs a RenderTarget, DepthWrite or UnorderedAccess use, not {access:?}")
    })
}

/// Rule: a dispatch has neither an output merger nor an input assembler (barrier-spec A1:
/// Dispatch is in COMPUTE_SHADING alone), so it cannot render, test depth or fetch vertices
/// and indices; it reads and writes through shader views, constant buffers and indirect
/// arguments.
pub fn work_access(work: &Work, access: UseAccess) -> Option<String> {
    let fixed_function = matches!(
        access,
        UseAccess::RenderTarget
            | UseAccess::DepthWrite
            | UseAccess::DepthRead
            | UseAccess::VertexBuffer
            | UseAccess::IndexBuffer
    );
    (work.is_dispatch() && fixed_function).then(|| {
        format!(
            "a Dispatch cannot use a target as {access:?} (that is a draw's output merger or input assembler): write it as UnorderedAccess, or make the pass a Draw"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Buffer, BufferUsage, Format, TextureFlags};

    fn tex(format: Format, flags: TextureFlags) -> Resource<'static> {
        Resource::Texture(TextureFacts {
            swap_chain: false,
            format,
            flags,
            mips: 4,
            slices: 2,
        })
    }

    const BUF: Buffer = Buffer {
        size: 64,
        usage: BufferUsage::Default,
        unordered_access: false,
    };

    fn view(first_mip: u32, mip_count: Option<u32>) -> ViewDef {
        ViewDef {
            of: "t".into(),
            kind: ViewKind::Srv,
            first_mip,
            mip_count,
            first_slice: 0,
            slice_count: None,
            min_lod: 0.0,
            format: None,
        }
    }

    #[test]
    fn render_targets_need_the_flag_and_a_colour_format() {
        let plain = tex(Format::Rgba8Unorm, TextureFlags::default());
        let rt = tex(
            Format::Rgba8Unorm,
            TextureFlags {
                render_target: true,
                ..Default::default()
            },
        );
        assert!(use_access(UseAccess::RenderTarget, &plain, "t").is_some());
        assert!(use_access(UseAccess::RenderTarget, &rt, "t").is_none());
        assert!(view_kind(ViewKind::Rtv, &plain, "t").is_some());
        assert!(view_kind(ViewKind::Rtv, &rt, "t").is_none());
    }

    #[test]
    fn depth_needs_a_depth_format_and_the_flag() {
        let ds = TextureFlags {
            depth_stencil: true,
            ..Default::default()
        };
        assert!(use_access(UseAccess::DepthWrite, &tex(Format::D32Float, ds), "d").is_none());
        assert!(use_access(UseAccess::DepthRead, &tex(Format::Rgba8Unorm, ds), "d").is_some());
        let no_flag = tex(Format::D32Float, TextureFlags::default());
        assert!(use_access(UseAccess::DepthWrite, &no_flag, "d").is_some());
        assert!(view_kind(ViewKind::Dsv, &tex(Format::R32Float, ds), "d").is_some());
    }

    #[test]
    fn buffers_and_textures_keep_to_their_accesses() {
        let buf = Resource::Buffer(&BUF);
        assert!(use_access(UseAccess::RenderTarget, &buf, "b").is_some());
        assert!(use_access(UseAccess::VertexBuffer, &buf, "b").is_none());
        assert!(use_access(UseAccess::UnorderedAccess, &buf, "b").is_some());
        let t = tex(Format::Rgba8Unorm, TextureFlags::default());
        assert!(use_access(UseAccess::IndexBuffer, &t, "t").is_some());
        assert!(use_access(UseAccess::ShaderRead, &t, "t").is_none());
        assert!(use_access(UseAccess::UnorderedAccess, &t, "t").is_some());
        assert!(view_kind(ViewKind::Dsv, &buf, "b").is_some());
        assert!(view_kind(ViewKind::Srv, &buf, "b").is_none());
    }

    #[test]
    fn view_ranges_stay_inside_the_texture() {
        let t = tex(Format::Rgba8Unorm, TextureFlags::default());
        assert!(view_range(&view(0, None), &t).is_none());
        assert!(view_range(&view(3, Some(1)), &t).is_none());
        assert_eq!(
            view_range(&view(4, None), &t).map(|p| p.0),
            Some("first_mip")
        );
        assert_eq!(
            view_range(&view(2, Some(3)), &t).map(|p| p.0),
            Some("mip_count")
        );
        assert_eq!(
            view_range(&view(0, Some(0)), &t).map(|p| p.0),
            Some("mip_count")
        );
        assert_eq!(
            view_range(&view(1, Some(u32::MAX)), &t).map(|p| p.0),
            Some("mip_count")
        );
        let mut lod = view(0, None);
        lod.min_lod = f32::NAN;
        assert_eq!(view_range(&lod, &t).map(|p| p.0), Some("min_lod"));
        assert!(view_range(&view(1, None), &Resource::Buffer(&BUF)).is_some());
    }

    #[test]
    fn compute_queues_refuse_dynamic_buffers_and_nothing_else() {
        let dynamic = Buffer {
            usage: BufferUsage::Dynamic,
            ..BUF
        };
        let (d, b) = (Resource::Buffer(&dynamic), Resource::Buffer(&BUF));
        let why = queue_resource(QueueKind::Compute, &d, "buffer \"lights\"");
        assert!(why.is_some_and(|w| w.contains("CC-1") && w.contains("\"lights\"")));
        assert!(queue_resource(QueueKind::Graphics, &d, "d").is_none());
        assert!(queue_resource(QueueKind::Copy, &d, "d").is_none());
        assert!(queue_resource(QueueKind::Compute, &b, "b").is_none());
        let t = tex(Format::Rgba8Unorm, TextureFlags::default());
        assert!(queue_resource(QueueKind::Compute, &t, "t").is_none());
    }

    #[test]
    fn views_bind_one_kind_of_access_and_only_writes_clear() {
        assert!(view_access(ViewKind::Srv, UseAccess::ShaderRead, "v").is_none());
        assert!(view_access(ViewKind::Srv, UseAccess::RenderTarget, "v").is_some());
        assert!(view_access(ViewKind::Dsv, UseAccess::DepthRead, "v").is_none());
        assert!(clear(UseAccess::RenderTarget).is_none());
        assert!(clear(UseAccess::ShaderRead).is_some());
    }
}
