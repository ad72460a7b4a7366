//! A sled tree that counts the writes made through it, so the store can say what a message costs
//! (`pigeon_store_writes_total`, and the load harness's writes per message). Reads go straight
//! through (`Deref`); only the write calls are wrapped.

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::health::Health;
use crate::StoreError;

/// Opens the trees of one store, all counting into the same total.
pub(crate) struct Opener<'a> {
    pub(crate) db: &'a sled::Db,
    pub(crate) writes: &'a Arc<AtomicU64>,
    pub(crate) health: &'a Arc<Health>,
    /// The store's clock, for the work lists' ages.
    pub(crate) clock: &'a crate::clock::SharedClock,
}

impl Opener<'_> {
    pub(crate) fn tree(&self, name: &str) -> Result<Tree, StoreError> {
        Ok(Tree { tree: self.db.open_tree(name)?, writes: self.writes.clone(), health: self.health.clone() })
    }
}

/// A counted tree, whose failed writes tell the store's [`Health`].
#[derive(Clone)]
pub(crate) struct Tree {
    tree: sled::Tree,
    writes: Arc<AtomicU64>,
    health: Arc<Health>,
}

impl Tree {
    pub(crate) fn insert<K: AsRef<[u8]>, V: Into<sled::IVec>>(
        &self,
        key: K,
        value: V,
    ) -> sled::Result<Option<sled::IVec>> {
        self.writes.fetch_add(1, Ordering::Relaxed);
        self.tree.insert(key, value).inspect_err(|e| self.health.sled(e))
    }

    /// Removing a key that is not there writes nothing and counts nothing.
    pub(crate) fn remove<K: AsRef<[u8]>>(&self, key: K) -> sled::Result<Option<sled::IVec>> {
        let old = self.tree.remove(key).inspect_err(|e| self.health.sled(e))?;
        if old.is_some() {
            self.writes.fetch_add(1, Ordering::Relaxed);
        }
        Ok(old)
    }

    /// A batch counts as the writes it holds.
    pub(crate) fn apply_batch(&self, batch: sled::Batch, writes: u64) -> sled::Result<()> {
        self.writes.fetch_add(writes, Ordering::Relaxed);
        self.tree.apply_batch(batch).inspect_err(|e| self.health.sled(e))
    }

    /// Counts writes made inside a transaction over this tree (sled's transactional trees are
    /// not ours to wrap); call once the transaction committed.
    pub(crate) fn count(&self, writes: u64) {
        self.writes.fetch_add(writes, Ordering::Relaxed);
    }
}

impl Deref for Tree {
    type Target = sled::Tree;

    fn deref(&self) -> &sled::Tree {
        &self.tree
    }
}
