//! Key timings as the terminal benchmarks print them.

use std::time::Duration;

/// Milliseconds, for printing.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `p50 … ms  p90 … ms  p99 … ms  max … ms` of `samples` (sorted here; at least one).
pub fn spread(samples: &mut [Duration]) -> String {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];
    format!(
        "p50 {:>6.3} ms  p90 {:>6.3} ms  p99 {:>6.3} ms  max {:>7.3} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(samples[samples.len() - 1]),
    )
}

/// When the environment variable `var` is a number N, prints the N slowest of `timed` (a time
/// and the key's place in `keys`) with the key's bytes: is the tail some kind of key, or noise
/// spread over all of them?
pub fn print_slowest(var: &str, mut timed: Vec<(Duration, usize)>, keys: &[Vec<u8>]) {
    let Some(n) = std::env::var(var).ok().and_then(|n| n.parse::<usize>().ok()) else { return };
    timed.sort_unstable_by(|a, b| b.cmp(a));
    for (d, i) in timed.into_iter().take(n) {
        println!("  {:>8.3} ms  key {i:>4}  {:?}", ms(d), String::from_utf8_lossy(&keys[i]));
    }
}
