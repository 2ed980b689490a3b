//! The swap chain's rules: waits on present (FS-5, RL-2), view rotation (FS-9) and
//! decompression before Present (FS-4, judged by `compression`).
//!
//! A back buffer may be written only after a wait on present since it was last presented
//! (FS-5, V0101): the GPU may otherwise write a buffer still queued for or being scanned
//! out. Every way of writing counts (render targets set, clears, copies, UAV writes), so the
//! writes of every command come here from the accesses the synchronisation checks work out.
//! A wait on present for a buffer already presented this frame hangs the GPU (RL-2, V0102).
//! Only the buffer at index 0 of its chain may be written: views must be rotated after every
//! present (FS-9, V0103). A written buffer must be decompressed before it is presented
//! (FS-4, V0401). On PC D3D12 the presentation system keeps the GPU off a buffer being shown,
//! so FS-5 applies to the consoles' APIs only.

use hashbrown::HashSet;

use super::compression::Compressed;
use super::hazard::Touch;
use super::stream::Ctx;
use super::{Code, Diagnostic};
use crate::device::{ObjectKey, SwapChainKey};

/// On PC D3D12 the flip model keeps the GPU off a buffer still being shown (the OS orders
/// the queue's work after the flip), so no wait on present is the title's to make (FS-5 is
/// the console's rule).
fn presenter_waits(ctx: &Ctx) -> bool {
    ctx.device.api() == crate::model::Api::D3d12Pc
}

/// What the stream did to swap-chain buffers.
#[derive(Default)]
pub(super) struct SwapChain {
    /// Back buffers waited on since they were last presented (FS-5).
    waited: HashSet<ObjectKey>,
    /// Buffers presented this frame (RL-2).
    presented: HashSet<ObjectKey>,
}

impl SwapChain {
    /// A new frame: nothing presented in it yet.
    pub fn new_frame(&mut self) {
        self.presented.clear();
    }

    /// A render target set or cleared on `resource`: if it is a swap-chain buffer, it must
    /// be at index 0 (FS-9) and waited on (FS-5).
    pub fn write_target(
        &mut self,
        ctx: &Ctx,
        i: usize,
        resource: ObjectKey,
        out: &mut Vec<Diagnostic>,
    ) {
        let Some(at) = ctx.device.present.find_buffer(resource) else {
            return;
        };
        if at != 0 {
            out.push(ctx.finding(i, Code::SwapChainViewNotRotated, Some(resource), "this swap-chain buffer is not at index 0: rotate the view after every present (saved views, a fenced ring, or PlaceSwapChainView)".into()));
        }
        if self.waited.insert(resource) && !presenter_waits(ctx) {
            out.push(ctx.finding(i, Code::BackBufferWriteWithoutWait, Some(resource), "back buffer written without a wait on present since it was last presented: insert InsertWaitOnPresent before setting it".into()));
        }
    }

    /// The writes of one command, by any means (FS-5).
    pub fn written(&mut self, ctx: &Ctx, i: usize, touches: &[Touch], out: &mut Vec<Diagnostic>) {
        for t in touches.iter().filter(|t| t.write) {
            if ctx.device.present.find_buffer(t.resource).is_some()
                && self.waited.insert(t.resource)
                && !presenter_waits(ctx)
            {
                let message = "back buffer written without a wait on present since it was last presented: insert InsertWaitOnPresent before writing it".to_owned();
                out.push(ctx.finding(
                    i,
                    Code::BackBufferWriteWithoutWait,
                    Some(t.resource),
                    message,
                ));
            }
        }
    }

    /// `WaitOnPresent` of `buffer` (RL-2).
    pub fn wait_on_present(
        &mut self,
        ctx: &Ctx,
        i: usize,
        buffer: ObjectKey,
        out: &mut Vec<Diagnostic>,
    ) {
        if self.presented.contains(&buffer) {
            out.push(ctx.finding(i, Code::WaitOnPresentAfterPresent, Some(buffer), "wait on present for a buffer already presented this frame: this hangs the GPU; wait before writing the back buffer, not after Present".into()));
        }
        self.waited.insert(buffer);
    }

    /// `Present` of `chain`: the buffer at index 0 is shown (FS-4), and needs a new wait
    /// before it is written again (FS-5).
    pub fn present(
        &mut self,
        ctx: &Ctx,
        i: usize,
        chain: SwapChainKey,
        compressed: &Compressed,
        out: &mut Vec<Diagnostic>,
    ) {
        let shown = (ctx.device.present.chain(chain)).and_then(|c| c.buffers.first().copied());
        let Some(b) = shown else {
            return;
        };
        if compressed.clear_not_propagated(b) {
            out.push(ctx.finding(i, Code::PresentCompressed, Some(b), "presenting a buffer whose fast clear was never propagated: its DecompressResource lacked PROPAGATE_COLOR_CLEAR, so the cleared blocks still take their colour from metadata the display engine cannot read; decompress with the flag (Decompress) or transition it to PRESENT".into()));
        } else if compressed.holds(b) {
            out.push(ctx.finding(i, Code::PresentCompressed, Some(b), "presenting a buffer that may still be compressed: decompress it (or transition it to PRESENT) before Present".into()));
        }
        self.waited.remove(&b);
        self.presented.insert(b);
    }
}
