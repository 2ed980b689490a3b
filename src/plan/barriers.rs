//! A frame's barriers, stored flat.
//!
//! A plan holds a barrier call before and after every pass of several frames; a per-pass
//! `BarrierGroup` would cost three vectors per pass and frame, most of them empty or holding
//! one barrier. Here each barrier type is one list sorted by slot (slot `2·pass` is the call
//! before the pass, `2·pass + 1` the one after it), with one offset per slot: a group is three
//! slices. Planners walk resource by resource, so they push in any slot order into a
//! [`PassBarriersBuilder`], which sorts once, stably (a slot keeps its barriers in push order),
//! in time linear in barriers and passes.

use bevy_ecs::prelude::*;

use crate::barrier::{BarrierGroupRef, BufferBarrier, GlobalBarrier, TextureBarrier};

/// The barrier calls around each pass of one frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassBarriers {
    global: Vec<GlobalBarrier>,
    buffers: Vec<BufferBarrier<Entity>>,
    textures: Vec<TextureBarrier<Entity>>,
    /// Per slot, where its barriers start in each list; one more entry ends the last slot.
    starts: Vec<[u32; 3]>,
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

/// Barriers pushed in any pass order; [`finish`](Self::finish) sorts them into slots.
/// A builder keeps its memory between frames: planners reuse one per frame they plan.
#[derive(Clone, Debug, Default)]
pub struct PassBarriersBuilder {
    passes: usize,
    global: Staged<GlobalBarrier>,
    buffers: Staged<BufferBarrier<Entity>>,
    textures: Staged<TextureBarrier<Entity>>,
    /// Scratch for the sort: per slot, the next free position.
    next: Vec<u32>,
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

/// Barriers of one type in push order, with the slot of each.
#[derive(Clone, Debug)]
struct Staged<T> {
    items: Vec<T>,
    slots: Vec<u32>,
}

impl<T> Default for Staged<T> {
    fn default() -> Self {
        Staged {
            items: Vec::new(),
            slots: Vec::new(),
        }
    }
}

impl<T: Copy> Staged<T> {
    #[inline(always)]
    fn push(&mut self, slot: u32, item: T) {
        self.items.push(item);
        self.slots.push(slot);
    }

    fn clear(&mut self) {
        self.items.clear();
        self.slots.clear();
    }

    fn extend(&mut self, other: &Staged<T>, range: std::ops::Range<usize>) {
        self.items.extend_from_slice(&other.items[range.clone()]);
        self.slots.extend_from_slice(&other.slots[range]);
    }

    /// Counting sort by slot into `out`, stable, filling column `k` of `starts` (one row per
    /// slot and one more); `next` is scratch.
    fn sort_into(&self, starts: &mut [[u32; 3]], k: usize, next: &mut Vec<u32>, out: &mut Vec<T>) {
        for &s in &self.slots {
            starts[s as usize + 1][k] += 1;
        }
        for i in 1..starts.len() {
            starts[i][k] += starts[i - 1][k];
        }
        next.clear();
        next.extend(starts.iter().map(|r| r[k]));
        // Each item scattered to its slot's next free place, in `out`'s memory from the
        // last frame: a plan of thousands of barriers would otherwise fault fresh pages in.
        out.clear();
        let Some(&filler) = self.items.first() else {
            return;
        };
        out.resize(self.items.len(), filler);
        for (item, &s) in self.items.iter().zip(&self.slots) {
            out[next[s as usize] as usize] = *item;
            next[s as usize] += 1;
        }
    }
}

impl PassBarriersBuilder {
    /// A builder for a frame of `passes` passes.
    pub fn new(passes: usize) -> Self {
        PassBarriersBuilder {
            passes,
            ..Default::default()
        }
    }

    /// Start a new frame of `passes` passes, keeping the memory.
    pub fn reset(&mut self, passes: usize) {
        self.passes = passes;
        self.global.clear();
        self.buffers.clear();
        self.textures.clear();
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
    pub fn texture(&mut self, pass: usize, after: bool, b: TextureBarrier<Entity>) {
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
    pub fn repeat(&mut self, other: &PassBarriersBuilder, from: Mark, to: Mark) {
        self.global.extend(&other.global, from.0[0]..to.0[0]);
        self.buffers.extend(&other.buffers, from.0[1]..to.0[1]);
        self.textures.extend(&other.textures, from.0[2]..to.0[2]);
    }

    /// Push again everything `other` pushed, after what this one has: builders filled in
    /// parallel join as if one had taken every push.
    pub fn append(&mut self, other: &PassBarriersBuilder) {
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
        self.global
            .sort_into(&mut out.starts, 0, next, &mut out.global);
        self.buffers
            .sort_into(&mut out.starts, 1, next, &mut out.buffers);
        self.textures
            .sort_into(&mut out.starts, 2, next, &mut out.textures);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::barrier::{Access, Sync};

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
        let mut b = PassBarriersBuilder::new(3);
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
    fn an_empty_frame_has_empty_groups() {
        let p = PassBarriersBuilder::new(2).finish();
        assert!(p.before(0).is_empty() && p.after(1).is_empty());
        assert!(PassBarriers::default().before(0).is_empty());
    }
}
