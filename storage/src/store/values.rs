//! Reading the small values of the indexes: ids, counters, owner pairs, credential hashes.

use ulid::Ulid;

use super::tree;

/// The id in the 16 bytes at the start of `bytes`.
pub(crate) fn ulid_at(bytes: &[u8]) -> Ulid {
    let mut b = [0u8; 16];
    b.copy_from_slice(&bytes[..16]);
    Ulid::from_bytes(b)
}

/// The id a 16-byte index value names, if it is one.
pub(crate) fn ulid_value(v: Option<tree::IVec>) -> Option<Ulid> {
    v.filter(|v| v.len() == 16).map(|v| ulid_at(&v))
}

/// A counter's value (8 bytes, big-endian); 0 when never set.
pub(crate) fn u64_value(v: Option<tree::IVec>) -> u64 {
    v.and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok()).map(u64::from_be_bytes).unwrap_or(0)
}

/// How many leading hex characters of a credential's SHA-256 index it. The full hash is
/// compared, in constant time, by the engine after the lookup.
pub(crate) const HASH_INDEX_LEN: usize = 32;

/// The index key of a credential hash (hex); `None` for a string too short to be one.
pub(crate) fn hash_index(hash_hex: &str) -> Option<&[u8]> {
    hash_hex.as_bytes().get(..HASH_INDEX_LEN)
}

/// A 32-byte index value `tenant ++ id` as the pair it names.
pub(crate) fn owner_pair(v: Option<tree::IVec>) -> Option<(Ulid, Ulid)> {
    v.filter(|v| v.len() == 32).map(|v| (ulid_at(&v), ulid_at(&v[16..])))
}
