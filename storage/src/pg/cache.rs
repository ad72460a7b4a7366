//! A table's read cache: what the node last read or wrote of each key, within a byte budget.
//!
//! Coherent because a node caches only what no other node writes (`fleet.rs`: the keys of tenants
//! whose lease it holds, and index entries that exist, which never change): every change goes
//! through [`Cache::put`] as it is written, so a cached value is the newest there is. The one race is a read of the table that a write passes while it is on
//! its way back; [`Cache::writes`] tells the reader, who then leaves the cache alone.
//!
//! Two generations instead of an LRU list: new entries go to the young map, and when it holds
//! half the budget the old map is dropped and the young one takes its place. Lookups try young
//! then old, so a newer value always shadows an older one. O(1), no bookkeeping per hit.

use std::collections::HashMap;

use sled::IVec;

/// Bytes counted for an entry besides its key and value (the maps' own overhead, roughly).
const ENTRY_OVERHEAD: usize = 64;

#[derive(Default)]
pub(super) struct Cache {
    young: HashMap<Vec<u8>, Option<IVec>>,
    old: HashMap<Vec<u8>, Option<IVec>>,
    young_bytes: usize,
    /// Writes to the table so far.
    pub(super) writes: u64,
}

impl Cache {
    /// The cached answer for `key`: `Some(None)` when it is known to be absent.
    pub(super) fn get(&self, key: &[u8]) -> Option<Option<IVec>> {
        self.young.get(key).or_else(|| self.old.get(key)).cloned()
    }

    /// Forgets everything (the write count stays).
    pub(super) fn clear(&mut self) {
        (self.young, self.old, self.young_bytes) = (HashMap::new(), HashMap::new(), 0);
    }

    /// Remembers `value` (or, `None`, absence) for `key`, within `budget` bytes in all.
    pub(super) fn put(&mut self, key: Vec<u8>, value: Option<IVec>, budget: usize) {
        let size = key.len() + value.as_ref().map_or(0, |v| v.len()) + ENTRY_OVERHEAD;
        if self.young_bytes + size > budget / 2 {
            self.old = std::mem::take(&mut self.young);
            self.young_bytes = 0;
        }
        self.young_bytes += size;
        self.young.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newer_values_shadow_older_ones_and_the_budget_holds() {
        let mut c = Cache::default();
        let budget = 10 * (8 + 4 + ENTRY_OVERHEAD);
        for i in 0..100u64 {
            c.put(i.to_be_bytes().to_vec(), Some(IVec::from(&[1u8; 4][..])), budget);
        }
        let held = (0..100u64).filter(|i| c.get(&i.to_be_bytes()).is_some()).count();
        assert!((5..=10).contains(&held), "{held} entries held");
        assert!(c.get(&99u64.to_be_bytes()).is_some(), "the newest stays");
        // A key in the old generation, written again: the new value wins.
        let k = 95u64.to_be_bytes().to_vec();
        c.put(k.clone(), None, budget);
        assert_eq!(c.get(&k), Some(None));
    }
}
