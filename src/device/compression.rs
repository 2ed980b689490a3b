//! What compression each surface holds as the device runs its commands (FS-4, EB-4, EB-8b).
//!
//! Compression metadata lives on the surface, not in a layout. A render target or depth
//! buffer written through the output merger holds DCC, fast-clear or HTILE metadata until
//! something removes it: an explicit `Decompress` (FS-4) or a barrier into a layout that keeps
//! less (EB-4). Whichever comes first does the work; the other finds nothing left, so a
//! barrier to PRESENT after the explicit decompression of the back buffer costs no second
//! pass over it. Writing through the output merger again makes DCC and HTILE compression
//! live again, as far as the layout keeps it, which is what lowering assumes of a surface it
//! knows nothing about; fast-clear metadata only a clear makes (its blocks take their colour
//! from it), so a render target drawn but not cleared since its last eliminate owes none.
//! Counting one anyway would price a pass over the whole surface every frame that did nothing
//! (a bloom chain read a mip at a time paid it once a mip).

use super::{Command, Memory, ObjectKey, QUEUE_COUNT, QueueId};
use crate::barrier::{CompressionState, Metadata};

/// Per surface, the metadata it holds when the device knows better than its layout.
#[derive(Debug, Default)]
pub struct Compression {
    held: CompressionState<ObjectKey>,
    /// Per queue, the surfaces bound as render targets and depth: a draw writes them.
    bound: [Vec<ObjectKey>; QUEUE_COUNT],
}

impl Compression {
    /// Follow what `cmd` on `queue` does to compression, before it is priced.
    pub fn observe(&mut self, cmd: &Command, queue: QueueId, memory: &Memory) {
        let surface = |k: &ObjectKey| memory.resource_of(*k).unwrap_or(*k);
        let bound = &mut self.bound[queue.index()];
        match cmd {
            Command::SetRenderTargets { rtvs, dsv } => {
                bound.clear();
                bound.extend(rtvs.iter().chain(dsv).map(surface));
            }
            // Present, Resume and ClearState unbind everything (FS-11).
            Command::ClearState | Command::Present(_) | Command::Resume => bound.clear(),
            Command::Draw { .. } | Command::ExecuteIndirect { .. } => {
                for s in bound.iter() {
                    // A draw compresses what it writes (DCC, HTILE) but clears no block: the
                    // fast-clear metadata is only a clear's (FS-4), so a surface known to hold
                    // none keeps none, and no eliminate is owed for it (EB-4).
                    if let Some(held) = self.held.get(s) {
                        let writes = memory.resource_info(*s).and_then(|i| i.texture().copied());
                        let made = writes.map_or(Metadata::empty(), |t| {
                            crate::barrier::metadata_of(&t, 0..t.planes)
                        });
                        self.held.set(*s, held | (made & !Metadata::FAST_CLEAR));
                    }
                }
            }
            Command::ClearRenderTarget(v) | Command::ClearDepthStencil(v) => {
                self.held.forget(&surface(v))
            }
            _ => {}
        }
    }

    /// An explicit decompression of `surface`: true when it still held metadata to remove.
    /// Without `propagate` (PROPAGATE_COLOR_CLEAR) the fast-clear metadata stays (FS-4).
    pub fn decompress(&mut self, memory: &Memory, surface: ObjectKey, propagate: bool) -> bool {
        let held = self.query(memory, surface);
        let had = self.held.get(&surface) != Some(Metadata::empty());
        let kept = match propagate {
            true => Metadata::empty(),
            false => held & Metadata::FAST_CLEAR,
        };
        self.held.set(surface, kept);
        had && held != kept
    }

    /// The compression and fast-clear state of `surface` (FS-4: a fast context decompresses
    /// nothing by itself, and the title may ask what a surface holds before deciding to):
    /// the metadata it may still hold after the commands submitted so far. A surface the
    /// device has no better knowledge of holds what its allow flags let it (EB-4); buffers,
    /// views and destroyed objects hold none.
    pub fn query(&self, memory: &Memory, surface: ObjectKey) -> Metadata {
        let surface = memory.resource_of(surface).unwrap_or(surface);
        let Some(tex) = memory
            .resource_info(surface)
            .and_then(|i| i.texture().copied())
        else {
            return Metadata::empty();
        };
        (self.held.get(&surface))
            .unwrap_or_else(|| crate::barrier::metadata_of(&tex, 0..tex.planes))
    }

