//! How long the live loop asks crossterm to wait for input.

use std::time::Duration;

/// A wait crossterm can end asleep. It sleeps in whole milliseconds, truncating what is left,
/// so a wait of 250 ms sleeps 249 and then spins through the last fraction of a millisecond in
/// zero-timeout polls (about 80 system calls and up to 1 ms of CPU on every idle tick, seen with
/// `strace -c`). Waiting whole milliseconds and a little more ends in the sleep instead: the
/// kernel wakes a poll a little late (its timer slack), past the added microseconds. Waits
/// under a millisecond (the peeks for input already waiting) are left alone.
pub(crate) fn sleepable(timeout: Duration) -> Duration {
    const PAST_THE_MILLISECOND: Duration = Duration::from_micros(10);
    if timeout < Duration::from_millis(1) {
        return timeout;
    }
    let Ok(whole) = u64::try_from(timeout.as_nanos().div_ceil(1_000_000)) else { return timeout };
    Duration::from_millis(whole).saturating_add(PAST_THE_MILLISECOND)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rstest::rstest;

    use super::sleepable;

    /// Waits of a millisecond or more end asleep ([`sleepable`]); the sub-millisecond peeks
    /// for input already waiting, which every key's group commit makes, must not grow into a
    /// millisecond's sleep.
    #[rstest]
    #[case::an_idle_tick(Duration::from_millis(250), Duration::from_micros(250_010))]
    #[case::what_is_left_of_a_tick(Duration::from_micros(3_400), Duration::from_micros(4_010))]
    #[case::one_millisecond(Duration::from_millis(1), Duration::from_micros(1_010))]
    #[case::the_peek_for_waiting_input(Duration::from_micros(20), Duration::from_micros(20))]
    #[case::a_deadline_already_passed(Duration::ZERO, Duration::ZERO)]
    #[case::no_end_in_sight(Duration::MAX, Duration::MAX)]
    fn a_wait_ends_past_its_last_whole_millisecond_and_a_peek_stays_a_peek(
        #[case] asked: Duration,
        #[case] waited: Duration,
    ) {
        assert_eq!(sleepable(asked), waited);
    }
}
