//! The forms answered outside the client: in a tmux popup or with `ask-user attach` in another
//! terminal. The call waits on the shared store, tells the agent it is alive, and — when its
//! wait ends first — leaves the form open for the repeated call (the store's `owed` table).

use std::sync::Arc;
use std::time::{Duration, Instant};

use ask_engine::FlowState;
use ask_schema::{Form, ToolResult};
use ask_storage::{FlowFollower, FlowRecord, now_ms};
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use crate::present;
use crate::server::{AskServer, COMMAND, internal, opening};

impl AskServer {
    /// A flow recorded for this form whose result no call has returned yet: a call that ended
    /// before the user answered (its wait ran out, the client cancelled it) left it open, maybe
    /// in a server since restarted. The repeated call picks it up — the answers given meanwhile,
    /// or the same form still waiting — instead of asking a second time. Kept in the store, not
    /// in this process, so that a restart (a client that restarts its servers, a crash) loses
    /// nothing.
    pub(crate) async fn owed_flow(&self, form: &Arc<Form>) -> Result<Option<String>, ErrorData> {
        let form = Arc::clone(form);
        self.off_workers(move |s| s.owed_flow_now(&form)).await?
    }

    fn owed_flow_now(&self, form: &Form) -> Result<Option<String>, ErrorData> {
        let hash = ask_storage::form_hash(form);
        for owed in self.store.owed().map_err(internal)?.into_iter().filter(|o| o.form_hash == hash) {
            let id = owed.id;
            match self.store.flow(&id).map_err(internal)? {
                Some(record) if self.recorded_here(&record, form)? => {
                    tracing::info!(flow = %id, "a form left open is picked up");
                    return Ok(Some(id));
                }
                Some(_) => {}
                None => {
                    let _ = self.store.settle(&id); // pruned since
                }
            }
        }
        Ok(None)
    }

    /// Whether `record` is a flow this server recorded in its session, opened on `form`.
    pub(crate) fn recorded_here(&self, record: &FlowRecord, form: &Form) -> Result<bool, ErrorData> {
        if record.command != COMMAND || record.session != self.options.session {
            return Ok(false);
        }
        let state = FlowState::replay(&self.store.events(&record.id).map_err(internal)?);
        Ok(state.is_opened() && state.form() == form)
    }

    /// Records a flow other processes can open (`attach`), with nobody holding it yet.
    pub(crate) async fn record(&self, id: &str, form: &Arc<Form>) -> Result<(), ErrorData> {
        let (id, form) = (id.to_owned(), Arc::clone(form));
        self.off_workers(move |s| {
            let loaded = s.settings();
            let opened = opening(form, loaded.settings, loaded.notices);
            let record = FlowRecord::new(id, COMMAND, s.options.session.clone(), now_ms());
            s.store.create_owed_flow(&record, &opened, now_ms()).map_err(internal)
        })
        .await?
    }

    /// Whether flow `id` has ended (answered, cancelled, timed out).
    async fn has_ended(&self, id: &str) -> Result<bool, ErrorData> {
        let id = id.to_owned();
        self.off_workers(move |s| {
            Ok(FlowState::replay(&s.store.events(&id).map_err(internal)?).outcome().is_some())
        })
        .await?
    }

