//! Memory rules of what a command names: dynamic buffers are mapped and filled before they
//! are bound this frame (FS-10) and never bound on a compute context (CC-1); raw copies and
//! fills work on graphics memory only, in multiples of 4 bytes (CC-6).

use super::Code;
use super::stream::{Ctx, Validator};
use crate::device::{ObjectDesc, ObjectKey, QueueId};
use crate::model::BufferUsage;

impl Validator {
    /// Raw memory copies and fills (CC-6): graphics memory only, a size that is a multiple of
    /// 4 bytes. Only compute queues run them at all; the device refuses them elsewhere.
    pub(super) fn check_raw(&mut self, ctx: &Ctx, i: usize, keys: &[ObjectKey], bytes: u64) {
        if !bytes.is_multiple_of(4) {
            let r = keys.last().map(|k| self.resource(ctx.device, *k));
            self.report(
                ctx,
                i,
                Code::RawSizeNotMultipleOf4,
                r,
                format!("raw copy or fill of {bytes} bytes: the size must be a multiple of 4"),
            );
        }
        for k in keys {
            let r = self.resource(ctx.device, *k);
            let dynamic = matches!(
                ctx.device.memory.get(r).map(|o| &o.desc),
                Ok(ObjectDesc::Buffer(b)) if b.usage == BufferUsage::Dynamic
            );
            if dynamic {
                self.report(ctx, i, Code::RawOnDynamicMemory, Some(r), "raw copies and fills work on graphics memory only; a dynamic buffer lives in CPU-writable memory: copy through a default buffer".into());
            }
        }
    }

    pub(super) fn check_dynamic(&mut self, ctx: &Ctx, i: usize, keys: &[ObjectKey]) {
        for k in keys {
            let r = self.resource(ctx.device, *k);
            let dynamic = matches!(
                ctx.device.memory.get(r).map(|o| &o.desc),
                Ok(ObjectDesc::Buffer(b)) if b.usage == BufferUsage::Dynamic
            );
            if dynamic && matches!(ctx.queue, QueueId::Compute { .. }) {
                self.report(ctx, i, Code::DynamicOnCompute, Some(r), "dynamic resources are not supported on compute contexts: upload into a default buffer on another queue first".into());
                continue;
            }
            if dynamic && !self.mapped.contains(&r) {
                self.report(ctx, i, Code::DynamicBufferNotMapped, Some(r), "dynamic buffer bound without being mapped write-discard and filled this frame: contents are not inherited".into());
                self.mapped.insert(r);
            }
        }
    }
}
