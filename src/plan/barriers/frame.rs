//! A frame's barriers, stored flat.
//!
//! A plan holds a barrier call before and after every pass of several frames; a per-pass
//! `BarrierGroup` would cost three vectors per pass and frame, most of them empty or holding
//! one barrier. Here each barrier type is one list sorted by slot (slot `2·pass` is the call
//! before the pass, `2·pass + 1` the one after it), with one offset per slot: a group is three
//! slices. Planners walk resource by resource, so they push in any slot order into a
//! [`PassBarriersBuilder`](super::PassBarriersBuilder), which sorts once, stably (a slot
//! keeps its barriers in push order), in time linear in barriers and passes.
//!
//! A builder stages texture barriers as any [`TextureRecord`]: planners whose barriers always
//! name every subresource stage [`WholeTexture`] records, half the size of a
//! [`TextureBarrier`], and the sort writes each out in full once, in its final place.

use bevy_ecs::prelude::*;

use crate::barrier::{
    Access, BarrierGroupRef, BufferBarrier, GlobalBarrier, Layout, LegacyBarrier, SubresourceRange,
    Sync, TextureBarrier, TextureBarrierFlags,
};

/// The barrier calls around each pass of one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassBarriers {
    pub(super) global: Vec<GlobalBarrier>,
    pub(super) buffers: Vec<BufferBarrier<Entity>>,
    pub(super) textures: Vec<TextureBarrier<Entity>>,
    /// Per slot, where its barriers start in each list; one more entry ends the last slot.
    pub(super) starts: Vec<[u32; 3]>,
}

impl PassBarriers {
    /// Passes covered.
    pub fn passes(&self) -> usize {
        self.starts.len().saturating_sub(1) / 2
    }

    /// The call issued at the start of pass `i`, on its queue (empty past the end).
    pub fn before(&self, i: usize) -> BarrierGroupRef<'_, Entity> {
        self.slot(2 * i)
    }

    /// The call issued at the end of pass `i`, before its fence.
    pub fn after(&self, i: usize) -> BarrierGroupRef<'_, Entity> {
        self.slot(2 * i + 1)
    }

    /// Every barrier of the frame, in slot order.
    pub fn all(&self) -> BarrierGroupRef<'_, Entity> {
        BarrierGroupRef {
            global: &self.global,
            buffers: &self.buffers,
            textures: &self.textures,
        }
    }

    /// Rewrite each slot's texture barriers with `f`, which may change how many there are.
    fn rewrite_textures(&mut self, mut f: impl FnMut(&mut Vec<TextureBarrier<Entity>>)) {
        let mut textures = Vec::with_capacity(self.textures.len());
        let mut slot = Vec::new();
        let mut start = 0u32;
        for s in 0..self.starts.len().saturating_sub(1) {
            let (a, b) = (self.starts[s][2] as usize, self.starts[s + 1][2] as usize);
            slot.clear();
            slot.extend_from_slice(&self.textures[a..b]);
            f(&mut slot);
            self.starts[s][2] = start;
            textures.extend_from_slice(&slot);
            start = textures.len() as u32;
        }
        if let Some(last) = self.starts.last_mut() {
            last[2] = start;
        }
        self.textures = textures;
    }

    /// Rewrite the buffer and texture barriers of `slots` (sorted, each once) with `f`, which
    /// may change how many there are; the other slots keep theirs. The frame is rebuilt in
    /// `scratch`, which gets the old arrays back: a caller editing many frames keeps one, so
    /// the arrays are allocated once, not at every edit.
    pub(crate) fn edit_slots(
        &mut self,
        scratch: &mut SlotEdit,
        slots: &[u32],
        mut f: impl FnMut(u32, &mut Vec<BufferBarrier<Entity>>, &mut Vec<TextureBarrier<Entity>>),
    ) {
        if slots.is_empty() {
            return;
        }
        let SlotEdit {
            buffers,
            textures,
            slot_buffers,
            slot_textures,
        } = scratch;
        buffers.clear();
        textures.clear();
        fresh(buffers, self.buffers.len() + slots.len());
        fresh(textures, self.textures.len() + slots.len());
        // The slots between edits move as whole runs; only their starts shift, by what the
        // edits so far added or removed.
        let count = self.starts.len().saturating_sub(1);
        let (mut copied, mut shifted) = ([0usize; 2], 0usize);
        for &s in slots.iter().take_while(|&&s| (s as usize) < count) {
            let s = s as usize;
            let (a, b) = (self.starts[s], self.starts[s + 1]);
            buffers.extend_from_slice(&self.buffers[copied[0]..a[1] as usize]);
            textures.extend_from_slice(&self.textures[copied[1]..a[2] as usize]);
            // Slots `shifted..s` moved whole: their starts move by the edits before them.
            let delta = [
                buffers.len() as i64 - a[1] as i64,
                textures.len() as i64 - a[2] as i64,
            ];
            for st in &mut self.starts[shifted..=s] {
                st[1] = (i64::from(st[1]) + delta[0]) as u32;
                st[2] = (i64::from(st[2]) + delta[1]) as u32;
            }
            shifted = s + 1;
            let (bs, ts) = (a[1] as usize..b[1] as usize, a[2] as usize..b[2] as usize);
            slot_buffers.clear();
            slot_buffers.extend_from_slice(&self.buffers[bs]);
            slot_textures.clear();
            slot_textures.extend_from_slice(&self.textures[ts]);
            f(s as u32, slot_buffers, slot_textures);
            buffers.extend_from_slice(slot_buffers);
            textures.extend_from_slice(slot_textures);
            copied = [b[1] as usize, b[2] as usize];
        }
        let delta = [
            buffers.len() as i64 - copied[0] as i64,
            textures.len() as i64 - copied[1] as i64,
        ];
        for st in &mut self.starts[shifted..] {
            st[1] = (i64::from(st[1]) + delta[0]) as u32;
            st[2] = (i64::from(st[2]) + delta[1]) as u32;
        }
        buffers.extend_from_slice(&self.buffers[copied[0]..]);
        textures.extend_from_slice(&self.textures[copied[1]..]);
        std::mem::swap(&mut self.buffers, buffers);
        std::mem::swap(&mut self.textures, textures);
    }

    fn slot(&self, s: usize) -> BarrierGroupRef<'_, Entity> {
        let (Some(a), Some(b)) = (self.starts.get(s), self.starts.get(s + 1)) else {
            return BarrierGroupRef::EMPTY;
        };
        let r = |k: usize| a[k] as usize..b[k] as usize;
        BarrierGroupRef {
            global: &self.global[r(0)],
            buffers: &self.buffers[r(1)],
            textures: &self.textures[r(2)],
        }
    }
}

