//! The MCP server against a real rmcp client over an in-memory pipe.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ask_engine::{Event, KeyPress};
use ask_mcp::{AskServer, McpOptions};
use ask_storage::{DurableFlow, Store};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ClientRequest, CustomRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, Implementation, ProgressNotificationParam, Request,
    ServerResult,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};

/// A client that may answer elicitations with a fixed reply, and records what it saw.
#[derive(Clone, Default)]
struct Client {
    /// Speak the 2026-07-28 revision (elicitation as an `input_required` result).
    stateless: bool,
    elicit: Option<(ElicitationAction, Option<Value>)>,
    schemas: Arc<Mutex<Vec<Value>>>,
    progress: Arc<Mutex<Vec<String>>>,
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let caps = if self.elicit.is_some() {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        let config = ClientConfig::new(caps, Implementation::new("test-client", "1.0.0"));
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

struct Setup {
    dir: tempfile::TempDir,
    client: RunningService<RoleClient, Client>,
    handler: Client,
}

impl Setup {
    fn store_path(&self) -> std::path::PathBuf {
        self.dir.path().join("store.redb")
    }
}

async fn setup(handler: Client, config: Value, wait: Duration) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
    setup_in(dir, handler, wait).await
}

/// A server and client on the store and config in `dir`.
async fn setup_in(dir: tempfile::TempDir, handler: Client, wait: Duration) -> Setup {
    let mut options = McpOptions::new(
        dir.path().join("store.redb"),
        Some(dir.path().join("config.json")),
        "ask-user".into(),
    );
    options.wait = Some(wait);
    options.progress_every = Duration::from_millis(100);
    let server = AskServer::new(options).unwrap();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.unwrap();
        let _ = running.waiting().await;
    });
    let client = handler.clone().serve(client_io).await.unwrap();
    Setup { dir, client, handler }
}

fn payload() -> Value {
    json!({"title": "Setup", "questions": [
        {"id": "db", "label": "Database", "prompt": "Which database?",
         "options": [{"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "extras", "label": "Extras", "prompt": "Which extras?", "type": "multi",
         "options": [{"value": "ci", "label": "CI"}, {"value": "docker", "label": "Docker"}, {"value": "lint", "label": "Lint"}]}
    ]})
}

async fn call(setup: &Setup, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new("ask_user").with_arguments(args.as_object().unwrap().clone());
    setup.client.call_tool(params).await.unwrap()
}

fn details(result: &CallToolResult) -> Value {
    result.structured_content.clone().expect("details as structuredContent")
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content[0]).unwrap()["text"].as_str().unwrap().to_owned()
}

/// Sends a call without waiting for its result (with a progress token, as clients that show
/// progress do).
async fn start_call(s: &Setup) -> rmcp::service::RequestHandle<RoleClient> {
    let params =
        CallToolRequestParams::new("ask_user").with_arguments(payload().as_object().unwrap().clone());
    let request = ClientRequest::CallToolRequest(Request::new(params));
    s.client.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap()
}

const TERMINAL_ONLY: &str = r#"{"mcp": {"presentation": ["terminal"]}}"#;

#[tokio::test]
async fn the_tool_is_listed_with_a_lenient_input_schema_and_the_details_schema() {
    let s = setup(Client::default(), json!({}), Duration::from_secs(1)).await;
    let tools = s.client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    let tool = serde_json::to_value(&tools[0]).unwrap();
    assert_eq!(tool["name"], "ask_user");
    let input = tool["inputSchema"].to_string();
    assert!(input.contains("\"questions\"") && !input.contains("\"required\""), "{input}");
    let output = tool["outputSchema"].to_string();
    assert!(output.contains("\"answers\"") && output.contains("\"cancelled\""), "{output}");
    let info = s.client.peer_info().unwrap();
    assert!(info.instructions.as_deref().unwrap().contains("ask_user"));
}

#[tokio::test]
async fn contract_a_malformed_call_gets_the_structured_invalid_input_result() {
    let s = setup(Client::default(), json!({}), Duration::from_secs(1)).await;
    let result = call(&s, json!({"questions": [{"id": " ", "options": []}]})).await;
    let d = details(&result);
    assert_eq!(d["cancelled"], true);
    assert_eq!(d["error"]["kind"], "invalid_input");
    assert!(d["error"]["issues"].as_array().unwrap().len() >= 3, "every issue at once: {d}");
    assert!(text(&result).starts_with("Invalid ask_user payload:"));
}

/// A `tools/call` whose params rmcp cannot type reaches rmcp as an unknown method. For
/// `ask_user` the tool's validation answers, as for any other malformed payload (without this,
/// rmcp answered "method not found: tools/call"); without the tool's name it is a protocol error.
#[tokio::test]
async fn contract_arguments_that_are_not_an_object_get_the_invalid_input_result_too() {
    let s = setup(Client::default(), json!({}), Duration::from_secs(1)).await;
    let send = |method: &str, params: Value| {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)));
        s.client.send_request(request)
    };
    for arguments in [json!(5), json!("{\"questions\": []}"), json!([payload()]), json!(true)] {
        let reply = send("tools/call", json!({"name": "ask_user", "arguments": arguments})).await;
        // A client reads it as any tool result.
        let Ok(ServerResult::CallToolResult(result)) = reply else { panic!("{arguments}: {reply:?}") };
        assert_eq!(details(&result)["error"]["issues"][0]["message"], "payload must be a JSON object");
        assert!(text(&result).starts_with("Invalid ask_user payload:"), "{arguments}");
    }
    let nameless = send("tools/call", json!({"name": 5, "arguments": {}})).await.unwrap_err();
    assert!(nameless.to_string().contains("tools/call needs params"), "{nameless}");
    let unknown = send("nope", json!({})).await.unwrap_err();
    assert!(unknown.to_string().contains("-32601"), "{unknown}");
}

