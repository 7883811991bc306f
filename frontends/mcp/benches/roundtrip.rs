//! MCP round trips, in process (rmcp client and server over a duplex pipe, the store on the local
//! disk). Run: `cargo bench -p ask-mcp --bench roundtrip`.
//!
//! 1. Elicitation: `tools/call` → validation → `elicitation/create` → the client answers at once →
//!    the answers go through the engine as ~15 durable events → the result. Everything but the
//!    client's (instant) answer is our own time.
//! 2. Terminal rung: `tools/call` → the flow is recorded and visible to `ask-user attach` (what a
//!    popup or another terminal opens).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark fails loudly

use std::time::{Duration, Instant};

use ask_mcp::{AskServer, McpOptions};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, Implementation,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::json;

#[derive(Clone)]
struct Answering;

impl ClientHandler for Answering {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder().enable_elicitation().build(),
            Implementation::new("bench", "1"),
        )
    }

    async fn create_elicitation(
        &self,
        _: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let mut result = ElicitResult::new(ElicitationAction::Accept);
        result.content = Some(
            json!({"q1": "sqlite", "q1_note": "small team", "q2": ["ci", "lint"], "zz_finish": "submit"}),
        );
        Ok(result)
    }
}

fn payload(n: usize) -> serde_json::Map<String, serde_json::Value> {
    json!({"title": format!("Run {n}"), "questions": [
        {"id": "db", "prompt": "Which database?", "options": [{"value": "pg", "label": "Postgres"}, {"value": "sqlite", "label": "SQLite"}]},
        {"id": "extras", "prompt": "Which extras?", "type": "multi",
         "options": [{"value": "ci", "label": "CI"}, {"value": "docker", "label": "Docker"}, {"value": "lint", "label": "Lint"}]}]})
    .as_object()
    .unwrap()
    .clone()
}

fn report(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| ms[((ms.len() - 1) as f64 * p) as usize];
    println!(
        "{name:<44} n={}: p50 {:.1} ms, p90 {:.1} ms, max {:.1} ms",
        ms.len(),
        at(0.5),
        at(0.9),
        ms[ms.len() - 1]
    );
}

async fn server(config: &str) -> (tempfile::TempDir, rmcp::service::RunningService<RoleClient, Answering>) {
    let dir = tempfile::tempdir_in(std::env::var_os("ASK_BENCH_DIR").unwrap_or_else(|| ".".into())).unwrap();
    std::fs::write(dir.path().join("config.json"), config).unwrap();
    let mut options = McpOptions::new(
        dir.path().join("store.redb"),
        Some(dir.path().join("config.json")),
        "ask-user".into(),
    );
    options.wait = Some(Duration::from_millis(1));
    let server = AskServer::new(options).unwrap();
    let (a, b) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move { server.serve(a).await.unwrap().waiting().await });
    (dir, Answering.serve(b).await.unwrap())
}

#[tokio::main]
async fn main() {
    let (_dir, client) = server(r#"{"mcp": {"presentation": ["elicitation"]}}"#).await;
    let mut elicited = Vec::new();
    for n in 0..60 {
        let t = Instant::now();
        let r = client
            .call_tool(CallToolRequestParams::new("ask_user").with_arguments(payload(n)))
            .await
            .unwrap();
        elicited.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(r.structured_content.unwrap()["answers"]["db"]["values"], json!(["sqlite"]));
    }
    report("elicitation round trip (call → result)", elicited);

    let (dir, client) = server(r#"{"mcp": {"presentation": ["terminal"]}}"#).await;
    let store = ask_storage::Store::open(&dir.path().join("store.redb")).unwrap();
    let mut recorded = Vec::new();
    for n in 0..60 {
        let t = Instant::now();
        let call = client.call_tool(CallToolRequestParams::new("ask_user").with_arguments(payload(n)));
        let watch = async {
            while store.flows().unwrap().len() <= n {
                tokio::time::sleep(Duration::from_micros(200)).await;
            }
            t.elapsed().as_secs_f64() * 1000.0
        };
        let (_, ms) = tokio::join!(call, watch);
        recorded.push(ms);
    }
    report("call → form ready for attach/popup", recorded);
}
