//! Emit, compile's last step: the kept passes, their edges, the resource index the planners
//! read and the cross-queue fences, written into the caller's [`CompiledGraph`] in place,
//! refilling its lists rather than rebuilding them.

use bevy_ecs::entity::Entity;

use super::Compiler;
use crate::model::Pass;
use crate::plan::{CompiledGraph, CompiledPass};

impl Compiler {
    /// Write the kept passes, their edges, the resource index and the fences into `out`.
    pub(super) fn emit(&mut self, passes: &[(Entity, &str, &Pass)], out: &mut CompiledGraph) {
        let n = passes.len();
        let identity =
            self.kept.len() == n && self.kept.iter().enumerate().all(|(k, &i)| k == i as usize);
        if !identity {
            // Edges between the kept passes, in execution order: a late read now follows its
            // writer, so none points backwards.
            self.place.clear();
            self.place.resize(n, u32::MAX);
            for (k, &i) in self.kept.iter().enumerate() {
                self.place[i as usize] = k as u32;
            }
            let place = &self.place;
            self.after.retain_mut(|(a, b)| {
                (*a, *b) = (place[*a as usize], place[*b as usize]);
                *a != u32::MAX && *b != u32::MAX
            });
            self.after.sort_unstable_by_key(|&(_, b)| b);
            let (starts, touches) = (&self.starts, &self.touches);
            let kept = (self.kept.iter())
                .map(|&i| &touches[starts[i as usize] as usize..starts[i as usize + 1] as usize]);
            self.versions.build(
                self.keys.len(),
                &self.keeps,
                kept,
                &self.after,
                &mut self.preds,
            );
        }
        // Edges sorted by their first pass: counted, then placed in order of the second.
        let kept = self.kept.len();
        let counts = &mut self.scratch;
        counts.clear();
        counts.resize(kept + 1, 0);
        for b in 0..kept {
            for &a in self.preds.of(b) {
                counts[a as usize + 1] += 1;
            }
        }
        for i in 1..=kept {
            counts[i] += counts[i - 1];
        }
        out.edges.clear();
        out.edges.resize(self.preds.list.len(), (0, 0));
        for b in 0..kept {
            for &a in self.preds.of(b) {
                out.edges[counts[a as usize] as usize] = (a as usize, b);
                counts[a as usize] += 1;
            }
        }
        // The kept passes, each refilling a pass of the graph it replaces (or one an earlier,
        // larger graph left); their uses in one array, taken whole when every pass is kept in
        // declaration order (the compiler's array and the graph's trade places).
        if out.passes.len() > kept {
            self.spare.extend(out.passes.drain(kept..));
        }
        if identity {
            std::mem::swap(&mut self.uses, &mut out.uses);
        } else {
            out.uses.clear();
        }
        for (k, &i) in self.kept.iter().enumerate() {
            if k == out.passes.len() {
                out.passes
                    .push(self.spare.pop().unwrap_or_else(CompiledPass::empty));
            }
            let (entity, name, _) = passes[i as usize];
            let pass = &mut out.passes[k];
            (pass.entity, pass.label, pass.queue) = (entity, 0, self.queues[i as usize]);
            pass.name.clear();
            pass.name.push_str(name);
            let span = self.starts[i as usize]..self.starts[i as usize + 1];
            if identity {
                pass.uses = span;
            } else {
                let start = out.uses.len() as u32;
                (out.uses).extend_from_slice(&self.uses[span.start as usize..span.end as usize]);
                pass.uses = start..out.uses.len() as u32;
            }
        }
        let culled = (self.order.iter()).filter(|&&i| !self.keep[i as usize]);
        let mut count = 0;
        for &i in culled {
            if count == out.culled.len() {
                out.culled.push(self.spare_names.pop().unwrap_or_default());
            }
            out.culled[count].clear();
            out.culled[count].push_str(passes[i as usize].1);
            count += 1;
        }
        self.spare_names.extend(out.culled.drain(count..));
        let touches = (self.kept.iter()).flat_map(|&i| {
            &self.touches[self.starts[i as usize] as usize..self.starts[i as usize + 1] as usize]
        });
        (out.resources).rebuild(&self.keys, touches.copied(), &mut self.scratch);
        self.chains.clear();
        let chains = self.resources.iter().filter(|r| r.lifetime.is_none());
        self.chains.extend(chains.map(|r| r.entity));
        (self.fences).plan(
            &mut out.passes,
            &out.uses,
            &out.edges,
            &out.resources,
            &self.chains,
            &mut out.present_waits,
        );
    }
}