#[tokio::test]
async fn elicited_answers_go_through_the_engine_and_give_the_contract_details() {
    let reply = json!({"q1": "sqlite", "q1_note": "we are small", "q2": ["lint", "ci"], "q2_own": "sbom", "zz_finish": "submit"});
    let client = Client { elicit: Some((ElicitationAction::Accept, Some(reply))), ..Client::default() };
    let s =
        setup(client, json!({"mcp": {"presentation": ["elicitation", "terminal"]}}), Duration::from_secs(5))
            .await;
    let result = call(&s, payload()).await;
    let d = details(&result);
    assert_eq!(d["mode"], "submit");
    assert_eq!(d["cancelled"], false);
    assert_eq!(
        d["answers"]["db"],
        json!({"values": ["sqlite"], "labels": ["SQLite"], "indices": [2], "note": "we are small"})
    );
    assert_eq!(
        d["answers"]["extras"],
        json!({"values": ["ci", "lint", "sbom"], "labels": ["CI", "Lint", "sbom"], "indices": [1, 3], "customText": "sbom"}),
        "declared order, custom text last (D1)"
    );
    assert!(text(&result).contains("no option notes"), "says what the client's form could not offer");
    let schema = s.handler.schemas.lock().unwrap()[0].clone();
    assert_eq!(schema["properties"]["q1"]["oneOf"][1], json!({"const": "sqlite", "title": "SQLite"}));
    assert_eq!(schema["properties"]["q2"]["type"], "array");
    // The flow is in the store like any other.
    drop(s.client);
    let store = Store::open(&s.dir.path().join("store.redb")).unwrap();
    assert_eq!(store.flows().unwrap().len(), 1);
}

#[tokio::test]
async fn elicited_elaborate_and_decline_map_to_the_contract_modes() {
    let reply = json!({"q1": "pg", "q2_note": "why docker?", "zz_finish": "elaborate"});
    let client = Client { elicit: Some((ElicitationAction::Accept, Some(reply))), ..Client::default() };
    let s = setup(client, json!({"mcp": {"presentation": ["elicitation"]}}), Duration::from_secs(5)).await;
    let d = details(&call(&s, payload()).await);
    assert_eq!(d["mode"], "elaborate");
    assert_eq!(d["continuation"]["affectedQuestionIds"], json!(["extras"]));
    assert_eq!(d["elaboration"]["items"][0]["note"], "why docker?");

    let declined = Client { elicit: Some((ElicitationAction::Decline, None)), ..Client::default() };
    let s = setup(declined, json!({"mcp": {"presentation": ["elicitation"]}}), Duration::from_secs(5)).await;
    let result = call(&s, payload()).await;
    assert_eq!(details(&result)["cancelled"], true);
    assert!(text(&result).contains("cancelled"), "{}", text(&result));
}

