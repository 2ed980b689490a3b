//! Walking the decompressed stream: a sequence of items, each a `QueueType` tag and a packed
//! struct of the size `QueueDataSize[]` gives ([`ITEM_SIZES`]), some followed by a length and
//! bytes (strings, source locations, callstacks, code). A string an item needs is sent just
//! before it: a context's name (`SingleStringData`) before `GpuContextName`, a zone's
//! allocated source location (`SourceLocationPayload`: color, line, function, file, name)
//! before its `GpuZoneBeginAllocSrcLoc*`. GPU times are sent as differences from the GPU
//! time sent before them (any context). Everything else (the CPU side: zones, frame marks,
//! plots, messages, thread names, ...) is skipped by its size; a tag outside the table fails
//! with its number.
//!
//! What comes out is what a Tracy viewer would draw for the GPU: the contexts, and per
//! context its zones in the order they began, nested by begin and end, each with the GPU
//! timestamps uploaded for its two queries.

use std::collections::{BTreeMap, HashMap};

use super::protocol::{self as p, ITEM_SIZES, ty};

/// A GPU context as created (`GpuNewContext`) and named (`GpuContextName`).
#[derive(Clone, Debug, PartialEq)]
pub struct GpuContext {
    pub name: Option<String>,
    /// Nanoseconds per tick of the GPU clock.
    pub period_ns: f32,
    /// `GpuContextType` (0 is `Invalid`).
    pub kind: u8,
}

/// One GPU zone; times in ticks of its context's clock.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuZone {
    pub context: u8,
    pub name: String,
    /// The source location's function (the runtime puts the queue's name there).
    pub function: String,
    /// Zones it is nested in.
    pub depth: usize,
    pub start: Option<i64>,
    pub end: Option<i64>,
}

/// What a capture held.
#[derive(Clone, Debug, Default)]
pub struct Capture {
    pub contexts: BTreeMap<u8, GpuContext>,
    /// In the order they began.
    pub zones: Vec<GpuZone>,
    /// Items read, of every type.
    pub items: u64,
    /// The client sent `Terminate`.
    pub terminated: bool,
}

#[derive(Clone, Copy, Debug)]
enum Edge {
    Start,
    End,
}

/// The walk's state between items (a string waits for its item, across blocks too).
#[derive(Default)]
pub struct Walker {
    capture: Capture,
    single: Option<String>,
    srcloc: Option<(String, String)>,
    open: BTreeMap<u8, Vec<usize>>,
    queries: HashMap<(u8, u16), (usize, Edge)>,
    gpu_time: i64,
}

fn le<const N: usize>(item: &[u8], at: usize) -> [u8; N] {
    item[at..at + N]
        .try_into()
        .expect("offset inside the item's size")
}

fn text(bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|e| format!("a string that is not UTF-8: {e}"))
}

impl Walker {
    /// Walk one decompressed block: whole items only (the client never splits one).
    pub fn block(&mut self, mut bytes: &[u8]) -> Result<(), String> {
        while let Some(&tag) = bytes.first() {
            let size = *ITEM_SIZES
                .get(usize::from(tag))
                .ok_or_else(|| format!("unknown QueueType {tag} (TracyQueue.hpp)"))?
                as usize;
            let cut = |b: &[u8], n: usize| -> Result<usize, String> {
                (b.len() >= n)
                    .then_some(n)
                    .ok_or_else(|| format!("QueueType {tag}: {n} bytes needed, {} left", b.len()))
            };
            let item = &bytes[..cut(bytes, size)?];
            bytes = &bytes[size..];
            // The length that follows some items, and what it counts.
            let (len_bytes, extra) = match tag {
                ty::SINGLE_STRING_DATA8 | ty::SECOND_STRING_DATA8 => (1, 0),
                ty::SINGLE_STRING_DATA | ty::SECOND_STRING_DATA => (2, p::STRING16_OFFSET),
                ty::FRAME_IMAGE_DATA | ty::SYMBOL_CODE | ty::SOURCE_CODE => (4, 0),
                ty::STRING_DATA..=ty::FIBER_NAME => (2, 0),
                _ => (0, 0),
            };
            let mut payload: &[u8] = &[];
            if len_bytes > 0 {
                let field = &bytes[..cut(bytes, len_bytes)?];
                let mut n = [0u8; 4];
                n[..len_bytes].copy_from_slice(field);
                let n = u32::from_le_bytes(n) as usize + extra;
                bytes = &bytes[len_bytes..];
                payload = &bytes[..cut(bytes, n)?];
                bytes = &bytes[n..];
            }
            self.item(tag, item, payload)
                .map_err(|e| format!("QueueType {tag}: {e}"))?;
            self.capture.items += 1;
        }
        Ok(())
    }

