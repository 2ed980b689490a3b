//! GPU objects in an arena with explicit lifetime (FS-6): nothing is reference counted, a
//! destroyed key stays dead, and using one is a device error rather than a crash.

use slotmap::SlotMap;

use super::DeviceError;
use crate::model::{Buffer, Texture, ViewKind};

slotmap::new_key_type! {
    /// Handle to a device object. Keys of destroyed objects are never reused for new ones
    /// with the same version, so a stale key is always detected.
    pub struct ObjectKey;
}

/// What a device object is.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectDesc {
    Texture(Texture),
    Buffer(Buffer),
    /// A view of another object. `of` may be re-pointed (PlaceSwapChainView, RL-7).
    View {
        of: ObjectKey,
        kind: ViewKind,
        /// The subresources the view covers (EB-6): every one for a whole view.
        range: crate::barrier::SubresourceRange,
    },
}

/// One live object.
#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub desc: ObjectDesc,
    /// Bytes of memory it needs (views need none).
    pub bytes: u64,
    /// Where a placed resource lives; `None` for committed resources, which own their memory.
    pub placement: Option<Placement>,
}

/// The memory range of a placed resource: `bytes` from `offset` in heap `heap` (EB-9d).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub heap: u32,
    pub offset: u64,
    pub bytes: u64,
}

impl Placement {
    /// True when the two ranges share memory.
    pub fn overlaps(&self, other: &Placement) -> bool {
        self.heap == other.heap
            && self.offset < other.offset.saturating_add(other.bytes)
            && other.offset < self.offset.saturating_add(self.bytes)
    }
}

/// A heap: a block of memory placed resources share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapInfo {
    pub name: String,
    pub size: u64,
}

/// The arena of live objects plus memory accounting.
#[derive(Default)]
pub struct Memory {
    objects: SlotMap<ObjectKey, Object>,
    /// Heaps by number; `None` once destroyed (numbers are never reused).
    heaps: Vec<Option<HeapInfo>>,
    live_bytes: u64,
    peak_bytes: u64,
    created: u64,
    destroyed: u64,
}

impl Memory {
    /// Create an object and account its memory.
    pub fn create(&mut self, name: &str, desc: ObjectDesc) -> ObjectKey {
        let bytes = Self::bytes_of(&desc);
        self.live_bytes += bytes;
        self.peak_bytes = self.peak_bytes.max(self.live_bytes);
        self.created += 1;
        self.objects.insert(Object {
            name: name.to_owned(),
            desc,
            bytes,
            placement: None,
        })
    }

    /// Bytes a resource of this description needs.
    pub fn bytes_of(desc: &ObjectDesc) -> u64 {
        match desc {
            ObjectDesc::Texture(t) => t.bytes(),
            ObjectDesc::Buffer(b) => b.size,
            ObjectDesc::View { .. } => 0,
        }
    }

    /// Create a heap of `size` bytes; its memory is accounted now, not per placed resource.
    pub fn create_heap(&mut self, name: &str, size: u64) -> u32 {
        self.heaps.push(Some(HeapInfo {
            name: name.to_owned(),
            size,
        }));
        self.live_bytes += size;
        self.peak_bytes = self.peak_bytes.max(self.live_bytes);
        (self.heaps.len() - 1) as u32
    }

    /// Heap `heap`, if it exists.
    pub fn heap(&self, heap: u32) -> Option<&HeapInfo> {
        self.heaps.get(heap as usize)?.as_ref()
    }

    /// Destroy heap `heap`, giving its memory back. Refused while a live resource is placed
    /// in it (FS-6: nothing is reference counted, so the title must destroy those first).
    pub fn destroy_heap(&mut self, heap: u32) -> Result<(), DeviceError> {
        let info = self.heap(heap).ok_or(DeviceError::NoSuchHeap { heap })?;
        let size = info.size;
        let placed =
            (self.objects.values()).filter(|o| o.placement.is_some_and(|p| p.heap == heap));
        if let Some(o) = placed.into_iter().next() {
            return Err(DeviceError::HeapInUse {
                heap: info.name.clone(),
                object: o.name.clone(),
            });
        }
        self.heaps[heap as usize] = None;
        self.live_bytes -= size;
        Ok(())
    }

