//! A config path that names no config file — a pipe, a device, a directory, something huge —
//! is never read whole, waited on, moved aside or written: the defaults are used and, except for
//! a character device (`--config /dev/null` asks for no settings), the form says why.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::collections::HashMap;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use ask_engine::{Settings, Toggle};
use ask_storage::{LoadedConfig, load_settings_with_env, reload_config, save_toggle};
use rstest::rstest;

/// Runs `f` on a thread and fails the test if it has not returned in five seconds: reading a
/// pipe used to wait for a writer forever.
fn in_time<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, recv) = mpsc::channel();
    std::thread::spawn(move || send.send(f()));
    recv.recv_timeout(Duration::from_secs(5)).expect("it returned instead of waiting")
}

fn load(path: &Path) -> LoadedConfig {
    let path = path.to_path_buf();
    in_time(move || load_settings_with_env(Some(&path), Some(HashMap::new())))
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `config.json` in a fresh directory, made as `kind` says.
fn made(kind: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.json");
    match kind {
        "a named pipe" => {
            assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success())
        }
        "a directory" => std::fs::create_dir(&path).unwrap(),
        // Valid JSON that is no config a person writes: 2 MiB of one string.
        "too large" => std::fs::write(&path, format!("{{\"x\":\"{}\"}}", "a".repeat(2 << 20))).unwrap(),
        other => unreachable!("{other}"),
    }
    (dir, path)
}

#[rstest]
#[case::a_named_pipe("a named pipe", "it is a named pipe, not a file")]
#[case::a_directory("a directory", "it is a directory, not a file")]
#[case::too_large("too large", "it is larger than 1 MiB")]
fn spec6_a_path_that_is_no_config_file_gives_the_defaults_and_says_why(
    #[case] kind: &str,
    #[case] why: &str,
) {
    let (dir, path) = made(kind);
    let before = (names(dir.path()), std::fs::symlink_metadata(&path).unwrap().len());
    let loaded = load(&path);
    assert_eq!(loaded.settings, Settings::default());
    assert_eq!(
        loaded.notices,
        [format!(
            "Could not read {}: {why}; using default settings, and keeping finished flows this time.",
            path.display()
        )],
        "{kind}"
    );
    assert_eq!(loaded.store.retention_days, 0, "{kind}: its retention is unknown, so nothing is pruned");
    let p = path.clone();
    assert_eq!(in_time(move || reload_config(&p)), None, "a live reload neither waits nor uses it");
    let p = path.clone();
    let saved = in_time(move || save_toggle(&p, Toggle::ShowFooterHints, false).map_err(|e| e.to_string()));
    assert!(
        saved.is_err_and(|e| e.starts_with("could not save settings to ")),
        "a toggle is not saved there"
    );
    let after = (names(dir.path()), std::fs::symlink_metadata(&path).unwrap().len());
    assert_eq!(after, before, "nothing moved aside, written or created");
}

/// `--config /dev/null`: a character device (here a null device made beside the test, which
/// needs root; CI runs as root) gives the defaults without a notice, and is neither read, moved
/// nor replaced — it used to be renamed aside and a regular file written in its place.
#[test]
fn spec6_a_character_device_is_no_settings_and_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("null");
    let made = std::process::Command::new("mknod").arg(&path).args(["c", "1", "3"]).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: making a device needs root");
        return;
    }
    let loaded = load(&path);
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let err = save_toggle(&path, Toggle::ShowFooterHints, false).unwrap_err().to_string();
    assert!(err.starts_with("could not save settings to "), "{err}");
    assert!(std::fs::symlink_metadata(&path).unwrap().file_type().is_char_device(), "still the device");
    assert_eq!(names(dir.path()), ["null"], "nothing moved aside or written");
}

/// Another file given as the config by mistake — not JSON, and not named `.json` (a shell
/// profile here) — is left where it is, as it is: only a config file, one named so or holding
/// JSON, is moved aside and replaced by defaults when it cannot be used.
#[test]
fn spec6_a_file_that_is_no_json_and_not_named_so_is_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join(".bashrc");
    std::fs::write(&profile, "export PATH=$HOME/bin:$PATH\n").unwrap();
    let loaded = load(&profile);
    assert_eq!(loaded.settings, Settings::default());
    assert_eq!(loaded.notices.len(), 1, "{:?}", loaded.notices);
    assert!(
        loaded.notices[0].contains("it is no .json file, so it was left as it is"),
        "{:?}",
        loaded.notices
    );
    assert_eq!(std::fs::read_to_string(&profile).unwrap(), "export PATH=$HOME/bin:$PATH\n");
    assert_eq!(names(dir.path()), [".bashrc"], "nothing moved aside or written");
    // A config file named so is still moved aside and replaced, as before.
    let config = dir.path().join("config.json");
    std::fs::write(&config, "{ not json").unwrap();
    let loaded = load(&config);
    assert!(loaded.notices[0].contains("it was moved to"), "{:?}", loaded.notices);
    assert!(names(dir.path()).iter().any(|n| n.ends_with(".bak.json")));
}

/// A config kept elsewhere and linked into place (a dotfiles repository) stays linked: a saved
/// toggle and a migration are written where the link points. The new file used to be renamed
/// over the link, replacing it with a copy that the repository never saw.
#[test]
fn spec6_a_linked_config_is_written_where_the_link_points() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("dotfiles-ask.json");
    std::fs::write(&target, r#"{"schemaVersion":1,"behaviour":{"showFooterHints":true}}"#).unwrap();
    let link = dir.path().join("config.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let loaded = load(&link); // version 1: migrated, and saved back
    assert!(loaded.notices.iter().any(|n| n.starts_with("Migrated")), "{:?}", loaded.notices);
    save_toggle(&link, Toggle::ShowFooterHints, false).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "still a link");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(written["schemaVersion"], 2);
    assert_eq!(written["behaviour"]["showFooterHints"], false);
    assert_eq!(names(dir.path()), ["config.json", "dotfiles-ask.json"], "no copy beside them");
}
