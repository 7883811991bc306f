//! The fast path (payload text straight into the form, issue 15.2) against the tree validator:
//! whatever it accepts, the tree validator accepts as the same form; every valid payload in our
//! shape takes it; and `validate_text` answers exactly as parsing then validating does.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod common;

use ask_schema::{FormSource, direct_form, strict_form};
use common::{agrees, tree};
use proptest::prelude::*;
use rstest::rstest;
use serde_json::{Map, Value, json};

fn example(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[rstest]
#[case::multi_targets("examples/multi-targets.json")]
#[case::preview_layout("examples/preview-layout.json")]
#[case::project_setup("examples/project-setup.json")]
#[case::single_database("examples/single-database.json")]
fn every_example_takes_the_fast_path_to_the_same_form(#[case] file: &str) {
    let text = example(file);
    let fast = direct_form(&text, FormSource::Tool).expect("a valid payload in our shape is read directly");
    assert_eq!(Ok(&fast), tree(&text, FormSource::Tool).as_ref());
    // By the strict reader itself: serde's reader behind it would give the same form, slower.
    assert_eq!(strict_form(&text, FormSource::Tool, usize::MAX).as_ref(), Some(&fast));
}

/// Texts the fast path must hand to the tree validator (each is refused, or accepted only after
/// a rewrite the fast path does not do), checked one by one.
#[rstest]
#[case::option_as_array(r#"{"questions":[{"id":"a","prompt":"P","options":[["v","l"]]}]}"#)]
#[case::question_as_array(r#"{"questions":[["a","Q1","P"]]}"#)]
#[case::payload_as_array(r#"[null,[]]"#)]
#[case::duplicate_key_last_wins(
    r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L","label":"M"}]}]}"#
)]
#[case::duplicate_question_key(
    r#"{"questions":[{"id":"a","id":"b","prompt":"P","options":[{"value":"x","label":"L"}]}]}"#
)]
#[case::null_freeform(
    r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L","freeform":null}]}]}"#
)]
#[case::null_options(r#"{"questions":[{"id":"a","prompt":"P","options":null}]}"#)]
#[case::foreign_shape(r#"{"questions":[{"question":"Which?","header":"DB","options":[{"label":"pg"}]}]}"#)]
#[case::near_miss_null(
    r#"{"questions":[{"id":"a","prompt":"P","choices":null,"options":[{"value":"x","label":"L"}]}]}"#
)]
// A raw tab inside a string (not JSON: it must be written `\t`).
#[case::raw_control_character(
    "{\"questions\":[{\"id\":\"a\",\"prompt\":\"P\tQ\",\"options\":[{\"value\":\"x\",\"label\":\"L\"}]}]}"
)]
// Past the first 32 bytes a string is searched another way; a raw control character there too.
#[case::raw_control_character_in_a_long_text(
    "{\"questions\":[{\"id\":\"a\",\"prompt\":\"A prompt of more than thirty-two bytes\tQ\",\"options\":[{\"value\":\"x\",\"label\":\"L\"}]}]}"
)]
#[case::trailing_text(r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L"}]}]} x"#)]
#[case::duplicate_values_after_trim(r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L"},{"value":" x","label":"M"}]}]}"#)]
#[case::blank_preview_on_single(
    r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L","preview":" "}]}]}"#
)]
// A field we do not name is still parsed as `parse_json` parses it: serde skips such a value
// without refusing a lone surrogate escape or a number out of range, which `parse_json` refuses.
#[case::unknown_field_lone_surrogate(
    r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L","note":"\udc00"}]}]}"#
)]
#[case::unknown_field_number_out_of_range(
    r#"{"questions":[{"id":"a","prompt":"P","weight":1e400,"options":[{"value":"x","label":"L"}]}]}"#
)]
#[case::unknown_field_nested_high_surrogate_alone(
    r#"{"meta":[1,{"a":"\ud800x"}],"questions":[{"id":"a","prompt":"P","options":[{"value":"x","label":"L"}]}]}"#
)]
fn refused_or_rewritten_payloads_fall_back(#[case] text: &str) {
    assert_eq!(direct_form(text, FormSource::Tool), None, "{text}");
    agrees(text);
}

