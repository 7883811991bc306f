//! The real `ask-user mcp` binary fed raw JSON-RPC lines a client should never send: wrong
//! versions and ids, unknown methods, parameters of any type, tool calls with any arguments
//! (valid ones too, left waiting), batches, bare values, lines that are not JSON. Three
//! servers share one store meanwhile. Each must answer every well-formed tool call with one
//! result and a `ping` sent after everything else, never panic, and end cleanly when its input
//! closes.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use std::time::{Duration, Instant};

use ask_schema::sample::Stream;
use common::raw_mcp::RawMcp;
use common::{PAYLOAD, Sandbox};
use serde_json::{Value, json};

const MESSAGES: usize = 150;

fn pick<T: Clone>(s: &mut Stream, from: &[T]) -> T {
    from[s.below(from.len())].clone()
}

/// Any JSON value, nested at most three deep, leaning on the payload's own field names.
fn value(s: &mut Stream, depth: usize) -> Value {
    let names = ["id", "prompt", "options", "questions", "value", "label", "type", "title", "x"];
    match s.below(10) {
        0 | 1 if depth < 3 => {
            (0..s.below(5)).map(|_| (pick(s, &names).to_owned(), value(s, depth + 1))).collect()
        }
        2 if depth < 3 => Value::Array((0..s.below(4)).map(|_| value(s, depth + 1)).collect()),
        _ => pick(
            s,
            &[
                Value::Null,
                json!(true),
                json!(0),
                json!(-1),
                json!(1e308),
                json!(u64::MAX),
                json!(""),
                json!("x".repeat(1000)),
                json!("\u{0}\u{1b}[2J"),
                json!([]),
                json!({}),
            ],
        ),
    }
}

/// A well-formed call of the tool with id `id` whose arguments are anything: the valid payload,
/// the payload with one field set to any value, or any object.
fn tool_call(s: &mut Stream, id: u64) -> String {
    let mut arguments: Value = serde_json::from_str(PAYLOAD).unwrap();
    match s.below(3) {
        0 => {}
        1 => {
            let fields =
                ["/title", "/questions", "/questions/0/id", "/questions/0/options", "/questions/0/options/0"];
            *arguments.pointer_mut(pick(s, &fields)).unwrap() = value(s, 1);
        }
        _ => arguments = Value::Object((0..1 + s.below(4)).map(|i| (format!("k{i}"), value(s, 1))).collect()),
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "ask_user", "arguments": arguments}})
        .to_string()
}

/// One line a careless or hostile client might write.
fn line(s: &mut Stream) -> String {
    if s.below(10) == 0 {
        let raw = [
            "[]",
            "[1,2]",
            "{",
            "null",
            "\"x\"",
            "}{",
            "\u{feff}{}",
            r#"[{"jsonrpc":"2.0","id":9,"method":"ping"}]"#,
        ];
        return pick(s, &raw).to_owned();
    }
    let methods = [
        json!("initialize"),
        json!("tools/list"),
        json!("tools/call"),
        json!("tools/call"),
        json!("ping"),
        json!("resources/list"),
        json!("notifications/cancelled"),
        json!("notifications/initialized"),
        json!("logging/setLevel"),
        json!("nope"),
        Value::Null,
        json!(5),
    ];
    let mut m = serde_json::Map::new();
    m.insert("jsonrpc".into(), pick(s, &[json!("2.0"), json!("2.0"), json!("1.0"), Value::Null]));
    if s.below(5) > 0 {
        let ids =
            [json!(1), json!(2), json!("a"), Value::Null, json!(-5), json!(i64::MAX), json!(1.5), json!([])];
        m.insert("id".into(), pick(s, &ids));
    }
    let method = pick(s, &methods);
    if s.below(5) > 0 {
        let params = if method == "tools/call" {
            let arguments = match s.below(3) {
                0 => serde_json::from_str(PAYLOAD).unwrap(),
                _ => value(s, 0),
            };
            json!({"name": pick(s, &[json!("ask_user"), json!("other"), Value::Null]), "arguments": arguments})
        } else {
            value(s, 0)
        };
        m.insert("params".into(), params);
    }
    m.insert("method".into(), method);
    Value::Object(m).to_string()
}

