//! Fault injection: make the runtime omit one kind of step so that the validation layer can
//! be seen catching it (RL-4: port on a validated device first). Faults are for testing the
//! oracle; a run with one is expected to report errors.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::barrier::Access;
use crate::device::Command;
use std::fmt;
use std::str::FromStr;

/// One step the runtime omits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fault {
    /// No wait on present before writing the back buffer (caught as FS-5).
    SkipWaitOnPresent,
    /// Back-buffer views are not rotated after present (caught as FS-9).
    SkipRotation,
    /// Barriers of the named pass (or the first barrier call of each frame) are dropped.
    DropBarrier(Option<String>),
    /// Fence waits of the named pass (or the first wait of each frame) are dropped.
    DropFenceWait(Option<String>),
    /// A resource used this frame is released without waiting for its fence (FS-6).
    EarlyRelease,
    /// The back buffer is presented without decompression (FS-4): neither `Decompress` nor
    /// the barrier into PRESENT, which decompresses too (so RL-1's layout is wrong as well).
    SkipDecompress,
    /// Render targets are not set again after a clear (FS-8).
    SkipRebind,
    /// Barriers keep their sync but write back and invalidate no cache (FS-2).
    SkipCacheFlush,
    /// In frame `frame`, the `index`-th individual barrier the passes submit is dropped
    /// (`drop-nth-barrier=FRAME:INDEX`; for randomised tests).
    DropNthBarrier { frame: u64, index: usize },
    /// In frame `frame`, the `index`-th fence wait is dropped (`drop-nth-fence-wait=FRAME:INDEX`).
    DropNthFenceWait { frame: u64, index: usize },
}

impl Fault {
    /// Every fault kind, with a target where one applies, for sweeps and help text.
    pub const NAMES: [&'static str; 8] = [
        "skip-wait-on-present",
        "skip-rotation",
        "drop-barrier[=PASS]",
        "drop-fence-wait[=PASS]",
        "early-release",
        "skip-decompress",
        "skip-rebind",
        "skip-cache-flush",
    ];

    /// Does the fault aim at this pass (named faults) or at the first occurrence (unnamed)?
    pub fn targets(name: &Option<String>, pass: &str, first: bool) -> bool {
        match name {
            Some(n) => n == pass,
            None => first,
        }
    }
}

impl FromStr for Fault {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, arg) = match s.split_once('=') {
            Some((k, a)) if !a.is_empty() => (k, Some(a.to_owned())),
            Some((k, _)) => (k, None),
            None => (s, None),
        };
        let plain = |f: Fault| match &arg {
            None => Ok(f),
            Some(_) => Err(format!("fault `{kind}` takes no target")),
        };
        match kind {
            "skip-wait-on-present" => plain(Fault::SkipWaitOnPresent),
            "skip-rotation" => plain(Fault::SkipRotation),
            "drop-barrier" => Ok(Fault::DropBarrier(arg)),
            "drop-fence-wait" => Ok(Fault::DropFenceWait(arg)),
            "early-release" => plain(Fault::EarlyRelease),
            "skip-decompress" => plain(Fault::SkipDecompress),
            "skip-rebind" => plain(Fault::SkipRebind),
            "skip-cache-flush" => plain(Fault::SkipCacheFlush),
            "drop-nth-barrier" | "drop-nth-fence-wait" => {
                let (frame, index) = arg
                    .as_deref()
                    .and_then(|a| a.split_once(':'))
                    .and_then(|(f, i)| Some((f.parse().ok()?, i.parse().ok()?)))
                    .ok_or_else(|| format!("fault `{kind}` needs FRAME:INDEX"))?;
                Ok(if kind == "drop-nth-barrier" {
                    Fault::DropNthBarrier { frame, index }
                } else {
                    Fault::DropNthFenceWait { frame, index }
                })
            }
            _ => {
                let known = Fault::NAMES.map(|n| n.split('[').next().unwrap_or(n));
                let hint = match crate::scene::suggest(kind, known).first() {
                    Some(close) => format!(" (did you mean `{close}`?)"),
                    None => String::new(),
                };
                Err(format!(
                    "unknown fault `{kind}`{hint}; known: {}",
                    Fault::NAMES.join(", ")
                ))
            }
        }
    }
}

