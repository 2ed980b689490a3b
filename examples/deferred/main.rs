//! `cargo run --example deferred [FRAMES]`: the frame of `scenes/deferred.ron` built in Rust
//! (see `frame.rs`), run for 240 frames (past the timeline's resizes and the splash's
//! release) or `FRAMES`, and its summary printed as `fastframe run` prints it.

mod frame;

use std::process::ExitCode;

use fastframe::Runtime;

fn main() -> ExitCode {
    let frames = match std::env::args().nth(1).map(|a| a.parse::<u64>()) {
        None => 240,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: FRAMES must be a whole number: {e}");
            return ExitCode::from(2);
        }
    };
    let world = match frame::deferred() {
        Ok(world) => world,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rt = Runtime::from_world(world, "deferred (built in Rust)");
    if let Err(e) = rt.run(frames) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    println!("{}", rt.summary().to_table());
    ExitCode::SUCCESS
}