/// Valid payloads read without a tree: by the strict reader where it knows every field, else by
/// serde's reader behind it (unknown fields).
#[rstest]
#[case::escaped_key(
    r#"{"questions":[{"id":"a","prompt":"P","options":[{"val\u0075e":"x","label":"L"}]}]}"#,
    true
)]
#[case::escaped_text(r#"{"questions":[{"id":"a\t","prompt":"Line\none \"q\"","options":[{"value":"\u00e9","label":" L\u00a0"}]}]}"#, true)]
#[case::nulls_are_absent(r#"{"title":null,"questions":[{"id":"a","label":null,"type":null,"required":null,"prompt":"P","options":[{"value":"x","label":"L","description":null,"preview":null}]}]}"#, true)]
#[case::every_field_given(r#"{"title":"T","questions":[{"id":"a","label":"A","type":"multi","required":true,"prompt":"P","options":[{"value":"x","label":"L","description":"D"}]},{"id":"b","label":"B","type":"preview","required":false,"prompt":"Q","options":[{"value":"y","label":"M","preview":"fn main() {}"}]}]}"#, true)]
#[case::unknown_fields_ignored(r#"{"x":[1,{"y":2}],"questions":[{"id":"a","prompt":"P","z":null,"options":[{"value":"x","label":"L","w":{}}]}]}"#, false)]
#[case::unknown_fields_beside_required(r#"{"questions":[{"id":"a","prompt":"P","required":false,"z":1,"options":[{"value":"x","label":"L"}]},{"id":"b","prompt":"Q","required":true,"options":[{"value":"y","label":"M"}]}]}"#, false)]
#[case::unknown_fields_with_a_surrogate_pair_and_a_large_number(
    r#"{"questions":[{"id":"a","prompt":"P","weight":1e300,"options":[{"value":"x","label":"L","note":"\ud83d\ude00"}]}]}"#, false
)]
fn valid_payloads_with_escapes_and_nulls_take_the_fast_path(
    #[case] text: &str,
    #[case] strict_reads_it: bool,
) {
    let fast = direct_form(text, FormSource::Tool).expect("read directly");
    assert_eq!(Ok(&fast), tree(text, FormSource::Tool).as_ref());
    let strict = strict_form(text, FormSource::Tool, usize::MAX);
    assert_eq!(strict.as_ref(), strict_reads_it.then_some(&fast), "{text}");
}

/// The strict reader itself (not serde's reader behind it) reads these texts as the tree
/// validator does.
#[rstest]
#[case::escaped_text(r#"{"questions":[{"id":"a\t","prompt":"Line\none \"q\"","options":[{"value":"\u00e9","label":" L\u00a0"}]}]}"#)]
// Unicode spaces at either end, written plainly (no escape): trimmed like any other space.
#[case::plain_unicode_spaces(
    "{\"questions\":[{\"id\":\"\u{3000}a\",\"prompt\":\"P\u{2003}\",\"options\":[{\"value\":\"x\u{a0}\",\"label\":\"\u{85}L\"}]}]}"
)]
// Past the first 32 bytes a string is searched another way.
#[case::escape_past_the_first_32_bytes(r#"{"questions":[{"id":"a","prompt":"A prompt of more than thirty-two bytes \"quoted\"","options":[{"value":"x","label":"L"}]}]}"#)]
#[case::plain_text_past_the_first_32_bytes(r#"{"questions":[{"id":"a","prompt":"A prompt of more than thirty-two bytes, plain","options":[{"value":"x","label":"L"}]}]}"#)]
fn the_strict_reader_reads_texts_as_the_tree_validator_does(#[case] text: &str) {
    let strict = strict_form(text, FormSource::Tool, usize::MAX).expect("read by the strict reader");
    assert_eq!(Ok(strict), tree(text, FormSource::Tool));
}

