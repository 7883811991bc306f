//! The form asked through the client's own UI (MCP elicitation): what the client is sent, and
//! how its answers come back through the engine in the contract's shape.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::Duration;

use ask_mcp::{AskServer, McpOptions};
use ask_storage::Store;
use common::{Client, call, call_answered_elsewhere, details, payload, setup, text};
use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ElicitationAction, Implementation};
use serde_json::{Value, json};

const ELICITATION: &str = r#"{"mcp": {"presentation": ["elicitation"]}}"#;

/// A client named `name` that accepts the form with `reply`.
fn accepting(name: Option<&'static str>, reply: Value) -> Client {
    Client { name, elicit: Some((ElicitationAction::Accept, Some(reply))), ..Client::default() }
}

/// The details of one call answered by a client accepting with `reply`, and the schema it was sent.
async fn answered_by(client: Client, form: Value) -> (Value, String, Value) {
    let s = setup(client, serde_json::from_str(ELICITATION).unwrap(), Duration::from_secs(5)).await;
    let result = call(&s, form).await;
    let schema = s.handler.schemas.lock().unwrap()[0].clone();
    (details(&result), text(&result), schema)
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
/// Each chosen option is reached from the one chosen before it, so later options chosen side by
/// side, and a typed answer with nothing chosen, must land where the user put them.
#[rstest::rstest]
#[case::two_neighbours_after_the_first(json!(["docker", "lint"]), None, json!(["docker", "lint"]))]
#[case::all_three(json!(["lint", "docker", "ci"]), None, json!(["ci", "docker", "lint"]))]
#[case::typed_only(json!([]), Some("sbom"), json!(["sbom"]))]
#[case::last_then_typed(json!(["lint"]), Some("sbom"), json!(["lint", "sbom"]))]
#[tokio::test]
async fn elicited_multi_choices_reach_the_options_the_user_chose(
    #[case] chosen: Value,
    #[case] own: Option<&str>,
    #[case] values: Value,
) {
    let mut reply = json!({"q1": "pg", "q2": chosen, "zz_finish": "submit"});
    if let Some(own) = own {
        reply["q2_own"] = json!(own);
    }
    let (d, _, _) = answered_by(accepting(None, reply), payload()).await;
    assert_eq!(d["mode"], "submit", "{d}");
    assert_eq!(d["answers"]["extras"]["values"], values, "{d}");
}

/// Codex renders no arrays: a multi-select question is asked as one checkbox per option, and
/// the ticked ones are the answer.
#[tokio::test]
async fn a_codex_client_gets_one_checkbox_per_option_and_its_ticks_are_the_answer() {
    let mut form = payload();
    form["questions"][1]["options"][1]["description"] = json!("Build an image");
    let reply =
        json!({"q1": "sqlite", "q2_opt1": false, "q2_opt2": true, "q2_opt3": true, "zz_finish": "submit"});
    let (d, _, schema) = answered_by(accepting(Some("codex-mcp-client"), reply), form).await;
    assert_eq!(d["answers"]["extras"]["values"], json!(["docker", "lint"]), "{d}");
    assert_eq!(d["answers"]["db"]["values"], json!(["sqlite"]), "{d}");
    let props = &schema["properties"];
    assert!(props.get("q2").is_none(), "no array for a client that cannot show one: {schema}");
    assert_eq!(
        props["q2_opt2"],
        json!({"type": "boolean", "title": "Extras: Docker", "default": false, "description": "Build an image"})
    );
    assert_eq!(props["q2_opt1"]["title"], "Extras: CI");
    assert!(props["q2_opt1"].get("description").is_none());
    assert_eq!(props["q1"]["type"], "string", "single-choice questions stay a list to pick from");
}

/// The result says once what the client's form could not show: option notes always, preview
/// panes only when the form has them.
#[rstest::rstest]
#[case::no_previews(payload(), "pg", false)]
#[case::a_preview_question(json!({"questions": [{"id": "style", "label": "Style", "prompt": "Which?", "type": "preview",
    "options": [{"value": "a", "label": "A", "preview": "fn a() {}"}, {"value": "b", "label": "B", "preview": "fn b() {}"}]}]}), "b", true)]
#[tokio::test]
async fn elicited_results_name_what_the_clients_form_could_not_show(
    #[case] form: Value,
    #[case] first: &str,
    #[case] previews: bool,
) {
    let (d, text, _) = answered_by(accepting(None, json!({"q1": first, "zz_finish": "submit"})), form).await;
    assert_eq!(d["answers"].as_object().unwrap().values().next().unwrap()["values"], json!([first]), "{d}");
    assert!(text.contains("no option notes"), "{text}");
    assert_eq!(text.contains("preview panes"), previews, "{text}");
}

