//! The defaults of the commands' scene form: what a scene may leave out of a command
//! (`draws: 1`, `writes: true`, a zero offset) and the tests that keep a default out of a
//! written scene. Kept apart from the command set so that `command.rs` reads as the list
//! of commands it is; serde's `default` and `skip_serializing_if` attributes name these.

pub(super) fn one() -> u32 {
    1
}

pub(super) fn yes() -> bool {
    true
}

pub(super) fn is_true(b: &bool) -> bool {
    *b
}

pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

pub(super) fn is_zero(v: &u64) -> bool {
    *v == 0
}
