//! What a question's checks need from its options, gathered while the options are read.
//!
//! A large list is read on two threads (see [`super::strict`]); walking it again afterwards to
//! look for markers and previews and to hash every value was a fifth of validation at 100 000
//! options, all of it on one thread after both had finished. Each reading thread now gathers
//! these for its own run and puts its values' hashes in a set of its own as soon as the run is
//! complete; what is left after the join is looking the smaller run's values up in the larger's.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use super::direct::Options;
use crate::input::{OptionItem, Text};
use crate::option_list::OptionList;

/// Hashes texts for the repeat checks. One per payload read, shared by its reading threads: two
/// runs' values can only be compared when hashed alike.
///
/// The checks compare 64-bit hashes, not texts: a set of 100 000 eight-byte keys is half the
/// memory to touch and no string comparisons. Two different texts with one hash read as a
/// repeat, which only sends the payload to the tree validator (exact, and slower); the seed is
/// random per read, so no payload can make that happen on purpose.
pub(super) type TextHasher = foldhash::fast::RandomState;

/// Whether no text repeats.
pub(super) fn distinct<'a>(hasher: &TextHasher, texts: impl ExactSizeIterator<Item = &'a str>) -> bool {
    let mut seen = HashSet::with_capacity_and_hasher(texts.len(), BuildHasherDefault::<Prehashed>::default());
    texts.into_iter().all(|t| seen.insert(hasher.hash_one(t)))
}

/// Gathered from one run of options as it is read.
#[derive(Default)]
pub(super) struct Gathered {
    freeform: usize,
    without_preview: usize,
    /// The hash of each option's value (trimmed, as stored) not yet in `set`. Pushed while
    /// reading and put in an exactly sized set once the run is complete: a set grown while
    /// reading rehashed itself at every doubling.
    values: Vec<u64>,
    set: HashSet<u64, BuildHasherDefault<Prehashed>>,
    repeated: bool,
}

/// What a question's checks read from its options.
pub(super) struct Facts {
    /// Options carrying the free-form marker.
    pub(super) freeform: usize,
    /// Options without a preview.
    pub(super) without_preview: usize,
    /// Whether an option's value repeats another's.
    pub(super) repeated: bool,
}

impl Gathered {
    pub(super) fn add(&mut self, option: &OptionItem, hasher: &TextHasher) {
        self.freeform += usize::from(option.freeform);
        self.without_preview += usize::from(option.preview.is_none());
        self.values.push(hasher.hash_one(option.value.as_str()));
    }

    /// Puts the run's values in its set: called by the thread that read the run, once it is
    /// complete, so two runs' sets are made side by side.
    pub(super) fn settle(&mut self) {
        self.set.reserve(self.values.len());
        for v in self.values.drain(..) {
            self.repeated |= !self.set.insert(v);
        }
    }

    /// The facts of this run.
    pub(super) fn facts(mut self) -> Facts {
        self.settle();
        Facts { freeform: self.freeform, without_preview: self.without_preview, repeated: self.repeated }
    }

    /// The facts of this run and `other` together (both complete, gathered with one hasher):
    /// the smaller run's values are looked up in the larger's set.
    pub(super) fn join(mut self, mut other: Gathered) -> Facts {
        self.settle();
        other.settle();
        let (large, small) =
            if self.set.len() >= other.set.len() { (&self, &other) } else { (&other, &self) };
        let overlap = small.set.iter().any(|v| large.set.contains(v));
        Facts {
            freeform: self.freeform + other.freeform,
            without_preview: self.without_preview + other.without_preview,
            repeated: self.repeated || other.repeated || overlap,
        }
    }
}

/// Copies `text` into the empty `to`, inline where it fits, else in one allocation of its size.
fn fill(to: &mut Text, text: &str) {
    if text.len() <= INLINE {
        to.push_str(text);
    } else {
        *to = Text::from(text);
    }
}

/// The most bytes a [`Text`] holds without an allocation.
const INLINE: usize = std::mem::size_of::<Text>();

/// A run of options as read, with what was gathered from it.
#[derive(Default)]
pub(super) struct Run {
    items: Vec<OptionItem>,
    gathered: Gathered,
}

/// An option's texts as they stand in the payload (trimmed, not blank), to be copied into a
/// list's [`OptionItem`].
pub(super) struct OptionTexts<'t> {
    pub(super) value: &'t str,
    pub(super) label: &'t str,
    pub(super) description: Option<&'t str>,
    pub(super) preview: Option<&'t str>,
    pub(super) freeform: bool,
}

