//! Wall-clock formatting for listings (the engine never sees the clock).

/// `YYYY-MM-DD HH:MM:SSZ` for milliseconds since the Unix epoch.
pub fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = ask_storage::files::civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_known_instants() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00Z");
        assert_eq!(super::utc(1_796_199_709_876), "2026-12-02 08:21:49Z");
    }
}
