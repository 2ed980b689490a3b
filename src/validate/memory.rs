//! Dynamic buffers (FS-10, CTX-5, CC-1). Their contents are not inherited: each context that
//! binds one maps it write-discard and fills it first, every frame and, on a deferred
//! context, at every recording (FS-10): a list binds only what it mapped itself (V0308), and
//! after a list the immediate context sees the contents from before it, so it binds only
//! what it mapped itself (V0308; V0301 when nothing mapped it this frame). A dynamic buffer a
//! fast list mapped write-discard belongs to that list's context: no other context may map or
//! bind it that frame (V0309). On a deferred context Map is for dynamic resources only, and
//! the first Map of a resource in a list is write-discard (CTX-5, V0307, V0302). Dynamic
//! buffers live in CPU-writable memory, which compute contexts cannot bind (CC-1, V0303).
//! On a fast immediate context that memory is write-combined (FS-15): a CPU read of a
//! mapped dynamic buffer is uncached and slow, a warning (V0310).

use hashbrown::{HashMap, HashSet};

use super::stream::Ctx;
use super::views::Views;
use super::{Code, Diagnostic};
use crate::device::{MapMode, ObjectDesc, ObjectKey, QueueId};
use crate::model::{BufferUsage, Semantics};

/// Which dynamic buffers were filled this frame, and by which context.
#[derive(Default)]
pub(super) struct DynamicMemory {
    /// Dynamic buffers mapped write-discard this frame by some context (FS-10, V0301).
    mapped: HashSet<ObjectKey>,
    /// Dynamic buffers the immediate contexts mapped write-discard this frame, outside lists.
    immediate: HashSet<ObjectKey>,
    /// Dynamic buffers a fast list mapped write-discard this frame: the list's label.
    owner: HashMap<ObjectKey, u32>,
}

/// True when `resource` is a dynamic buffer.
pub(super) fn is_dynamic(ctx: &Ctx, resource: ObjectKey) -> bool {
    matches!(
        ctx.device.memory.get(resource).map(|o| &o.desc),
        Ok(ObjectDesc::Buffer(b)) if b.usage == BufferUsage::Dynamic
    )
}

/// The context that issued a command: a list's label, or `None` for the immediate context.
fn context_of(ctx: &Ctx) -> Option<u32> {
    ctx.list.map(|_| ctx.label)
}

impl DynamicMemory {
    /// A new frame: every dynamic buffer must be filled again.
    pub fn new_frame(&mut self) {
        self.mapped.clear();
        self.immediate.clear();
        self.owner.clear();
    }

    /// A CPU read of mapped `resource` (FS-15, V0310): slow when the device's dynamic
    /// buffers are write-combined, as a fast immediate context's always are, and the
    /// buffer is a dynamic one.
    pub fn read_mapped(&self, ctx: &Ctx, i: usize, resource: ObjectKey, out: &mut Vec<Diagnostic>) {
        if ctx.device.flags().write_combined_dynamic_buffers && is_dynamic(ctx, resource) {
            out.push(ctx.finding(i, Code::ReadWriteCombined, Some(resource), "the CPU reads a mapped dynamic buffer, which is write-combined on a fast immediate context: uncached loads, many times slower than a cached read; keep a CPU-side copy of what you write instead".into()));
        }
    }

    /// Another context than the fast list that owns `resource` this frame uses it (V0309).
    fn shared(&self, ctx: &Ctx, i: usize, resource: ObjectKey, out: &mut Vec<Diagnostic>) {
        let Some(&owner) = self.owner.get(&resource) else {
            return;
        };
        if context_of(ctx) != Some(owner) {
            let list = ctx.device.label_name(owner);
            let message = format!(
                "dynamic buffer mapped write-discard by fast command list {list} is used by another context: a fast deferred context's write-discard map cannot be shared; give each context its own buffer"
            );
            out.push(ctx.finding(
                i,
                Code::DynamicSharedAcrossContexts,
                Some(resource),
                message,
            ));
        }
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
        let dynamic = is_dynamic(ctx, resource);
        if ctx.list.is_some() && !dynamic {
            let message = "Map on a deferred context is supported only for dynamic resources: upload through a dynamic buffer and copy, or map on the immediate context";
            out.push(ctx.finding(i, Code::MapNotDynamicInList, Some(resource), message.into()));
            return;
        }
        if first_map.insert(resource) && mode != MapMode::WriteDiscard {
            let message = "the first Map of a resource in a command list must be write-discard";
            out.push(ctx.finding(i, Code::FirstMapNotDiscard, Some(resource), message.into()));
        }
        if !dynamic {
            return;
        }
        self.shared(ctx, i, resource, out);
        if mode == MapMode::WriteDiscard {
            self.mapped.insert(resource);
            match ctx.list {
                None => {
                    self.immediate.insert(resource);
                }
                Some(Semantics::Fast) => {
                    self.owner.entry(resource).or_insert(ctx.label);
                }
                Some(Semantics::Legacy) => {}
            }
        }
    }

    /// Views or buffers bound: dynamic ones must have been filled this frame by the context
    /// binding them (FS-10), and not on a compute context (CC-1). `first_map` holds what the
    /// current list mapped.
    pub fn bound(
        &mut self,
        ctx: &Ctx,
        i: usize,
        keys: &[ObjectKey],
        views: &Views,
        first_map: &HashSet<ObjectKey>,
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
                continue;
            }
            let filled_here = match ctx.list {
                Some(_) => first_map.contains(&r),
                None => self.immediate.contains(&r),
            };
            if filled_here {
                self.shared(ctx, i, r, out);
                continue;
            }
            let message = match ctx.list {
                Some(_) => {
                    "dynamic buffer bound in a command list that did not map it: a list inherits no contents, so map it write-discard and fill it at every recording, before setting it"
                }
                None => {
                    "dynamic buffer bound on the immediate context, which did not map it this frame: after a command list the immediate context sees the contents from before it"
                }
            };
            out.push(ctx.finding(i, Code::DynamicNotMappedInContext, Some(r), message.into()));
        }
    }
}
