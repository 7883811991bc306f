//! The `details` projection: answers, continuation and elaboration (D7–D10, D26).

use ask_schema::{
    Answer, Continuation, Details, Draft, DraftKind, ElaboratedQuestion, Elaboration, ElaborationItem,
    IndexMap, Mode, NextAction, Question, QuestionMeta, QuestionStateEntry, QuestionStatus, Strategy, Target,
    ToolResult,
};

use crate::state::{EditorTarget, FlowState, Outcome, QuestionState};

/// What the agent is told to do with an elaboration.
pub const ELABORATION_INSTRUCTION: &str = "Answer each note directly first. Then, only if a choice is still needed, \
re-ask just the affected questions with ask_user (prefer one structured follow-up over plain-text multiple choice).";

/// The instruction when the user asked to elaborate without writing any note.
pub const ELABORATION_WITHOUT_NOTES: &str = "The user asked you to elaborate on their answers without writing a note: \
explain the consequences of each committed answer directly first. Then, only if a choice is still needed, \
re-ask just those questions with ask_user (prefer one structured follow-up over plain-text multiple choice).";

/// A question's answer as the result reports it, notes included; `None` when nothing is saved
/// that a result would show.
pub fn answer_of(q: &Question, qs: &QuestionState) -> Option<Answer> {
    let mut a = Answer::default();
    for i in qs.selected_indices() {
        let opt = &q.options[i];
        a.values.push(opt.value.to_string());
        a.labels.push(opt.label.to_string());
        a.indices.push(i + 1);
    }
    if qs.custom_selected() {
        a.values.push(qs.custom_text().to_owned());
        a.labels.push(qs.custom_text().to_owned());
        a.custom_text = Some(qs.custom_text().to_owned());
    }
    if !qs.note().is_empty() {
        a.note = Some(qs.note().to_owned());
    }
    let notes: IndexMap<String, String> = qs
        .selected_indices()
        .filter(|&i| !qs.option_note(i).is_empty())
        .map(|i| (q.options[i].value.to_string(), qs.option_note(i).to_owned()))
        .collect();
    if !notes.is_empty() {
        a.option_notes = Some(notes);
    }
    (a.is_committed() || a.note.is_some()).then_some(a)
}

fn committed(q: &Question, qs: &QuestionState) -> Option<Answer> {
    answer_of(q, qs).filter(Answer::is_committed)
}

/// `details.questions` for a form.
pub fn question_metas(questions: &[Question]) -> Vec<QuestionMeta> {
    questions
        .iter()
        .map(|q| QuestionMeta {
            id: q.id.clone(),
            label: q.label.clone(),
            prompt: q.prompt.clone(),
            kind: q.kind,
        })
        .collect()
}

impl FlowState {
    /// The tool result, once the flow has completed.
    pub fn result(&self) -> Option<ToolResult> {
        self.result_with_id(None)
    }

    /// The tool result of the flow stored as `id`: a timed-out result names the id that
    /// reopens it (`details.flowId`, and in its text).
    pub fn result_of(&self, id: &str) -> Option<ToolResult> {
        self.result_with_id(Some(id))
    }

    fn result_with_id(&self, id: Option<&str>) -> Option<ToolResult> {
        let outcome = self.outcome?;
        let mut details = self.details(outcome);
        if outcome == Outcome::TimedOut {
            details.flow_id = id.map(str::to_owned);
            details.draft = self.draft();
        }
        let text = crate::project::text::result_text(&self.form.questions, &details);
        Some(ToolResult::new(text, details))
    }

    /// What the open editor holds, when it holds more than blanks: a form that times out
    /// while someone types reports it beside what was saved.
    fn draft(&self) -> Option<Draft> {
        let editor = self.editor.as_ref().filter(|e| !e.buffer.is_blank())?;
        let question = self.form.questions.get(self.tab)?;
        let (kind, option_value) = match editor.target {
            EditorTarget::Answer => (DraftKind::Answer, None),
            EditorTarget::QuestionNote => (DraftKind::QuestionNote, None),
            EditorTarget::OptionNote(i) => {
                (DraftKind::OptionNote, Some(question.options.get(i)?.value.to_string()))
            }
        };
        Some(Draft {
            question_id: question.id.clone(),
            kind,
            option_value,
            text: editor.buffer.text().to_owned(),
        })
    }

    /// The `details` the flow would report if it ended now with `outcome`.
    pub fn details(&self, outcome: Outcome) -> Details {
        let pairs = self.form.questions.iter().zip(&self.questions);
        let elaborate = outcome == Outcome::Elaborated;
        let answers: IndexMap<String, Answer> = pairs
            .clone()
            .filter_map(|(q, qs)| {
                let a = if elaborate { committed(q, qs) } else { answer_of(q, qs) };
                Some((q.id.clone(), a?))
            })
            .collect();
        let mut details = Details {
            title: self.form.title.clone(),
            cancelled: matches!(outcome, Outcome::Cancelled | Outcome::TimedOut),
            error: None,
            mode: if elaborate { Mode::Elaborate } else { Mode::Submit },
            questions: question_metas(&self.form.questions),
            answers,
            continuation: None,
            elaboration: None,
            timed_out: outcome == Outcome::TimedOut,
            still_open: false,
            flow_id: None,
            draft: None,
        };
        if elaborate {
            details.continuation = Some(self.continuation());
            details.elaboration = Some(self.elaboration());
        }
        details
    }

    fn continuation(&self) -> Continuation {
        let mut c = Continuation {
            strategy: Strategy::Resume,
            affected_question_ids: Vec::new(),
            preserved_answers: IndexMap::new(),
            question_states: IndexMap::new(),
        };
        for (q, qs) in self.form.questions.iter().zip(&self.questions) {
            let status = if qs.has_notes() {
                c.affected_question_ids.push(q.id.clone());
                QuestionStatus::NeedsClarification
            } else if let Some(a) = committed(q, qs) {
                c.preserved_answers.insert(q.id.clone(), a);
                QuestionStatus::Answered
            } else {
                QuestionStatus::Unanswered
            };
            c.question_states.insert(q.id.clone(), QuestionStateEntry { status });
        }
        if !c.affected_question_ids.is_empty() {
            c.strategy = Strategy::RefineOnly;
        }
        c
    }

    fn elaboration(&self) -> Elaboration {
        let mut items = Vec::new();
        let mut reask = false;
        for (q, qs) in self.form.questions.iter().zip(&self.questions) {
            let answer = committed(q, qs);
            if qs.has_notes() && answer.is_none() {
                reask = true;
            }
            let question = ElaboratedQuestion {
                id: q.id.clone(),
                label: q.label.clone(),
                prompt: q.prompt.clone(),
                kind: q.kind,
                options: q.options.iter().cloned().collect(),
            };
            let item = |target, option, selected, note: &str| ElaborationItem {
                target,
                question: question.clone(),
                option,
                selected,
                answered: answer.is_some(),
                answer: answer.clone(),
                note: note.to_owned(),
            };
            if !qs.note().is_empty() {
                items.push(item(Target::Question, None, None, qs.note()));
            }
            for (i, note) in qs.option_notes() {
                let opt = &q.options[i];
                let target = Target::Option { option_value: opt.value.to_string() };
                items.push(item(target, Some(opt.clone()), Some(qs.is_selected(i)), note));
            }
        }
        Elaboration {
            instruction: if items.is_empty() { ELABORATION_WITHOUT_NOTES } else { ELABORATION_INSTRUCTION }
                .to_owned(),
            next_action: if reask { NextAction::ClarifyThenReask } else { NextAction::Clarify },
            items,
        }
    }
}
