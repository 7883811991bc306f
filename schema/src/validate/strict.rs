//! The first try of validation (issue 15.2): a reader for payloads in exactly our shape, written
//! for speed, that reads a large options list on two threads.
//!
//! It reads JSON objects with only the fields this schema names, strings (escaped ones decoded
//! by serde_json), `true`, `false` and `null`, and builds the same raw form and questions
//! [`super::direct`] reads with serde, then checks them with the same functions; an option it
//! checks itself, on slices of the payload, and copies into the list only once it passes. At
//! anything else — an unknown or repeated field, a number, another tool's shape, text that is
//! not JSON — it gives up, and serde's reader (which ignores unknown fields) and then the tree
//! validator answer. So, like that reader, it only ever says yes; a property test in
//! `schema/tests/direct_parse.rs` holds its yes to theirs.
//!
//! Two threads: in a text of [`SPLIT_FROM`] bytes or more, a second thread starts reading
//! options at a guess — the first `{` past the middle — until its list's `]`. Its work is used
//! only if this thread, reading from the start, reaches an option that begins at exactly that
//! byte: from there the second thread read what this one would have (an option is read the same
//! way in any list), and this one jumps past the `]`; the second thread's options become the
//! list's second run ([`crate::OptionList`]), not copied. A guess inside a string, or at another
//! kind of object, is never reached as an option's start, and its work is dropped.

use std::borrow::Cow;
use std::thread::{Scope, ScopedJoinHandle};

use super::direct::{Object, Options, Present, RawForm, RawQuestion, Trimmed, finish, optional, required};
use super::gathered::{OptionTexts, Run, TextHasher};
use crate::input::{Form, FormSource, Text};

/// How far a string is scanned a word at a time before a vector search takes over.
const SHORT: usize = 32;

/// `text` without leading and trailing whitespace; the common case, plain ASCII letters at both
/// ends, without `str::trim`'s decoding of characters. (A vertical tab is whitespace to
/// `str::trim` but not to `is_ascii_whitespace`.)
fn trim(text: &str) -> &str {
    let plain = |b: Option<&u8>| b.is_some_and(|&b| b.is_ascii() && !b.is_ascii_whitespace() && b != 0x0b);
    let bytes = text.as_bytes();
    if plain(bytes.first()) && plain(bytes.last()) { text } else { text.trim() }
}

/// Where in `word` (eight bytes of text, the first in the lowest byte) the first byte is that
/// ends a JSON string's plain run: a quote, a backslash or a control character. Each test below
/// marks a byte's high bit; a byte past a marked one may be marked wrongly (a borrow carries
/// on), but never one before it, so the lowest mark is exact.
fn stop_in(word: u64) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero(word ^ (ONES * u64::from(b'"')));
    let backslash = zero(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    let any = quote | backslash | control;
    (any != 0).then(|| any.trailing_zeros() as usize / 8)
}

/// Texts at least this long get the second thread (below it, a thread costs more than it saves).
pub const SPLIT_FROM: usize = 512 * 1024;

/// The normalized form of `text`, or `None` when the slower readers must decide. A second
/// thread reads the options from the middle on when `text` is `split_from` bytes or longer.
pub fn form(text: &str, source: FormSource, split_from: usize) -> Option<Form> {
    let hasher = TextHasher::default();
    std::thread::scope(|scope| {
        let mut reader = Reader::new(text, 0, hasher.clone());
        if text.len() >= split_from {
            reader.split = guess(text).map(|at| Split::start(scope, text, at, hasher));
        }
        let raw = reader.payload()?;
        finish(raw, source)
    })
}

/// The first `{` past the middle of `text`.
fn guess(text: &str) -> Option<usize> {
    let middle = text.len() / 2;
    memchr::memchr(b'{', &text.as_bytes()[middle..]).map(|k| middle + k)
}

/// Options read by the second thread from `at` to the end of their list: the options, what
/// was gathered from them, and the byte after the list's `]`; or `None` where the reader gives up.
type Tail = Option<(Run, usize)>;

struct Split<'scope> {
    at: usize,
    tail: ScopedJoinHandle<'scope, Tail>,
}

impl<'scope> Split<'scope> {
    fn start<'env>(
        scope: &'scope Scope<'scope, 'env>,
        text: &'env str,
        at: usize,
        hasher: TextHasher,
    ) -> Self {
        let tail = scope.spawn(move || {
            let mut reader = Reader::new(text, at, hasher);
            let mut run = Run::default();
            loop {
                reader.option(&mut run)?;
                match reader.next_byte()? {
                    b',' => {}
                    b']' => {
                        run.settle();
                        return Some((run, reader.i));
                    }
                    _ => return None,
                }
            }
        });
        Split { at, tail }
    }
}

