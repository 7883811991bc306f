//! serde_json's typed reading, made as strict as its `Value` reading about the values a struct
//! does not name.
//!
//! A derived `Deserialize` skips a field its struct does not name with `IgnoredAny`, and
//! serde_json skims such a value without two checks it makes when it builds a `Value`: a lone
//! surrogate escape (`"\udc00"`) and a number out of range (`1e400`) pass there, while
//! `serde_json::from_str::<Value>` refuses the whole text for either. A reader that should say
//! yes exactly where another says yes — the validator's fast path beside its tree
//! ([`crate::parse_json`]), the store's own reader of an opening event beside its tagged enum —
//! reads through [`from_str`] or [`from_slice`]: every value at every depth goes through
//! `Checked`, which parses a skipped value in full, as a `serde_json::Value` would be parsed but
//! without building one, and passes every other request on unchanged.

use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

/// `T` read from JSON text, its unknown fields parsed in full.
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Checked(&mut de))?;
    de.end()?;
    Ok(value)
}

/// `T` read from JSON bytes, its unknown fields parsed in full.
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = T::deserialize(Checked(&mut de))?;
    de.end()?;
    Ok(value)
}

/// A deserializer that parses a skipped value in full and hands out only checked parts.
struct Checked<D>(D);

/// A visitor whose maps, sequences, options, newtypes and enums hand out checked parts.
struct Wrap<V>(V);

struct CheckedSeed<S>(S);

macro_rules! pass_on {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* Wrap(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<D> {
    type Error = D::Error;

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        Parsed::deserialize(self.0)?;
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

/// A value parsed as a `serde_json::Value` is (`deserialize_any` all the way down, so every
/// escape is decoded and every number converted) and kept nowhere: no tree is built for a field
/// that is dropped.
struct Parsed;

impl<'de> Deserialize<'de> for Parsed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Parsed, D::Error> {
        d.deserialize_any(Parsed)
    }
}

impl<'de> Visitor<'de> for Parsed {
    type Value = Parsed;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_str<E>(self, _: &str) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_unit<E>(self) -> Result<Parsed, E> {
        Ok(Parsed)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Parsed, A::Error> {
        while seq.next_element::<Parsed>()?.is_some() {}
        Ok(Parsed)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parsed, A::Error> {
        while map.next_entry::<Parsed, Parsed>()?.is_some() {}
        Ok(Parsed)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for CheckedSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Checked(d))
    }
}

macro_rules! visit_as_is {
    ($($method:ident($ty:ty);)*) => {$(
        fn $method<E: serde::de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.0.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }

    visit_as_is! {
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64); visit_i128(i128);
        visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64); visit_u128(u128);
        visit_f32(f32); visit_f64(f64); visit_char(char); visit_str(&str); visit_borrowed_str(&'de str);
        visit_string(String); visit_bytes(&[u8]); visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Checked(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Checked(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Checked(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Checked(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Checked(data))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(CheckedSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(CheckedSeed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(CheckedSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Checked<A> {
    type Error = A::Error;
    type Variant = Checked<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0.variant_seed(CheckedSeed(seed)).map(|(value, variant)| (value, Checked(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Checked<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(CheckedSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap(visitor))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use rstest::rstest;
    use serde::Deserialize;
    use serde_json::Value;

    #[derive(Debug, PartialEq, Deserialize)]
    struct Outer {
        name: String,
        inner: Option<Vec<Inner>>,
        kind: Option<Kind>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Inner {
        n: u8,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    enum Kind {
        Plain,
        With { n: u8 },
    }

    /// Everything but a skipped value is serde_json's own reading: an enum variant in its map
    /// form, a type read differently by human-readable formats, and the error a wrong type gets.
    #[test]
    fn other_requests_are_passed_on_unchanged() {
        assert_eq!(super::from_str::<Kind>(r#"{"Plain":null}"#).unwrap(), Kind::Plain);
        assert!(super::from_str::<Kind>(r#"{"Plain":5}"#).is_err());
        let ip: std::net::IpAddr = super::from_str(r#""127.0.0.1""#).unwrap();
        assert!(ip.is_loopback());
        let wrong = super::from_str::<Outer>(r#"{"name":5}"#).unwrap_err().to_string();
        assert_eq!(wrong, serde_json::from_str::<Outer>(r#"{"name":5}"#).unwrap_err().to_string());
        assert!(wrong.contains("expected a string"), "{wrong}");
    }

    /// Wherever an unknown field sits — at the top, inside an option, a list, a map value or an
    /// enum's variant — typed reading through `from_str` accepts a text exactly when parsing it
    /// as a `Value` does, and reads the same fields as plain serde_json when both accept.
    #[rstest]
    #[case::plain(r#"{"name":"a","inner":[{"n":1}],"kind":"Plain"}"#, true)]
    #[case::unknown_field_fine(
        r#"{"name":"a","x":[1,{"y":"\ud83d\ude00"}],"inner":[{"n":1,"z":null}]}"#,
        true
    )]
    #[case::unknown_field_big_number_nulls_and_empties(
        r#"{"name":"a","x":[123456789012345678901234567890,-1.5e300,null,{},[],{"":""}]}"#,
        true
    )]
    #[case::lone_surrogate_at_the_top(r#"{"x":"\udc00","name":"a"}"#, false)]
    #[case::lone_surrogate_in_a_list_item(r#"{"name":"a","inner":[{"n":1,"z":"\ud800x"}]}"#, false)]
    #[case::out_of_range_in_an_enum_variant(r#"{"name":"a","kind":{"With":{"n":1,"z":[1e400]}}}"#, false)]
    #[case::out_of_range_deep(r#"{"name":"a","x":{"y":[[{"z":-1e999}]]}}"#, false)]
    #[case::trailing_text(r#"{"name":"a"} x"#, false)]
    fn accepts_exactly_what_a_value_parse_accepts(#[case] text: &str, #[case] valid: bool) {
        assert_eq!(serde_json::from_str::<Value>(text).is_ok(), valid);
        let checked = super::from_str::<Outer>(text);
        assert_eq!(checked.is_ok(), valid, "{checked:?}");
        assert_eq!(super::from_slice::<Outer>(text.as_bytes()).is_ok(), valid);
        if valid {
            assert_eq!(checked.unwrap(), serde_json::from_str::<Outer>(text).unwrap());
        } else if !text.ends_with('x') {
            assert!(
                serde_json::from_str::<Outer>(text).is_ok(),
                "plain serde_json skims it: the case tests the fix"
            );
        }
    }
}
