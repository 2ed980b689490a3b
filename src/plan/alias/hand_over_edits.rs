//! The three hand-over barriers (EB-5, EB-9d; barrier-spec A2, A3.2), each made from the
//! planner's barrier on the transient in its slot where there is one, else added: what
//! [`super::HandOver`] does to one slot for one sharing transient, given what it found in the
//! frame.

use bevy_ecs::prelude::*;

use super::sharing::Sharing;
use crate::barrier::{
    Access, BufferBarrier, Layout, SubresourceRange, Sync, TextureBarrier, TextureBarrierFlags,
};

/// What a frame's barriers say of a sharing transient, found again in each frame.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Found {
    /// The last barrier on it, on the queue of its last pass, up to that pass: its slot and
    /// SyncAfter, AccessAfter and LayoutAfter.
    pub(super) last_barrier: Option<(u32, Sync, Access, Layout)>,
    /// Stages and accesses of its uses on its last queue after that barrier.
    pub(super) since_stages: Sync,
    pub(super) since_access: Access,
    /// The slot and LayoutAfter of the last texture barrier on it before its reuse pass.
    pub(super) reuse_layout: Option<(u32, Layout)>,
    /// Its layout at the start of the frame.
    pub(super) start: Option<Layout>,
    /// The planner's barriers already name it in its activation and declaration slots.
    pub(super) at_first: bool,
    pub(super) at_reuse: bool,
}

impl Found {
    /// A barrier on the transient at `slot`, on the queue of its last pass and up to that
    /// pass: the last barrier on it unless a later one was found.
    pub(super) fn later(&mut self, slot: u32, sync: Sync, access: Access, layout: Layout) {
        if self.last_barrier.is_none_or(|(at, ..)| at < slot) {
            self.last_barrier = Some((slot, sync, access, layout));
        }
    }

    /// The layout a declaration added for texture `s` keeps: the one the last barrier before
    /// it left, else its reuse pass's.
    pub(super) fn declared_layout(&self, s: &Sharing) -> Layout {
        (self.reuse_layout.map(|(_, l)| l))
            .or(s.reuse_layout)
            .unwrap_or(Layout::Common)
    }
}

/// Make the barrier before transient `s`'s first use its activation, or add one.
pub(super) fn activate(
    s: &Sharing,
    buffers: &mut Vec<BufferBarrier<Entity>>,
    textures: &mut Vec<TextureBarrier<Entity>>,
) {
    let e = s.resource;
    let before = |b: Sync| if s.wait.is_empty() { b } else { b | s.wait };
    if s.texture {
        let mut found = false;
        for t in textures.iter_mut().filter(|t| t.resource == e) {
            found = true;
            t.sync_before = before(t.sync_before);
            t.access_before = Access::NO_ACCESS;
            t.layout_before = Layout::Undefined;
            t.flags.discard = true;
        }
        if !found {
            // Its own last frame's work on this queue is ordered too.
            textures.push(TextureBarrier {
                sync_before: before(s.own_stages),
                sync_after: s.first_stages,
                access_before: Access::NO_ACCESS,
                access_after: s.first_access,
                layout_before: Layout::Undefined,
                layout_after: s.first_layout.unwrap_or(Layout::Common),
                resource: e,
                range: SubresourceRange::ALL,
                flags: TextureBarrierFlags { discard: true },
            });
        }
    } else {
        let mut found = false;
        for b in buffers.iter_mut().filter(|b| b.resource == e) {
            found = true;
            b.sync_before = before(b.sync_before);
            b.access_before = Access::NO_ACCESS;
        }
        if !found {
            // A buffer has no layout: it declares every access it has on this queue, which a
            // planner that names no buffers (conservative) does not again.
            buffers.push(BufferBarrier {
                resource: e,
                sync_before: before(s.own_stages),
                sync_after: s.own_stages,
                access_before: Access::NO_ACCESS,
                access_after: s.own_access,
            });
        }
    }
}

/// Where transient `s` is deactivated on another queue than the one it is activated on, its
/// first use there in the next frame finds it declared NO_ACCESS on that queue: a barrier on
/// it there must declare the access again (barrier-spec A3.2), unless the planner's already
/// does.
pub(super) fn declare(
    s: &Sharing,
    f: &Found,
    buffers: &mut Vec<BufferBarrier<Entity>>,
    textures: &mut Vec<TextureBarrier<Entity>>,
) {
    let e = s.resource;
    let (sync, access) = (s.reuse_stages, s.reuse_access);
    if s.texture && !textures.iter().any(|t| t.resource == e) {
        let layout = f.declared_layout(s);
        textures.push(TextureBarrier {
            sync_before: sync,
            sync_after: sync,
            access_before: access,
            access_after: access,
            layout_before: layout,
            layout_after: layout,
            resource: e,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags::default(),
        });
    } else if !s.texture && !buffers.iter().any(|b| b.resource == e) {
        let access = s.last_access;
        buffers.push(BufferBarrier {
            resource: e,
            sync_before: sync,
            sync_after: sync,
            access_before: access,
            access_after: access,
        });
    }
}

/// Make the barrier after transient `s`'s last use its deactivation, or add one.
pub(super) fn deactivate(
    s: &Sharing,
    f: &Found,
    buffers: &mut Vec<BufferBarrier<Entity>>,
    textures: &mut Vec<TextureBarrier<Entity>>,
) {
    let e = s.resource;
    let (sync_before, access_before, layout) = match f.last_barrier {
        // Within what the last barrier declared (barrier-spec A9): a planner that orders
        // later accesses with global barriers (conservative) declares less.
        Some((_, sync, access, layout)) => {
            let since = f.since_access & access;
            let access = if since.is_empty() { access } else { since };
            (sync | f.since_stages, access, layout)
        }
        None => {
            let layout = f.start.unwrap_or(Layout::Common);
            (f.since_stages, f.since_access, layout)
        }
    };
    if s.texture {
        let mut found = false;
        for t in textures.iter_mut().filter(|t| t.resource == e) {
            found = true;
            t.sync_after = Sync::NONE;
            t.access_after = Access::NO_ACCESS;
        }
        if !found {
            textures.push(TextureBarrier {
                sync_before,
                sync_after: Sync::NONE,
                access_before,
                access_after: Access::NO_ACCESS,
                layout_before: layout,
                layout_after: layout,
                resource: e,
                range: SubresourceRange::ALL,
                flags: TextureBarrierFlags::default(),
            });
        }
    } else {
        let mut found = false;
        for b in buffers.iter_mut().filter(|b| b.resource == e) {
            found = true;
            b.sync_after = Sync::NONE;
            b.access_after = Access::NO_ACCESS;
        }
        if !found {
            buffers.push(BufferBarrier {
                resource: e,
                sync_before,
                sync_after: Sync::NONE,
                access_before,
                access_after: Access::NO_ACCESS,
            });
        }
    }
}
