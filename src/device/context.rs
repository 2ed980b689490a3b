//! Contexts (CTX-1..CTX-4): the immediate context plays lists back, deferred contexts record
//! them, compute and DMA contexts feed their own queues. Semantics is chosen per context.

use super::{Command, CommandList, DeviceError};
use crate::model::Semantics;

/// The kinds of context a title creates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContextKind {
    /// Draws, sets state, plays back command lists (CTX-1).
    Immediate,
    /// Records one command list at a time for later playback (CTX-2).
    Deferred,
    /// An asynchronous compute context (CC-1, CC-2).
    Compute,
    /// A DMA engine context.
    Dma,
}

/// A deferred context. Several may record at once, each on its own thread; each records one
/// list at a time (CTX-2). The borrow checker gives us the "one thread" part: recording
/// takes `&mut self`.
#[derive(Debug)]
pub struct DeferredContext {
    pub id: u32,
    pub semantics: Semantics,
    /// The title's build defines `D3DCOMPILE_NO_DEBUG` (seed 002): its `SetFastResources`
    /// calls cost half the CPU ([`super::cpu_cost::record_ns_built`]).
    pub no_debug: bool,
    recording: Option<CommandList>,
    lists: u64,
}

impl DeferredContext {
    /// A new deferred context.
    pub fn new(id: u32, semantics: Semantics) -> Self {
        Self {
            id,
            semantics,
            no_debug: false,
            recording: None,
            lists: 0,
        }
    }

    /// The kind this context reports (CTX-1).
    pub fn kind(&self) -> ContextKind {
        ContextKind::Deferred
    }

    /// Start recording a list labelled `label`. A second begin before finish is CTX-2.
    pub fn begin(&mut self, label: u32) -> Result<(), DeviceError> {
        if self.recording.is_some() {
            return Err(DeviceError::AlreadyRecording { context: self.id });
        }
        self.recording = Some(CommandList {
            commands: Vec::new(),
            label,
            cpu_ns: 0,
        });
        Ok(())
    }

    /// Append a command to the list being recorded.
    pub fn push(&mut self, command: Command) -> Result<(), DeviceError> {
        match &mut self.recording {
            Some(list) => {
                list.cpu_ns += super::cpu_cost::record_ns_built(&command, self.no_debug);
                list.commands.push(command);
                Ok(())
            }
            None => Err(DeviceError::NotRecording { context: self.id }),
        }
    }

    /// Charge the list being recorded `ns` of CPU time spent for it besides queuing
    /// commands (building a batch, RB-2; CTX-7).
    pub fn charge(&mut self, ns: u64) {
        if let Some(list) = &mut self.recording {
            list.cpu_ns += ns;
        }
    }

    /// Finish and hand over the list. State set while recording persists into the next
    /// recording on this context (FS-12): the recorder must not rely on a reset.
    pub fn finish(&mut self) -> Result<CommandList, DeviceError> {
        let list = self
            .recording
            .take()
            .ok_or(DeviceError::NotRecording { context: self.id })?;
        self.lists += 1;
        Ok(list)
    }

    /// Lists recorded so far.
    pub fn lists_recorded(&self) -> u64 {
        self.lists
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_list_at_a_time() {
        let mut ctx = DeferredContext::new(3, Semantics::Fast);
        assert_eq!(ctx.kind(), ContextKind::Deferred);
        assert!(ctx.push(Command::ClearState).is_err());
        ctx.begin(7).unwrap();
        assert!(matches!(
            ctx.begin(8),
            Err(DeviceError::AlreadyRecording { context: 3 })
        ));
        ctx.push(Command::ClearState).unwrap();
        let list = ctx.finish().unwrap();
        assert_eq!(list.label, 7);
        assert_eq!(list.commands.len(), 1);
        assert!(ctx.finish().is_err());
        assert_eq!(ctx.lists_recorded(), 1);
    }
}
