//! Large store rows are kept LZ4-compressed. redb gives a value bigger than a page a region of
//! the next power-of-two size and writes it whole: the two ≈ 9 MB rows a 100 000-option form
//! opens with (its payload and its opening event) took 32 MiB of writes, and every later start
//! checksummed them again when it opened the file. Compressed they take a fraction of that.
//!
//! A packed row is `\0lz4`, the original length (u32, little-endian) and an LZ4 block. No JSON
//! text starts with a NUL byte, so plain rows — everything below [`PACK_FROM`], and every row an
//! older build wrote — read as before. Portable log files never hold packed rows.

use std::borrow::Cow;

/// Rows this long or longer are packed (a form with a few hundred options or a long preview);
/// smaller ones lose little to page rounding and stay plain JSON.
pub const PACK_FROM: usize = 64 * 1024;

const MAGIC: &[u8; 4] = b"\0lz4";
const HEADER: usize = MAGIC.len() + 4;
/// LZ4 never expands a byte to more than 255 (its longest match per literal byte), so a header
/// claiming more is damaged — and must not make the reader allocate what it claims.
const MAX_RATIO: usize = 255;

/// The row as stored: packed when it is large and packing makes it smaller.
pub fn pack(row: Vec<u8>) -> Vec<u8> {
    let Ok(len) = u32::try_from(row.len()) else { return row };
    if row.len() < PACK_FROM {
        return row;
    }
    let mut out = vec![0u8; HEADER + lz4_flex::block::get_maximum_output_size(row.len())];
    out[..MAGIC.len()].copy_from_slice(MAGIC);
    out[MAGIC.len()..HEADER].copy_from_slice(&len.to_le_bytes());
    match lz4_flex::block::compress_into(&row, &mut out[HEADER..]) {
        // Worth it only if it saves at least an eighth (text does; random bytes do not).
        Ok(n) if HEADER + n < row.len() - row.len() / 8 => {
            out.truncate(HEADER + n);
            out
        }
        _ => row,
    }
}

/// Whether a stored row is packed.
pub fn is_packed(row: &[u8]) -> bool {
    row.starts_with(MAGIC)
}

/// The row's original bytes: borrowed when it was stored plain.
pub fn unpack(row: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    let Some(rest) = row.strip_prefix(MAGIC) else { return Ok(Cow::Borrowed(row)) };
    let (len, block) = rest.split_at_checked(4).ok_or("a packed row without its length")?;
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]) as usize;
    if len > block.len().saturating_mul(MAX_RATIO) {
        return Err(format!("a packed row of {} bytes claims {len}", row.len()));
    }
    let bytes = lz4_flex::block::decompress(block, len).map_err(|e| format!("a packed row: {e}"))?;
    if bytes.len() != len {
        return Err(format!("a packed row unpacked to {} bytes, not {len}", bytes.len()));
    }
    Ok(Cow::Owned(bytes))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn text(n: usize) -> Vec<u8> {
        let mut out = b"{\"options\":[".to_vec();
        let mut i = 0;
        while out.len() < n {
            out.extend_from_slice(format!("{{\"value\":\"v{i}\",\"label\":\"Option {i}\"}},").as_bytes());
            i += 1;
        }
        out
    }

    #[test]
    fn small_rows_stay_plain_json_and_large_ones_shrink_and_come_back() {
        let small = text(PACK_FROM - 100);
        assert_eq!(pack(small.clone()), small);
        let large = text(10 * PACK_FROM);
        let packed = pack(large.clone());
        assert!(packed.starts_with(MAGIC) && packed.len() < large.len() / 2, "{}", packed.len());
        assert_eq!(unpack(&packed).unwrap().as_ref(), large.as_slice());
        assert!(matches!(unpack(&small).unwrap(), Cow::Borrowed(_)));
    }

    #[test]
    fn rows_are_packed_from_pack_from_bytes_on() {
        let at = text(PACK_FROM)[..PACK_FROM].to_vec();
        assert!(is_packed(&pack(at.clone())));
        assert_eq!(pack(at[..PACK_FROM - 1].to_vec()), &at[..PACK_FROM - 1]);
    }

    /// A xorshift stream: no repeats for LZ4 to find.
    fn noise(n: usize) -> Vec<u8> {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn rows_that_do_not_compress_are_kept_as_they_are() {
        let noise = noise(2 * PACK_FROM);
        assert_eq!(pack(noise.clone()), noise);
    }

    /// Packing costs a decompression on every read: a row it would shrink by less than an
    /// eighth is not worth it, one it shrinks by more is.
    #[test]
    fn rows_are_packed_only_when_that_saves_an_eighth() {
        let with_zeros = |zeros: usize| {
            let mut row = noise(2 * PACK_FROM);
            row[..zeros].fill(0);
            row
        };
        let tenth = with_zeros(2 * PACK_FROM / 10);
        assert_eq!(pack(tenth.clone()), tenth);
        assert!(is_packed(&pack(with_zeros(2 * PACK_FROM / 5))));
    }

    #[test]
    fn a_damaged_packed_row_is_an_error_not_a_panic_or_a_huge_allocation() {
        let packed = pack(text(4 * PACK_FROM));
        let mut claims_4_gib = packed.clone();
        claims_4_gib[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack(&claims_4_gib).unwrap_err().contains("claims"));
        let truncated = &packed[..packed.len() / 2];
        assert!(unpack(truncated).is_err());
        assert!(unpack(&packed[..6]).is_err());
        let mut flipped = packed.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0xff;
        // A flipped byte either fails to unpack or unpacks to other bytes; never a panic.
        let _ = unpack(&flipped);
    }
}