#[tokio::test]
async fn an_exhausted_presentation_list_gives_needs_user_input_at_once() {
    let s =
        setup(Client::default(), json!({"mcp": {"presentation": ["elicitation"]}}), Duration::from_secs(30))
            .await;
    let result = call(&s, payload()).await;
    assert!(text(&result).starts_with("Needs user input"), "{}", text(&result));
    assert_eq!(details(&result)["questions"].as_array().unwrap().len(), 2);
}

/// Answers the newest flow from another store handle, as `ask-user attach` in another terminal.
fn answer_elsewhere(store_path: &std::path::Path, keys: &[&str]) {
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

#[tokio::test(flavor = "multi_thread")]
async fn without_tmux_or_elicitation_the_call_waits_for_an_answer_given_in_another_terminal() {
    let s =
        setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), Duration::from_secs(20)).await;
    let store = s.store_path();
    let answering = std::thread::spawn(move || answer_elsewhere(&store, &["2", "enter", "1", "1"]));
    let handle = start_call(&s).await;
    let ServerResult::CallToolResult(result) = handle.await_response().await.unwrap() else {
        panic!("a tool result")
    };
    answering.join().unwrap();
    assert_eq!(details(&result)["answers"]["db"]["values"], json!(["sqlite"]));
    let progress = s.handler.progress.lock().unwrap().clone();
    assert!(
        progress.iter().any(|m| m.contains("ask-user attach")),
        "tells the user where to answer: {progress:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_call_that_times_out_leaves_the_form_open_and_a_repeated_call_returns_its_answers() {
    let s =
        setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), Duration::from_millis(300))
            .await;
    let first = call(&s, payload()).await;
    let t = text(&first);
    assert!(t.contains("has not answered yet") && t.contains("ask-user attach mcp-"), "{t}");
    let open = details(&first);
    assert_eq!((&open["cancelled"], &open["stillOpen"]), (&json!(true), &json!(true)), "{open}");
    answer_elsewhere(&s.store_path(), &["1", "tab", "1", "1"]);
    let second = call(&s, payload()).await;
    let answered = details(&second);
    assert_eq!(answered["answers"]["db"]["values"], json!(["pg"]), "the answer given meanwhile");
    assert!(answered.get("stillOpen").is_none() && answered.get("flowId").is_none(), "{answered}");
    let store = Store::open(&s.store_path()).unwrap();
    let flows = store.flows().unwrap();
    assert_eq!(flows.len(), 1, "never a second form for the same question");
    assert_eq!(open["flowId"], json!(flows[0].id), "the structured result names the open flow");
}

/// The map of open forms lives in the server; a client that restarts its server (or a server
/// that crashed) used to get a second form for the repeated call, and the user's answers to the
/// first one never reached the agent.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_left_open_by_a_server_that_restarted_is_picked_up_by_the_repeated_call() {
    let wait = Duration::from_millis(300);
    let restart = |s: Setup| async move {
        let Setup { dir, client, .. } = s;
        client.cancel().await.unwrap();
        setup_in(dir, Client::default(), wait).await
    };
    let s = setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), wait).await;
    let first = details(&call(&s, payload()).await);
    assert_eq!(first["stillOpen"], true, "{first}");
    // Not answered yet: after a restart the same form still waits, no second one.
    let s = restart(s).await;
    let again = details(&call(&s, payload()).await);
    assert_eq!((&again["stillOpen"], &again["flowId"]), (&json!(true), &first["flowId"]), "{again}");
    // Answered while no server waited: the next server's call returns the answers.
    let s = restart(s).await;
    answer_elsewhere(&s.store_path(), &["2", "enter", "1", "1"]);
    let answered = details(&call(&s, payload()).await);
    assert_eq!(
        answered["answers"]["db"]["values"],
        json!(["sqlite"]),
        "the answer given meanwhile: {answered}"
    );
    let store = Store::open(&s.store_path()).unwrap();
    assert_eq!(store.flows().unwrap().len(), 1, "never a second form for the same question");
    assert!(store.owed().unwrap().is_empty(), "the result was returned");
    // That result has been handed out: the same question asked again is a new form.
    let fresh = details(&call(&s, payload()).await);
    assert_eq!(fresh["stillOpen"], true, "{fresh}");
    assert_ne!(fresh["flowId"], first["flowId"]);
    assert_eq!(store.flows().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn parallel_calls_each_get_their_own_flow_and_all_are_answered() {
    let s =
        setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), Duration::from_secs(20)).await;
    let mut a = payload();
    a["title"] = json!("A");
    let mut b = payload();
    b["title"] = json!("B");
    let store = s.store_path();
    let answering = std::thread::spawn(move || {
        let handle = Store::open(&store).unwrap();
        let start = std::time::Instant::now();
        while handle.flows().unwrap().len() < 2 {
            assert!(start.elapsed() < Duration::from_secs(10));
            std::thread::sleep(Duration::from_millis(10));
        }
        for record in handle.flows().unwrap() {
            let mut flow = DurableFlow::resume(&handle, &record.id).unwrap();
            for k in ["1", "tab", "1", "1"] {
                flow.push(Event::key(KeyPress::parse(k).unwrap())).unwrap();
            }
        }
    });
    let (ra, rb) = tokio::join!(call(&s, a), call(&s, b));
    answering.join().unwrap();
    assert_eq!(details(&ra)["title"], "A");
    assert_eq!(details(&rb)["title"], "B");
    assert_eq!(details(&ra)["answers"]["db"]["values"], json!(["pg"]));
    assert_eq!(details(&rb)["answers"]["db"]["values"], json!(["pg"]));
}

