//! The store copied elsewhere as a whole: a backup while it serves (`backup.rs`) and the
//! reads and settling a move to PostgreSQL needs (`migrate.rs`).

use super::Store;
use crate::StoreError;

/// Every record of one tree, from [`Store::records_of`].
pub(crate) type AllRecords<'a> =
    Box<dyn Iterator<Item = Result<(super::tree::IVec, super::tree::IVec), StoreError>> + 'a>;

impl Store {
    /// Copies the store, while it serves, into a snapshot in its data directory that
    /// [`crate::backup::Snapshot::write_archive`] sends on (see `backup.rs`). Blocks for as long
    /// as the copy takes; one at a time. PostgreSQL's backups are the database's.
    pub fn backup(&self) -> Result<crate::backup::Snapshot, StoreError> {
        match (&self.inner.engine, &self.inner.dir) {
            (super::tree::Engine::Sled(db), Some(dir)) => {
                crate::backup::snapshot(db, &self.inner.tap, dir, self.clock())
            }
            _ => Err(StoreError::BackupOnDatabase),
        }
    }

    /// Every record of the tree `name` where the store reads it from (a family split into spans
    /// read across them, stale copies skipped), for copying the store elsewhere (`migrate.rs`).
    pub(crate) fn records_of(&self, name: &str) -> Result<AllRecords<'_>, StoreError> {
        use std::ops::Bound::Unbounded;
        let i = &self.inner;
        let spanned = match name {
            "messages" => Some(i.messages.tree()),
            "deliveries" => Some(i.webhooks.deliveries_tree()),
            "events" => Some(i.events.tree()),
            _ => None,
        };
        if let Some(family) = spanned {
            return Ok(Box::new(family.range(Unbounded, Unbounded, false)));
        }
        let clock = i.ids.clock();
        let opener = super::tree::Opener {
            engine: &i.engine,
            writes: &i.writes,
            health: &i.health,
            clock,
            tap: &i.tap,
        };
        Ok(Box::new(opener.tree(name)?.iter()))
    }

    /// Writes every work-list entry still held in memory to its tree, and the counters, so that
    /// the trees alone say what work is owed (`migrate.rs`: a fleet's node reads no mark).
    pub(crate) fn settle(&self) -> Result<(), StoreError> {
        let lists = &self.inner.lists;
        lists.pending.move_old(u64::MAX / 2)?;
        lists.due.move_old(u64::MAX / 2)?;
        lists.tick()
    }

    /// The names of the sled store's trees (none on PostgreSQL).
    pub(crate) fn sled_tree_names(&self) -> Vec<String> {
        match &self.inner.engine {
            super::tree::Engine::Sled(db) => {
                db.tree_names().iter().map(|n| String::from_utf8_lossy(n).into_owned()).collect()
            }
            super::tree::Engine::Pg(_) => Vec::new(),
        }
    }
}