    /// What barrier lowering reads and updates (EB-8b).
    pub fn state(&mut self) -> &mut CompressionState<ObjectKey> {
        &mut self.held
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, BarrierGroup, Layout, Sync, TextureBarrier};
    use crate::device::cost::{Op, OpContext, op_for};
    use crate::device::{Device, ObjectDesc, Profile};
    use crate::model::{Format, Texture, TextureFlags, ViewKind};
    use glam::UVec2;

    struct Surface {
        device: Device,
        rt: ObjectKey,
        rtv: ObjectKey,
    }

    fn surface() -> Surface {
        surface_with(true)
    }

    fn surface_with(dcc: bool) -> Surface {
        let mut device = Device::default();
        let flags = TextureFlags {
            render_target: true,
            dcc,
            ..Default::default()
        };
        let t = Texture::new_2d(Format::Bgra8Unorm, UVec2::new(1280, 720), flags);
        let rt = device.create("rt", ObjectDesc::Texture(t)).unwrap();
        let view = ObjectDesc::View {
            of: rt,
            kind: ViewKind::Rtv,
            range: crate::barrier::SubresourceRange::ALL,
        };
        let rtv = device.create("rtv", view).unwrap();
        Surface { device, rt, rtv }
    }

    fn transition(rt: ObjectKey, from: Layout, to: Layout) -> Command {
        let access = |l| match l {
            Layout::RenderTarget => Access::RENDER_TARGET,
            _ => Access::NO_ACCESS,
        };
        Command::Barrier(BarrierGroup {
            textures: vec![TextureBarrier::whole(
                rt,
                [Sync::ALL, Sync::ALL],
                [access(from), access(to)],
                [from, to],
            )],
            ..Default::default()
        })
    }

    /// The bytes each command decompresses, run in order through one tracker.
    fn decompressed(s: &Surface, cmds: &[Command]) -> Vec<u64> {
        let profile = Profile::default();
        let mut compression = Compression::default();
        cmds.iter()
            .map(|cmd| {
                let mut ctx = OpContext {
                    queue: QueueId::Graphics,
                    memory: &s.device.memory,
                    profile: &profile,
                    legacy: false,
                    dont_sync_on_copy: false,
                    shown: None,
                    compression: &mut compression,
                    shader: None,
                };
                match op_for(cmd, &mut ctx) {
                    Op::Barrier(b) => b.decompress_ns,
                    Op::Work(w) if w.decompress => w.floor_ns,
                    _ => 0,
                }
            })
            .collect()
    }

    fn frame(s: &Surface, decompress: bool) -> Vec<Command> {
        let mut cmds = vec![
            transition(s.rt, Layout::Common, Layout::RenderTarget),
            Command::ClearRenderTarget(s.rtv),
            Command::SetRenderTargets {
                rtvs: vec![s.rtv],
                dsv: None,
            },
            Command::Draw {
                draws: 1,
                vertices: 3,
                pixels: 921_600,
            },
        ];
        if decompress {
            cmds.push(Command::Decompress(s.rt));
        }
        cmds.push(transition(s.rt, Layout::RenderTarget, Layout::Common));
        cmds
    }

    #[test]
    fn the_surface_is_decompressed_once_by_whichever_comes_first() {
        let s = surface();
        // Explicit decompression (FS-4), then the barrier to COMMON finds nothing to remove.
        let explicit = decompressed(&s, &frame(&s, true));
        assert!(explicit[4] > 0, "{explicit:?}");
        assert_eq!(explicit[5], 0, "{explicit:?}");
        // Without it, the barrier out of RENDER_TARGET decompresses (EB-4), at the same cost.
        let by_barrier = decompressed(&s, &frame(&s, false));
        assert!(by_barrier[4] > 0, "{by_barrier:?}");
        assert_eq!(explicit.iter().sum::<u64>(), by_barrier.iter().sum::<u64>());
    }

    #[test]
    fn rendering_again_makes_compression_live_again() {
        let s = surface();
        let mut cmds = frame(&s, true);
        cmds.push(Command::Decompress(s.rt));
        cmds.extend(frame(&s, true));
        let d = decompressed(&s, &cmds);
        assert_eq!(d[6], 0, "nothing left to decompress: {d:?}");
        assert!(d[11] > 0, "the second frame drew again: {d:?}");
    }