impl Run {
    pub(super) fn push(&mut self, option: OptionItem, hasher: &TextHasher) {
        self.gathered.add(&option, hasher);
        self.items.push(option);
    }

    /// Pushes the option `texts` names, copying each text into its place in the list: a short
    /// text built elsewhere and then moved was read back before its bytes had settled (a
    /// stalled load for each of an option's texts, about a sixth of reading a large list). Its
    /// facts come from the slices, not from [`Gathered::add`] on the new item: hashing the value
    /// just copied reads it back, 3-6 ns an option slower (measured, one thread).
    pub(super) fn push_texts(&mut self, texts: OptionTexts, hasher: &TextHasher) {
        self.gathered.freeform += usize::from(texts.freeform);
        self.gathered.without_preview += usize::from(texts.preview.is_none());
        self.gathered.values.push(hasher.hash_one(texts.value));
        self.items.push(OptionItem {
            value: Text::default(),
            label: Text::default(),
            description: texts.description.map(|_| Text::default()),
            preview: texts.preview.map(|_| Text::default()),
            freeform: texts.freeform,
        });
        let Some(item) = self.items.last_mut() else { return };
        fill(&mut item.value, texts.value);
        fill(&mut item.label, texts.label);
        if let (Some(to), Some(text)) = (&mut item.description, texts.description) {
            fill(to, text);
        }
        if let (Some(to), Some(text)) = (&mut item.preview, texts.preview) {
            fill(to, text);
        }
    }

    /// See [`Gathered::settle`].
    pub(super) fn settle(&mut self) {
        self.gathered.settle();
    }

    /// The run as a question's whole list.
    pub(super) fn into_options(self) -> Options {
        Options(self.items.into(), self.gathered.facts())
    }

    /// This run, then `tail` (read by another thread with the same hasher), as one list.
    pub(super) fn followed_by(self, tail: Run) -> Options {
        Options(OptionList::joined(self.items, tail.items), self.gathered.join(tail.gathered))
    }
}

/// A hasher for keys that are already hashes.
#[derive(Default)]
pub(super) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; any other key still gets a usable hash.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    fn option(value: &str, preview: bool, freeform: bool) -> OptionItem {
        OptionItem {
            value: value.into(),
            label: "L".into(),
            description: None,
            preview: preview.then(|| "p".into()),
            freeform,
        }
    }

    fn gather(options: &[OptionItem], hasher: &TextHasher) -> Gathered {
        let mut g = Gathered::default();
        for o in options {
            g.add(o, hasher);
        }
        g
    }

    /// Two runs joined say what one run of all their options says.
    #[rstest]
    #[case::distinct(&["a", "b", "c"], &["d", "e"], false)]
    #[case::repeat_within_the_first(&["a", "b", "a"], &["d"], true)]
    #[case::repeat_within_the_second(&["a"], &["d", "e", "d"], true)]
    #[case::repeat_across_runs(&["a", "b", "c"], &["d", "b"], true)]
    #[case::repeat_across_runs_larger_second(&["b"], &["d", "e", "b"], true)]
    fn two_runs_joined_gather_what_one_run_would(
        #[case] first: &[&str],
        #[case] second: &[&str],
        #[case] repeated: bool,
    ) {
        let hasher = TextHasher::default();
        let make = |values: &[&str], from: usize| -> Vec<OptionItem> {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| option(v, (from + i).is_multiple_of(2), from + i == 1))
                .collect()
        };
        let (a, b) = (make(first, 0), make(second, first.len()));
        // One side settled on its own thread first, as the second reading thread does.
        let mut settled = gather(&b, &hasher);
        settled.settle();
        let joined = gather(&a, &hasher).join(settled);
        let swapped = gather(&b, &hasher).join(gather(&a, &hasher));
        let all: Vec<OptionItem> = a.iter().chain(&b).cloned().collect();
        let one = gather(&all, &hasher).facts();
        assert_eq!((joined.repeated, swapped.repeated, one.repeated), (repeated, repeated, repeated));
        assert_eq!((joined.freeform, joined.without_preview), (one.freeform, one.without_preview));
        assert_eq!((one.freeform, one.without_preview), (1, all.len() / 2));
    }
}
