//! Reading query data (CTX-6): queries on a deferred context only generate data or predicate
//! draws; the data is read (GetData) on the immediate context, and only once the list that
//! ended the query was executed there and the GPU processed it.
//!
//! The CPU-side read is shown to the validator when it happens (like a release), with the CPU
//! time: inside a list it is a read on a deferred context (V0903); a query whose `EndQuery`
//! has not been played back yet has no data (V0904); and the GPU has processed the
//! `EndQuery` only once a fence inserted after it on its queue has passed (V0905), the same
//! coverage a release needs (FS-6).
//!
//! Under the D3D12 APIs a query is inactive until BeginQuery makes it run and EndQuery makes
//! it inactive again; the runtime refuses a BeginQuery of a query already running and an
//! EndQuery of one that is not (the list fails to close, or ExecuteCommandLists drops it),
//! so the validator reports both (V0908): a query begun in one frame and never ended is
//! found when the next frame begins it again. D3D11.X queries keep their own rules and are
//! not judged so.

use hashbrown::HashMap;

use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::QueueId;
use crate::model::Api;

/// Where each query last ended, and which are running.
#[derive(Default)]
pub(super) struct Queries {
    /// The queue and stream position of the latest EndQuery of each query executed.
    ends: HashMap<u32, (QueueId, u64)>,
    /// Queries begun and not ended since, with the pass that began them.
    running: HashMap<u32, String>,
}

impl Queries {
    /// `BeginQuery(query)`, command `i` of `ctx`: a D3D12 query must be inactive (V0908).
    pub fn begin(&mut self, ctx: &Ctx, i: usize, query: u32, out: &mut Vec<Diagnostic>) {
        if let Some(pass) = self.running.insert(query, ctx.pass.clone())
            && ctx.device.api() != Api::D3d11x
        {
            let message = format!(
                "BeginQuery of query {query}, which is still running (begun by pass {pass} and not ended): a D3D12 query runs from BeginQuery to EndQuery and may be begun again only once ended; end it in the list that began it"
            );
            out.push(ctx.finding(i, Code::QueryStateMismatch, None, message));
        }
    }

    /// `EndQuery(query)`, command `i` of `ctx`: a D3D12 query must be running (V0908).
    pub fn end(&mut self, ctx: &Ctx, i: usize, query: u32, out: &mut Vec<Diagnostic>) {
        if self.running.remove(&query).is_none() && ctx.device.api() != Api::D3d11x {
            let message = format!(
                "EndQuery of query {query}, which is not running (no BeginQuery since it was last ended): an occlusion query is begun before the draws it counts"
            );
            out.push(ctx.finding(i, Code::QueryStateMismatch, None, message));
        }
    }

    /// `EndQuery(query)` executed on `queue` at stream position `pos`.
    pub fn ended(&mut self, query: u32, queue: QueueId, pos: u64) {
        self.ends.insert(query, (queue, pos));
    }

    /// A GetData of `query` (named `name`); `deferred` when recorded into a command list;
    /// `processed` tells whether a fence inserted after a stream position on a queue has
    /// passed.
    pub fn read(
        &self,
        ctx: &Ctx,
        query: u32,
        name: &str,
        deferred: bool,
        processed: impl Fn(QueueId, u64) -> bool,
        out: &mut Vec<Diagnostic>,
    ) {
        if deferred {
            let message = format!(
                "query {name:?} read (GetData) on a deferred context: deferred contexts only generate query data or predicate draws; read it on the immediate context"
            );
            return out.push(ctx.finding(0, Code::QueryReadOnDeferred, None, message));
        }
        let Some(&(queue, pos)) = self.ends.get(&query) else {
            let message = format!(
                "query {name:?} read (GetData) before any EndQuery of it was executed on the immediate context: execute the command list that generates it first"
            );
            return out.push(ctx.finding(0, Code::QueryReadBeforePlayback, None, message));
        };
        if !processed(queue, pos) {
            let message = format!(
                "query {name:?} read (GetData, or a map of its resolved results) before the GPU processed its EndQuery or ResolveQueryData on queue {queue}: insert a fence after it and read once the fence has passed (a later frame)"
            );
            out.push(ctx.finding(0, Code::QueryReadBeforeProcessed, None, message));
        }
    }
}
