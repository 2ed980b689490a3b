//! D3D12 bundles: a frame script's `bundles`, each recorded once and replayed in place by
//! every `ExecuteBundle` of a direct list.
//!
//! A title records a bundle when it loads (D3D12Bundles records one per frame resource) and
//! pays for the recording once; each `ExecuteBundle` after is one call on the direct list.
//! The script records a bundle the first time a frame list executes it: its names resolve
//! then and stay resolved, as a recorded bundle keeps the objects its calls named, so a
//! replay after one of them was released uses a destroyed object (FS-6, the device's
//! refusal). The replay is one `Command::ExecuteBundle` in the batch: the device runs its
//! commands in place with the list's state, and the validation layer judges each of them
//! there, including a Barrier recorded into a bundle (EB-11: "the list is not a bundle").
//! What a bundle may not record at all (clears, copies, targets, queries, fences, CPU-side
//! calls) never gets here: loading refuses it (`scene::script_bundle`).

use super::Batches;
use super::resolve::{Resolver, Step};
use crate::device::{Command, cpu_cost};
use crate::model::{BundleDef, Target};

/// The `ExecuteBundle` of the script's bundle `name`: recorded now if no frame has
/// executed it yet (the recording's CPU time charged once, CTX-7), else as recorded.
pub(super) fn execute_bundle(
    r: &mut Resolver,
    sink: &mut Batches,
    name: &str,
    bundles: &[BundleDef<Target>],
) -> Result<Command, String> {
    let label = r.device.label(name);
    if let Some((commands, entities)) = r.state.bundles.get(name) {
        let q = r.queue;
        r.used.extend(entities.iter().map(|e| (*e, q)));
        return Ok(Command::ExecuteBundle {
            label,
            commands: commands.clone(),
        });
    }
    let bundle =
        (bundles.iter().find(|b| b.name == name)).ok_or_else(|| format!("no bundle {name:?}"))?;
    let from = r.used.len();
    let mut commands = Vec::with_capacity(bundle.commands.len());
    for cmd in &bundle.commands {
        match r.lower(cmd)? {
            Step::Device(c) => commands.push(c),
            _ => return Err(format!("{} in bundle {name:?}", cmd.name())),
        }
    }
    let entities = r.used[from..].iter().map(|(e, _)| *e).collect();
    let recorded: u64 = commands.iter().map(cpu_cost::record_ns).sum();
    sink.cpu_ns = sink.cpu_ns.saturating_add(recorded);
    let stats = sink.sink.stats();
    stats.cpu_record_ns += recorded;
    stats.cpu_record_span_ns += recorded;
    (r.state.bundles).insert(name.to_owned(), (commands.clone(), entities));
    Ok(Command::ExecuteBundle { label, commands })
}