#[test]
fn freeform_marker_is_direct_only_alone_on_answer_forms() {
    let alone =
        r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"f","label":"Type","freeform":true}]}]}"#;
    assert!(direct_form(alone, FormSource::Tool).is_none());
    assert!(direct_form(alone, FormSource::AnswerExtraction).is_some_and(|f| f.questions[0].is_freeform()));
    let beside = r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"f","label":"T","freeform":true},{"value":"g","label":"G"}]}]}"#;
    assert!(direct_form(beside, FormSource::AnswerExtraction).is_none());
    // Beside a field the strict reader does not know, serde's reader reads the marker.
    let unknown = r#"{"questions":[{"id":"a","prompt":"P","z":1,"options":[{"value":"f","label":"T","freeform":true}]},{"id":"b","prompt":"Q","options":[{"value":"g","label":"G","freeform":false}]}]}"#;
    assert!(strict_form(unknown, FormSource::AnswerExtraction, usize::MAX).is_none());
    let form = direct_form(unknown, FormSource::AnswerExtraction).expect("read by serde's reader");
    assert_eq!((form.questions[0].is_freeform(), form.questions[1].is_freeform()), (true, false));
    agrees(alone);
    agrees(beside);
    agrees(unknown);
}

/// Payloads of many options, read with the second thread started at the first `{` past the
/// middle: at an option (its work is taken), inside a string, at a question, in another
/// question's list, or in a half that the strict reader gives up on.
#[rstest]
#[case::guess_at_an_option(many(60, "", false), true)]
#[case::guess_at_an_option_pretty(pretty(&many(60, "", false)), true)]
#[case::braces_inside_texts(many(60, "{a} {b}", false), true)]
#[case::guess_at_a_question(questions(40), true)]
#[case::guess_in_the_second_question(two_lists(10, 80), true)]
#[case::unknown_field_in_the_second_half(with_at(many(60, "", false), 50, r#""extra":1,"#), false)]
#[case::value_repeated_across_halves(many(60, "", false).replacen(r#""value":"v50""#, r#""value":"v3""#, 1), false)]
#[case::trailing_comma_in_the_second_half(many(60, "", true), false)]
fn a_second_thread_reads_the_same_options(#[case] text: String, #[case] strict_reads_it: bool) {
    agrees(&text);
    let split = strict_form(&text, FormSource::Tool, 0);
    assert_eq!(split, strict_form(&text, FormSource::Tool, usize::MAX), "{text}");
    assert_eq!(split.is_some(), strict_reads_it, "{text}");
    if !strict_reads_it {
        // Unknown fields are serde's to read; a repeated value or a trailing comma is refused.
        assert_eq!(direct_form(&text, FormSource::Tool).is_some(), text.contains("extra"), "{text}");
    }
}

fn many(n: usize, extra: &str, trailing_comma: bool) -> String {
    let options: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"value":"v{i}","label":"Option {i} {extra}","description":"d {extra}"}}"#))
        .collect();
    let comma = if trailing_comma { "," } else { "" };
    format!(
        r#"{{"title":"T","questions":[{{"id":"q","prompt":"Pick","options":[{}{comma}]}}]}}"#,
        options.join(",")
    )
}

fn pretty(text: &str) -> String {
    serde_json::to_string_pretty(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
}

fn questions(n: usize) -> String {
    let qs: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"id":"q{i}","prompt":"P","options":[{{"value":"a","label":"A"}}]}}"#))
        .collect();
    format!(r#"{{"questions":[{}]}}"#, qs.join(","))
}

fn two_lists(first: usize, second: usize) -> String {
    let list = |n: usize| {
        (0..n).map(|i| format!(r#"{{"value":"v{i}","label":"L{i}"}}"#)).collect::<Vec<_>>().join(",")
    };
    format!(
        r#"{{"questions":[{{"id":"a","prompt":"P","options":[{}]}},{{"id":"b","prompt":"Q","type":"multi","options":[{}]}}]}}"#,
        list(first),
        list(second)
    )
}

/// `text` with `field` put first in option `i`.
fn with_at(text: String, i: usize, field: &str) -> String {
    text.replacen(&format!(r#"{{"value":"v{i}""#), &format!(r#"{{{field}"value":"v{i}""#), 1)
}

// ---- generated payloads ----

/// A string field: mostly fine, sometimes blank, padded, escaped, or not a string at all.
fn text(pool: &'static [&'static str]) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        6 => prop::sample::select(pool).prop_map(|s| Some(json!(s))),
        1 => prop::sample::select(pool).prop_map(|s| Some(json!(format!("  {s}\n")))),
        1 => Just(Some(json!("line\n\"two\"\t\u{e9}"))),
        1 => Just(Some(json!(" "))),
        1 => Just(Some(Value::Null)),
        1 => Just(None),
        1 => Just(Some(json!(3))),
    ]
}

fn put(obj: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        obj.insert(key.to_owned(), value);
    }
}

