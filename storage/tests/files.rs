//! Owner-only files and directories, and the names of files moved aside (a store or config
//! file that cannot be read is renamed `<file>.unreadable-YYYYMMDD-HHMMSS`, never overwritten).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};

use ask_storage::files::{civil_from_days, create_private_dir, make_private, parent_dir, stamp, unused_path};
use rstest::rstest;

/// Days from the Unix epoch, checked against Python's `datetime.date` (proleptic Gregorian),
/// across leap days, century rules and both sides of the epoch.
#[rstest]
#[case::the_epoch(0, (1970, 1, 1))]
#[case::the_day_before(-1, (1969, 12, 31))]
#[case::march_first_1970(59, (1970, 3, 1))]
#[case::a_leap_day_in_a_400th_year(11_016, (2000, 2, 29))]
#[case::the_day_after_it(11_017, (2000, 3, 1))]
#[case::no_leap_day_in_2100(47_540, (2100, 2, 28))]
#[case::so_march_follows(47_541, (2100, 3, 1))]
#[case::new_years_eve_of_a_leap_year(20_088, (2024, 12, 31))]
#[case::today(20_793, (2026, 12, 6))]
#[case::an_era_back(-135_140, (1600, 1, 1))]
#[case::year_one(-719_162, (1, 1, 1))]
#[case::year_9999(2_932_896, (9999, 12, 31))]
fn civil_dates_from_days(#[case] days: i64, #[case] date: (i64, u32, u32)) {
    assert_eq!(civil_from_days(days), date);
}

/// Every day of four years, one of them a leap year, follows the day before it.
#[test]
fn consecutive_days_are_consecutive_dates() {
    let month_days = |y: i64, m: u32| match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let mut expected = (2023, 1, 1);
    for days in 19_358..19_358 + 4 * 366 {
        assert_eq!(civil_from_days(days), expected, "day {days}");
        let (y, m, d) = expected;
        expected = if d < month_days(y, m) {
            (y, m, d + 1)
        } else if m < 12 {
            (y, m + 1, 1)
        } else {
            (y + 1, 1, 1)
        };
    }
}

/// The stamp is the UTC time now, as `date -u` reads the clock (taken before and after, so a
/// second ticking over between the two is allowed for).
#[cfg(unix)]
#[test]
fn the_stamp_is_utc_now_as_date_prints_it() {
    let date = || {
        let out = std::process::Command::new("date").args(["-u", "+%Y%m%d-%H%M%S"]).output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    };
    let before = date();
    let stamp = stamp();
    let after = date();
    assert_eq!(stamp.len(), "YYYYMMDD-HHMMSS".len(), "{stamp}");
    assert!(before <= stamp && stamp <= after, "{before} <= {stamp} <= {after}");
}

#[rstest]
#[case::a_bare_name("s.redb", ".")]
#[case::relative("a/b/s.redb", "a/b")]
#[case::absolute("/tmp/s.redb", "/tmp")]
#[case::the_root("/", ".")]
fn the_directory_a_file_is_created_in(#[case] path: &str, #[case] dir: &str) {
    assert_eq!(parent_dir(Path::new(path)), Path::new(dir));
}

/// A name that exists is never reused: `.1`, `.2`, … follow until one is free.
#[test]
fn unused_path_takes_the_first_free_name() {
    let dir = tempfile::tempdir().unwrap();
    let name = |n: Option<u32>| match n {
        None => dir.path().join("x.unreadable"),
        Some(n) => dir.path().join(format!("x.unreadable-{n}")),
    };
    assert_eq!(unused_path(name), dir.path().join("x.unreadable"));
    std::fs::write(dir.path().join("x.unreadable"), "").unwrap();
    assert_eq!(unused_path(name), dir.path().join("x.unreadable-1"));
    std::fs::create_dir(dir.path().join("x.unreadable-1")).unwrap();
    std::fs::write(dir.path().join("x.unreadable-2"), "").unwrap();
    assert_eq!(unused_path(name), dir.path().join("x.unreadable-3"));
}

/// What ask-user writes can hold answers and pasted text: the directories it creates are 0700
/// and its files 0600, and a directory that was already there keeps its mode.
#[cfg(unix)]
#[test]
fn created_directories_and_made_private_files_are_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
    let deep: PathBuf = shared.join("ask/store");
    create_private_dir(&deep).unwrap();
    assert_eq!((mode(&shared.join("ask")), mode(&deep)), (0o700, 0o700));
    assert_eq!(mode(&shared), 0o755, "a parent that was there is left alone");
    create_private_dir(&deep).expect("an existing directory is fine");
    create_private_dir(Path::new("")).expect("a bare file name's directory is the current one");

    let file = deep.join("s.redb");
    std::fs::write(&file, "x").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    make_private(&file).unwrap();
    assert_eq!(mode(&file), 0o600);
    assert!(make_private(&deep.join("missing")).is_err(), "a missing file is an error, not ignored");
}
