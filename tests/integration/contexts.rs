//! Context rules end to end: semantics is a property of each context (CTX-4), so the
//! fast-context mistakes fail whatever barriers the runtime plans.

use std::path::Path;
use std::process::Command;

fn check(scene: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fastframe"))
        .arg("check")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(scene))
        .args(args)
        .output()
        .expect("fastframe runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn fast_context_mistakes_fail_under_legacy_barriers_too() {
    // CTX-4: `barriers = legacy` plans legacy barriers; the immediate context stays fast.
    for (scene, code) in [
        (
            "scenes/mistakes/fs7_get_state_on_fast_context.ron",
            "error[V0203] FS-7",
        ),
        (
            "scenes/mistakes/fs14_update_subresource_on_fast_context.ron",
            "error[V0204] FS-14",
        ),
    ] {
        for barriers in ["enhanced", "legacy", "conservative"] {
            let (exit, out) = check(scene, &["--barriers", barriers]);
            assert_eq!(exit, 1, "{scene} --barriers {barriers}:\n{out}");
            assert!(out.contains(code), "{scene} --barriers {barriers}:\n{out}");
        }
    }
}