    /// True when a live resource is placed in `heap`.
    pub fn heap_in_use(&self, heap: u32) -> bool {
        (self.objects.values()).any(|o| o.placement.is_some_and(|p| p.heap == heap))
    }

    /// Create a texture or buffer in `heap` at `offset`. Refused when the heap does not exist
    /// or the resource does not fit in it.
    pub fn create_placed(
        &mut self,
        name: &str,
        desc: ObjectDesc,
        heap: u32,
        offset: u64,
    ) -> Result<ObjectKey, DeviceError> {
        let bytes = Self::bytes_of(&desc);
        let info = self.heap(heap).ok_or(DeviceError::NoSuchHeap { heap })?;
        if matches!(desc, ObjectDesc::View { .. })
            || offset.checked_add(bytes).is_none_or(|end| end > info.size)
        {
            return Err(DeviceError::PlacementOutOfBounds {
                object: name.to_owned(),
                heap: info.name.clone(),
                offset,
                bytes,
                size: info.size,
            });
        }
        self.created += 1;
        Ok(self.objects.insert(Object {
            name: name.to_owned(),
            desc,
            bytes,
            placement: Some(Placement {
                heap,
                offset,
                bytes,
            }),
        }))
    }

    /// Where a placed resource lives; `None` for anything else.
    pub fn placement(&self, key: ObjectKey) -> Option<Placement> {
        self.objects.get(key)?.placement
    }

    /// Live placed resources other than `key` whose memory overlaps `key`'s (aliases).
    pub fn aliases(&self, key: ObjectKey) -> Vec<ObjectKey> {
        let Some(p) = self.placement(key) else {
            return Vec::new();
        };
        (self.objects.iter())
            .filter(|(k, o)| *k != key && o.placement.is_some_and(|q| q.overlaps(&p)))
            .map(|(k, _)| k)
            .collect()
    }

    /// Look an object up; a destroyed key is [`DeviceError::Destroyed`].
    pub fn get(&self, key: ObjectKey) -> Result<&Object, DeviceError> {
        self.objects
            .get(key)
            .ok_or(DeviceError::Destroyed { object: key })
    }

    /// True when the key names a live object.
    pub fn is_live(&self, key: ObjectKey) -> bool {
        self.objects.contains_key(key)
    }

    /// Re-point a view at another resource (PlaceSwapChainView, RL-7).
    pub fn repoint(&mut self, view: ObjectKey, to: ObjectKey) -> Result<(), DeviceError> {
        self.get(to)?;
        match self.objects.get_mut(view).map(|o| &mut o.desc) {
            Some(ObjectDesc::View { of, .. }) => {
                *of = to;
                Ok(())
            }
            Some(_) => Err(DeviceError::NotAView { object: view }),
            None => Err(DeviceError::Destroyed { object: view }),
        }
    }

    /// The resource a view (or the resource itself) refers to.
    pub fn resource_of(&self, key: ObjectKey) -> Result<ObjectKey, DeviceError> {
        match &self.get(key)?.desc {
            ObjectDesc::View { of, .. } => {
                self.get(*of)?;
                Ok(*of)
            }
            _ => Ok(key),
        }
    }

    /// Destroy an object. Destroying twice is an error (the title lost track of it).
    pub fn destroy(&mut self, key: ObjectKey) -> Result<Object, DeviceError> {
        let obj = self
            .objects
            .remove(key)
            .ok_or(DeviceError::Destroyed { object: key })?;
        if obj.placement.is_none() {
            self.live_bytes -= obj.bytes;
        }
        self.destroyed += 1;
        Ok(obj)
    }

    /// Name of a live object, or a placeholder for a dead one (for messages).
    pub fn name(&self, key: ObjectKey) -> String {
        self.objects
            .get(key)
            .map(|o| o.name.clone())
            .unwrap_or_else(|| format!("<destroyed {key:?}>"))
    }

