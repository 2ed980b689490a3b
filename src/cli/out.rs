//! The command line's output: what a closed pipe and a full disk do.
//!
//! `println!` panics when standard output cannot be written, so `fastframe graph big.ron |
//! head` or `run --json > /dev/full` ended with exit code 101. Here a write goes through
//! [`print()`]: a reader that closed the pipe (EPIPE; Rust ignores SIGPIPE, so the write
//! returns the error) has taken what it wanted, so the rest of the output is dropped
//! quietly and the exit code stays the run's own; any other failure (a full disk, an I/O
//! error) is said on standard error and makes the exit code 2. Standard error itself is
//! written with [`eprint()`], which ignores failures: there is nowhere left to report them.

use std::io::{ErrorKind, Write};

/// Writes `text` to standard output and flushes it. `Err(2)` when it could not be written
/// for any reason but a closed pipe (which is said on standard error).
pub fn print(text: &str) -> Result<(), i32> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            eprint(&format!("error: cannot write standard output: {e}\n"));
            Err(2)
        }
    }
}

/// Writes `text` to standard error, ignoring failure.
pub fn eprint(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}
