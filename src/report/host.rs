//! The run's own memory, for soak runs: what the runtime's growing structures hold (entries
//! and bytes allocated, deterministic) and the process's resident set as the kernel reports
//! it (`/proc/self/status`, Linux only, not deterministic).
//!
//! Every structure a run keeps is bounded: statistics in fixed memory
//! ([`super::Sample`]), the validator's records pruned of destroyed objects and old fences,
//! the device's fence table windowed, diagnostics past a cap only counted. Between two
//! points of a steady run the entries must not grow; the integration test `soak` holds the
//! runtime to it.

use serde_json::{Value, json};

/// One structure's size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Entries held (records, fences, objects, values).
    pub entries: usize,
    /// Bytes allocated for them (capacities times element sizes, approximate for maps).
    pub bytes: usize,
}

impl From<(usize, usize)> for Footprint {
    fn from((entries, bytes): (usize, usize)) -> Self {
        Footprint { entries, bytes }
    }
}

/// The runtime's structures and the process's resident set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostMemory {
    /// Run statistics (samples, open frames).
    pub stats: Footprint,
    /// The validation layer (records, fences, diagnostics kept).
    pub validator: Footprint,
    /// The device (objects, labels, GPU fences, items, streams).
    pub device: Footprint,
    /// Scene entities alive.
    pub entities: usize,
    /// Resident set now and at its peak, KiB (`VmRSS`, `VmHWM`), where the system says.
    pub rss_kib: Option<u64>,
    pub peak_rss_kib: Option<u64>,
}

impl HostMemory {
    /// Read the resident set of this process from `/proc/self/status` (None elsewhere).
    pub fn read_rss(&mut self) {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            let line = status.lines().find(|l| l.starts_with(name))?;
            line[name.len()..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .ok()
        };
        self.rss_kib = field("VmRSS:");
        self.peak_rss_kib = field("VmHWM:");
    }

    /// Entries over every structure: what must stay flat in a steady run.
    pub fn entries(&self) -> usize {
        self.stats.entries + self.validator.entries + self.device.entries + self.entities
    }

    /// Bytes over every structure.
    pub fn bytes(&self) -> usize {
        self.stats.bytes + self.validator.bytes + self.device.bytes
    }

    /// The `host` section of the JSON summary.
    pub fn to_json(&self) -> Value {
        let part = |f: Footprint| json!({ "entries": f.entries, "bytes": f.bytes });
        json!({
            "rss_kib": self.rss_kib,
            "peak_rss_kib": self.peak_rss_kib,
            "structures": {
                "stats": part(self.stats),
                "validator": part(self.validator),
                "device": part(self.device),
                "entities": self.entities,
                "entries": self.entries(),
                "bytes": self.bytes(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_add_the_parts() {
        let h = HostMemory {
            stats: (1, 10).into(),
            validator: (2, 20).into(),
            device: (3, 30).into(),
            entities: 4,
            ..Default::default()
        };
        assert_eq!((h.entries(), h.bytes()), (10, 60));
        let j = h.to_json();
        assert_eq!(j["structures"]["validator"]["bytes"], 20);
        assert!(j["rss_kib"].is_null());
    }

    #[test]
    fn reads_the_resident_set_where_linux_reports_it() {
        let mut h = HostMemory::default();
        h.read_rss();
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(h.rss_kib.is_some_and(|k| k > 0));
            assert!(h.peak_rss_kib >= h.rss_kib);
        }
    }
}
