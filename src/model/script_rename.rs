//! A script's commands renamed: the device commands through [`Rename`], the runtime's calls
//! (views, releases, legacy barriers, fences and batches, CTX-6) beside them, so loading,
//! saving and the loader's name checks visit every reference of a script one way.

use super::fast_rename::fast_set;
use super::script::Slot;
use super::script_command::{ScriptCall, ScriptCommand, ScriptRef};
use super::script_map::Rename;

/// Renames a script's objects (swap chains included) with a closure and keeps its names of
/// fences, queries and regions: what loading and saving do.
struct Objects<F>(F);

impl<'a, R, S, E, F> Rename<'a, R, S> for Objects<F>
where
    R: ScriptRef + 'a,
    S: ScriptRef,
    F: FnMut(Slot, &'a R) -> Result<S, E>,
{
    type Error = E;

    fn object(&mut self, slot: Slot, r: &'a R) -> Result<S, E> {
        (self.0)(slot, r)
    }

    fn chain(&mut self, c: &'a R) -> Result<S, E> {
        (self.0)(Slot::Chain, c)
    }

    fn fence(&mut self, f: &'a String, _insert: bool) -> Result<String, E> {
        Ok(f.clone())
    }

    fn query(&mut self, q: &'a String) -> Result<String, E> {
        Ok(q.clone())
    }

    fn region(&mut self, r: &'a super::CopyBox) -> super::CopyBox {
        *r
    }
}

impl<R: ScriptRef> ScriptCommand<R> {
    /// The same command with every object reference renamed by `f`, told the slot of each;
    /// stops at the first reference `f` refuses.
    pub fn try_map<'a, S: ScriptRef, E>(
        &'a self,
        f: impl FnMut(Slot, &'a R) -> Result<S, E>,
    ) -> Result<ScriptCommand<S>, E> {
        let mut f = Objects(f);
        Ok(match self {
            ScriptCommand::Device(c) => ScriptCommand::Device(c.try_map(&mut f)?),
            ScriptCommand::Call(c) => ScriptCommand::Call(match c {
                ScriptCall::CreateView { name, of, kind } => ScriptCall::CreateView {
                    name: name.clone(),
                    of: (f.0)(Slot::ViewOf, of)?,
                    kind: *kind,
                },
                ScriptCall::Release(r) => ScriptCall::Release((f.0)(Slot::Release, r)?),
                ScriptCall::ExecuteCommandList(n) => ScriptCall::ExecuteCommandList(n.clone()),
                ScriptCall::ExecuteBundle(n) => ScriptCall::ExecuteBundle(n.clone()),
                ScriptCall::ResizeBuffers {
                    chain,
                    extent,
                    format,
                } => ScriptCall::ResizeBuffers {
                    chain: (f.0)(Slot::Chain, chain)?,
                    extent: *extent,
                    format: *format,
                },
                ScriptCall::SetFastResourcesIntoBatch { name, sets } => {
                    ScriptCall::SetFastResourcesIntoBatch {
                        name: name.clone(),
                        sets: (sets.iter())
                            .map(|s| fast_set(s, &mut f))
                            .collect::<Result<_, E>>()?,
                    }
                }
                ScriptCall::SetFastResourcesFromBatch(n) => {
                    ScriptCall::SetFastResourcesFromBatch(n.clone())
                }
                ScriptCall::GetQueryData(n) => ScriptCall::GetQueryData(n.clone()),
                ScriptCall::WriteMapped { resource, bytes } => ScriptCall::WriteMapped {
                    resource: (f.0)(Slot::Buffer, resource)?,
                    bytes: *bytes,
                },
                ScriptCall::ResourceBarrier(list) => ScriptCall::ResourceBarrier(
                    list.iter()
                        .map(|b| {
                            use super::LegacyScriptBarrier as L;
                            Ok(match b {
                                L::Transition {
                                    resource,
                                    subresource,
                                    before,
                                    after,
                                } => L::Transition {
                                    resource: (f.0)(Slot::Copy, resource)?,
                                    subresource: *subresource,
                                    before: *before,
                                    after: *after,
                                },
                                L::Uav(r) => L::Uav((f.0)(Slot::Copy, r)?),
                                L::UavAll => L::UavAll,
                                L::Aliasing { before, after } => L::Aliasing {
                                    before: (f.0)(Slot::Copy, before)?,
                                    after: (f.0)(Slot::Copy, after)?,
                                },
                            })
                        })
                        .collect::<Result<_, E>>()?,
                ),
                ScriptCall::Signal { fence, value } => ScriptCall::Signal {
                    fence: fence.clone(),
                    value: *value,
                },
                ScriptCall::Wait { fence, value, back } => ScriptCall::Wait {
                    fence: fence.clone(),
                    value: *value,
                    back: *back,
                },
                ScriptCall::WaitForFenceCpu { fence, value, back } => ScriptCall::WaitForFenceCpu {
                    fence: fence.clone(),
                    value: *value,
                    back: *back,
                },
                ScriptCall::IsFencePending { fence, value, back } => ScriptCall::IsFencePending {
                    fence: fence.clone(),
                    value: *value,
                    back: *back,
                },
                ScriptCall::GetCompletedValue { fence, value, back } => {
                    ScriptCall::GetCompletedValue {
                        fence: fence.clone(),
                        value: *value,
                        back: *back,
                    }
                }
            }),
        })
    }

    /// Every object reference with its slot, in order.
    pub fn refs(&self) -> Vec<(Slot, &R)> {
        let mut out = Vec::new();
        let _ = self.try_map(|slot, r| {
            out.push((slot, r));
            Ok::<R, ()>(r.clone())
        });
        out
    }
}