    pub(crate) async fn in_popup(
        &self,
        id: &str,
        form: &Arc<Form>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData> {
        self.record(id, form).await?;
        // The call's wait starts now, also for a call queued behind another's popup: it sends
        // its progress messages and ends at `--wait` while it queues, and a form answered
        // meanwhile with `ask-user attach` returns at once.
        let waiting = self.wait_for(id, form, ctx);
        tokio::pin!(waiting);
        let turn = tokio::select! {
            result = &mut waiting => return result,
            turn = self.popup.lock() => turn, // one popup at a time; the others queue
        };
        let mut popup = present::popup_command(
            &self.options.bin,
            id,
            &self.options.store,
            self.options.config.as_deref(),
        );
        let mut child = match popup.spawn() {
            Ok(child) => child,
            Err(e) => {
                tracing::warn!(error = %e, "tmux popup failed; waiting for `ask-user attach`");
                drop(turn);
                self.tell_to_attach(id, ctx).await;
                return waiting.await;
            }
        };
        tracing::info!(flow = %id, "form shown in a tmux popup");
        tokio::select! {
            result = &mut waiting => return result, // kill_on_drop: a popup still up closes
            status = child.wait() => {
                // display-popup fails at once when tmux has no client to show it on (an agent
                // in a detached session): the form then waits for `attach`, and the user and
                // the agent are told so, as on the terminal rung. (It also fails when the form
                // inside was cancelled; the flow has then ended and nobody needs telling.)
                let ended = self.has_ended(id).await?;
                if !status.as_ref().is_ok_and(|s| s.success()) && !ended {
                    tracing::warn!(flow = %id, ?status, "tmux popup did not show; waiting for `ask-user attach`");
                    drop(turn); // no popup is up: the next call may try its own
                    self.tell_to_attach(id, ctx).await;
                }
            }
        }
        waiting.await
    }

    /// The terminal rung: the flow waits for `ask-user attach` in any terminal; the agent (a
    /// progress message) and the user (a bell on the server's terminal) are told.
    pub(crate) async fn in_another_terminal(
        &self,
        id: &str,
        form: &Form,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData> {
        self.tell_to_attach(id, ctx).await;
        self.wait_for(id, form, ctx).await
    }

    /// Tells the agent (a progress message) and the user (a bell and a notification on the
    /// server's terminal) that the form waits for `ask-user attach`.
    async fn tell_to_attach(&self, id: &str, ctx: &RequestContext<RoleServer>) {
        notify(
            ctx,
            &format!("Waiting for the user: run `ask-user attach {id}` in any terminal to answer."),
            0.0,
        )
        .await;
        present::nudge(&format!("ask_user: a form is waiting - run ask-user attach {id}"));
        tracing::info!(flow = %id, "form waiting for `ask-user attach`");
    }

    /// Follows the flow's log until it completes, the wait runs out, or the client cancels.
    pub(crate) async fn wait_for(
        &self,
        id: &str,
        form: &Form,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<ToolResult, ErrorData> {
        let wait = self.options.wait.unwrap_or(Duration::from_secs(self.settings().mcp.wait_seconds));
        let start = Instant::now();
        let every = self.options.progress_every;
        let mut next_progress = every;
        let mut follower = FlowFollower::new(id);
        loop {
            let (polled, interval) = self
                .off_workers(move |s| {
                    let interval = follower.poll(&s.store);
                    (follower, interval)
                })
                .await?;
            follower = polled;
            let interval = interval.map_err(internal)?;
            if let Some(result) = follower.state().result_of(id) {
                let owned = id.to_owned();
                if let Err(e) = self.off_workers(move |s| s.store.settle(&owned)).await? {
                    tracing::warn!(flow = %id, error = %e, "could not note the result as returned");
                }
                return Ok(result);
            }
            if start.elapsed() >= wait || ctx.ct.is_cancelled() {
                tracing::info!(flow = %id, "call ended before the answer; the form stays open");
                return Ok(still_open(id, form, wait));
            }
            if start.elapsed() >= next_progress {
                let message = format!("Still waiting for the user to answer (form {id}).");
                notify(ctx, &message, start.elapsed().as_secs_f64()).await;
                next_progress += every;
            }
            tokio::select! {
                () = tokio::time::sleep(interval) => {}
                () = ctx.ct.cancelled() => {}
            }
        }
    }
}

/// The result of a call that ended before the user answered.
fn still_open(id: &str, form: &Form, waited: Duration) -> ToolResult {
    let mut result = ask_engine::fallback_result(form);
    let text = format!(
        "The user has not answered yet (waited {} s). The form stays open as flow {id}: the user can answer it \
         with `ask-user attach {id}`. Call ask_user again with the same payload to collect the answers; \
         it will not ask twice.",
        waited.as_secs()
    );
    result.content = vec![ask_schema::TextContent::text(text)];
    // Machine-readable too: a client that gives its model only `structuredContent` would
    // otherwise see the "Needs user input" shape and have the model ask in plain text.
    result.details.still_open = true;
    result.details.flow_id = Some(id.to_owned());
    result
}

async fn notify(ctx: &RequestContext<RoleServer>, message: &str, progress: f64) {
    if let Some(token) = ctx.meta.get_progress_token() {
        let param = ProgressNotificationParam::new(token, progress).with_message(message.to_owned());
        let _ = ctx.peer.notify_progress(param).await;
    }
}
