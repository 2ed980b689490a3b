//! What each command asks of the simulated GPU, decided once, when it is submitted.
//!
//! The simulation never looks at a [`Command`] again: submission turns it into an [`Op`], plain
//! numbers the event loop can run without touching memory, the profile or the barrier
//! lowering. A work item (draw, dispatch, copy, clear, decompression) becomes the pipeline
//! stages it occupies, its shading work in milli-CU nanoseconds, the widest share of the
//! compute units it can use, and a floor: the time its fixed-function part takes however many
//! CUs it gets (geometry set-up, the colour and depth back-ends, launch overhead, memory
//! transfers). A draw that is geometry-bound spreads its shading over that floor and so needs
//! only a few CUs at a time, which is exactly the gap asynchronous compute fills (CC-1). The
//! fixed-function units are one per graphics pipe, so draws (and decompressions) of a queue
//! are serialised among themselves; copies and clears are too, unless the list says
//! `DONT_SYNC_ON_COPY` (EB-8d); dispatches are not.
//! Barriers are priced by [`barrier_work`]; fences, presents and timestamps are bottom-of-pipe
//! events; waits, suspend and resume act on the front end.

use super::barrier_cost::{BarrierWork, barrier_work};
use super::pipeline::ShaderCost;
use super::{
    Command, Compression, FenceId, Memory, ObjectDesc, ObjectKey, Profile, QueueId, SwapChainKey,
};
use crate::barrier::drain::sync_stages;
use crate::barrier::{LowerOptions, Stages};

/// A command as the simulation runs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Front-end work only: state, maps, kickoffs, hints: one command slot.
    Front,
    /// Front-end work only, of its own length in ns: a binding call, which the front end and
    /// the constant engine take longer over the more dwords it writes (RB-1,
    /// [`super::front_ns`]).
    Bind(u64),
    /// A work item occupying pipeline stages.
    Work(WorkItem),
    /// A barrier: drains, blocks, cache and compression work (EB-2..EB-5).
    Barrier(BarrierWork),
    /// Signal a fence at the bottom of the pipe (FN-2).
    Fence(FenceId),
    /// Halt the front end until a fence has signalled (FN-2).
    Wait(FenceId),
    /// Halt the front end until a buffer has left presentation (FS-5).
    WaitPresent(ObjectKey),
    /// Flip `buffer` at the first vertical blank after the bottom of the pipe (RL-5).
    Present {
        chain: SwapChainKey,
        buffer: ObjectKey,
        period_ns: u64,
    },
    /// Write the 100 MHz GPU clock to a query slot at the bottom of the pipe (CC-7).
    Timestamp(u32),
    /// Lock compute and DMA once their work has drained (CC-8).
    Suspend,
    /// Unlock compute and DMA (CC-8, FS-11).
    Resume,
}

/// Which in-order stream of its queue a work item is serialised in, if any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Serial {
    /// Runs concurrently with whatever nothing orders it against.
    #[default]
    None,
    /// Copies and clears, unless `DONT_SYNC_ON_COPY` (EB-8d); everything on a DMA engine.
    Copy,
    /// Draws and decompressions: one geometry front end and one set of back-ends per graphics
    /// pipe process them in order, so their fixed-function parts cannot overlap.
    Geometry,
}

impl Serial {
    /// Index of the stream's counters (`None` has none).
    pub fn stream(self) -> Option<usize> {
        match self {
            Serial::None => None,
            Serial::Copy => Some(0),
            Serial::Geometry => Some(1),
        }
    }
}

/// A work item's demands (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkItem {
    pub stages: Stages,
    /// Shading work, milli-CU nanoseconds.
    pub work: u64,
    /// Widest CU share it can use, milli-CUs.
    pub cap: u32,
    /// Fixed-function minimum duration, ns.
    pub floor_ns: u64,
    /// The in-order stream it waits in, behind earlier items of the same stream.
    pub serial: Serial,
    /// A decompression: its time is reported as such.
    pub decompress: bool,
    /// A dispatch whose shaders poll the title's early-out flag (CC-8): it ends its shading
    /// when the CPU raises the flag.
    pub early_out: bool,
}

