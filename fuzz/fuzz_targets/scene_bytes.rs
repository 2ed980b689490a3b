//! Arbitrary bytes as a scene: loading must return a scene or a located error, and a scene
//! that loads must run frames without validation and with it, ending in success or a
//! device or validation verdict, never a panic. A crasher goes into
//! `tests/integration/hostile/crashers/` (as a `.ron` file) so `cargo test` keeps it fixed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for validate in [false, true] {
        let Ok(mut rt) = fastframe::Runtime::from_str(text, "fuzz.ron") else {
            return;
        };
        rt.set_validation(validate);
        let _ = rt.run(4);
    }
});
