//! The host seam of `/answer` (`--extractor host`): ask-user writes each extraction request as
//! one line on stdout and the host that started it (the pi extension) answers with one line on
//! stdin. The protocol is documented in `extractor.rs` and docs/pi.md.

use std::io::BufRead;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Lines arriving on stdin, read by one thread for the whole extraction so that a late reply
/// to a timed-out attempt is read and skipped instead of answering the next one.
pub struct HostLink {
    replies: Receiver<String>,
}

impl HostLink {
    pub fn start() -> HostLink {
        let (sender, replies) = channel();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        HostLink { replies }
    }

    /// Sends one request and waits up to `timeout` for the reply to this attempt:
    /// `Ok(model text)` or `Err(why the attempt failed)`.
    pub fn ask(&self, request: &Value, attempt: u32, timeout: Duration) -> Result<String, String> {
        outln!("{request}");
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.replies.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("the host took longer than {} ms", timeout.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the host closed stdin".to_owned()),
            };
            let Ok(reply) = serde_json::from_str::<Value>(&line) else {
                return Err("the host's reply is not a JSON line".to_owned());
            };
            if reply["attempt"].as_u64() != Some(u64::from(attempt)) {
                continue;
            }
            if let Some(text) = reply["output"].as_str() {
                return Ok(text.to_owned());
            }
            let why = reply["error"].as_str().unwrap_or("the host's reply has no output");
            return Err(format!("the host could not complete: {why}"));
        }
    }
}
