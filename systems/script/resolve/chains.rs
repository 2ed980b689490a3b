//! Swap chains as a script names them, resolved at execution: a chain is the buffer at
//! index 0 right now (RL-5), `chain[i]` the buffer created at index `i`, a scene view of a
//! chain a device view made at its first use and made again for a new buffer, and
//! `ResizeBuffers` the step that replaces the buffers, which the chain's entities catch up
//! with the frame after (`catch_up`). A buffer released by a resize stays on its entity
//! until then, so a name resolves to the resize's buffer, never to a released one (FS-6).

use bevy_ecs::prelude::*;

use super::{Resolver, Step, Targets};
use crate::device::{ObjectDesc, ObjectKey, SwapChainKey};
use crate::model::*;

/// Bring the swap chains a script resized, and their buffer entities, up to date with the
/// device: the buffers' objects and extent, the chain's extent.
pub(in crate::systems::script) fn catch_up(
    targets: &Targets,
    state: &ScriptState,
    commands: &mut Commands,
) {
    for (e, b, o) in &targets.buffers {
        let Some(&key) = state.resized.get(&(b.chain, b.index)) else {
            continue;
        };
        let chain = targets.swap_chains.get(b.chain);
        if key == o.0 {
            continue;
        }
        let mut ec = commands.entity(e);
        ec.insert(GpuObject(key));
        if let (Ok(chain), Some(&(extent, format))) = (chain, state.resized_to.get(&b.chain)) {
            let mut chain = chain.clone();
            (chain.extent, chain.format) = (extent, format);
            ec.insert(chain.buffer_texture());
        }
    }
    for (&c, &(extent, format)) in &state.resized_to {
        if let Ok(chain) = targets.swap_chains.get(c)
            && (chain.extent, chain.format) != (extent, format)
        {
            let mut chain = chain.clone();
            (chain.extent, chain.format) = (extent, format);
            commands.entity(c).insert(chain);
        }
    }
}

impl Resolver<'_, '_, '_> {
    /// Buffer `index` (by creation index) of `chain`: its entity and device object.
    pub(super) fn chain_buffer(
        &self,
        chain: Entity,
        index: u32,
    ) -> Result<(Entity, ObjectKey), String> {
        // The entity holds a buffer ResizeBuffers released until it catches up (next
        // frame); a timeline resize's new entities hold live ones.
        let resized = self.state.resized.get(&(chain, index)).copied();
        (self.targets.buffers.iter())
            .find(|(_, b, _)| b.chain == chain && b.index == index)
            .map(|(e, _, o)| match resized {
                Some(k) if !self.device.memory.is_live(o.0) => (e, k),
                _ => (e, o.0),
            })
            .ok_or_else(|| format!("{}[{index}] does not exist", self.name(chain)))
    }

    /// The buffer at index 0 of `chain` now, and its entity.
    pub(super) fn back_buffer(
        &mut self,
        chain: Entity,
        gpu: &GpuChain,
    ) -> Result<ObjectKey, String> {
        let key = (self.device.swap_chain_buffer(gpu.key, 0))
            .ok_or_else(|| format!("swap chain {} has no buffers", self.name(chain)))?;
        let resized = (self.state.resized.iter()).find(|(_, k)| **k == key);
        let entity = match resized {
            Some((&(c, i), _)) => self.chain_buffer(c, i).ok().map(|(b, _)| b),
            None => (self.targets.buffers.iter())
                .find(|(_, _, o)| o.0 == key)
                .map(|(b, _, _)| b),
        };
        if let Some(b) = entity {
            self.used.push((b, self.queue));
        }
        Ok(key)
    }

    /// The device view of a scene view of a swap chain, made at first use: of its buffer
    /// (made again when a resize replaced that buffer), or of the buffer at index 0 then.
    pub(super) fn chain_view(
        &mut self,
        e: Entity,
        view: &View,
        index: Option<&ChainBufferIndex>,
        gpu: &GpuChain,
    ) -> Result<ObjectKey, String> {
        let made = self.state.chain_views.get(&e).copied();
        let buffer = match index {
            Some(i) => {
                let (b, key) = self.chain_buffer(view.of, i.0)?;
                self.used.push((b, self.queue));
                key
            }
            None => match made {
                Some((v, _)) => return Ok(v),
                None => self.back_buffer(view.of, gpu)?,
            },
        };
        if let Some((v, b)) = made
            && b == buffer
        {
            return Ok(v);
        }
        let desc = ObjectDesc::View {
            of: buffer,
            kind: view.kind,
            range: view.range,
        };
        let v = (self.device.create(&self.name(e), desc)).map_err(|e| e.to_string())?;
        self.state.chain_views.insert(e, (v, buffer));
        Ok(v)
    }

    /// The device swap chain `target` names.
    pub(super) fn swap_chain(&mut self, target: &Target) -> Result<SwapChainKey, String> {
        let e = match target {
            Target::Entity(e) => *e,
            _ => return Err("Present needs a swap chain".into()),
        };
        self.used.push((e, self.queue));
        let (gpu, _) = (self.targets.chains.get(e))
            .map_err(|_| format!("swap chain {} does not exist yet", self.name(e)))?;
        Ok(gpu.key)
    }

    /// ResizeBuffers of `chain` to `extent`, in `format` or the one it has now: the step
    /// that makes new buffers, described as the chain's scene description says.
    pub(super) fn resize(
        &mut self,
        chain: &Target,
        extent: (u32, u32),
        format: Option<Format>,
    ) -> Result<Step, String> {
        let key = self.swap_chain(chain)?;
        let Target::Entity(e) = chain else {
            return Err("ResizeBuffers needs a swap chain".into());
        };
        let mut desc = (self.targets.swap_chains.get(*e))
            .map_err(|_| format!("{} is not a swap chain", self.name(*e)))?
            .clone();
        desc.extent = glam::uvec2(extent.0, extent.1);
        // No format keeps the chain's current one, an earlier resize's if any
        // (DXGI_FORMAT_UNKNOWN).
        let current = self.state.resized_to.get(e).map(|(_, f)| *f);
        desc.format = format.or(current).unwrap_or(desc.format);
        Ok(Step::Resize {
            chain: *e,
            key,
            texture: desc.buffer_texture(),
        })
    }
}