/// A client that declares elicitation but fails the request (its UI cannot show the form after
/// all) does not cost the user the form: the next rung shows it, and with none left the agent
/// gets "Needs user input", as for any client without elicitation.
#[tokio::test(flavor = "multi_thread")]
async fn a_client_whose_form_fails_falls_through_to_the_next_way_of_asking() {
    let failing = Client { elicit_fails: true, ..Client::default() };
    let config = json!({"mcp": {"presentation": ["elicitation", "terminal"]}});
    let s = setup(failing.clone(), config, Duration::from_secs(20)).await;
    let result = call_answered_elsewhere(&s).await;
    assert_eq!(details(&result)["answers"]["db"]["values"], json!(["sqlite"]), "{result:?}");
    let progress = s.handler.progress.lock().unwrap().clone();
    assert!(progress.iter().any(|m| m.contains("ask-user attach")), "{progress:?}");

    let s = setup(failing, serde_json::from_str(ELICITATION).unwrap(), Duration::from_secs(5)).await;
    let result = call(&s, payload()).await;
    assert!(text(&result).starts_with("Needs user input"), "{}", text(&result));
}

/// A retry carrying something other than a form's answer is a client bug: it gets a protocol
/// error that says what was wrong, and no flow is recorded for it.
#[tokio::test]
async fn a_retry_whose_form_answer_is_malformed_gets_an_error_naming_it() {
    let s =
        setup(Client::default(), serde_json::from_str(ELICITATION).unwrap(), Duration::from_secs(5)).await;
    let mut params =
        CallToolRequestParams::new("ask_user").with_arguments(payload().as_object().unwrap().clone());
    params.request_state = Some("mcp-retry".to_owned());
    params.input_responses = Some([("form".to_owned(), json!(5))].into());
    let error = s.client.call_tool(params).await.unwrap_err().to_string();
    assert!(error.contains("form answer:"), "{error}");
    drop(s.client);
    assert!(Store::open(&s.dir.path().join("store.redb")).unwrap().flow("mcp-retry").unwrap().is_none());
}

/// The default order puts the tmux popup first; a server not inside tmux skips that rung rather
/// than sending the user to `attach` while the client could have asked.
#[tokio::test]
async fn outside_tmux_the_default_order_asks_through_the_client() {
    if std::env::var_os("TMUX").is_some_and(|t| !t.is_empty()) {
        eprintln!("run inside tmux: this test checks the server outside it, as CI runs it");
        return;
    }
    let client = accepting(None, json!({"q1": "pg", "zz_finish": "submit"}));
    let s = setup(client, json!({}), Duration::from_secs(5)).await;
    let result = call(&s, payload()).await;
    assert_eq!(details(&result)["answers"]["db"]["values"], json!(["pg"]), "{}", text(&result));
    assert_eq!(s.handler.schemas.lock().unwrap().len(), 1, "asked through the client once");
}

/// The request state of a retry comes back from the client, so the server trusts it only as far
/// as it checks it: it must name a flow this server asked with the same questions. Naming another
/// form's flow never returns that flow's answers, and naming a flow never asked records nothing;
/// a retry of the answered call itself still gets its result.
#[tokio::test(flavor = "multi_thread")]
async fn a_retry_gets_answers_only_for_the_form_it_was_asked_with() {
    let reply = json!({"q1": "sqlite", "q2": ["ci"], "zz_finish": "submit"});
    let s = setup(
        accepting(None, reply.clone()),
        serde_json::from_str(ELICITATION).unwrap(),
        Duration::from_secs(5),
    )
    .await;
    let answered = details(&call(&s, payload()).await);
    let id = Store::open(&s.store_path()).unwrap().flows().unwrap()[0].id.clone();
    let retry = |form: Value, state: &str| {
        let mut params =
            CallToolRequestParams::new("ask_user").with_arguments(form.as_object().unwrap().clone());
        params.request_state = Some(state.to_owned());
        params.input_responses =
            Some([("form".to_owned(), json!({"action": "accept", "content": reply}))].into());
        s.client.call_tool(params)
    };
    let mut other = payload();
    other["questions"][0]["prompt"] = json!("Which database, really?");
    // The same questions in flows this server did not ask: a terminal's `ask`, another session's.
    let same_form = ask_schema::validate(&payload(), ask_schema::FormSource::Tool).unwrap();
    for (flow, command, session) in [("ask-flow", "ask", "default"), ("mcp-elsewhere", "mcp", "elsewhere")] {
        let record = ask_storage::FlowRecord::new(flow, command, session, 0);
        let store = Store::open(&s.store_path()).unwrap();
        store.create_flow(&record, &ask_engine::Event::opened(same_form.clone())).unwrap();
    }
    for (form, state) in [
        (other, id.as_str()),
        (payload(), "mcp-never-asked"),
        (payload(), "ask-flow"),
        (payload(), "mcp-elsewhere"),
    ] {
        let error = retry(form, state).await.unwrap_err().to_string();
        assert!(error.contains("names no form this server asked"), "{state}: {error}");
    }
    let again = retry(payload(), &id).await.unwrap();
    assert_eq!(details(&again), answered, "the answered call's own retry");
    assert_eq!(
        Store::open(&s.store_path()).unwrap().flows().unwrap().len(),
        3,
        "nothing recorded for the others"
    );
}