    fn item(&mut self, tag: u8, item: &[u8], payload: &[u8]) -> Result<(), String> {
        match tag {
            ty::SINGLE_STRING_DATA | ty::SINGLE_STRING_DATA8 => {
                self.single = Some(text(payload)?);
                return Ok(());
            }
            ty::SECOND_STRING_DATA | ty::SECOND_STRING_DATA8 => return Ok(()),
            ty::SOURCE_LOCATION_PAYLOAD => {
                self.srcloc = Some(source_location(payload)?);
                return Ok(());
            }
            ty::GPU_NEW_CONTEXT => {
                let context = item[p::NEW_CONTEXT_CONTEXT];
                let made = GpuContext {
                    name: None,
                    period_ns: f32::from_le_bytes(le(item, p::NEW_CONTEXT_PERIOD)),
                    kind: item[p::NEW_CONTEXT_TYPE],
                };
                if self.capture.contexts.insert(context, made).is_some() {
                    return Err(format!("GPU context {context} created twice"));
                }
            }
            ty::GPU_CONTEXT_NAME => {
                let context = item[p::CONTEXT_NAME_CONTEXT];
                let name = self
                    .single
                    .take()
                    .ok_or("a context name without its string")?;
                (self.capture.contexts.get_mut(&context))
                    .ok_or_else(|| format!("a name for GPU context {context}, never created"))?
                    .name = Some(name);
            }
            ty::GPU_ZONE_BEGIN_ALLOC_SRC_LOC
            | ty::GPU_ZONE_BEGIN_ALLOC_SRC_LOC_CALLSTACK
            | ty::GPU_ZONE_BEGIN_ALLOC_SRC_LOC_SERIAL
            | ty::GPU_ZONE_BEGIN_ALLOC_SRC_LOC_CALLSTACK_SERIAL => {
                let (function, name) = (self.srcloc.take())
                    .ok_or("a zone with an allocated source location that was not sent")?;
                self.begin(item, name, function)?;
            }
            ty::GPU_ZONE_BEGIN
            | ty::GPU_ZONE_BEGIN_CALLSTACK
            | ty::GPU_ZONE_BEGIN_SERIAL
            | ty::GPU_ZONE_BEGIN_CALLSTACK_SERIAL => {
                // A static source location is named only on the server's query; the runtime
                // allocates each zone's, so such a zone shows as its address.
                let at = u64::from_le_bytes(le(item, p::ZONE_BEGIN_SRCLOC));
                self.begin(item, format!("<source location {at:#x}>"), String::new())?;
            }
            ty::GPU_ZONE_END | ty::GPU_ZONE_END_SERIAL => {
                let context = item[p::ZONE_END_CONTEXT];
                let query = u16::from_le_bytes(le(item, p::ZONE_END_QUERY));
                let zone = (self.open.get_mut(&context).and_then(Vec::pop))
                    .ok_or_else(|| format!("a zone end on GPU context {context} with none open"))?;
                self.expect(context, query, zone, Edge::End)?;
            }
            ty::GPU_TIME => {
                let context = item[p::GPU_TIME_CONTEXT];
                let query = u16::from_le_bytes(le(item, p::GPU_TIME_QUERY));
                self.gpu_time += i64::from_le_bytes(le(item, p::GPU_TIME_TIME));
                let (zone, edge) = (self.queries.remove(&(context, query))).ok_or_else(|| {
                    format!("a time for query {query} of context {context}, unused")
                })?;
                let z = &mut self.capture.zones[zone];
                match edge {
                    Edge::Start => z.start = Some(self.gpu_time),
                    Edge::End => z.end = Some(self.gpu_time),
                }
            }
            ty::TERMINATE => self.capture.terminated = true,
            _ => {}
        }
        // A string belongs to the item right after it.
        self.single = None;
        self.srcloc = None;
        Ok(())
    }

    fn begin(&mut self, item: &[u8], name: String, function: String) -> Result<(), String> {
        let context = item[p::ZONE_BEGIN_CONTEXT];
        let query = u16::from_le_bytes(le(item, p::ZONE_BEGIN_QUERY));
        if !self.capture.contexts.contains_key(&context) {
            return Err(format!("a zone on GPU context {context}, never created"));
        }
        let open = self.open.entry(context).or_default();
        let zone = self.capture.zones.len();
        self.capture.zones.push(GpuZone {
            context,
            name,
            function,
            depth: open.len(),
            start: None,
            end: None,
        });
        open.push(zone);
        self.expect(context, query, zone, Edge::Start)
    }

    fn expect(&mut self, context: u8, query: u16, zone: usize, edge: Edge) -> Result<(), String> {
        match self.queries.insert((context, query), (zone, edge)) {
            Some(_) => Err(format!(
                "query {query} of context {context} reused before its time"
            )),
            None => Ok(()),
        }
    }

    /// Whether the client said it is exiting (`Terminate`).
    pub fn terminated(&self) -> bool {
        self.capture.terminated
    }

    /// The capture, once every zone ended and has both its times.
    pub fn finish(self) -> Result<Capture, String> {
        if let Some((c, open)) = self.open.iter().find(|(_, v)| !v.is_empty()) {
            return Err(format!(
                "{} zones of GPU context {c} never ended",
                open.len()
            ));
        }
        if !self.queries.is_empty() {
            return Err(format!(
                "{} GPU queries never got a time",
                self.queries.len()
            ));
        }
        Ok(self.capture)
    }
}

/// `SourceLocationPayload`: color (u32), line (u32), function and file (each ended by a NUL),
/// then the name to the end. Returns the function and the name.
fn source_location(payload: &[u8]) -> Result<(String, String), String> {
    let rest = payload
        .get(8..)
        .ok_or("a source location shorter than its header")?;
    let mut parts = rest.splitn(3, |&b| b == 0);
    let (Some(function), Some(_file), Some(name)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err("a source location without function and file".into());
    };
    Ok((text(function)?, text(name)?))
}

#[cfg(test)]
mod tests;
