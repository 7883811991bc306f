//! Results an MCP call still owes its agent: flows recorded for calls that returned before the
//! user answered (the server's wait ended, or the client cancelled). The agent is told to call
//! again with the same payload; this table lets that call — in the same server or in one
//! started since (the client restarted it, or it crashed) — pick the same flow up instead of
//! showing a second form.

use ask_schema::Form;
use redb::{ReadableTable, TableDefinition};

use super::{Store, StoreError};

/// Flow id → (when the result became owed, in milliseconds since the Unix epoch; the
/// [`form_hash`] of its form). A row is written with its flow ([`Store::create_owed_flow`]).
pub(super) const OWED: TableDefinition<&str, (u64, u64)> = TableDefinition::new("owed");

/// A flow whose result is owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owed {
    /// The flow.
    pub id: String,
    /// The [`form_hash`] of its form: a call looks only at the flows whose form may be its own.
    pub form_hash: u64,
}

/// A hash of a normalized form that every build computes alike (FNV-1a over the form as the
/// opening event writes it, a frozen layout, so a later build whose `Form` serializes otherwise
/// still finds the rows an earlier one wrote), so that a lookup need not fold every owed flow to
/// compare forms. Equal forms hash equal; a match is still confirmed against the flow's own form.
pub fn form_hash(form: &Form) -> u64 {
    let json = crate::wire::form_json(form);
    json.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

impl Store {
    /// Notes that `flow`'s result has been returned to a call (or that no call will want it).
    pub fn settle(&self, flow: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.open_table(OWED)?.remove(flow)?;
            Ok(())
        })
    }

    /// The flows whose results are owed, the most recently owed first.
    pub fn owed(&self) -> Result<Vec<Owed>, StoreError> {
        let mut rows = self.read(|tx| match tx.open_table(OWED) {
            Ok(table) => table
                .iter()?
                .map(|row| {
                    row.map(|(id, v)| {
                        let (since, form_hash) = v.value();
                        (since, Owed { id: id.value().to_owned(), form_hash })
                    })
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(Into::into),
            // A store no server has written to since the table came.
            Err(redb::TableError::TableDoesNotExist(_)) => Ok(Vec::new()),
            Err(e) => Err(e.into()),
        })?;
        rows.sort_unstable_by(|a, b| (b.0, &b.1.id).cmp(&(a.0, &a.1.id)));
        Ok(rows.into_iter().map(|(_, owed)| owed).collect())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use ask_schema::{Form, FormSource, validate_text};
    use rstest::rstest;

    use super::form_hash;

    fn example(name: &str) -> Form {
        let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        validate_text(&std::fs::read_to_string(path).unwrap(), FormSource::Tool).unwrap()
    }

    /// Rows written before the hash moved to the frozen layout were hashed over `Form`'s own
    /// JSON: the two are the same bytes, so those rows are still found.
    #[rstest]
    #[case("project-setup.json")]
    #[case("multi-targets.json")]
    #[case("preview-layout.json")]
    #[case("single-database.json")]
    fn the_frozen_layout_is_the_forms_own_json_today(#[case] name: &str) {
        let form = example(name);
        assert_eq!(crate::wire::form_json(&form), serde_json::to_vec(&form).unwrap());
    }

    #[test]
    fn a_freeform_marker_and_a_form_without_title_are_written_alike_too() {
        let text = r#"{"questions":[{"id":"a","prompt":"P","options":[{"value":"f","label":"Type","freeform":true}]}]}"#;
        let form = validate_text(text, FormSource::AnswerExtraction).unwrap();
        assert_eq!(crate::wire::form_json(&form), serde_json::to_vec(&form).unwrap());
    }

    /// Pinned: a build that hashed this form otherwise would not find the forms an MCP call of
    /// an earlier build left open for its agent.
    #[test]
    fn the_hash_of_a_form_is_the_same_in_every_build() {
        assert_eq!(form_hash(&example("project-setup.json")), 11_117_982_637_853_520_042);
    }
}