/// A texture barrier as a builder stages it: written out in full when the frame is sorted.
pub trait TextureRecord: Copy {
    fn texture(self) -> TextureBarrier<Entity>;
}

impl TextureRecord for TextureBarrier<Entity> {
    #[inline(always)]
    fn texture(self) -> TextureBarrier<Entity> {
        self
    }
}

/// A texture barrier on every subresource (barrier-spec A2), the only kind the enhanced
/// planner issues: 32 bytes where the full barrier takes 64, so a plan's thousands of
/// barriers are staged, repeated and sorted at half the traffic. DISCARD follows from the
/// layouts (from UNDEFINED to a named layout, EB-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WholeTexture {
    pub sync_before: Sync,
    pub sync_after: Sync,
    pub access_before: Access,
    pub access_after: Access,
    pub layout_before: Layout,
    pub layout_after: Layout,
    pub resource: Entity,
}

impl TextureRecord for WholeTexture {
    #[inline(always)]
    fn texture(self) -> TextureBarrier<Entity> {
        TextureBarrier {
            sync_before: self.sync_before,
            sync_after: self.sync_after,
            access_before: self.access_before,
            access_after: self.access_after,
            layout_before: self.layout_before,
            layout_after: self.layout_after,
            resource: self.resource,
            range: SubresourceRange::ALL,
            flags: TextureBarrierFlags {
                discard: self.layout_before == Layout::Undefined
                    && self.layout_after != Layout::Undefined,
            },
        }
    }
}

/// Make room for `need` in the empty `v`: a fresh array where it is too small (growing it
/// would copy its stale contents), with an eighth more, so that sizes that vary a little
/// settle.
fn fresh<T>(v: &mut Vec<T>, need: usize) {
    if v.capacity() < need {
        *v = Vec::with_capacity(need + need / 8);
    }
}

/// The arrays [`FramePlan::edit_slots`] rebuilds a frame in, kept between edits.
#[derive(Debug, Default)]
pub(crate) struct SlotEdit {
    buffers: Vec<BufferBarrier<Entity>>,
    textures: Vec<TextureBarrier<Entity>>,
    slot_buffers: Vec<BufferBarrier<Entity>>,
    slot_textures: Vec<TextureBarrier<Entity>>,
}

/// The barriers of one frame of a plan, around each compiled pass (same index).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FramePlan {
    /// Transitions made before any pass of the frame, on the graphics queue, which every
    /// other queue waits for: textures read by several queues before anything writes them
    /// in a plan's first frame, whose layout no reader may change under another (FS-1).
    pub prologue: Vec<TextureBarrier<Entity>>,
    /// Issued at the start of each pass, on its queue, and at its end, before its fence
    /// (write-backs for other queues, transitions the next queue cannot do).
    pub barriers: PassBarriers,
    /// Layout and access each texture is assumed to start the frame in.
    pub start: Vec<(Entity, Layout, Access)>,
    /// Layout and access each texture is left in at the end of the frame.
    pub end: Vec<(Entity, Layout, Access)>,
    /// With the `legacy` strategy: legacy barriers before and after each pass, which the
    /// driver translates when the pass is recorded (EB-10).
    pub legacy_before: Vec<Vec<LegacyBarrier<Entity>>>,
    /// With the `legacy` strategy: legacy transitions of the prologue (see `prologue`).
    pub legacy_prologue: Vec<LegacyBarrier<Entity>>,
    pub legacy_after: Vec<Vec<LegacyBarrier<Entity>>>,
    /// With the `legacy` strategy: the state each resource is left in.
    pub legacy_end: Vec<(Entity, crate::barrier::ResourceStates)>,
}

