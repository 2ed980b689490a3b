//! What a fast context refuses, and which work updates resource fences.
//!
//! A fast context shadows no state and flushes nothing by itself, so the calls that would
//! need it fail on the device, not only under validation: a Get* call and creating or
//! swapping a device context state (FS-7), and turning on automatic compute flushes
//! (CSEnableAutomaticGpuFlush, FS-3), appending to stream-output targets (an SOSetTargets
//! offset of -1, FS-14) and naming an append or counter UAV of a buffer (FS-14: the hidden
//! counter is state a fast context does not keep). Only a legacy context's work updates resource fences,
//! which the resource-pending query reads: a fast context updates none (FS-1) and an
//! asynchronous compute context none either (CC-1), so IsResourcePending does not reflect
//! compute work (CC-5). Compute and DMA contexts count as fast here.

use super::{Command, DeviceError, QueueId};
use crate::model::Semantics;

/// The semantics of the context that issues commands submitted to `queue` outside any
/// command list: the immediate context's on the graphics queue, fast elsewhere.
pub(super) fn issuing(queue: QueueId, immediate: Semantics) -> Semantics {
    match queue {
        QueueId::Graphics => immediate,
        _ => Semantics::Fast,
    }
}

/// Refuse what a context of `semantics` cannot do (FS-3, FS-7, FS-14).
pub(super) fn check_semantics(cmd: &Command, semantics: Semantics) -> Result<(), DeviceError> {
    let rule = match cmd {
        Command::GetState | Command::CreateDeviceContextState | Command::SwapDeviceContextState => {
            "FS-7"
        }
        Command::CSEnableAutomaticGpuFlush(_) => "FS-3",
        Command::SOSetTargets { offsets, .. } if offsets.contains(&-1) => "FS-14",
        _ => return Ok(()),
    };
    match semantics {
        Semantics::Fast => Err(DeviceError::FastContextRefuses {
            command: cmd.name(),
            rule,
        }),
        Semantics::Legacy => Ok(()),
    }
}

/// Refuse, on a fast context, a command naming an append or counter UAV (FS-14). `refs` are
/// the objects the command names.
pub(super) fn check_counter_views(
    cmd: &Command,
    refs: &[super::ObjectKey],
    semantics: Semantics,
    memory: &super::Memory,
) -> Result<(), DeviceError> {
    let counter = |k: &super::ObjectKey| {
        matches!(memory.get(*k).map(|o| &o.desc),
            Ok(super::ObjectDesc::View { kind, .. }) if *kind == crate::model::ViewKind::UavCounter)
    };
    if semantics == Semantics::Fast && refs.iter().any(counter) {
        return Err(DeviceError::FastContextRefuses {
            command: cmd.name(),
            rule: "FS-14",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    #[test]
    fn a_fast_context_refuses_get_state_swaps_and_automatic_flushes() {
        for (cmd, rule) in [
            (Command::GetState, "FS-7"),
            (Command::CreateDeviceContextState, "FS-7"),
            (Command::SwapDeviceContextState, "FS-7"),
            (Command::CSEnableAutomaticGpuFlush(true), "FS-3"),
            (
                Command::SOSetTargets {
                    buffers: Vec::new(),
                    offsets: vec![0, -1],
                },
                "FS-14",
            ),
        ] {
            let mut d = Device::default();
            let err = d.submit(QueueId::Graphics, 0, 0, [cmd.clone()], 0);
            assert!(
                matches!(err, Err(DeviceError::FastContextRefuses { rule: r, .. }) if r == rule),
                "{cmd:?}: {err:?}"
            );
            assert!(err.unwrap_err().to_string().starts_with(rule));
            // A legacy immediate context takes it.
            d.set_semantics(Semantics::Legacy);
            d.submit(QueueId::Graphics, 0, 0, [cmd.clone()], 0).unwrap();
            // A fast list played back on the legacy context does not.
            let list = Command::ExecuteCommandList {
                label: 0,
                semantics: Semantics::Fast,
                commands: vec![cmd.clone()],
            };
            assert!(d.submit(QueueId::Graphics, 0, 0, [list], 0).is_err());
        }
    }

    #[test]
    fn a_fast_context_refuses_an_append_or_counter_uav() {
        use crate::device::ObjectDesc;
        use crate::device::ShaderStage;
        use crate::model::{Buffer, BufferUsage, ViewKind};
        let mut d = Device::default();
        let desc = ObjectDesc::Buffer(Buffer {
            size: 4096,
            usage: BufferUsage::Default,
            unordered_access: true,
        });
        let list = d.create("list", desc).unwrap();
        let mut view = |kind| {
            let range = crate::barrier::SubresourceRange::ALL;
            let desc = ObjectDesc::View {
                of: list,
                kind,
                range,
            };
            d.create("list_uav", desc).unwrap()
        };
        let (counter, plain) = (view(ViewKind::UavCounter), view(ViewKind::Uav));
        let bind = |v| Command::SetResources {
            stage: ShaderStage::Compute,
            first_slot: 0,
            views: vec![v],
            writes: true,
        };
        let err = d.submit(QueueId::Graphics, 0, 0, [bind(counter)], 0);
        assert!(
            matches!(
                err,
                Err(DeviceError::FastContextRefuses { rule: "FS-14", .. })
            ),
            "{err:?}"
        );
        d.submit(QueueId::Graphics, 0, 0, [bind(plain)], 0).unwrap();
        // An asynchronous compute context counts as fast; a legacy immediate context takes it.
        let cs = QueueId::Compute { pipe: 0, index: 0 };
        assert!(d.submit(cs, 0, 0, [bind(counter)], 0).is_err());
        d.set_semantics(Semantics::Legacy);
        d.submit(QueueId::Graphics, 0, 0, [bind(counter)], 0)
            .unwrap();
    }

    #[test]
    fn is_resource_pending_reflects_only_legacy_work() {
        use crate::device::ObjectDesc;
        use crate::model::{Buffer, BufferUsage};
        let mut d = Device::default();
        let mut buffer = |name| {
            let desc = ObjectDesc::Buffer(Buffer {
                size: 64 << 20,
                usage: BufferUsage::Default,
                unordered_access: false,
            });
            d.create(name, desc).unwrap()
        };
        let (a, b) = (buffer("a"), buffer("b"));
        let copy = Command::CopyResource {
            src: a,
            dst: b,
            bytes: 64 << 20,
        };
        let work = || [copy.clone(), Command::Kickoff];
        // A fast immediate context updates no resource fences (FS-1).
        d.submit(QueueId::Graphics, 0, 0, work(), 0).unwrap();
        assert!(!d.is_resource_pending(b, 0));
        // Nor does a compute context (CC-5), even under a legacy immediate context.
        d.set_semantics(Semantics::Legacy);
        let cs = QueueId::Compute { pipe: 0, index: 0 };
        d.submit(cs, 0, 0, work(), 0).unwrap();
        assert!(!d.is_resource_pending(b, 0));
        // A legacy context's copy is reflected until it has run.
        d.submit(QueueId::Graphics, 0, 0, work(), 0).unwrap();
        assert!(d.is_resource_pending(b, 0));
        assert!(d.is_resource_pending(a, 0));
        let end = d.run_until_idle();
        assert!(end > 0);
        assert!(!d.is_resource_pending(b, end));
    }
}
