//! Work lists whose entries stay in memory while they are young. A message owed by a phone and a
//! webhook delivery not yet settled each need an entry a restart can find, but most settle within
//! a second, and writing an entry only to delete it again cost two sled writes for nothing. So an
//! entry lives in memory until it is [`YOUNG_MS`] old and only then is written to its tree (the
//! ticker in `mark.rs` moves it); a restart finds the young ones again by scanning the records
//! made since the store's recovery mark, which the ticker keeps below every young entry.
//!
//! Keys are `group (16 bytes) ++ id (16 bytes)`, where the id is a ULID whose time says the
//! entry's age; values are the owning tenant.

use std::collections::HashMap;
use std::sync::Mutex;

use ulid::Ulid;

use super::tree::Tree;
use super::ulid_at;
use crate::clock::{now_ms, SharedClock};
use crate::StoreError;

/// How old an entry gets before it is written to disk. Work that settles sooner never is.
pub(crate) const YOUNG_MS: u64 = 5_000;

/// Entries written per lock hold when the ticker moves old ones to disk, so a large move never
/// holds the send path up for long.
const MOVE_CHUNK: usize = 128;

/// A key of a work list.
pub(crate) type Key = [u8; 32];

/// The key `group ++ id`.
pub(crate) fn key(group: Ulid, id: Ulid) -> Key {
    let mut k = [0u8; 32];
    k[..16].copy_from_slice(&group.to_bytes());
    k[16..].copy_from_slice(&id.to_bytes());
    k
}

/// A work list: a tree for entries older than [`YOUNG_MS`], memory for the others.
pub(crate) struct WorkList {
    tree: Tree,
    young: Mutex<HashMap<Key, [u8; 16]>>,
    /// The clock ids are made with, which says how old an entry is.
    clock: SharedClock,
}

fn made_ms(key: &Key) -> u64 {
    ulid_at(&key[16..]).timestamp_ms()
}

impl WorkList {
    pub(crate) fn new(tree: Tree, clock: SharedClock) -> Self {
        Self { tree, young: Mutex::default(), clock }
    }

    /// Records that `key` is owed. Call before writing the record that makes it so: sled recovers
    /// a prefix of its log, so the record can never be found without its entry.
    pub(crate) fn add(&self, key: Key, tenant: Ulid) -> Result<(), StoreError> {
        let mut young = self.young.lock().unwrap();
        if young.contains_key(&key) {
            return Ok(());
        }
        if made_ms(&key) + YOUNG_MS > now_ms(&*self.clock) {
            young.insert(key, tenant.to_bytes());
            return Ok(());
        }
        drop(young);
        // Old work owed again (a released message, a delivery retried by hand), or owed still.
        if !self.tree.contains_key(key)? {
            self.tree.insert(key, &tenant.to_bytes())?;
        }
        Ok(())
    }

    /// Lists `key` again after a restart or a takeover, unless it is already on disk (a node that
    /// stopped gracefully wrote all its entries there): an entry in both places would outlive
    /// its settling, which removes only one.
    pub(crate) fn add_found(&self, key: Key, tenant: Ulid) -> Result<(), StoreError> {
        if self.tree.contains_key(key)? {
            return Ok(());
        }
        self.add(key, tenant)
    }

    /// Records that `key` is settled. Call after writing the record that makes it so: a crash in
    /// between leaves a stale entry, which recovery drops, never settled work without its record.
    pub(crate) fn remove(&self, key: &Key) -> Result<(), StoreError> {
        if self.young.lock().unwrap().remove(key).is_none() {
            self.tree.remove(key)?;
        }
        Ok(())
    }

    /// Drops every entry of a group (a deleted webhook's deliveries).
    pub(crate) fn remove_group(&self, group: Ulid) -> Result<(), StoreError> {
        let g = group.to_bytes();
        self.young.lock().unwrap().retain(|k, _| k[..16] != g);
        for k in self.tree.scan_prefix(g).keys() {
            self.tree.remove(k?)?;
        }
        Ok(())
    }

