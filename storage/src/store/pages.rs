//! Cursor pages over records keyed `prefix ++ id`, oldest or newest first.

use std::ops::Bound;

use ulid::Ulid;

use super::codec::Codec;
use super::{decode, tree};
use crate::StoreError;

/// Records of one tenant in a tree keyed `tenant ++ prefix ++ id`, in id order after `after`.
pub(crate) fn page<T: Codec>(
    tree: &impl tree::Records,
    name: &'static str,
    prefix: &[u8],
    after: Option<Ulid>,
    limit: usize,
) -> Result<Vec<T>, StoreError> {
    let start = match after {
        Some(a) => {
            let mut k = prefix.to_vec();
            k.extend_from_slice(&a.to_bytes());
            Bound::Excluded(k)
        }
        None => Bound::Included(prefix.to_vec()),
    };
    let end = tree::prefix_end(prefix).map_or(Bound::Unbounded, Bound::Excluded);
    tree.records(start, end, false).take(limit).map(|kv| decode(name, &kv?.1)).collect()
}

/// The same newest first: records under `prefix` (keyed `prefix ++ id`) before `before`.
pub(crate) fn page_newest<T: Codec>(
    tree: &impl tree::Records,
    name: &'static str,
    prefix: &[u8],
    before: Option<Ulid>,
    limit: usize,
) -> Result<Vec<T>, StoreError> {
    let mut end = prefix.to_vec();
    let end = match before {
        Some(b) => {
            end.extend_from_slice(&b.to_bytes());
            Bound::Excluded(end)
        }
        None => {
            end.extend_from_slice(&[0xff; 16]);
            Bound::Included(end)
        }
    };
    tree.records(Bound::Included(prefix.to_vec()), end, true)
        .take(limit)
        .map(|kv| decode(name, &kv?.1))
        .collect()
}
