//! The MCP server: one tool, `ask_user`, validated inside the tool as the contract says.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ask_engine::{Event, FlowState, Origin, Size};
use ask_schema::{Form, FormSource, ToolResult, validate};
use ask_storage::{DurableFlow, FlowRecord, PayloadEntry, Store, now_ms, raw_params};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest, CustomResult,
    ElicitRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ErrorCode, Implementation,
    InitializeResult, InputRequest, InputRequests, InputRequiredResult, JsonObject, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, Tool,
};
use rmcp::service::{ElicitationMode, RequestContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::elicit::{self, MultiStyle};
use crate::present::{self, Rung};

/// What the server needs to know.
#[derive(Debug, Clone)]
pub struct McpOptions {
    /// The store file shared with every other ask-user process.
    pub store: PathBuf,
    /// The config file (settings, `mcp.presentation`, `mcp.waitSeconds`).
    pub config: Option<PathBuf>,
    /// The payload session forms are stored under.
    pub session: String,
    /// How long one call waits for an answer (`None`: `mcp.waitSeconds`).
    pub wait: Option<Duration>,
    /// The `ask-user` binary the tmux popup runs.
    pub bin: PathBuf,
    /// How often a waiting call tells the client it is still alive (progress notifications
    /// reset Claude Code's idle timer and pi's request timeout); 20 s by default.
    pub progress_every: Duration,
}

impl McpOptions {
    /// Options for a store and config, with the defaults for everything else.
    pub fn new(store: PathBuf, config: Option<PathBuf>, bin: PathBuf) -> McpOptions {
        McpOptions {
            store,
            config,
            session: "default".to_owned(),
            wait: None,
            bin,
            progress_every: Duration::from_secs(20),
        }
    }
}

/// The `ask_user` MCP server.
#[derive(Clone)]
pub struct AskServer {
    pub(crate) options: Arc<McpOptions>,
    pub(crate) store: Arc<Store>,
    /// One popup at a time on the user's terminal; parallel calls queue here.
    pub(crate) popup: Arc<tokio::sync::Mutex<()>>,
}

impl AskServer {
    /// Opens the store and gets ready to serve.
    pub fn new(options: McpOptions) -> anyhow::Result<AskServer> {
        let store = Store::open(&options.store)?;
        Ok(AskServer { options: Arc::new(options), store: Arc::new(store), popup: Arc::default() })
    }

    fn tool() -> Tool {
        let object = |v: Value| -> JsonObject { v.as_object().cloned().unwrap_or_default() };
        let mut tool = Tool::new(
            "ask_user",
            "Ask the user structured questions (single choice, multiple choice, or choice with a preview pane; \
             every question also takes a typed answer and a note) when the next step depends on their preference \
             or a missing requirement. Returns their answers, or their notes asking you to elaborate first.",
            object(ask_schema::lenient_input_schema()),
        );
        tool.output_schema = Some(Arc::new(object(ask_schema::details_schema())));
        tool
    }

    pub(crate) fn settings(&self) -> ask_storage::LoadedConfig {
        ask_storage::load_settings(self.options.config.as_deref())
    }

    fn rungs(&self) -> Vec<Rung> {
        self.settings().mcp.presentation.iter().filter_map(|n| Rung::parse(n)).collect()
    }

    /// Runs `f` on tokio's blocking threads. Store calls can wait up to the store's bounded wait
    /// for another process's transaction, and validation grows with the payload: on the two or
    /// so workers, a few such calls would stall every other message (a `ping`, a cancellation,
    /// the progress that keeps a client's timer alive).
    pub(crate) async fn off_workers<T: Send + 'static>(
        &self,
        f: impl FnOnce(&AskServer) -> T + Send + 'static,
    ) -> Result<T, ErrorData> {
        let server = self.clone();
        tokio::task::spawn_blocking(move || f(&server)).await.map_err(internal)
    }

    async fn ask(
        &self,
        mut request: CallToolRequestParams,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        ask_storage::faults::at("mcp-call");
        let raw = Value::Object(request.arguments.take().unwrap_or_default());
        // Validation grows with the payload: about 0.1 s at a million options. The arguments
        // are kept only as the stored payload's text: a parsed `Value` is several times larger.
        let (form, params) = match self
            .off_workers(move |_| validate(&raw, FormSource::Tool).map(|form| (form, raw_params(&raw))))
            .await?
        {
            Ok((form, params)) => (Arc::new(form), params),
            Err(issues) => return Ok(done(ask_engine::invalid_result(issues))),
        };
        // A 2026-07-28 client retrying with the form's answers: the flow id is the request state.
        if let (Some(id), Some(responses)) = (&request.request_state, &request.input_responses) {
            let reply = responses.get(FORM_INPUT).cloned().unwrap_or(Value::Null);
            let reply: ElicitResult =
                serde_json::from_value(reply).map_err(|e| internal(format!("form answer: {e}")))?;
            // The request state comes back from the client: it may name only a flow this server
            // asked about with these same questions, never another flow's answers in the store.
            let (owned, asked) = (id.clone(), Arc::clone(&form));
            if !self.off_workers(move |s| s.issued_here(&owned, &asked)).await?? {
                return Err(ErrorData::invalid_params(
                    "the request state names no form this server asked with these questions",
                    None,
                ));
            }
            return self.answered(id, &form, reply).await.map(done);
        }
        if let Some(id) = self.owed_flow(&form).await? {
            return self.wait_for(&id, &form, ctx).await.map(done);
        }
        let id = ask_storage::new_flow_id("mcp-");
        let entry = PayloadEntry {
            version: 1,
            timestamp: now_ms(),
            params,
            source: FormSource::Tool,
            flow_id: Some(id.clone()),
        };
        self.off_workers(move |s| s.store.save_payload(&s.options.session, &entry).map_err(internal))
            .await??;
        for rung in self.rungs() {
            match rung {
                Rung::Tmux if present::tmux_available() => {
                    return self.in_popup(&id, &form, ctx).await.map(done);
                }
                Rung::Elicitation
                    if ctx.peer.supported_elicitation_modes().contains(&ElicitationMode::Form) =>
                {
                    if let Some(response) = self.by_elicitation(&id, &form, ctx).await? {
                        return Ok(response);
                    }
                }
                Rung::Terminal => {
                    self.record(&id, &form).await?;
                    return self.in_another_terminal(&id, &form, ctx).await.map(done);
                }
                _ => {}
            }
        }
        Ok(done(ask_engine::fallback_result(&form)))
    }

    /// The client's own form. A 2025-11-25 client is sent `elicitation/create` and answers in
    /// this call; a 2026-07-28 client gets an `input_required` result and retries the call with
    /// the answers (handled in [`AskServer::ask`]), the flow id travelling as the request state.
    /// `None` when the client could not show the form (it answered the request with an error):
    /// the next rung then shows it, rather than the agent getting an error for the user's form.
    async fn by_elicitation(
        &self,
        id: &str,
        form: &Arc<Form>,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Option<CallToolResponse>, ErrorData> {
        let codex =
            ctx.peer.peer_info().is_some_and(|info| info.client_info.name.to_lowercase().contains("codex"));
        let style = if codex { MultiStyle::Booleans } else { MultiStyle::Array };
        let schema = serde_json::from_value(elicit::schema(form, style))
            .map_err(|e| internal(format!("elicitation schema: {e}")))?;
        let message = form.title.clone().unwrap_or_else(|| "The agent has questions for you".to_owned());
        let request =
            ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema: schema };
        let stateless =
            ctx.peer.peer_info().is_some_and(|info| info.protocol_version == ProtocolVersion::V_2026_07_28);
        if stateless {
            let mut requests = InputRequests::new();
            requests.insert(FORM_INPUT.to_owned(), InputRequest::Elicitation(ElicitRequest::new(request)));
            return Ok(Some(InputRequiredResult::new(Some(requests), Some(id.to_owned())).into()));
        }
        match ctx.peer.create_elicitation(request).await {
            Ok(reply) => self.answered(id, form, reply).await.map(|r| Some(done(r))),
            Err(e) => {
                tracing::warn!(flow = %id, error = %e, "the client could not show the form; trying the next way");
                Ok(None)
            }
        }
    }

    /// Feeds the client form's answers through a recorded flow and returns its result.
    async fn answered(
        &self,
        id: &str,
        form: &Arc<Form>,
        reply: ElicitResult,
    ) -> Result<ToolResult, ErrorData> {
        // A retry of a retry: the answers are already recorded.
        let owned = id.to_owned();
        let recorded = self
            .off_workers(move |s| match s.store.flow(&owned).map_err(internal)? {
                Some(_) => Ok(Some(FlowState::replay(&s.store.events(&owned).map_err(internal)?))),
                None => Ok(None),
            })
            .await??;
        if let Some(state) = recorded {
            return state.result_of(id).ok_or_else(|| internal(format!("flow {id} is still open")));
        }
        let events = match (reply.action, reply.content) {
            (ElicitationAction::Accept, Some(Value::Object(content))) => elicit::events(form, &content),
            _ => elicit::declined(),
        };
        let (id, owned) = (id.to_owned(), Arc::clone(form));
        let mut result = self
            .off_workers(move |s| run_headless(&s.store, &id, owned, &s.options.session, events))
            .await??;
        if let Some(first) = result.content.first_mut() {
            first.text.push('\n');
            first.text.push_str(&elicit::limits(form));
        }
        Ok(result)
    }

    /// Whether `id` is a flow this server (in this session) asked `form` under: recorded as an
    /// `mcp` flow of that form, or not recorded yet but its payload stored with that id.
    fn issued_here(&self, id: &str, form: &Form) -> Result<bool, ErrorData> {
        if let Some(record) = self.store.flow(id).map_err(internal)? {
            return self.recorded_here(&record, form);
        }
        let payloads = self.store.payloads(&self.options.session).map_err(internal)?;
        Ok(payloads.iter().rev().any(|p| {
            p.flow_id.as_deref() == Some(id)
                && ask_schema::validate_text(p.params.get(), FormSource::Tool).is_ok_and(|f| f == *form)
        }))
    }
}

