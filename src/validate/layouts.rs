//! Texture layouts as the stream's barriers left them (EB-1, RL-1, barrier-spec A6).
//!
//! A texture has one layout whatever the queue, moved only by texture barriers; textures are
//! created in COMMON, and transients leave UNDEFINED only through a barrier. Every access
//! must be one its layout admits (EB-1, V0403), and a presented buffer must be in the
//! PRESENT (COMMON) layout (RL-1, V0402). The barrier-call checks read the layouts too, so
//! that LayoutBefore is checked against where other queues' barriers left a texture: per
//! subresource, as each barrier's range moved it (EB-6, EB-11). Accesses are checked against
//! the layouts of the subresources they touch (a view's range, or every subresource).

use hashbrown::HashMap;
use std::collections::BTreeMap;

use super::compression::Compressed;
use super::hazard::Touch;
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::barrier::{
    BarrierGroup, Layout, ResourceInfo, Subresources, TextureBarrier, layout_allows,
};
use crate::device::{Device, ObjectDesc, ObjectKey};

/// Each texture's layout after the last barrier that moved it.
#[derive(Default)]
pub(super) struct Layouts {
    layouts: HashMap<ObjectKey, Layout>,
    /// Each subresource's layout after the last barrier whose range held it.
    subresources: BTreeMap<(ObjectKey, u64), Layout>,
}

/// The subresources a texture barrier's range names (none when it is out of bounds, which
/// the barrier-call checks report).
pub(super) fn barrier_subresources(device: &Device, t: &TextureBarrier<ObjectKey>) -> Vec<u64> {
    match device.memory.resource_info(t.resource) {
        Some(ResourceInfo::Texture(tex)) => Subresources::resolve(&t.range, &tex)
            .map(|subs| subs.indices(&tex).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

impl Layouts {
    /// The layout the last barrier left `resource` in, if any barrier moved it.
    pub fn get(&self, resource: ObjectKey) -> Option<Layout> {
        self.layouts.get(&resource).copied()
    }

    /// The layout the last barrier whose range held `subresource` left it in.
    pub fn subresource(&self, resource: ObjectKey, subresource: u64) -> Option<Layout> {
        self.subresources.get(&(resource, subresource)).copied()
    }

    /// A Barrier call: each texture barrier leaves the subresources of its range in
    /// LayoutAfter.
    pub fn barrier(&mut self, device: &Device, group: &BarrierGroup<ObjectKey>) {
        for t in &group.textures {
            self.layouts.insert(t.resource, t.layout_after);
            for i in barrier_subresources(device, t) {
                self.subresources.insert((t.resource, i), t.layout_after);
            }
        }
    }

    /// Every texture access must be one its current layout admits (EB-1).
    /// A read of a surface still compressed is FS-4's finding rather than this one's.
    pub fn check_access(
        &self,
        ctx: &Ctx,
        i: usize,
        touches: &[Touch],
        compressed: &Compressed,
        out: &mut Vec<Diagnostic>,
    ) {
        for t in touches {
            let total = match ctx.device.memory.get(t.resource).map(|o| &o.desc) {
                Ok(ObjectDesc::Texture(tex)) => tex.subresources() as usize,
                _ => continue,
            };
            // Each subresource touched (through a view of some, only those) must be in a
            // layout that admits the access: the last barrier whose range held it says, and
            // one no barrier has moved yet is where textures are created, in COMMON (not
            // where a barrier on other subresources left them).
            let layout_of =
                |i: usize| (self.subresource(t.resource, i as u64)).unwrap_or(Layout::Common);
            let wrong = match t.part {
                Some(p) => p
                    .indices()
                    .map(layout_of)
                    .find(|l| !layout_allows(*l).contains(t.access)),
                None => (0..total)
                    .map(layout_of)
                    .find(|l| !layout_allows(*l).contains(t.access)),
            };
            if let Some(layout) = wrong {
                if compressed.check_read(ctx, i, t, layout, out) {
                    continue;
                }
                let message = format!(
                    "accessed as {:?} while in layout {}: transition it with a texture barrier first",
                    t.access,
                    layout.spec_name()
                );
                out.push(ctx.finding(i, Code::LayoutDisallowsAccess, Some(t.resource), message));
            }
        }
    }

    /// A Present (or a reset, which shows nothing) of `shown`: PRESENT layout (RL-1).
    pub fn check_present(
        &self,
        ctx: &Ctx,
        i: usize,
        shown: Option<ObjectKey>,
        out: &mut Vec<Diagnostic>,
    ) {
        let layout_ok = shown.is_none_or(|b| self.get(b).is_none_or(|l| l == Layout::PRESENT));
        if !layout_ok {
            out.push(ctx.finding(i, Code::PresentInWrongLayout, shown, "presenting a buffer not in PRESENT/COMMON layout: transition it before Present".into()));
        }
    }
}
