//! Building a frame's barriers: planners push in any pass order, and the builder sorts them
//! by slot once, stably, in time linear in barriers and passes (see [`PassBarriers`]).

use bevy_ecs::prelude::*;

use super::frame::{PassBarriers, TextureRecord};
use crate::barrier::{BufferBarrier, GlobalBarrier, TextureBarrier};

/// Barriers pushed in any pass order; [`finish`](Self::finish) sorts them into slots.
/// A builder keeps its memory between frames: planners reuse one per frame they plan.
#[derive(Clone, Debug)]
pub struct PassBarriersBuilder<T: TextureRecord = TextureBarrier<Entity>> {
    passes: usize,
    global: Staged<GlobalBarrier>,
    buffers: Staged<BufferBarrier<Entity>>,
    textures: Staged<T>,
    /// Scratch for the sort: per slot, the next free position.
    next: Vec<u32>,
}

impl<T: TextureRecord> Default for PassBarriersBuilder<T> {
    fn default() -> Self {
        PassBarriersBuilder {
            passes: 0,
            global: Staged::default(),
            buffers: Staged::default(),
            textures: Staged::default(),
            next: Vec::new(),
        }
    }
}

/// A position in a builder's pushes, see [`PassBarriersBuilder::mark`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark([usize; 3]);

impl Mark {
    /// This position in a builder appended (see [`PassBarriersBuilder::append`]) to another
    /// at `base`.
    pub fn after(self, base: Mark) -> Mark {
        Mark(std::array::from_fn(|k| self.0[k] + base.0[k]))
    }
}

/// Barriers of one type in push order, each with its slot, and each slot's count so far
/// (at `counts[slot + 1]`).
///
/// A barrier and its slot are one entry: a push is one append, not two, and planners push
/// a barrier or more per resource use, so appends are among the walk's hottest stores.
///
/// Counted as they are pushed, among the planner's other work, rather than in a loop of
/// their own at the end: consecutive barriers often share a slot, and such a loop waits on
/// each count's store before the next increment (it was a sixth of finishing a frame).
#[derive(Clone, Debug)]
struct Staged<T> {
    items: Vec<(u32, T)>,
    counts: Vec<u32>,
}

impl<T> Default for Staged<T> {
    fn default() -> Self {
        Staged {
            items: Vec::new(),
            counts: vec![0],
        }
    }
}

impl<T: Copy> Staged<T> {
    #[inline(always)]
    fn push(&mut self, slot: u32, item: T) {
        self.items.push((slot, item));
        self.counts[slot as usize + 1] += 1;
    }

    /// Empty, for a frame of `slots` slots.
    fn clear(&mut self, slots: usize) {
        self.items.clear();
        self.counts.clear();
        self.counts.resize(slots + 1, 0);
    }

    #[inline]
    fn extend(&mut self, other: &Staged<T>, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        let items = &other.items[range];
        self.items.extend_from_slice(items);
        for &(s, _) in items {
            self.counts[s as usize + 1] += 1;
        }
    }

    /// Counting sort by slot into `out`, stable, filling column `k` of `starts` (one row per
    /// slot and one more); `next` is scratch. Each item is written out by `full`.
    fn sort_into<U: Copy>(
        &self,
        starts: &mut [[u32; 3]],
        k: usize,
        next: &mut Vec<u32>,
        out: &mut Vec<U>,
        full: impl Fn(T) -> U,
    ) {
        let Some(&(_, filler)) = self.items.first() else {
            // Nothing of this type: the column stays all zeros.
            out.clear();
            return;
        };
        // Each slot's count (at `next[slot + 1]`) summed into its start, which is also its
        // first free place.
        next.clear();
        next.extend_from_slice(&self.counts[..starts.len()]);
        let mut at = 0;
        for (row, first) in starts.iter_mut().zip(next.iter_mut()) {
            at += *first;
            (row[k], *first) = (at, at);
        }
        // Each item scattered to its slot's next free place, in `out`'s memory from the
        // last frame: a plan of thousands of barriers would otherwise fault fresh pages in.
        // The scatter writes every place exactly once, so what the last frame left there
        // needs no clearing first.
        out.truncate(self.items.len());
        out.resize(self.items.len(), full(filler));
        for &(s, item) in &self.items {
            out[next[s as usize] as usize] = full(item);
            next[s as usize] += 1;
        }
    }
}

impl<T: TextureRecord> PassBarriersBuilder<T> {
    /// A builder for a frame of `passes` passes.
    pub fn new(passes: usize) -> Self {
        let mut b = PassBarriersBuilder::default();
        b.reset(passes);
        b
    }

    /// Start a new frame of `passes` passes, keeping the memory.
    pub fn reset(&mut self, passes: usize) {
        self.passes = passes;
        self.global.clear(2 * passes);
        self.buffers.clear(2 * passes);
        self.textures.clear(2 * passes);
    }

    #[inline(always)]
    fn slot(&self, pass: usize, after: bool) -> u32 {
        assert!(
            pass < self.passes,
            "barrier for pass {pass} of {}",
            self.passes
        );
        (2 * pass + after as usize) as u32
    }

    /// A global barrier in the call before (or after) `pass`.
    pub fn global(&mut self, pass: usize, after: bool, b: GlobalBarrier) {
        let s = self.slot(pass, after);
        self.global.push(s, b);
    }

