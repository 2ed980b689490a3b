//! A script command in a scene: `Name(...)`, for device commands and script calls alike.
//!
//! Derived serde gives [`Command`] and [`ScriptCall`] their forms; reading a command, this
//! file only picks which of the two reads it, by its name. It also reads and writes
//! `Barrier`, which a scene gives as a struct variant (`Barrier(textures: [...])`, each list
//! optional, EB-6) while the device's command is the tuple variant `Barrier(BarrierGroup)`,
//! which derived serde could only write as `Barrier((textures: [...]))`.
//!
//! Reading goes through the format's own enum access, so errors are the format's own, at
//! the same place: the name is read as an identifier by the format, and a name that is no
//! command lists every command a script may name.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::EnumAccessDeserializer;
use serde::de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, VariantAccess, Visitor};
use serde::ser::SerializeStructVariant;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::script_command::{ScriptCall, ScriptCommand, ScriptRef};
use crate::barrier::BarrierGroup;
use crate::device::Command;

/// Every command a script may name, in the order an unknown name's error lists them.
const NAMES: &[&str] = &[
    "SetRenderTargets",
    "SetViewport",
    "SetPipelineState",
    "SetResources",
    "SetVertexBuffers",
    "SetIndexBuffer",
    "CSSetPlacementResource",
    "SetConstantBuffers",
    "ClearState",
    "GetState",
    "SetResourceMinLod",
    "SetShaderResourceViewMinLod",
    "SetPrimitiveResetIndex",
    "SetPrimitiveTopology",
    "SetIndexFormat",
    "Draw",
    "Dispatch",
    "CopyResource",
    "CopyTextureRegion",
    "ClearRenderTarget",
    "ClearDepthStencil",
    "ClearUnorderedAccess",
    "UpdateSubresource",
    "RawCopy",
    "RawFill",
    "Barrier",
    "InsertFence",
    "WaitFence",
    "Kickoff",
    "WaitOnPresent",
    "Decompress",
    "PlaceSwapChainView",
    "DontSyncOnCopy",
    "Map",
    "Unmap",
    "WriteTimestamp",
    "Present",
    "Suspend",
    "Resume",
    "DispatchIndirect",
    "ExecuteIndirect",
    "ResolveSubresource",
    "DmaFill",
    "LzCompress",
    "LzDecompress",
    "ResolveQueryData",
    "CSEnableAutomaticGpuFlush",
    "CreateDeviceContextState",
    "SwapDeviceContextState",
    "SOSetTargets",
    "BeginCommandListExecution",
    "EndCommandListExecution",
    "ExecuteCommandList",
    "ExecuteBundle",
    "BeginQuery",
    "EndQuery",
    "GetQueryData",
    "CreateView",
    "Release",
    "Signal",
    "Wait",
    "WaitForFenceCpu",
    "IsFencePending",
    "GetCompletedValue",
    "ResourceBarrier",
    "SetFastResources",
    "SetFastResourcesIntoBatch",
    "SetFastResourcesFromBatch",
    "ReadMapped",
    "WriteMapped",
    "SetDispatchFlags",
    "SetEarlyOutPath",
    "SignalEarlyOut",
    "DecompressResource",
    "SetPredication",
    "ResizeBuffers",
];

/// `Barrier`'s place in [`NAMES`], its variant index.
const BARRIER: u32 = 22;

impl<R: ScriptRef + Serialize> Serialize for ScriptCommand<R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ScriptCommand::Device(Command::Barrier(group)) => barrier(group, s),
            ScriptCommand::Device(c) => c.serialize(s),
            ScriptCommand::Call(c) => c.serialize(s),
        }
    }
}

/// `Barrier(global: [...], buffers: [...], textures: [...])`, each list only when it holds
/// a barrier.
fn barrier<R: Serialize, S: Serializer>(g: &BarrierGroup<R>, s: S) -> Result<S::Ok, S::Error> {
    let held = [
        g.global.is_empty(),
        g.buffers.is_empty(),
        g.textures.is_empty(),
    ];
    let len = held.iter().filter(|empty| !**empty).count();
    let mut v = s.serialize_struct_variant("Command", BARRIER, "Barrier", len)?;
    fn field<V: SerializeStructVariant, T: Serialize>(
        v: &mut V,
        key: &'static str,
        list: &[T],
    ) -> Result<(), V::Error> {
        match list.is_empty() {
            true => v.skip_field(key),
            false => v.serialize_field(key, list),
        }
    }
    field(&mut v, "global", &g.global)?;
    field(&mut v, "buffers", &g.buffers)?;
    field(&mut v, "textures", &g.textures)?;
    v.end()
}

