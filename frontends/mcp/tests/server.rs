//! The MCP server against a real rmcp client over an in-memory pipe: the tool's listing, bad
//! calls, and forms answered in another terminal (waiting, timing out, restarts, cancelling).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::Duration;

use ask_engine::{Event, KeyPress};
use ask_storage::{DurableFlow, Store};
use common::{
    Client, Setup, answer_elsewhere, call, call_answered_elsewhere, details, payload, setup, setup_in,
    setup_with, start_call, text,
};
use rmcp::model::{ClientRequest, CustomRequest, ServerResult};
use serde_json::{Value, json};

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
#[rstest::rstest]
#[case::a_client_before_2026_07_28(false)]
#[case::a_2026_07_28_client(true)]
#[tokio::test]
async fn contract_arguments_that_are_not_an_object_get_the_invalid_input_result_too(#[case] stateless: bool) {
    let s = setup(Client { stateless, ..Client::default() }, json!({}), Duration::from_secs(1)).await;
    // Shaped as a typed call's result is for this client: `resultType` was sent to every
    // client, also to those before 2026-07-28, which rmcp spares it.
    let typed = call(&s, json!({"questions": []})).await;
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
        assert_eq!(result.result_type, typed.result_type, "{arguments}");
    }
    let nameless = send("tools/call", json!({"name": 5, "arguments": {}})).await.unwrap_err();
    assert!(nameless.to_string().contains("tools/call needs params"), "{nameless}");
    let unknown = send("nope", json!({})).await.unwrap_err();
    assert!(unknown.to_string().contains("-32601"), "{unknown}");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_tmux_or_elicitation_the_call_waits_for_an_answer_given_in_another_terminal() {
    let s =
        setup(Client::default(), serde_json::from_str(TERMINAL_ONLY).unwrap(), Duration::from_secs(20)).await;
    let result = call_answered_elsewhere(&s).await;
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

/// Forms left open are kept per payload session: an agent in another session (another project,
/// another MCP client) asking the same question gets its own form, not the other's answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_form_left_open_in_another_session_is_not_picked_up() {
    let in_session = |dir, session: &'static str| {
        setup_with(dir, Client::default(), move |o| {
            o.wait = Some(Duration::from_millis(200));
            o.session = session.to_owned();
        })
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), TERMINAL_ONLY).unwrap();
    let a = in_session(dir, "a").await;
    let first = details(&call(&a, payload()).await);
    let Setup { dir, client, .. } = a;
    client.cancel().await.unwrap();
    let b = in_session(dir, "b").await;
    let other = details(&call(&b, payload()).await);
    assert_eq!(other["stillOpen"], true, "{other}");
    assert_ne!(other["flowId"], first["flowId"], "session b gets a form of its own");
    let Setup { dir, client, .. } = b;
    client.cancel().await.unwrap();
    let a = in_session(dir, "a").await;
    let again = details(&call(&a, payload()).await);
    assert_eq!(again["flowId"], first["flowId"], "session a still finds its own");
}

/// While a call waits, the client hears it is alive every `progress_every` — often enough to
/// keep its timer from running out, never once per look at the store.
#[tokio::test(flavor = "multi_thread")]
async fn a_waiting_call_reports_progress_at_its_interval_not_at_every_look() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), TERMINAL_ONLY).unwrap();
    let s = setup_with(dir, Client::default(), |o| {
        o.wait = Some(Duration::from_millis(2000));
        o.progress_every = Duration::from_millis(600);
    })
    .await;
    let handle = start_call(&s).await;
    let ServerResult::CallToolResult(result) = handle.await_response().await.unwrap() else {
        panic!("a tool result")
    };
    assert_eq!(details(&result)["stillOpen"], true);
    let progress = s.handler.progress.lock().unwrap().clone();
    let alive = progress.iter().filter(|m| m.starts_with("Still waiting for the user")).count();
    assert!((1..=3).contains(&alive), "one every 600 ms of a 2 s wait: {progress:?}");
}
