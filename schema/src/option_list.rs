//! A question's declared options: one list to every reader, held as up to two runs.
//!
//! A large payload's options are read on two threads (issue 15.2), each into a list of its own.
//! Copying the second list onto the end of the first was a tenth of start-up at 100 000 options
//! and more at a million: not the bytes, but the fresh pages the copy lands on, which the kernel
//! hands out one fault at a time. So the second run stays where its thread built it.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::Index;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::input::OptionItem;

/// The options in order: `head`, then `tail`; `tail` is only ever non-empty when `head` is too.
#[derive(Clone, Default)]
pub struct OptionList {
    head: Vec<OptionItem>,
    tail: Vec<OptionItem>,
}

impl OptionList {
    /// The options of `head`, then those of `tail`, without moving either.
    pub fn joined(head: Vec<OptionItem>, tail: Vec<OptionItem>) -> OptionList {
        if head.is_empty() {
            return OptionList { head: tail, tail: Vec::new() };
        }
        OptionList { head, tail }
    }

    pub fn len(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.head.is_empty()
    }

    pub fn get(&self, i: usize) -> Option<&OptionItem> {
        match i.checked_sub(self.head.len()) {
            None => self.head.get(i),
            Some(k) => self.tail.get(k),
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter { head: self.head.iter(), tail: self.tail.iter() }
    }
}

impl Index<usize> for OptionList {
    type Output = OptionItem;

    fn index(&self, i: usize) -> &OptionItem {
        match self.get(i) {
            Some(option) => option,
            None => panic!("option {i} of {}", self.len()),
        }
    }
}

impl From<Vec<OptionItem>> for OptionList {
    fn from(head: Vec<OptionItem>) -> OptionList {
        OptionList { head, tail: Vec::new() }
    }
}

impl FromIterator<OptionItem> for OptionList {
    fn from_iter<I: IntoIterator<Item = OptionItem>>(iter: I) -> OptionList {
        OptionList::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a OptionList {
    type Item = &'a OptionItem;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl PartialEq for OptionList {
    fn eq(&self, other: &OptionList) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for OptionList {}

impl fmt::Debug for OptionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for OptionList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for OptionList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OptionList, D::Error> {
        Vec::deserialize(d).map(OptionList::from)
    }
}

/// The options of an [`OptionList`] in order; jumps (`nth`, `skip`) cost the same at any offset.
#[derive(Clone)]
pub struct Iter<'a> {
    head: std::slice::Iter<'a, OptionItem>,
    tail: std::slice::Iter<'a, OptionItem>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a OptionItem;

    fn next(&mut self) -> Option<&'a OptionItem> {
        self.head.next().or_else(|| self.tail.next())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.head.len() + self.tail.len();
        (n, Some(n))
    }

    fn nth(&mut self, n: usize) -> Option<&'a OptionItem> {
        match n.checked_sub(self.head.len()) {
            None => self.head.nth(n),
            Some(k) => {
                self.head = [].iter();
                self.tail.nth(k)
            }
        }
    }

    fn fold<B, F: FnMut(B, &'a OptionItem) -> B>(self, init: B, mut f: F) -> B {
        let acc = self.head.fold(init, &mut f);
        self.tail.fold(acc, f)
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.tail.next_back().or_else(|| self.head.next_back())
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FusedIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use rstest::rstest;

    use super::*;

    fn items(from: usize, to: usize) -> Vec<OptionItem> {
        (from..to)
            .map(|i| OptionItem {
                value: i.to_string().into(),
                label: format!("L{i}").into(),
                description: None,
                preview: None,
                freeform: false,
            })
            .collect()
    }

    fn values(list: &OptionList) -> Vec<usize> {
        list.iter().map(|o| o.value.parse().unwrap()).collect()
    }

    /// However the runs fall — none, one, two of any lengths — the
    /// list reads as the options in order, by index, forwards, backwards and by jumps.
    #[rstest]
    #[case::empty(0, 0)]
    #[case::head_only(5, 0)]
    #[case::tail_only(0, 5)]
    #[case::short_tail(40, 3)]
    #[case::two_runs(6, 7)]
    #[case::long_tail(2, 30)]
    fn reads_as_one_list_however_it_was_joined(#[case] head: usize, #[case] tail: usize) {
        let n = head + tail;
        let list = OptionList::joined(items(0, head), items(head, n));
        let all: Vec<usize> = (0..n).collect();
        assert_eq!(list.len(), n);
        assert_eq!(list.is_empty(), n == 0);
        assert_eq!(values(&list), all);
        assert_eq!(list.iter().len(), n);
        assert_eq!(list.iter().rev().map(|o| o.value.parse().unwrap()).collect::<Vec<usize>>(), {
            let mut r = all.clone();
            r.reverse();
            r
        });
        for i in 0..n {
            assert_eq!(list[i].value, i.to_string());
            assert_eq!(list.get(i).map(|o| o.label.as_str()), Some(format!("L{i}").as_str()));
            assert_eq!(list.iter().nth(i).map(|o| o.value.as_str()), Some(i.to_string().as_str()));
            assert_eq!(list.iter().skip(i).len(), n - i);
        }
        assert!(list.get(n).is_none());
        assert!(list.iter().nth(n).is_none());
        // Equal to the same options held as one run, and serialized as one JSON array.
        assert_eq!(list, OptionList::from(items(0, n)));
        assert_eq!(list, items(0, n).into_iter().collect::<OptionList>());
        // A failed assertion shows the options as a vector of them would be shown.
        assert_eq!(format!("{list:?}"), format!("{:?}", items(0, n)));
        assert_eq!(serde_json::to_value(&list).unwrap(), serde_json::to_value(items(0, n)).unwrap());
        let back: OptionList = serde_json::from_value(serde_json::to_value(&list).unwrap()).unwrap();
        assert_eq!(back, list);
    }

    proptest::proptest! {
        /// Any walk — steps from the front and the back, jumps of any length — over a list of
        /// two runs meets the options a plain vector of them gives, in the same order.
        #[test]
        fn any_walk_meets_what_a_vector_gives(
            head in 0usize..24,
            tail in 0usize..24,
            steps in proptest::collection::vec((0u8..3, 0usize..30), 0..40),
        ) {
            let list = OptionList::joined(items(0, head), items(head, head + tail));
            let model = items(0, head + tail);
            let (mut ours, mut theirs) = (list.iter(), model.iter());
            for (kind, n) in steps {
                let (a, b) = match kind {
                    0 => (ours.next(), theirs.next()),
                    1 => (ours.next_back(), theirs.next_back()),
                    _ => (ours.nth(n), theirs.nth(n)),
                };
                proptest::prop_assert_eq!(a, b);
                proptest::prop_assert_eq!(ours.len(), theirs.len());
            }
            proptest::prop_assert!(ours.eq(theirs));
        }
    }

    #[test]
    fn lists_that_differ_are_not_equal() {
        let list = OptionList::joined(items(0, 3), items(3, 6));
        assert_ne!(list, OptionList::from(items(0, 5)));
        assert_ne!(list, OptionList::joined(items(0, 3), items(4, 7)));
    }

    #[test]
    #[should_panic(expected = "option 6 of 6")]
    fn an_index_past_the_end_says_so() {
        let list = OptionList::joined(items(0, 3), items(3, 6));
        let _ = &list[6];
    }
}
