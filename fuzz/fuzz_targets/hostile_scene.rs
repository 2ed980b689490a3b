//! The structure-aware generator of `tests/integration/hostile/generate.rs`, its choices
//! taken from the fuzzer's bytes (then from a generator seeded with their length): every
//! input is a well-formed scene with hostile numbers and references, so the fuzzer spends
//! its time past the parser. Loading and running as in `scene_bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/integration/hostile/generate.rs"]
mod generate;

/// The fuzzer's bytes as choices, eight at a time; once they run out, the stable test's
/// generator seeded with the input's length, so a short input still makes a whole scene.
struct Bytes<'a> {
    data: &'a [u8],
    rest: generate::Rng,
}

impl generate::Choices for Bytes<'_> {
    fn bits(&mut self) -> u64 {
        if self.data.is_empty() {
            return self.rest.bits();
        }
        let (head, tail) = self.data.split_at(self.data.len().min(8));
        self.data = tail;
        let mut word = [0u8; 8];
        word[..head.len()].copy_from_slice(head);
        u64::from_le_bytes(word)
    }
}

fuzz_target!(|data: &[u8]| {
    let rest = generate::Rng((data.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let text = generate::scene(&mut Bytes { data, rest });
    for validate in [false, true] {
        let Ok(mut rt) = fastframe::Runtime::from_str(&text, "hostile.ron") else {
            return;
        };
        rt.set_validation(validate);
        let _ = rt.run(4);
    }
});