/// What converting a command needs to know besides the command.
pub struct OpContext<'a> {
    pub queue: QueueId,
    pub memory: &'a Memory,
    pub profile: &'a Profile,
    /// Barriers are legacy ones (they hold the whole front end).
    pub legacy: bool,
    /// The `DONT_SYNC_ON_COPY` hint is in effect (EB-8d).
    pub dont_sync_on_copy: bool,
    /// For a Present: the buffer the CPU rotated out, and the chain's flip period.
    pub shown: Option<(ObjectKey, u64)>,
    /// What each surface's compression is (FS-4, EB-4): barriers and decompressions read
    /// and change it.
    pub compression: &'a mut Compression,
    /// The cost of the bound pipeline's shaders, when the title gave one
    /// ([`super::pipeline`]); the profile's fixed cycles otherwise.
    pub shader: Option<ShaderCost>,
}

/// The op a command becomes on `ctx.queue`.
pub fn op_for(cmd: &Command, ctx: &mut OpContext) -> Op {
    ctx.compression.observe(cmd, ctx.queue, ctx.memory);
    match cmd {
        Command::Barrier(group) => Op::Barrier(barrier_work(
            group,
            ctx.queue,
            LowerOptions {
                dont_sync_on_copy: ctx.dont_sync_on_copy,
                legacy: ctx.legacy,
            },
            ctx.memory,
            ctx.profile,
            ctx.compression.state(),
        )),
        // Decompression reads and writes the whole surface (FS-4, EB-8b), when it still
        // holds metadata.
        Command::Decompress(_) | Command::DecompressResource { .. } => {
            let (k, propagate) = cmd
                .decompression()
                .map_or((ObjectKey::default(), true), |(k, p)| (*k, p));
            let surface = ctx.memory.resource_of(k).unwrap_or(k);
            let (n, meta) = surface_bytes(ctx.memory, k);
            let needed = ctx.compression.decompress(ctx.memory, surface, propagate);
            let n = if meta && needed {
                n.saturating_mul(2)
            } else {
                0
            };
            Op::Work(WorkItem {
                stages: Stages::CB.union(Stages::DB),
                floor_ns: Profile::transfer_ns(n, ctx.profile.memory_bytes_per_us),
                serial: Serial::Geometry,
                decompress: true,
                ..WorkItem::default()
            })
        }
        Command::InsertFence { fence, .. } => Op::Fence(*fence),
        Command::WaitFence(f) => Op::Wait(*f),
        Command::WaitOnPresent(b) => Op::WaitPresent(ctx.memory.resource_of(*b).unwrap_or(*b)),
        Command::Present(chain) => match ctx.shown {
            Some((buffer, period_ns)) => Op::Present {
                chain: *chain,
                buffer,
                period_ns,
            },
            None => Op::Front,
        },
        Command::WriteTimestamp(slot) => Op::Timestamp(*slot),
        Command::Suspend => Op::Suspend,
        Command::Resume => Op::Resume,
        _ => match super::front_ns(cmd, ctx.profile.command_ns) {
            Some(ns) => Op::Bind(ns),
            None => work_item(cmd, ctx).map_or(Op::Front, Op::Work),
        },
    }
}

/// A surface's bytes, and whether it can hold compression metadata (render targets, depth).
fn surface_bytes(memory: &Memory, k: ObjectKey) -> (u64, bool) {
    memory
        .resource_of(k)
        .and_then(|r| memory.get(r))
        .map_or((0, false), |o| {
            let meta = matches!(&o.desc, ObjectDesc::Texture(t)
                if t.flags.render_target || t.flags.depth_stencil);
            (o.bytes, meta)
        })
}

/// The widest share that finishes `work` within `floor`: a fixed-function-bound item spreads
/// its shading over its floor (at least one milli-CU), an unbounded one may take every CU.
fn cap_for(work: u64, floor_ns: u64, capacity: u32) -> u32 {
    if work == 0 {
        return 0;
    }
    if floor_ns == 0 {
        return capacity;
    }
    work.div_ceil(floor_ns).clamp(1, capacity as u64) as u32
}