impl<'de, R: ScriptRef + Deserialize<'de>> Deserialize<'de> for ScriptCommand<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Command", NAMES, CommandVisitor(PhantomData))
    }
}

struct CommandVisitor<R>(PhantomData<R>);

impl<'de, R: ScriptRef + Deserialize<'de>> Visitor<'de> for CommandVisitor<R> {
    type Value = ScriptCommand<R>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("enum Command")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        let (name, variant) = data.variant_seed(Name)?;
        if name == "Barrier" {
            let group = BarrierGroup::deserialize(StructVariant(variant))?;
            return Ok(ScriptCommand::Device(Command::Barrier(group)));
        }
        let named = EnumAccessDeserializer::new(Named { name, variant });
        match ScriptCall::<R>::NAMES.contains(&name) {
            true => ScriptCall::deserialize(named).map(ScriptCommand::Call),
            false => Command::deserialize(named).map(ScriptCommand::Device),
        }
    }
}

impl<R> ScriptCall<R> {
    /// The calls' names.
    const NAMES: &[&str] = &[
        "CreateView",
        "Release",
        "ExecuteCommandList",
        "ExecuteBundle",
        "GetQueryData",
        "WriteMapped",
        "Signal",
        "Wait",
        "WaitForFenceCpu",
        "IsFencePending",
        "GetCompletedValue",
        "ResourceBarrier",
        "SetFastResourcesIntoBatch",
        "SetFastResourcesFromBatch",
        "ResizeBuffers",
    ];
}

/// Reads a command's name as the format reads an enum's variant, one of [`NAMES`].
struct Name;

impl<'de> DeserializeSeed<'de> for Name {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for Name {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        (NAMES.iter().find(|n| **n == v).copied()).ok_or_else(|| E::unknown_variant(v, NAMES))
    }
}

/// A variant whose name has been read, handed to a derived enum to read the rest.
struct Named<V> {
    name: &'static str,
    variant: V,
}

impl<'de, V: VariantAccess<'de>> EnumAccess<'de> for Named<V> {
    type Error = V::Error;
    type Variant = V;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, V), V::Error> {
        let name = seed.deserialize(self.name.into_deserializer())?;
        Ok((name, self.variant))
    }
}

/// A struct variant's fields, read as a struct (a barrier group).
struct StructVariant<V>(V);

impl<'de, A: VariantAccess<'de>> Deserializer<'de> for StructVariant<A> {
    type Error = A::Error;

    fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, A::Error> {
        self.0.struct_variant(&[], visitor)
    }

    fn deserialize_struct<W: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: W,
    ) -> Result<W::Value, A::Error> {
        self.0.struct_variant(fields, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::de::value::Error;

    use super::*;

    /// A deserializer that fails with the variant names a derived enum asks for.
    struct Variants;

    impl<'de> Deserializer<'de> for Variants {
        type Error = Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
            Err(de::Error::custom("not an enum"))
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Error> {
            Err(de::Error::custom(variants.join(" ")))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
            ignored_any
        }
    }

    /// What a derived enum reads, by name.
    fn variants<T: for<'de> Deserialize<'de>>() -> Vec<String> {
        let Err(e) = T::deserialize(Variants) else {
            return Vec::new();
        };
        e.to_string().split(' ').map(String::from).collect()
    }

    #[test]
    fn every_command_and_call_is_named_once() {
        let mut read = variants::<Command<String>>();
        read.extend(variants::<ScriptCall<String>>());
        read.push("Barrier".into());
        read.sort();
        let mut names: Vec<String> = NAMES.iter().map(|n| n.to_string()).collect();
        names.sort();
        assert_eq!(names, read, "NAMES lists what the derived enums read");
    }
}