    /// A buffer barrier in the call before (or after) `pass`.
    #[inline(always)]
    pub fn buffer(&mut self, pass: usize, after: bool, b: BufferBarrier<Entity>) {
        let s = self.slot(pass, after);
        self.buffers.push(s, b);
    }

    /// A texture barrier in the call before (or after) `pass`.
    #[inline(always)]
    pub fn texture(&mut self, pass: usize, after: bool, b: T) {
        let s = self.slot(pass, after);
        self.textures.push(s, b);
    }

    /// How many barriers of each type were pushed so far.
    pub fn mark(&self) -> Mark {
        Mark([
            self.global.items.len(),
            self.buffers.items.len(),
            self.textures.items.len(),
        ])
    }

    /// Push again what `other` had pushed between two marks, to the same passes: a frame
    /// that repeats another's decisions copies them instead of deciding again.
    pub fn repeat(&mut self, other: &Self, from: Mark, to: Mark) {
        self.global.extend(&other.global, from.0[0]..to.0[0]);
        self.buffers.extend(&other.buffers, from.0[1]..to.0[1]);
        self.textures.extend(&other.textures, from.0[2]..to.0[2]);
    }

    /// Push again everything `other` pushed, after what this one has: builders filled in
    /// parallel join as if one had taken every push.
    pub fn append(&mut self, other: &Self) {
        self.repeat(other, Mark::default(), other.mark());
    }

    /// The frame's barriers sorted into slots, each slot in push order.
    pub fn finish(&mut self) -> PassBarriers {
        let mut out = PassBarriers::default();
        self.finish_into(&mut out);
        out
    }

    /// [`finish`](Self::finish) into `out`, reusing its memory: a planner that re-plans
    /// into the plan it replaces allocates nothing once warm.
    pub fn finish_into(&mut self, out: &mut PassBarriers) {
        out.starts.clear();
        out.starts.resize(2 * self.passes + 1, [0; 3]);
        let next = &mut self.next;
        let starts = &mut out.starts;
        (self.global).sort_into(starts, 0, next, &mut out.global, |b| b);
        (self.buffers).sort_into(starts, 1, next, &mut out.buffers, |b| b);
        (self.textures).sort_into(starts, 2, next, &mut out.textures, T::texture);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, Layout, Sync};
    use crate::plan::barriers::WholeTexture;

    fn g(bits: u32) -> GlobalBarrier {
        GlobalBarrier {
            sync_before: Sync::from_bits_truncate(bits),
            sync_after: Sync::NONE,
            access_before: Access::NO_ACCESS,
            access_after: Access::NO_ACCESS,
        }
    }

    #[test]
    fn slots_keep_push_order_and_passes_stay_apart() {
        let mut b: PassBarriersBuilder = PassBarriersBuilder::new(3);
        b.global(2, false, g(1));
        b.global(0, true, g(2));
        b.global(2, false, g(4));
        b.global(0, false, g(8));
        let p = b.finish();
        assert_eq!(p.passes(), 3);
        assert_eq!(p.before(0).global, &[g(8)]);
        assert_eq!(p.after(0).global, &[g(2)]);
        assert!(p.before(1).is_empty() && p.after(1).is_empty());
        assert_eq!(p.before(2).global, &[g(1), g(4)]);
        assert!(p.after(2).is_empty());
        assert!(p.before(7).is_empty(), "past the end is empty, not a panic");
        assert_eq!(p.all().len(), 4);
        b.reset(1);
        b.global(0, true, g(16));
        let p = b.finish();
        assert!(p.before(0).is_empty());
        assert_eq!(
            p.after(0).global,
            &[g(16)],
            "a reset builder forgets the last frame"
        );
    }

    #[test]
    fn whole_texture_records_come_out_in_full_and_reuse_leaves_nothing_stale() {
        let e = Entity::from_raw_u32(7).expect("valid index");
        let rec = |lb, la| WholeTexture {
            sync_before: Sync::ALL,
            sync_after: Sync::COMPUTE_SHADING,
            access_before: Access::NO_ACCESS,
            access_after: Access::UNORDERED_ACCESS,
            layout_before: lb,
            layout_after: la,
            resource: e,
        };
        let mut b = PassBarriersBuilder::<WholeTexture>::new(2);
        b.texture(1, false, rec(Layout::Undefined, Layout::UnorderedAccess));
        b.texture(0, true, rec(Layout::Common, Layout::UnorderedAccess));
        let mut out = PassBarriers::default();
        b.finish_into(&mut out);
        let t = out.before(1).textures[0];
        assert!(t.flags.discard, "UNDEFINED to a layout discards (EB-5)");
        assert!(t.range.is_all() && t.resource == e);
        assert!(!out.after(0).textures[0].flags.discard);
        // Fewer barriers into the same memory: nothing of the last frame survives.
        b.reset(2);
        b.texture(1, true, rec(Layout::Common, Layout::ShaderResource));
        b.finish_into(&mut out);
        assert_eq!(out.all().len(), 1);
        assert!(out.before(1).is_empty() && out.after(0).is_empty());
        assert_eq!(
            out.after(1).textures[0].layout_after,
            Layout::ShaderResource
        );
    }

    #[test]
    fn an_empty_frame_has_empty_groups() {
        let p = PassBarriersBuilder::<WholeTexture>::new(2).finish();
        assert!(p.before(0).is_empty() && p.after(1).is_empty());
        assert!(PassBarriers::default().before(0).is_empty());
    }
}
