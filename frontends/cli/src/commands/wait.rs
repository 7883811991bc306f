//! `ask-user wait`: follow a flow another process drives, and report its end as `ask` would.

use std::time::{Duration, Instant};

use ask_storage::{FlowFollower, Store};

use crate::cli::WaitArgs;
use crate::exit::Status;
use crate::runtime::{Report, finish};

pub fn run_wait(args: &WaitArgs) -> anyhow::Result<Status> {
    let store = crate::paths::open_store(args.store.store.as_deref())?;
    if store.flow(&args.flow_id)?.is_none() {
        anyhow::bail!("no flow with id {}; `ask-user log list` shows the flows", args.flow_id);
    }
    follow(&store, &args.flow_id, args.timeout, Report::ToolJson)
}

/// Folds the flow's log as other processes commit to it until it completes, then reports it.
/// Past `timeout`, says so and gives [`Status::StillOpen`].
pub fn follow(store: &Store, id: &str, timeout: Option<Duration>, report: Report) -> anyhow::Result<Status> {
    let start = Instant::now();
    let mut follower = FlowFollower::new(id);
    let mut first = true;
    loop {
        let interval = follower.poll(store)?;
        if follower.state().outcome().is_some() {
            return finish(follower.state(), id, report);
        }
        // A flow no process shows (its script ended, its process was killed) gets no answer
        // until someone opens it: say so once, and how, instead of waiting in silence.
        if std::mem::take(&mut first) && store.holder(id)?.is_none() {
            errln!(
                "ask-user: flow {id} is open and no process shows it; `ask-user attach {id}` opens it. Waiting for its answer"
            );
        }
        if let Some(limit) = timeout
            && start.elapsed() >= limit
        {
            errln!(
                "ask-user: flow {id} is still open after {} s; `ask-user wait {id}` keeps waiting",
                limit.as_secs()
            );
            return Ok(Status::StillOpen);
        }
        let left = timeout.map_or(interval, |limit| limit.saturating_sub(start.elapsed()).min(interval));
        std::thread::sleep(left.max(Duration::from_millis(1)));
    }
}