    /// What the barrier rules need to know about an object (EB-4: flags, size, planes);
    /// `None` for views and destroyed objects.
    pub fn resource_info(&self, key: ObjectKey) -> Option<crate::barrier::ResourceInfo> {
        use crate::barrier::{ResourceInfo, TextureInfo};
        match &self.get(key).ok()?.desc {
            ObjectDesc::Buffer(_) => Some(ResourceInfo::Buffer),
            ObjectDesc::Texture(t) => Some(ResourceInfo::Texture(TextureInfo {
                mips: t.mips,
                array_size: t.array_size,
                planes: if t.format.has_stencil() { 2 } else { 1 },
                render_target: t.flags.render_target,
                depth_stencil: t.flags.depth_stencil,
                unordered_access: t.flags.unordered_access,
                dcc: t.flags.dcc,
                texture_compatible: t.flags.texture_compatible,
                size_bytes: t.bytes(),
            })),
            ObjectDesc::View { .. } => None,
        }
    }

    /// Live object count.
    pub fn live_objects(&self) -> usize {
        self.objects.len()
    }

    /// Bytes held by live objects, and the peak so far.
    pub fn bytes(&self) -> (u64, u64) {
        (self.live_bytes, self.peak_bytes)
    }

    /// Objects created and destroyed so far.
    pub fn churn(&self) -> (u64, u64) {
        (self.created, self.destroyed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::BufferUsage;

    #[test]
    fn destroyed_keys_stay_dead() {
        let mut m = Memory::default();
        let buf = Buffer {
            size: 256,
            usage: BufferUsage::Default,
            unordered_access: false,
        };
        let a = m.create("a", ObjectDesc::Buffer(buf.clone()));
        assert_eq!(m.bytes(), (256, 256));
        m.destroy(a).unwrap();
        let b = m.create("b", ObjectDesc::Buffer(buf));
        assert_ne!(a, b);
        assert!(matches!(m.get(a), Err(DeviceError::Destroyed { .. })));
        assert!(m.destroy(a).is_err());
        assert_eq!(m.bytes(), (256, 256));
    }

    #[test]
    fn placed_resources_fit_their_heap_and_overlap_by_range() {
        let mut m = Memory::default();
        let buf = |size| {
            ObjectDesc::Buffer(Buffer {
                size,
                usage: BufferUsage::Default,
                unordered_access: false,
            })
        };
        let h = m.create_heap("h", 1024);
        let a = m.create_placed("a", buf(512), h, 0).unwrap();
        let b = m.create_placed("b", buf(512), h, 256).unwrap();
        let c = m.create_placed("c", buf(256), h, 768).unwrap();
        assert_eq!(m.aliases(a), vec![b]);
        assert!(m.aliases(c).is_empty(), "b ends where c starts");
        assert_eq!(m.bytes(), (1024, 1024));
        assert!(matches!(
            m.create_placed("d", buf(512), h, 513),
            Err(DeviceError::PlacementOutOfBounds { .. })
        ));
        assert!(m.create_placed("e", buf(1), h, u64::MAX).is_err());
        assert!(matches!(
            m.create_placed("f", buf(1), 7, 0),
            Err(DeviceError::NoSuchHeap { heap: 7 })
        ));
        m.destroy(a).unwrap();
        assert_eq!(m.bytes(), (1024, 1024));
        // FS-6: a heap outlives nothing placed in it.
        match m.destroy_heap(h) {
            Err(DeviceError::HeapInUse { heap, object }) => {
                assert_eq!(heap, "h", "the heap by name");
                assert!(object == "b" || object == "c", "{object}");
            }
            other => panic!("{other:?}"),
        }
        m.destroy(b).unwrap();
        m.destroy(c).unwrap();
        assert!(!m.heap_in_use(h));
        m.destroy_heap(h).unwrap();
        assert_eq!(m.bytes(), (0, 1024));
        assert!(m.heap(h).is_none());
        assert!(matches!(
            m.create_placed("g", buf(1), h, 0),
            Err(DeviceError::NoSuchHeap { heap: 0 })
        ));
        assert!(m.destroy_heap(h).is_err());
    }
}