#[tokio::test]
async fn a_2026_07_28_client_gets_the_form_as_input_required_and_its_retry_gives_the_result() {
    use rmcp::model::{InitializeRequestParams, ProtocolVersion, ServerCapabilities};
    use rmcp::service::{RoleServer, serve_directly};
    let reply = json!({"q1": "pg", "q2": ["docker"], "zz_finish": "submit"});
    let handler = Client {
        stateless: true,
        elicit: Some((ElicitationAction::Accept, Some(reply))),
        ..Client::default()
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), r#"{"mcp": {"presentation": ["elicitation"]}}"#).unwrap();
    let options = McpOptions::new(
        dir.path().join("store.redb"),
        Some(dir.path().join("config.json")),
        "ask-user".into(),
    );
    let server = AskServer::new(options).unwrap();
    // The 2026-07-28 revision has no initialize handshake: both sides know each other up front.
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let client_info = InitializeRequestParams::new(
        ClientCapabilities::builder().enable_elicitation().build(),
        Implementation::new("stateless-client", "1.0.0"),
    )
    .with_protocol_version(ProtocolVersion::V_2026_07_28);
    let mut server_info =
        rmcp::model::InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
    server_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let running = serve_directly::<RoleServer, _, _, _, _>(server, server_io, Some(client_info));
    let client =
        serve_directly::<RoleClient, _, _, _, _>(handler.clone(), client_io, Some(server_info.into()));
    // rmcp's client fulfils input_required by itself: it answers the form and retries the call.
    let params =
        CallToolRequestParams::new("ask_user").with_arguments(payload().as_object().unwrap().clone());
    let result = client.call_tool(params).await.unwrap();
    let d = details(&result);
    assert_eq!(d["answers"]["db"]["values"], json!(["pg"]));
    assert_eq!(d["answers"]["extras"]["values"], json!(["docker"]));
    assert_eq!(handler.schemas.lock().unwrap().len(), 1, "the form was asked once");
    drop(client);
    drop(running);
    let store = Store::open(&dir.path().join("store.redb")).unwrap();
    assert_eq!(store.flows().unwrap().len(), 1);
    assert_eq!(store.payloads("default").unwrap().len(), 1, "the retry stores no second payload");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cancelled_call_leaves_a_resumable_form_and_the_repeated_call_returns_its_answers() {
    let s =
        setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), Duration::from_secs(20)).await;
    let handle = start_call(&s).await;
    let store = Store::open(&s.store_path()).unwrap();
    let start = std::time::Instant::now();
    while store.flows().unwrap().is_empty() {
        assert!(start.elapsed() < Duration::from_secs(10));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    handle.cancel(Some("the agent moved on".into())).await.unwrap();
    let id = store.flows().unwrap()[0].id.clone();
    // The user answers later, in another terminal; the flow is resumable by anyone.
    let mut flow = DurableFlow::resume(&store, &id).unwrap();
    for k in ["2", "enter", "1", "1"] {
        flow.push(Event::key(KeyPress::parse(k).unwrap())).unwrap();
    }
    drop(flow);
    let again = call(&s, payload()).await;
    assert_eq!(details(&again)["answers"]["db"]["values"], json!(["sqlite"]));
    assert_eq!(store.flows().unwrap().len(), 1, "the same form, not a second one");
}
