//! Panics inside storage code. redb panics on some pages of a damaged file instead of returning
//! an error, so every transaction runs inside [`contain_panics`], which turns a panic into a
//! one-line [`StoreError`]. Which one depends on where the panic was raised: in redb (or the
//! standard library on its behalf) it is damage, and the person is told to move the file
//! aside; in ask-user's own code running inside the transaction (encoding or decoding a row) it
//! is a bug, and the file is fine. Only a panic hook sees where a panic was raised, so the
//! binary's hook tells this module through [`panic_is_contained_at`]; without that (a library
//! user with its own hook) every contained panic reads as damage.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, Location, catch_unwind};
use std::path::Path;

use super::StoreError;

thread_local! {
    static CONTAINING: Cell<bool> = const { Cell::new(false) };
    /// Where this thread's last contained panic was raised, when that was ask-user's own code.
    static RAISED_IN_OWN_CODE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// True while this thread runs storage code whose panics are caught and reported as a
/// [`StoreError`]: a panic hook can stay quiet then, keeping stderr to one line.
pub fn panic_is_contained() -> bool {
    CONTAINING.with(Cell::get)
}

/// [`panic_is_contained`] for a panic hook that also passes where the panic was raised, so that
/// a bug in ask-user's code inside a transaction is reported as [`StoreError::Bug`] rather than
/// as a damaged store.
pub fn panic_is_contained_at(location: Option<&Location<'_>>) -> bool {
    let contained = panic_is_contained();
    if contained {
        let own = location.filter(|at| raised_in_own_code(at.file()));
        RAISED_IN_OWN_CODE.with(|r| *r.borrow_mut() = own.map(ToString::to_string));
    }
    contained
}

/// Whether `file` (a panic's location) is in ask-user's source rather than redb's or the
/// standard library's. Locations are written the way `file!()` writes them, so this file's own
/// name says how: relative to the workspace in a build of it (dependencies are absolute), or
/// absolute when remapped or built from a registry, where this crate's folder (or the
/// workspace's, when there is one above it) is what our files start with.
fn raised_in_own_code(file: &str) -> bool {
    own_source(file, file!())
}

/// [`raised_in_own_code`], given this file's name as the compiler wrote it.
fn own_source(file: &str, this_file: &str) -> bool {
    let this_crate = this_file.strip_suffix("src/store/contained.rs").unwrap_or_default();
    if Path::new(this_crate).is_relative() {
        return Path::new(file).is_relative();
    }
    file.starts_with(this_crate.strip_suffix("storage/").unwrap_or(this_crate))
}

/// Runs storage code, turning a panic inside it into a one-line [`StoreError`]: damage when
/// redb raised it, a bug when ask-user's own code did (see the module's doc).
pub(super) fn contain_panics<T>(
    path: &Path,
    f: impl FnOnce() -> Result<T, StoreError>,
) -> Result<T, StoreError> {
    let outer = CONTAINING.with(|c| c.replace(true));
    RAISED_IN_OWN_CODE.with(RefCell::take);
    let result = catch_unwind(AssertUnwindSafe(f));
    CONTAINING.with(|c| c.set(outer));
    result.unwrap_or_else(|panic| {
        let text = crate::panic_text(panic.as_ref());
        let simulated_damage = crate::faults::took_damage();
        let own = RAISED_IN_OWN_CODE.with(RefCell::take).filter(|_| !simulated_damage);
        Err(match own {
            Some(at) => StoreError::Bug { detail: format!("{text}, at {at}") },
            None => StoreError::Damaged { path: path.display().to_string(), detail: text.to_owned() },
        })
    })
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    /// SPEC §9: a damaged store is one line telling the person to move it aside, but only a
    /// panic redb raised (or the standard library on its behalf) means the file is damaged; one
    /// raised in ask-user's own source is a bug, and the file is fine.
    #[rstest]
    #[case::our_storage_code("storage/src/store/mod.rs", true)]
    #[case::our_engine_code_called_from_a_transaction("engine/src/wire/mod.rs", true)]
    #[case::redb_from_the_registry(
        "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/redb-5.0.0/src/tree_store/btree_base.rs",
        false
    )]
    #[case::redb_from_git("/home/u/.cargo/git/checkouts/redb-2e5c1b0f/1a2b3c4/src/db.rs", false)]
    #[case::the_standard_library(
        "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/slice/index.rs",
        false
    )]
    fn spec9_a_panic_is_a_bug_only_when_raised_in_ask_users_own_source(
        #[case] file: &str,
        #[case] own: bool,
    ) {
        assert_eq!(super::raised_in_own_code(file), own, "{file}");
    }

    /// The same in builds whose paths are absolute: a workspace remapped to one folder, and
    /// crates built from a registry, each in a folder of its own (there only this crate's
    /// files can be told apart as ours).
    #[rstest]
    #[case::remapped_storage(
        "/src/ask-user/storage/src/store/contained.rs",
        "/src/ask-user/storage/src/wire/v6.rs",
        true
    )]
    #[case::remapped_engine(
        "/src/ask-user/storage/src/store/contained.rs",
        "/src/ask-user/engine/src/fold/mod.rs",
        true
    )]
    #[case::remapped_redb(
        "/src/ask-user/storage/src/store/contained.rs",
        "/cargo/registry/src/i/redb-5.0.0/src/db.rs",
        false
    )]
    #[case::registry_storage(
        "/cargo/registry/src/i/ask-storage-0.1.0/src/store/contained.rs",
        "/cargo/registry/src/i/ask-storage-0.1.0/src/wire/v6.rs",
        true
    )]
    #[case::registry_redb(
        "/cargo/registry/src/i/ask-storage-0.1.0/src/store/contained.rs",
        "/cargo/registry/src/i/redb-5.0.0/src/db.rs",
        false
    )]
    fn spec9_absolute_paths_tell_our_source_from_redbs(
        #[case] this: &str,
        #[case] file: &str,
        #[case] own: bool,
    ) {
        assert_eq!(super::own_source(file, this), own, "{file} beside {this}");
    }
}