fn work_item(cmd: &Command, ctx: &OpContext) -> Option<WorkItem> {
    let p = ctx.profile;
    let shader = ctx.shader;
    let capacity = p.capacity_mcu();
    let dma = matches!(ctx.queue, QueueId::Dma { .. });
    let serial = if dma || !ctx.dont_sync_on_copy {
        Serial::Copy
    } else {
        Serial::None
    };
    let bytes = |k: ObjectKey| surface_bytes(ctx.memory, k);
    let bandwidth = if dma {
        p.dma_bytes_per_us
    } else {
        p.memory_bytes_per_us
    };
    let transfer = |stages, n: u64, serial| WorkItem {
        stages,
        floor_ns: Profile::transfer_ns(n, bandwidth),
        serial,
        ..WorkItem::default()
    };
    Some(match *cmd {
        Command::Draw {
            draws,
            vertices,
            pixels,
        } => {
            // Saturating throughout: the loader bounds every amount (MAX_WORK), a world
            // built by hand need not.
            let pixel_cycles = shader.and_then(|c| c.cycles).unwrap_or(p.pixel_cycles);
            let lanes = (vertices.saturating_mul(p.vertex_cycles as u64))
                .saturating_add(pixels.saturating_mul(pixel_cycles as u64));
            let work = p.work_mcu_ns(lanes);
            let floor_ns = p
                .rate_ns(vertices, p.vertices_per_clock)
                .max(p.rate_ns(pixels, p.pixels_per_clock))
                .max((draws as u64).saturating_mul(p.draw_ns))
                .max(shader.map_or(0, |c| c.floor_ns(p)));
            WorkItem {
                stages: sync_stages(cmd.stages()),
                work,
                cap: cap_for(work, floor_ns, capacity),
                floor_ns,
                serial: Serial::Geometry,
                ..WorkItem::default()
            }
        }
        Command::Dispatch {
            dispatches,
            threads,
        } => {
            let thread_cycles = shader.and_then(|c| c.cycles).unwrap_or(p.thread_cycles);
            let work = p.work_mcu_ns(threads.saturating_mul(thread_cycles as u64));
            let floor_ns = ((dispatches as u64).saturating_mul(p.dispatch_ns))
                .max(shader.map_or(0, |c| c.floor_ns(p)));
            WorkItem {
                stages: Stages::COMPUTE,
                work,
                cap: cap_for(work, floor_ns, capacity),
                floor_ns,
                ..WorkItem::default()
            }
        }
        Command::CopyResource { bytes: n, .. }
        | Command::CopyTextureRegion { bytes: n, .. }
        | Command::UpdateSubresource { bytes: n, .. } => transfer(Stages::COPY, n, serial),
        // Raw memory copies and fills run on the compute engine (CC-6), priced like a copy.
        Command::RawCopy { bytes: n, .. } | Command::RawFill { bytes: n, .. } => {
            transfer(Stages::COMPUTE, n, serial)
        }
        // A fast clear writes metadata only (a byte per 256-byte block); a surface without
        // metadata is written whole.
        Command::ClearRenderTarget(k) | Command::ClearDepthStencil(k) => {
            let (n, meta) = bytes(k);
            let stages = sync_stages(cmd.stages());
            transfer(stages, if meta { n / 256 } else { n }, serial)
        }
        Command::ClearUnorderedAccess(k) => transfer(Stages::COMPUTE, bytes(k).0, serial),
        // Indirect work costs what the work it reads costs; the argument fetch is in the
        // command processor and is not priced apart.
        Command::DispatchIndirect {
            dispatches,
            threads,
            ..
        } => {
            return work_item(
                &Command::Dispatch {
                    dispatches,
                    threads,
                },
                ctx,
            );
        }
        Command::ExecuteIndirect {
            draws,
            vertices,
            pixels,
            ..
        } => {
            let draw = Command::Draw {
                draws,
                vertices,
                pixels,
            };
            return work_item(&draw, ctx);
        }
        // A resolve reads every sample of the source and writes the destination.
        Command::ResolveSubresource { src, dst } => {
            let n = bytes(src).0.saturating_add(bytes(dst).0);
            transfer(sync_stages(cmd.stages()), n, serial)
        }
        Command::DmaFill { bytes: n, .. } | Command::LzDecompress { bytes: n, .. } => {
            transfer(Stages::COPY, n, serial)
        }
        Command::ResolveQueryData { count, .. } => transfer(
            Stages::COPY,
            (count as u64).saturating_mul(crate::model::QUERY_BYTES),
            serial,
        ),
        // The encoder is modelled at half the engine's bandwidth (it searches for matches;
        // the decoder streams).
        Command::LzCompress { bytes: n, .. } => transfer(Stages::COPY, n.saturating_mul(2), serial),

        _ => return None,
    })
}

#[cfg(test)]
mod tests;
