//! Faults a debug build can be told to inject, so the binary's tests can see what a panic does
//! to a live form (SPEC §9: the terminal is restored on panic, and nothing committed is lost).
//!
//! `ASK_USER_FAULT=<point>@<path>` makes [`at`] panic at `point` whenever a file exists at
//! `path`: a test chooses the moment by creating the file, and ends the fault by removing it.
//! Release builds compile [`at`] to nothing and never read the variable.

/// Panics here when the fault named `point` is armed (debug builds only), naming the caller's
/// line as where it happened.
#[inline]
#[track_caller]
pub fn at(point: &str) {
    #[cfg(debug_assertions)]
    if armed(point) {
        panic!("fault injected at {point} (ASK_USER_FAULT)");
    }
    #[cfg(not(debug_assertions))]
    let _ = point;
}

/// Panics here when the fault named `point` is armed, as redb does on a page of a damaged file:
/// the store reports it as damage, though the panic is raised in ask-user's code.
#[inline]
#[track_caller]
pub fn damage_at(point: &str) {
    #[cfg(debug_assertions)]
    if armed(point) {
        SIMULATING_DAMAGE.with(|s| s.set(true));
        panic!("fault injected at {point} (ASK_USER_FAULT): page 7 is not a btree page");
    }
    #[cfg(not(debug_assertions))]
    let _ = point;
}

#[cfg(debug_assertions)]
thread_local! {
    static SIMULATING_DAMAGE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the panic just caught on this thread was [`damage_at`]'s (and so is read as damage);
/// asking clears it.
pub(crate) fn took_damage() -> bool {
    #[cfg(debug_assertions)]
    return SIMULATING_DAMAGE.with(|s| s.replace(false));
    #[cfg(not(debug_assertions))]
    false
}

#[cfg(debug_assertions)]
fn armed(point: &str) -> bool {
    use std::path::PathBuf;
    use std::sync::OnceLock;
    static FAULT: OnceLock<Option<(String, PathBuf)>> = OnceLock::new();
    let fault = FAULT.get_or_init(|| {
        let spec = std::env::var("ASK_USER_FAULT").ok()?;
        let (name, path) = spec.split_once('@')?;
        Some((name.to_owned(), PathBuf::from(path)))
    });
    fault.as_ref().is_some_and(|(name, path)| name == point && path.exists())
}

#[cfg(all(test, debug_assertions))]
mod tests {
    /// With no fault asked for, every point passes (the unit tests run without the variable).
    #[test]
    fn an_unarmed_point_does_nothing() {
        assert!(std::env::var_os("ASK_USER_FAULT").is_none(), "tests run without a fault asked for");
        super::at("store-write");
        super::at("after-keys");
    }
}
