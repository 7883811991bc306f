//! Fields the fast path does not name, read as strictly as the tree validator's parse reads them.
//!
//! A derived `Deserialize` skips a field its struct does not name with `IgnoredAny`, and
//! serde_json skips such a value without two checks it makes when it builds a `Value`: a lone
//! surrogate escape (`"\udc00"`) and a number out of range (`1e400`) pass there, while
//! [`crate::parse_json`] refuses the whole payload for either. Left alone, the fast path would
//! accept a payload the tree validator refuses. So every object's values go through [`Checked`]:
//! a skipped value is read as a `serde_json::Value` (built and dropped, for unknown fields only)
//! and every other request is passed on unchanged.

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};

/// An object's entries, each value read through [`Checked`].
pub(super) struct CheckedMap<A>(pub(super) A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for CheckedMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(CheckedSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct CheckedSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for CheckedSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Checked(d))
    }
}

/// A value's deserializer that parses a skipped value in full instead of skimming it.
struct Checked<D>(D);

macro_rules! pass_on {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* visitor)
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<D> {
    type Error = D::Error;

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        serde_json::Value::deserialize(self.0)?;
        visitor.visit_unit()
    }

    pass_on! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16(); deserialize_i32();
        deserialize_i64(); deserialize_i128(); deserialize_u8(); deserialize_u16(); deserialize_u32();
        deserialize_u64(); deserialize_u128(); deserialize_f32(); deserialize_f64(); deserialize_char();
        deserialize_str(); deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_seq(); deserialize_map();
        deserialize_identifier();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}