/// The command recorded for the flows this server opens (`log list` shows it).
pub(crate) const COMMAND: &str = "mcp";

/// The key of the form in an `input_required` result's requests.
const FORM_INPUT: &str = "form";

fn done(result: ToolResult) -> CallToolResponse {
    to_call_result(result).into()
}

/// The opening event of a flow this server records.
pub(crate) fn opening(form: Arc<Form>, settings: ask_engine::Settings, notices: Vec<String>) -> Event {
    Event::FlowOpened {
        form,
        settings: Box::new(settings),
        origin: Origin { source: FormSource::Tool, command: COMMAND.to_owned() },
        size: Size::default(),
        notices,
    }
}

/// Feeds `events` through a durable flow of its own and returns its result.
fn run_headless(
    store: &Store,
    id: &str,
    form: Arc<Form>,
    session: &str,
    events: Vec<Event>,
) -> Result<ToolResult, ErrorData> {
    let opened = opening(form, elicit::settings(), Vec::new());
    let mut flow = DurableFlow::start(store, &FlowRecord::new(id, COMMAND, session, now_ms()), opened)
        .map_err(internal)?;
    for event in events {
        flow.push(event).map_err(internal)?;
        if flow.state().outcome().is_some() {
            break;
        }
    }
    flow.state()
        .result_of(flow.id())
        .ok_or_else(|| internal("the elicited answers did not complete the form"))
}