/// Runs one session of `MESSAGES` lines from `seed`.
fn session(sb: &Sandbox, seed: u64) -> Session {
    let mut server = RawMcp::start(sb, "1", &format!("logs-{seed}"), &[]);
    let mut s = Stream::new(seed);
    let mut calls = Vec::new();
    for i in 0..MESSAGES as u64 {
        if s.below(6) == 0 {
            let id = 1_000_000 + i;
            calls.push(id);
            server.write_line(&tool_call(&mut s, id));
        } else {
            server.write_line(&line(&mut s));
        }
    }
    server.send(&json!({"jsonrpc": "2.0", "id": "final", "method": "ping"}));

    // Every reply, until the final ping and every tool call are answered (the valid calls wait
    // 1 s, `--wait 1`, and then answer that the form stays open) or 30 s have passed.
    let mut replies: Vec<Value> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    let done = |replies: &[Value]| {
        let answered = |id: &Value| replies.iter().any(|r| &r["id"] == id);
        answered(&json!("final")) && calls.iter().all(|&id| answered(&json!(id)))
    };
    while !done(&replies) {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else { break };
        let Ok(l) = server.lines.recv_timeout(left) else { break };
        let reply = serde_json::from_str(&l)
            .unwrap_or_else(|e| panic!("seed {seed}: the server wrote a line that is not JSON ({e}): {l}"));
        replies.push(reply);
    }
    let (code, stderr) = server.finish();
    let ping: Vec<&Value> = replies.iter().filter(|r| r["id"] == "final").collect();
    assert!(
        matches!(ping.as_slice(), [r] if r["result"] == json!({})),
        "seed {seed}: the final ping must be answered once within 30 s, got {ping:?}; stderr: {stderr}"
    );
    for id in calls {
        let answers: Vec<&Value> = replies.iter().filter(|r| r["id"] == id).collect();
        assert!(
            matches!(answers.as_slice(), [r] if r["result"]["structuredContent"].is_object()),
            "seed {seed}: tool call {id} must get one result, got {answers:?}"
        );
    }
    Session { code, stderr, replies }
}

struct Session {
    code: Option<i32>,
    stderr: String,
    replies: Vec<Value>,
}

#[test]
fn a_server_fed_hostile_lines_keeps_answering_and_never_panics() {
    let sb = Sandbox::new();
    sb.file("config.json", r#"{"mcp": {"presentation": ["terminal"]}}"#);
    // Three servers at once on one store, twice: the waiting tool calls of one are the owed
    // forms another picks up.
    let mut replies = Vec::new();
    for round in 0..2u64 {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..3u64)
                .map(|i| 1 + round * 3 + i)
                .map(|seed| {
                    (
                        seed,
                        scope.spawn({
                            let sb = &sb;
                            move || session(sb, seed)
                        }),
                    )
                })
                .collect();
            for (seed, h) in handles {
                let run = h.join().unwrap();
                let stderr = &run.stderr;
                assert_eq!(
                    run.code,
                    Some(0),
                    "seed {seed}: the server must end cleanly when its input closes: {stderr}"
                );
                assert!(
                    !stderr.contains("panicked") && !stderr.contains("internal error"),
                    "seed {seed}: {stderr}"
                );
                replies.extend(run.replies);
            }
        });
    }
    // The sessions reached the tool itself, not only the protocol's refusals.
    let details: Vec<&Value> = replies.iter().map(|r| &r["result"]["structuredContent"]).collect();
    assert!(details.iter().any(|d| d["stillOpen"] == true), "no valid call was left waiting");
    assert!(details.iter().any(|d| d["error"]["kind"] == "invalid_input"), "no invalid call was refused");
    let logs: String = std::fs::read_dir(sb.dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("logs-"))
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().filter_map(Result::ok))
        .map(|f| std::fs::read_to_string(f.path()).unwrap_or_default())
        .collect();
    assert!(!logs.contains("panicked"), "a server logged a panic:\n{logs}");
    let listed = sb.run(&["log", "list"]);
    assert_eq!(listed.code, 0, "the shared store still opens: {}", listed.stderr);
}