    /// Every entry, in key order (group, then age): what is on disk and what is young.
    pub(crate) fn entries(&self) -> Result<Vec<(Key, Ulid)>, StoreError> {
        let mut out: Vec<(Key, Ulid)> =
            self.young.lock().unwrap().iter().map(|(k, v)| (*k, Ulid::from_bytes(*v))).collect();
        for kv in self.tree.iter() {
            let (k, v) = kv?;
            if let (Ok(k), true) = (Key::try_from(k.as_ref()), v.len() == 16) {
                out.push((k, ulid_at(&v)));
            }
        }
        out.sort_unstable_by_key(|e| e.0);
        out.dedup_by(|a, b| a.0 == b.0);
        Ok(out)
    }

    /// Writes entries that have grown old to disk; returns how many.
    pub(crate) fn move_old(&self, now_ms: u64) -> Result<usize, StoreError> {
        let mut moved = 0;
        loop {
            let mut young = self.young.lock().unwrap();
            let old: Vec<(Key, [u8; 16])> = young
                .iter()
                .filter(|(k, _)| made_ms(k) + YOUNG_MS <= now_ms)
                .take(MOVE_CHUNK)
                .map(|(k, v)| (*k, *v))
                .collect();
            // Written while the lock is held: a `remove` in between would otherwise find the
            // entry in neither place and leave the written one stale.
            for (k, v) in &old {
                self.tree.insert(k, v)?;
                young.remove(k);
            }
            moved += old.len();
            if old.len() < MOVE_CHUNK {
                return Ok(moved);
            }
        }
    }

    /// When the oldest young entry was made, if there is one.
    pub(crate) fn oldest_young_ms(&self) -> Option<u64> {
        self.young.lock().unwrap().keys().map(made_ms).min()
    }

    /// Entries held in memory now.
    #[cfg(test)]
    pub(crate) fn young_len(&self) -> usize {
        self.young.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::Arc;

    #[test]
    fn young_entries_stay_in_memory_until_they_are_old_and_settling_them_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::open(dir.path()).unwrap();
        let writes = Arc::new(AtomicU64::new(0));
        let health = Arc::new(crate::health::Health::new(dir.path().to_owned()));
        let clock: SharedClock = crate::clock::ManualClock::new("2030-06-15T12:00:00Z".parse().unwrap());
        let engine = super::super::tree::Engine::Sled(db);
        let opener = super::super::tree::Opener {
            engine: &engine,
            writes: &writes,
            health: &health,
            clock: &clock,
            tap: &Default::default(),
        };
        let list = WorkList::new(opener.tree("w").unwrap(), clock.clone());
        let (g, t) = (Ulid::generate(), Ulid::generate());
        let now = now_ms(&*clock);
        let fresh = key(g, Ulid::from_parts(now, 1));
        let settles = key(g, Ulid::from_parts(now, 2));
        let ancient = key(g, Ulid::from_parts(now - YOUNG_MS - 1, 3));
        for k in [fresh, settles, ancient] {
            list.add(k, t).unwrap();
        }
        list.add(fresh, t).unwrap();
        // Only the old one went to disk, once.
        assert_eq!(writes.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert_eq!(list.young_len(), 2);
        assert_eq!(list.oldest_young_ms(), Some(now));
        list.remove(&settles).unwrap();
        assert_eq!(writes.load(std::sync::atomic::Ordering::Relaxed), 1, "settled young: no write");
        let all: Vec<Key> = list.entries().unwrap().into_iter().map(|(k, _)| k).collect();
        assert_eq!(all, vec![ancient, fresh]);
        // Once old, the young one moves to disk and is still listed once.
        assert_eq!(list.move_old(now + YOUNG_MS).unwrap(), 1);
        assert_eq!(list.young_len(), 0);
        assert_eq!(list.entries().unwrap().len(), 2);
        list.remove(&fresh).unwrap();
        list.remove_group(g).unwrap();
        assert!(list.entries().unwrap().is_empty());
    }
}