struct Reader<'a, 'scope> {
    text: &'a str,
    bytes: &'a [u8],
    i: usize,
    split: Option<Split<'scope>>,
    hasher: TextHasher,
}

impl<'a, 'scope> Reader<'a, 'scope> {
    fn new(text: &'a str, at: usize, hasher: TextHasher) -> Self {
        Reader { text, bytes: text.as_bytes(), i: at, split: None, hasher }
    }

    fn payload(&mut self) -> Option<RawForm> {
        let mut raw = RawForm { title: None, questions: None };
        self.object(["title", "questions"], |r, n| {
            if n == 0 {
                raw.title = r.text()?;
            } else {
                let mut questions = Vec::new();
                r.list(|r| r.question().map(|q| questions.push(Object(q))))?;
                raw.questions = Some(questions);
            }
            Some(())
        })?;
        self.skip_space();
        (self.i == self.bytes.len()).then_some(raw)
    }

    fn question(&mut self) -> Option<RawQuestion> {
        let mut q = RawQuestion {
            id: None,
            label: None,
            prompt: None,
            kind: None,
            required: None,
            options: None,
            multi_select: Present(false),
            multi_select_snake: Present(false),
            question: Present(false),
            header: Present(false),
            choices: Present(false),
        };
        self.object(["id", "label", "prompt", "type", "required", "options"], |r, n| {
            match n {
                0 => q.id = r.text()?,
                1 => q.label = r.text()?,
                2 => q.prompt = r.text()?,
                3 => q.kind = r.text()?,
                4 => q.required = r.boolean_or_null()?,
                _ => q.options = Some(r.options()?),
            }
            Some(())
        })?;
        Some(q)
    }

    /// A list of options, each checked as it is read.
    fn options(&mut self) -> Option<Options> {
        let mut run = Run::default();
        self.expect(b'[')?;
        if self.peek()? == b']' {
            self.i += 1;
            return Some(run.into_options());
        }
        loop {
            self.skip_space();
            if self.split.as_ref().is_some_and(|s| s.at == self.i) {
                // The second thread started at exactly this option: take what it read.
                let split = self.split.take()?;
                // This run's set is made while the second thread may still be reading.
                run.settle();
                let (tail, end) = split.tail.join().ok()??;
                self.i = end;
                return Some(run.followed_by(tail));
            }
            self.option(&mut run)?;
            match self.next_byte()? {
                b',' => {}
                b']' => return Some(run.into_options()),
                _ => return None,
            }
        }
    }

    /// The next option, checked as [`super::direct::option`] checks one, pushed onto `run`. Its
    /// texts are read as slices of the payload and copied once, into the option's place in the
    /// list.
    fn option(&mut self, run: &mut Run) -> Option<()> {
        // value, label, description, preview
        let mut texts: [Option<Cow<'a, str>>; 4] = Default::default();
        let mut freeform = false;
        self.object(["value", "label", "description", "preview", "freeform"], |r, n| {
            match texts.get_mut(n) {
                Some(text) => *text = r.text_slice()?,
                // The marker must be a boolean: null is an issue, not an absent field.
                None => freeform = r.boolean_or_null()??,
            }
            Some(())
        })?;
        let [value, label, description, preview] = &texts;
        let texts = OptionTexts {
            value: required(value.as_deref())?,
            label: required(label.as_deref())?,
            description: optional(description.as_deref())?,
            preview: optional(preview.as_deref())?,
            freeform,
        };
        run.push_texts(texts, &self.hasher);
        Some(())
    }

    /// `{ "key": value, … }` with keys from `names` only, each value read by `field` with its
    /// key's index in `names`. An empty object is fine. It gives up at a key not in `names`
    /// (serde's reader ignores those) and at one given twice, even as null (serde refuses it).
    fn object<const N: usize>(
        &mut self,
        names: [&str; N],
        mut field: impl FnMut(&mut Self, usize) -> Option<()>,
    ) -> Option<()> {
        let mut seen = [false; N];
        self.expect(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            let n = self.key(&names)?;
            self.expect(b':')?;
            if std::mem::replace(&mut seen[n], true) {
                return None;
            }
            field(self, n)?;
            match self.next_byte()? {
                b',' => {}
                b'}' => return Some(()),
                _ => return None,
            }
        }
    }

    /// The index in `names` of the key read next. A key written plainly is matched in place (a
    /// name holds no quote, backslash or control character, so a match is that exact string);
    /// one written with escapes is read as a string first.
    fn key<const N: usize>(&mut self, names: &[&str; N]) -> Option<usize> {
        self.expect(b'"')?;
        let rest = self.bytes.get(self.i..)?;
        for (n, name) in names.iter().enumerate() {
            if rest.get(name.len()) == Some(&b'"') && rest.starts_with(name.as_bytes()) {
                self.i += name.len() + 1;
                return Some(n);
            }
        }
        self.i -= 1;
        let key = self.string()?;
        names.iter().position(|k| *k == key)
    }

    /// `[ item, … ]`, each item read by `item`.
    fn list(&mut self, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.expect(b'[')?;
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            item(self)?;
            match self.next_byte()? {
                b',' => {}
                b']' => return Some(()),
                _ => return None,
            }
        }
    }