/// Runs a call, turning a panic in it (a bug) into an error reply. rmcp would otherwise drop
/// the call without a word, and the client wait for a reply until its own timeout.
async fn contained<T>(call: impl Future<Output = Result<T, ErrorData>>) -> Result<T, ErrorData> {
    use futures::FutureExt;
    std::panic::AssertUnwindSafe(call).catch_unwind().await.unwrap_or_else(|panic| {
        Err(internal(format!(
            "internal error in ask-user (a bug, logged with its backtrace): {}",
            ask_storage::panic_text(panic.as_ref())
        )))
    })
}

pub(crate) fn internal(e: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(e.to_string(), None)
}

fn to_call_result(result: ToolResult) -> CallToolResult {
    let text = result.text().to_owned();
    let mut call = CallToolResult::success(vec![ContentBlock::text(text)]);
    call.structured_content = serde_json::to_value(&result.details).ok();
    call
}

impl ServerHandler for AskServer {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("ask-user", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![Self::tool()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "ask_user" {
            return Err(ErrorData::invalid_params(format!("no tool named {}", request.name), None));
        }
        contained(self.ask(request, &context)).await
    }

    /// rmcp reads a `tools/call` whose `params` it cannot type (arguments that are not an
    /// object, a name that is not a string) as a call of an unknown method, and would answer
    /// "method not found: tools/call". A call of `ask_user` is answered by the tool's own
    /// validation instead, as any other malformed payload is: one `invalid_input` result.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        // rmcp drops `resultType: "complete"` from typed results for peers older than
        // 2026-07-28; a custom result is passed through as built, so it is done here alike.
        let legacy =
            context.protocol_version().is_none_or(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str());
        contained(async move { untyped_call(request, legacy) }).await
    }
}

/// A `tools/call` rmcp could not type (see [`ServerHandler::on_custom_request`]), for a peer
/// speaking a revision before 2026-07-28 when `legacy`.
fn untyped_call(request: CustomRequest, legacy: bool) -> Result<CustomResult, ErrorData> {
    if request.method != "tools/call" {
        return Err(ErrorData::new(ErrorCode::METHOD_NOT_FOUND, request.method, None));
    }
    let params = request.params.unwrap_or(Value::Null);
    if params.get("name").and_then(Value::as_str) != Some("ask_user") {
        return Err(ErrorData::invalid_params(
            "tools/call needs params {\"name\": \"ask_user\", \"arguments\": {…}}",
            None,
        ));
    }
    let raw = params.get("arguments").cloned().unwrap_or(Value::Null);
    let issues = match validate(&raw, FormSource::Tool) {
        Err(issues) => issues,
        Ok(_) => return Err(internal("arguments rmcp could not read passed validation")),
    };
    let mut result = to_call_result(ask_engine::invalid_result(issues));
    if legacy {
        result.result_type = None;
    }
    Ok(CustomResult::new(serde_json::to_value(result).map_err(internal)?))
}

/// The skill's guidance, in short.
const INSTRUCTIONS: &str = "Call ask_user when the next step depends on the user's preference or on a requirement \
you do not have — instead of guessing. Bundle 2-3 related questions in one call; give each a few concrete \
options (the user can always type their own answer and add notes). If the result has mode \"elaborate\", \
answer the user's notes first, then re-ask only the affected questions. If a call returns before the user \
answered (details.stillOpen), call it again later with the same payload: the answers given meanwhile are \
returned.";
