//! Shared by the benchmarks that run the real binary.

use std::path::PathBuf;

/// Builds the release `ask-user` and returns the workspace root and the binary's path.
/// `ASK_BENCH_BIN` names another build to measure instead (e.g. an older commit's, side by side).
pub fn release_binary() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Some(bin) = std::env::var_os("ASK_BENCH_BIN") {
        return (root, PathBuf::from(bin));
    }
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--release", "-q", "-p", "ask-user"])
        .current_dir(&root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the release build failed");
    let bin = root.join("target/release/ask-user");
    (root, bin)
}
