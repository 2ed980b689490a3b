//! The structure-aware generator of `tests/integration/hostile/generate.rs`, its choices
//! taken from the fuzzer's bytes instead of a seeded generator: every input is a well-formed
//! scene with hostile numbers and references, so the fuzzer spends its time past the parser.
//! Loading and running as in `scene_bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/integration/hostile/generate.rs"]
mod generate;

/// The fuzzer's bytes as choices, eight at a time; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl generate::Choices for Bytes<'_> {
    fn bits(&mut self) -> u64 {
        let (head, rest) = self.0.split_at(self.0.len().min(8));
        self.0 = rest;
        let mut word = [0u8; 8];
        word[..head.len()].copy_from_slice(head);
        u64::from_le_bytes(word)
    }
}

fuzz_target!(|data: &[u8]| {
    let text = generate::scene(&mut Bytes(data));
    for validate in [false, true] {
        let Ok(mut rt) = fastframe::Runtime::from_str(&text, "hostile.ron") else {
            return;
        };
        rt.set_validation(validate);
        let _ = rt.run(4);
    }
});