    /// A string, trimmed, or `null` (`Some(None)`). Not read through [`Self::text_slice`]: that
    /// made reading an option 8 ns slower (measured, one thread).
    fn text(&mut self) -> Option<Option<Trimmed>> {
        if self.peek()? != b'"' {
            return self.literal(b"null").then_some(None);
        }
        Some(Some(Trimmed(Text::from(trim(&self.string()?)))))
    }

    /// A string, trimmed, as a slice of the payload where it holds no escape, or `null`
    /// (`Some(None)`).
    fn text_slice(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.peek()? != b'"' {
            return self.literal(b"null").then_some(None);
        }
        Some(Some(match self.string()? {
            Cow::Borrowed(s) => Cow::Borrowed(trim(s)),
            Cow::Owned(s) => Cow::Owned(trim(&s).to_owned()),
        }))
    }

    /// `true`, `false`, or `null` (`Some(None)`).
    fn boolean_or_null(&mut self) -> Option<Option<bool>> {
        if self.literal(b"true") {
            Some(Some(true))
        } else if self.literal(b"false") {
            Some(Some(false))
        } else if self.literal(b"null") {
            Some(None)
        } else {
            None
        }
    }

    /// A JSON string: borrowed when it has no escapes, else decoded by serde_json (which also
    /// refuses bad escapes and raw control characters in the rest of it).
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.expect(b'"')?;
        let start = self.i;
        // Most strings are short: eight bytes at a time over their first bytes ends sooner than
        // a vector search is set up. JSON strings hold no raw control characters.
        let mut end = start;
        let stopped = loop {
            if end >= start + SHORT {
                break false;
            }
            let Some(word) = self.bytes.get(end..end + 8) else {
                // The last few bytes of the text.
                while self.bytes.get(end).is_some_and(|&b| !matches!(b, b'"' | b'\\' | 0..0x20)) {
                    end += 1;
                }
                break true;
            };
            match stop_in(u64::from_le_bytes(word.try_into().ok()?)) {
                Some(k) => {
                    end += k;
                    break true;
                }
                None => end += 8,
            }
        };
        if !stopped {
            let scanned = end;
            end += memchr::memchr2(b'"', b'\\', self.bytes.get(end..)?)?;
            // Checked without an early exit, so the loop vectorizes.
            if self.bytes[scanned..end].iter().fold(false, |any, &b| any | (b < 0x20)) {
                return None;
            }
        }
        match *self.bytes.get(end)? {
            b'"' => {
                self.i = end + 1;
                return Some(Cow::Borrowed(self.text.get(start..end)?));
            }
            b'\\' => {}
            _ => return None,
        }
        while self.bytes[end] != b'"' {
            end = match self.bytes[end] {
                b'\\' => end + 2,
                _ => end + memchr::memchr2(b'"', b'\\', self.bytes.get(end..)?)?,
            };
            self.bytes.get(end)?;
        }
        let decoded: String = serde_json::from_str(self.text.get(start - 1..=end)?).ok()?;
        self.i = end + 1;
        Some(Cow::Owned(decoded))
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        self.skip_space();
        let found = self.bytes.get(self.i..).is_some_and(|rest| rest.starts_with(word));
        if found {
            self.i += word.len();
        }
        found
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.i) {
            self.i += 1;
        }
    }

    /// The next byte that is not space, without taking it.
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.i).copied()
    }

    /// The next byte that is not space, taken.
    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        (self.next_byte()? == b).then_some(())
    }
}

#[cfg(test)]
mod tests;