fn option() -> impl Strategy<Value = Value> {
    let freeform = prop_oneof![
        8 => Just(None),
        1 => Just(Some(json!(true))),
        1 => Just(Some(json!(false))),
        1 => Just(Some(Value::Null)),
        1 => Just(Some(json!("yes"))),
    ];
    let object = (text(&["a", "b", "c"]), text(&["Alpha", "Beta"]), text(&["d"]), text(&["p\nq"]), freeform)
        .prop_map(|(value, label, description, preview, freeform)| {
            let mut o = Map::new();
            put(&mut o, "value", value);
            put(&mut o, "label", label);
            put(&mut o, "description", description);
            put(&mut o, "preview", preview);
            put(&mut o, "freeform", freeform);
            Value::Object(o)
        });
    prop_oneof![8 => object, 1 => Just(json!("plain")), 1 => Just(json!(["a", "A"]))]
}

fn question() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        3 => Just(None),
        1 => Just(Some(json!("single"))),
        1 => Just(Some(json!(" multi "))),
        2 => Just(Some(json!("preview"))),
        1 => Just(Some(json!("poll"))),
        1 => Just(Some(Value::Null)),
    ];
    let required = prop_oneof![3 => Just(None), 1 => Just(Some(json!(true))), 1 => Just(Some(json!("no")))];
    let foreign = prop_oneof![
        8 => Just(None),
        1 => Just(Some(("question", json!("Which?")))),
        1 => Just(Some(("choices", Value::Null))),
        1 => Just(Some(("multiSelect", json!(true)))),
    ];
    let options = prop_oneof![8 => prop::collection::vec(option(), 0..4).prop_map(|o| Some(json!(o))), 1 => Just(None), 1 => Just(Some(Value::Null))];
    let object =
        (text(&["q1", "q2"]), text(&["Scope"]), text(&["Which one?"]), kind, required, options, foreign)
            .prop_map(|(id, label, prompt, kind, required, options, foreign)| {
                let mut q = Map::new();
                put(&mut q, "id", id);
                put(&mut q, "label", label);
                put(&mut q, "prompt", prompt);
                put(&mut q, "type", kind);
                put(&mut q, "required", required);
                put(&mut q, "options", options);
                if let Some((key, value)) = foreign {
                    q.insert(key.to_owned(), value);
                }
                Value::Object(q)
            });
    prop_oneof![9 => object, 1 => Just(json!("q"))]
}

fn payload() -> impl Strategy<Value = String> {
    let form = (text(&["Setup"]), prop::collection::vec(question(), 0..3), any::<bool>()).prop_map(
        |(title, questions, pretty)| {
            let mut p = Map::new();
            put(&mut p, "title", title);
            p.insert("questions".to_owned(), json!(questions));
            let p = Value::Object(p);
            if pretty { serde_json::to_string_pretty(&p).unwrap() } else { p.to_string() }
        },
    );
    prop_oneof![9 => form, 1 => Just("[1]".to_owned()), 1 => Just("{\"questions\":".to_owned())]
}

/// Valid payloads in our shape only: distinct ids and values, every text present.
fn valid_payload() -> impl Strategy<Value = String> {
    valid_value().prop_map(|v| v.to_string())
}