/// A fault is written in scenes as on the command line, `"drop-barrier=gbuffer"`, and parsed
/// once, when the scene loads: a misspelling is a load error, not a fault silently ignored.
impl Serialize for Fault {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Fault {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = |f: &mut fmt::Formatter<'_>, k: &str, n: &Option<String>| match n {
            Some(n) => write!(f, "{k}={n}"),
            None => write!(f, "{k}"),
        };
        match self {
            Fault::SkipWaitOnPresent => write!(f, "skip-wait-on-present"),
            Fault::SkipRotation => write!(f, "skip-rotation"),
            Fault::DropBarrier(n) => named(f, "drop-barrier", n),
            Fault::DropFenceWait(n) => named(f, "drop-fence-wait", n),
            Fault::EarlyRelease => write!(f, "early-release"),
            Fault::SkipDecompress => write!(f, "skip-decompress"),
            Fault::SkipRebind => write!(f, "skip-rebind"),
            Fault::SkipCacheFlush => write!(f, "skip-cache-flush"),
            Fault::DropNthBarrier { frame, index } => write!(f, "drop-nth-barrier={frame}:{index}"),
            Fault::DropNthFenceWait { frame, index } => {
                write!(f, "drop-nth-fence-wait={frame}:{index}")
            }
        }
    }
}

/// Fault injection at submission, for one frame: drops barriers or fence waits of one pass (or
/// the first of the frame, or the n-th), or strips every barrier of its cache work.
pub struct Injector<'a> {
    fault: &'a Fault,
    frame: u64,
    /// The frame's first occurrence is gone already.
    dropped: bool,
    /// Barriers and fence waits submitted so far this frame.
    seen: (usize, usize),
}

impl<'a> Injector<'a> {
    /// An injector of `fault` for the passes of frame `frame`, submitted in order.
    pub fn new(fault: &'a Fault, frame: u64) -> Self {
        Self {
            fault,
            frame,
            dropped: false,
            seen: (0, 0),
        }
    }

    /// Apply the fault to the commands of `pass`, about to be submitted.
    pub fn inject(&mut self, pass: &str, commands: &mut Vec<Command>) {
        let (frame, dropped, seen) = (self.frame, &mut self.dropped, &mut self.seen);
        inject(self.fault, pass, frame, commands, dropped, seen);
    }
}

fn inject(
    fault: &Fault,
    pass: &str,
    frame: u64,
    commands: &mut Vec<Command>,
    dropped: &mut bool,
    seen: &mut (usize, usize),
) {
    match *fault {
        Fault::DropNthBarrier { frame: f, index } if f == frame => {
            for c in commands.iter_mut() {
                if let Command::Barrier(g) = c {
                    let (ng, nb, nt) = (g.global.len(), g.buffers.len(), g.textures.len());
                    if index >= seen.0 && index < seen.0 + ng + nb + nt {
                        let k = index - seen.0;
                        if k < ng {
                            g.global.remove(k);
                        } else if k < ng + nb {
                            g.buffers.remove(k - ng);
                        } else {
                            g.textures.remove(k - ng - nb);
                        }
                    }
                    seen.0 += ng + nb + nt;
                }
            }
            commands.retain(|c| !matches!(c, Command::Barrier(g) if g.is_empty()));
            return;
        }
        Fault::DropNthFenceWait { frame: f, index } if f == frame => {
            let mut k = seen.1;
            commands.retain(|c| {
                !matches!(c, Command::WaitFence(_)) || {
                    k += 1;
                    k - 1 != index
                }
            });
            seen.1 = k;
            return;
        }
        _ => {}
    }
    let mut drop_matching = |name: &Option<String>, is: fn(&Command) -> bool| {
        if !Fault::targets(name, pass, !*dropped) {
            return;
        }
        if name.is_some() {
            commands.retain(|c| !is(c));
        } else if let Some(i) = commands.iter().position(is) {
            commands.remove(i);
            *dropped = true;
        }
    };
    match fault {
        Fault::DropBarrier(name) => drop_matching(name, |c| matches!(c, Command::Barrier(_))),
        Fault::DropFenceWait(name) => drop_matching(name, |c| matches!(c, Command::WaitFence(_))),
        Fault::SkipCacheFlush => {
            for c in commands.iter_mut() {
                if let Command::Barrier(g) = c {
                    for b in &mut g.global {
                        (b.access_before, b.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                    for b in &mut g.buffers {
                        (b.access_before, b.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                    for t in &mut g.textures {
                        (t.access_before, t.access_after) = (Access::NO_ACCESS, Access::NO_ACCESS);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print_back() {
        for s in [
            "skip-wait-on-present",
            "skip-rotation",
            "drop-barrier",
            "drop-barrier=gbuffer",
            "drop-fence-wait=lighting",
            "early-release",
            "skip-decompress",
            "skip-rebind",
            "skip-cache-flush",
            "drop-nth-barrier=3:2",
            "drop-nth-fence-wait=4:0",
        ] {
            let f: Fault = s.parse().unwrap();
            assert_eq!(f.to_string(), s);
        }
        assert!("skip-rebind=x".parse::<Fault>().is_err());
        assert!(
            "frobnicate"
                .parse::<Fault>()
                .unwrap_err()
                .contains("known:")
        );
    }
}
