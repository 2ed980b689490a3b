//! Reading query data (CTX-6): queries on a deferred context only generate data or predicate
//! draws; the data is read (GetData) on the immediate context, and only once the list that
//! ended the query was executed there and the GPU processed it.
//!
//! The CPU-side read is shown to the validator when it happens (like a release), with the CPU
//! time: inside a list it is a read on a deferred context (V0903); a query whose `EndQuery`
//! has not been played back yet has no data (V0904); and the GPU has processed the
//! `EndQuery` only once a fence inserted after it on its queue has passed (V0905), the same
//! coverage a release needs (FS-6).

use super::Code;
use super::stream::{Ctx, Validator};
use crate::device::{Device, QueueId};

impl Validator {
    /// Check a GetData of query `query` by the CPU at `cpu_ns`; `deferred` when the call is
    /// recorded into a command list (a deferred context).
    #[expect(
        clippy::too_many_arguments,
        reason = "the read and where it happens, as the script step gives them"
    )]
    pub fn observe_query_read(
        &mut self,
        device: &Device,
        query: u32,
        name: &str,
        cpu_ns: u64,
        frame: u64,
        label: u32,
        deferred: bool,
    ) {
        if !self.enabled {
            return;
        }
        let ctx = Ctx {
            device,
            queue: QueueId::Graphics,
            frame,
            label,
            pass: device.label_name(label).to_owned(),
            list: None,
        };
        if deferred {
            let message = format!(
                "query {name:?} read (GetData) on a deferred context: deferred contexts only generate query data or predicate draws; read it on the immediate context"
            );
            return self.report(&ctx, 0, Code::QueryReadOnDeferred, None, message);
        }
        let Some(&(queue, pos)) = self.queries.get(&query) else {
            let message = format!(
                "query {name:?} read (GetData) before any EndQuery of it was executed on the immediate context: execute the command list that generates it first"
            );
            return self.report(&ctx, 0, Code::QueryReadBeforePlayback, None, message);
        };
        let processed = self
            .hazards
            .fence_passed_after(queue, pos, |f| !device.is_fence_pending(f, cpu_ns));
        if !processed {
            let message = format!(
                "query {name:?} read (GetData) before the GPU processed its EndQuery on queue {queue}: insert a fence after it and read once the fence has passed (a later frame)"
            );
            self.report(&ctx, 0, Code::QueryReadBeforeProcessed, None, message);
        }
    }
}
