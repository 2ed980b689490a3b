//! What a view or resource key names in the stream being checked: the resource behind a
//! view, or the swap-chain buffer a `PlaceSwapChainView` re-pointed the view at (RL-7).
//!
//! The device applies a re-pointing when it runs the submission; the validator sees the
//! submission first, so it keeps the submission's re-pointings itself, from the command to
//! the end of the submission, ahead of the device.

use hashbrown::HashMap;

use crate::device::{Device, ObjectKey};

/// Views re-pointed by `PlaceSwapChainView` in the current submission.
#[derive(Default)]
pub(super) struct Views {
    placed: HashMap<ObjectKey, ObjectKey>,
}

impl Views {
    /// A new submission: the device has applied the last one's re-pointings.
    pub fn clear(&mut self) {
        self.placed.clear();
    }

    /// `PlaceSwapChainView`: `view` names `buffer` from here on.
    pub fn place(&mut self, view: ObjectKey, buffer: ObjectKey) {
        self.placed.insert(view, buffer);
    }

    /// The resource `key` names: a re-pointed view's buffer, a view's resource, or `key`.
    pub fn resolve(&self, device: &Device, key: ObjectKey) -> ObjectKey {
        match self.placed.get(&key) {
            Some(b) => *b,
            None => device.memory.resource_of(key).unwrap_or(key),
        }
    }
}