    #[test]
    fn the_compression_query_says_what_the_surface_still_holds() {
        // FS-4: a fast context decompresses nothing by itself; the title may ask.
        let mut s = surface();
        let all = Metadata::DCC | Metadata::FAST_CLEAR;
        assert_eq!(
            s.device.compression_state(s.rtv),
            all,
            "what its flags allow"
        );
        let mut cmds = frame(&s, false);
        cmds.pop(); // stay in RENDER_TARGET, which keeps the metadata
        s.device.submit(QueueId::Graphics, 0, 0, cmds, 0).unwrap();
        assert_eq!(s.device.compression_state(s.rt), all);
        let decompress = [Command::Decompress(s.rt)];
        s.device
            .submit(QueueId::Graphics, 0, 0, decompress, 10)
            .unwrap();
        assert_eq!(s.device.compression_state(s.rtv), Metadata::empty());
        // A barrier into a layout that keeps nothing leaves nothing either (EB-4).
        let mut s = surface();
        s.device
            .submit(QueueId::Graphics, 0, 0, frame(&s, false), 0)
            .unwrap();
        assert_eq!(s.device.compression_state(s.rt), Metadata::empty());
    }

    #[test]
    fn a_decompression_without_propagate_color_clear_keeps_the_fast_clear() {
        // FS-4, seed 003's D3D11X_DECOMPRESS_PROPAGATE_COLOR_CLEAR.
        let mut s = surface();
        let mut cmds = frame(&s, false);
        cmds.pop();
        cmds.push(Command::DecompressResource {
            resource: s.rt,
            propagate_color_clear: false,
        });
        s.device.submit(QueueId::Graphics, 0, 0, cmds, 0).unwrap();
        assert_eq!(s.device.compression_state(s.rt), Metadata::FAST_CLEAR);
        let propagate = Command::DecompressResource {
            resource: s.rt,
            propagate_color_clear: true,
        };
        s.device
            .submit(QueueId::Graphics, 0, 0, [propagate], 10)
            .unwrap();
        assert_eq!(s.device.compression_state(s.rt), Metadata::empty());
        // Each pass over the surface costs its bytes; a third finds nothing left.
        let mut cmds = frame(&s, false);
        let keep = Command::DecompressResource {
            resource: s.rt,
            propagate_color_clear: false,
        };
        cmds.insert(4, keep);
        cmds.insert(5, Command::Decompress(s.rt));
        cmds.insert(6, Command::Decompress(s.rt));
        let d = decompressed(&s, &cmds);
        assert!(d[4] > 0 && d[5] > 0 && d[6] == 0, "{d:?}");
    }

    /// FS-4, EB-4: a render target without DCC holds only fast-clear metadata, which a clear
    /// makes and neither a draw nor a barrier into RENDER_TARGET does. Drawn into and read
    /// every frame but never cleared (a reflection cube, a bloom mip), it owes no eliminate;
    /// cleared every frame, it is eliminated every frame.
    #[test]
    fn a_target_drawn_but_not_cleared_owes_no_fast_clear_eliminate() {
        let s = surface_with(false);
        let frame = |clear: bool| {
            let mut cmds = vec![transition(
                s.rt,
                Layout::ShaderResource,
                Layout::RenderTarget,
            )];
            if clear {
                cmds.push(Command::ClearRenderTarget(s.rtv));
            }
            cmds.push(Command::SetRenderTargets {
                rtvs: vec![s.rtv],
                dsv: None,
            });
            cmds.push(Command::Draw {
                draws: 1,
                vertices: 3,
                pixels: 921_600,
            });
            cmds.push(transition(
                s.rt,
                Layout::RenderTarget,
                Layout::ShaderResource,
            ));
            cmds
        };
        let eliminates = |clear: bool| {
            let cmds: Vec<Command> = (0..4).flat_map(|_| frame(clear)).collect();
            let d = decompressed(&s, &cmds);
            d.iter().filter(|&&ns| ns > 0).count()
        };
        assert_eq!(eliminates(false), 0, "nothing ever cleared it");
        assert_eq!(eliminates(true), 4, "one a frame, after each clear");
    }
}