/// One change to a valid payload, at a chosen question and option: the edge of validity, where
/// a fast path that skips a check would accept what the tree refuses.
fn nearly_valid_payload() -> impl Strategy<Value = String> {
    let field = prop::sample::select(
        &[
            "id",
            "label",
            "prompt",
            "type",
            "required",
            "options",
            "value",
            "description",
            "preview",
            "freeform",
            "title",
            "question",
            "header",
            "choices",
            "multiSelect",
            "multi_select",
        ][..],
    );
    let to = prop::sample::select(vec![
        json!(null),
        json!(" "),
        json!(""),
        json!(3),
        json!(true),
        json!(false),
        json!("multi"),
        json!("preview"),
        json!("v0"),
        json!(" v1"),
        json!("q0"),
        json!([]),
        json!({}),
        json!(["x"]),
    ]);
    (valid_value(), field, to, any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<bool>())
        .prop_map(|(mut v, field, to, qi, oi, remove)| {
            let questions = v["questions"].as_array_mut().unwrap();
            let q = qi.get_mut(questions);
            let target = match field {
                "title" => &mut v,
                "value" | "description" | "preview" | "freeform" => {
                    let options = q["options"].as_array_mut().unwrap();
                    oi.get_mut(options)
                }
                _ => q,
            };
            let obj = target.as_object_mut().unwrap();
            if remove {
                obj.remove(field);
            } else {
                obj.insert(field.to_owned(), to);
            }
            v.to_string()
        })
}

/// A valid payload with one field we do not name at the start of one of its objects, its value
/// written as raw text: some of these a `Value` cannot hold (a lone surrogate escape, a number
/// out of range), so they are spliced into the text, not built as JSON.
fn payload_with_unknown_field() -> impl Strategy<Value = String> {
    let raw = prop::sample::select(
        &[
            r#""\udc00""#,
            r#""\ud800x""#,
            r#""\ud83d\ude00""#,
            "1e400",
            "-1e400",
            "1e300",
            "123456789012345678901234567890",
            r#"[1,{"a":"\udfff"}]"#,
            r#"{"b":[1e999]}"#,
            "null",
            r#""plain""#,
        ][..],
    );
    (valid_payload(), raw, any::<prop::sample::Index>()).prop_map(|(text, raw, at)| {
        let starts: Vec<usize> = text.match_indices("{\"").map(|(i, _)| i + 1).collect();
        let i = *at.get(&starts);
        format!("{}\"extra\":{raw},{}", &text[..i], &text[i..])
    })
}

fn valid_value() -> impl Strategy<Value = Value> {
    let kinds = prop::sample::select(&["single", "multi", "preview"][..]);
    let question = (kinds, 1..6usize, any::<bool>()).prop_map(|(kind, n, with_description)| {
        let options: Vec<Value> = (0..n)
            .map(|j| {
                let mut o = json!({"value": format!(" v{j} "), "label": format!("Option\t{j}\n"), "preview": format!("line 1\nline {j}")});
                if with_description {
                    o["description"] = json!("why \"this\"");
                }
                o
            })
            .collect();
        json!({"prompt": "Pick?", "type": kind, "options": options})
    });
    prop::collection::vec(question, 1..4).prop_map(|questions| {
        let questions: Vec<Value> = questions
            .into_iter()
            .enumerate()
            .map(|(i, mut q)| {
                q["id"] = json!(format!("q{i}"));
                q
            })
            .collect();
        json!({"title": "T", "questions": questions})
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn the_fast_path_never_accepts_what_the_tree_refuses(text in payload()) {
        agrees(&text);
    }

    #[test]
    fn one_change_to_a_valid_payload_is_judged_as_the_tree_judges_it(text in nearly_valid_payload()) {
        agrees(&text);
    }

    #[test]
    fn a_field_we_do_not_name_is_parsed_as_the_tree_parses_it(text in payload_with_unknown_field()) {
        agrees(&text);
    }

    #[test]
    fn every_valid_payload_in_our_shape_takes_the_fast_path(text in valid_payload()) {
        let fast = direct_form(&text, FormSource::Tool);
        prop_assert!(fast.is_some(), "fell back on a valid payload: {}", text);
        prop_assert_eq!(Ok(fast.clone().unwrap()), tree(&text, FormSource::Tool));
        for split_from in [usize::MAX, 0] {
            prop_assert_eq!(&strict_form(&text, FormSource::Tool, split_from), &fast, "strict reader: {}", text);
        }
    }
}
