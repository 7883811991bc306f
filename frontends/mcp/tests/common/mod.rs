//! A real rmcp client talking to the server over an in-memory pipe, and the helpers the MCP
//! tests share.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)] // each test file uses a part

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ask_engine::{Event, KeyPress};
use ask_mcp::{AskServer, McpOptions};
use ask_storage::{DurableFlow, Store};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, ProgressNotificationParam, Request,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

/// A client that may answer elicitations with a fixed reply, and records what it saw.
#[derive(Clone, Default)]
pub struct Client {
    /// The name the client gives itself (`test-client` when unset).
    pub name: Option<&'static str>,
    /// Speak the 2026-07-28 revision (elicitation as an `input_required` result).
    pub stateless: bool,
    pub elicit: Option<(ElicitationAction, Option<Value>)>,
    /// Declare elicitation but answer every form request with an error.
    pub elicit_fails: bool,
    pub schemas: Arc<Mutex<Vec<Value>>>,
    pub progress: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps = if self.elicit.is_some() || self.elicit_fails {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        let config =
            ClientConfig::new(caps, Implementation::new(self.name.unwrap_or("test-client"), "1.0.0"));
        if self.stateless {
            config.with_protocol_version(rmcp::model::ProtocolVersion::V_2026_07_28)
        } else {
            config
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if let ElicitRequestParams::FormElicitationParams { requested_schema, .. } = request {
            self.schemas.lock().unwrap().push(serde_json::to_value(requested_schema).unwrap());
        }
        if self.elicit_fails {
            return Err(ErrorData::internal_error("this client cannot show forms after all", None));
        }
        let (action, content) = self.elicit.clone().expect("declared elicitation");
        let mut result = ElicitResult::new(action);
        result.content = content;
        Ok(result)
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params.message.unwrap_or_default());
    }
}

pub struct Setup {
    pub dir: tempfile::TempDir,
    pub client: RunningService<RoleClient, Client>,
    pub handler: Client,
}

impl Setup {
    pub fn store_path(&self) -> std::path::PathBuf {
        self.dir.path().join("store.redb")
    }
}

pub async fn setup(handler: Client, config: Value, wait: Duration) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
    setup_in(dir, handler, wait).await
}

/// A server and client on the store and config in `dir`.
pub async fn setup_in(dir: tempfile::TempDir, handler: Client, wait: Duration) -> Setup {
    setup_with(dir, handler, |options| options.wait = Some(wait)).await
}

/// A server whose options (progress every 100 ms) `edit` changes, and a client, on `dir`.
pub async fn setup_with(
    dir: tempfile::TempDir,
    handler: Client,
    edit: impl FnOnce(&mut McpOptions),
) -> Setup {
    let mut options = McpOptions::new(
        dir.path().join("store.redb"),
        Some(dir.path().join("config.json")),
        "ask-user".into(),
    );
    options.progress_every = Duration::from_millis(100);
    edit(&mut options);
    let server = AskServer::new(options).unwrap();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    let client = handler.clone().serve(client_io).await.unwrap();
    Setup { dir, client, handler }
}

pub fn payload() -> Value {
    json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?",
         "options": [{"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "extras", "label": "Extras", "prompt": "Which extras?", "type": "multi",
         "options": [{"value": "ci", "label": "CI"}, {"value": "docker", "label": "Docker"}, {"value": "lint", "label": "Lint"}]}
    ]})
}

pub async fn call(setup: &Setup, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone());
    setup.client.call_tool(params).await.unwrap()
}

pub fn details(result: &CallToolResult) -> Value {
    result.structured_content.clone().expect("details as structuredContent")
}

pub fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content[0]).unwrap()["text"].as_str().unwrap().to_owned()
}

/// Sends a call without waiting for its result (with a progress token, as clients that show
/// progress do).
pub async fn start_call(s: &Setup) -> rmcp::service::RequestHandle<RoleClient> {
    let params =
        CallToolRequestParams::new("ask_user").with_arguments(payload().as_object().unwrap().clone());
    let request = ClientRequest::CallToolRequest(Request::new(params));
    s.client.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap()
}

/// A call to `s`'s server answered meanwhile in "another terminal": the second option of the
/// first question, the first of the second, then submit.
pub async fn call_answered_elsewhere(s: &Setup) -> rmcp::model::CallToolResult {
    let store = s.store_path();
    let answering = std::thread::spawn(move || answer_elsewhere(&store, &["2", "enter", "1", "1"]));
    let handle = start_call(s).await;
    let rmcp::model::ServerResult::CallToolResult(result) = handle.await_response().await.unwrap() else {
        panic!("a tool result")
    };
    answering.join().unwrap();
    result
}

/// Answers the newest flow from another store handle, as `ask-user attach` in another terminal.
pub fn answer_elsewhere(store_path: &std::path::Path, keys: &[&str]) {
    let store = Store::open(store_path).unwrap();
    let start = std::time::Instant::now();
    let id = loop {
        if let Some(record) = store.flows().unwrap().pop() {
            break record.id;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the call records its flow");
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut flow = DurableFlow::resume(&store, &id).unwrap();
    for k in keys {
        flow.push(Event::key(KeyPress::parse(k).unwrap())).unwrap();
    }
}
