//! Dynamic buffers (FS-10, CTX-5, CC-1): their contents are not inherited from frame to
//! frame, so each is mapped write-discard and filled before it is bound in a frame (FS-10,
//! V0301); the first Map of a resource in a command list is write-discard (CTX-5, V0302);
//! and they live in CPU-writable memory, which compute contexts cannot bind (CC-1, V0303).

use hashbrown::HashSet;

use super::stream::Ctx;
use super::views::Views;
use super::{Code, Diagnostic};
use crate::device::{MapMode, ObjectDesc, ObjectKey, QueueId};
use crate::model::BufferUsage;

/// Which dynamic buffers were filled this frame.
#[derive(Default)]
pub(super) struct DynamicMemory {
    /// Dynamic buffers mapped write-discard this frame (FS-10).
    mapped: HashSet<ObjectKey>,
}

/// True when `resource` is a dynamic buffer.
pub(super) fn is_dynamic(ctx: &Ctx, resource: ObjectKey) -> bool {
    matches!(
        ctx.device.memory.get(resource).map(|o| &o.desc),
        Ok(ObjectDesc::Buffer(b)) if b.usage == BufferUsage::Dynamic
    )
}

impl DynamicMemory {
    /// A new frame: every dynamic buffer must be filled again.
    pub fn new_frame(&mut self) {
        self.mapped.clear();
    }

    /// A Map of `resource`; `first_map` holds what the current list (or submission) mapped
    /// already (CTX-5).
    pub fn map(
        &mut self,
        ctx: &Ctx,
        i: usize,
        resource: ObjectKey,
        mode: MapMode,
        first_map: &mut HashSet<ObjectKey>,
        out: &mut Vec<Diagnostic>,
    ) {
        if first_map.insert(resource) && mode != MapMode::WriteDiscard {
            let message = "the first Map of a resource in a command list must be write-discard";
            out.push(ctx.finding(i, Code::FirstMapNotDiscard, Some(resource), message.into()));
        }
        if mode == MapMode::WriteDiscard {
            self.mapped.insert(resource);
        }
    }

    /// Views or buffers bound: dynamic ones must have been filled this frame (FS-10), and
    /// not on a compute context (CC-1).
    pub fn bound(
        &mut self,
        ctx: &Ctx,
        i: usize,
        keys: &[ObjectKey],
        views: &Views,
        out: &mut Vec<Diagnostic>,
    ) {
        for k in keys {
            let r = views.resolve(ctx.device, *k);
            if !is_dynamic(ctx, r) {
                continue;
            }
            if matches!(ctx.queue, QueueId::Compute { .. }) {
                out.push(ctx.finding(i, Code::DynamicOnCompute, Some(r), "dynamic resources are not supported on compute contexts: upload into a default buffer on another queue first".into()));
                continue;
            }
            if self.mapped.insert(r) {
                out.push(ctx.finding(i, Code::DynamicBufferNotMapped, Some(r), "dynamic buffer bound without being mapped write-discard and filled this frame: contents are not inherited".into()));
            }
        }
    }
}
