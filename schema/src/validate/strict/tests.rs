//! The strict reader's word test.

use super::stop_in;

/// What `stop_in` answers, one byte at a time.
fn plain(word: [u8; 8]) -> Option<usize> {
    word.iter().position(|&b| matches!(b, b'"' | b'\\' | 0..0x20))
}

/// Every byte value at every place of a word of each filler, then words mixing bytes of every
/// kind (several stops among them): the word test finds exactly the first stop.
#[test]
fn the_word_test_finds_the_first_quote_backslash_or_control_byte() {
    for filler in [b'a', b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xbf, 0xff] {
        for at in 0..8 {
            for b in 0..=255u8 {
                let mut word = [filler; 8];
                word[at] = b;
                assert_eq!(stop_in(u64::from_le_bytes(word)), plain(word), "{word:02x?}");
            }
        }
    }
    let kinds = [b'"', b'\\', 0x00, 0x01, 0x1f, 0x20, 0x21, b'a', 0x7f, 0x80, 0xdc, 0xff];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..200_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let word = seed.to_le_bytes().map(|r| kinds[usize::from(r) % kinds.len()]);
        assert_eq!(stop_in(u64::from_le_bytes(word)), plain(word), "{word:02x?}");
    }
}