impl FramePlan {
    /// Barriers on the parts of split textures as barriers on the textures' ranges (see
    /// [`Parts`](crate::plan::Parts)).
    pub fn fold_parts(&mut self, parts: &crate::plan::Parts) {
        if parts.is_empty() {
            return;
        }
        self.barriers
            .rewrite_textures(|slot| parts.fold_textures(slot));
        parts.fold_textures(&mut self.prologue);
        parts.fold_legacy(&mut self.legacy_prologue);
        for list in self.legacy_before.iter_mut().chain(&mut self.legacy_after) {
            parts.fold_legacy(list);
        }
    }

    /// The barrier calls before and after pass `i`.
    pub fn groups(&self, i: usize) -> (BarrierGroupRef<'_, Entity>, BarrierGroupRef<'_, Entity>) {
        (self.barriers.before(i), self.barriers.after(i))
    }
}

/// The barrier plan: the first frames after planning (which start from wherever textures
/// really are, knowing nothing of earlier barriers) and then the steady frame, repeated. Plain
/// data, cached while the graph and the textures' starting layouts hold; which of its frames
/// a tick runs is [`PlanFrame`].
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct BarrierPlan {
    /// Introductory frames, then the steady one (the last), which repeats.
    pub frames: Vec<FramePlan>,
    /// Plans made so far (re-planned when the graph or the starting layouts change).
    pub generation: u64,
}

impl BarrierPlan {
    /// The frame plan in effect at frame `k` of this plan: the steady one once the
    /// introductory frames are run.
    pub fn frame_at(&self, k: usize) -> Option<&FramePlan> {
        self.frames.get(k.min(self.frames.len().saturating_sub(1)))
    }

    /// Where frame `k` of this plan assumes each texture starts.
    pub fn starts_at(&self, k: usize) -> &[(Entity, Layout, Access)] {
        self.frame_at(k).map_or(&[], |f| f.start.as_slice())
    }

    /// The barriers before and after pass `i` in frame `k` of this plan.
    pub fn groups(
        &self,
        k: usize,
        i: usize,
    ) -> (BarrierGroupRef<'_, Entity>, BarrierGroupRef<'_, Entity>) {
        self.frame_at(k)
            .map_or((BarrierGroupRef::EMPTY, BarrierGroupRef::EMPTY), |f| {
                f.groups(i)
            })
    }

    /// Where frame `k` of this plan leaves each texture.
    pub fn finals(&self, k: usize) -> &[(Entity, Layout, Access)] {
        self.frame_at(k).map_or(&[], |f| f.end.as_slice())
    }
}

/// Which frame of the [`BarrierPlan`] this tick runs, counted from when it was planned: the
/// barrier stage's output (it alone writes it), read by recording, submission and present.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanFrame(pub usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::barriers::PassBarriersBuilder;

    fn buffer(i: u32) -> BufferBarrier<Entity> {
        BufferBarrier {
            resource: Entity::from_raw_u32(i).expect("valid index"),
            sync_before: Sync::ALL,
            sync_after: Sync::ALL,
            access_before: Access::UNORDERED_ACCESS,
            access_after: Access::UNORDERED_ACCESS,
        }
    }

    fn ids(g: BarrierGroupRef<'_, Entity>) -> Vec<u32> {
        g.buffers.iter().map(|b| b.resource.index_u32()).collect()
    }

    /// Edited slots grow and shrink; the runs between them keep their barriers and find
    /// them at their shifted starts; slots past the end are ignored.
    #[test]
    fn editing_slots_keeps_the_others_in_place() {
        let mut b: PassBarriersBuilder = PassBarriersBuilder::new(4);
        for (pass, after, i) in [(0, false, 1), (0, true, 2), (1, false, 3), (1, false, 4)] {
            b.buffer(pass, after, buffer(i));
        }
        for (pass, after, i) in [(2, true, 5), (3, false, 6), (3, true, 7)] {
            b.buffer(pass, after, buffer(i));
        }
        let mut p = b.finish();
        let mut scratch = SlotEdit::default();
        p.edit_slots(
            &mut scratch,
            &[1, 2, 5, 99],
            |slot, buffers, _| match slot {
                1 => buffers.push(buffer(10 + slot)),
                2 => buffers.clear(),
                _ => buffers.extend([buffer(20), buffer(21)]),
            },
        );
        let slots: Vec<Vec<u32>> = (0..4)
            .flat_map(|k| [ids(p.before(k)), ids(p.after(k))])
            .collect();
        let expected: [&[u32]; 8] = [&[1], &[2, 11], &[], &[], &[], &[5, 20, 21], &[6], &[7]];
        assert_eq!(slots, expected);
        assert_eq!(p.all().buffers.len(), 8);
    }
}
