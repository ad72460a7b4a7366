//! Moving a stopped sled store into an empty PostgreSQL database.
//!
//! Media files go first, into the database's media tables (`pg/media.rs`), then the records.
//!
//! Both engines hold the same trees under the same keys (`store/tree.rs`), so a move is a copy,
//! tree by tree, through the store's own reads: a family split into spans on sled is read across
//! them (stale copies skipped) into its one table. Work-list entries young at the stop live only
//! in memory until the recovery scan lists them again; they are written to their trees first, so
//! the database says what work is owed without a recovery mark (a fleet's node reads none).
//! Writes go in transactions of [`BATCH`] records: a move cut short leaves a database that is not
//! empty, which the next attempt refuses, so the operator empties it (or takes another) and
//! runs it again.

use std::ops::Bound::Unbounded;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::pg::Pg;
use crate::{Store, StoreError};

/// Records per transaction.
const BATCH: u64 = 10_000;

/// What a move copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migrated {
    /// Records copied into each table, in the schema's order.
    pub trees: Vec<(&'static str, u64)>,
    /// Media files copied (each stored once, however many records hold it).
    pub files: u64,
    /// How long it took.
    pub took: Duration,
}

impl Migrated {
    /// Records copied, all tables.
    pub fn records(&self) -> u64 {
        self.trees.iter().map(|(_, n)| n).sum()
    }
}

/// Copies the sled store in `dir` (no node may be running on it) into the database at `url`,
/// which must hold no pigeon data yet (see the module's doc).
pub fn migrate(dir: &Path, url: &str) -> Result<Migrated, StoreError> {
    let started = Instant::now();
    if !dir.join("db").exists() {
        return Err(StoreError::Migrate(format!("{} holds no pigeon store", dir.display())));
    }
    let from = Store::open(dir)?;
    let unknown: Vec<String> = from
        .sled_tree_names()
        .into_iter()
        .filter(|n| !n.contains('@') && n != "__sled__default" && !crate::pg::TREES.contains(&n.as_str()))
        .collect();
    if !unknown.is_empty() {
        return Err(StoreError::Migrate(format!(
            "the store has trees this pigeon has no table for ({}): is it from a newer version?",
            unknown.join(", ")
        )));
    }
    from.settle()?;
    let to = Pg::connect(url, 2, 16 * 1024 * 1024, None, |_| {})?;
    for name in crate::pg::TREES {
        if to.tree(name)?.range(Unbounded, Unbounded).next().transpose()?.is_some() {
            return Err(StoreError::Migrate(format!(
                "the database already holds pigeon data (table pigeon.\"{name}\" is not empty): \
                 migrate into an empty database"
            )));
        }
    }
    // The files before the records: no record in the database names bytes it does not have.
    let mut files = 0u64;
    if let Ok(entries) = std::fs::read_dir(dir.join("media")) {
        for entry in entries {
            let entry =
                entry.map_err(|e| StoreError::Migrate(format!("cannot list the media files: {e}")))?;
            let meta = entry
                .metadata()
                .map_err(|e| StoreError::Migrate(format!("cannot read a media file: {e}")))?;
            if meta.is_file() {
                let sha256 = entry.file_name().to_string_lossy().into_owned();
                let kept_ms = meta.modified().map_or(0, crate::media::ms_of);
                to.put_media(&crate::media::Kept { sha256, size: meta.len() }, &entry.path(), kept_ms)?;
                files += 1;
            }
        }
    }
    let mut trees = Vec::with_capacity(crate::pg::TREES.len());
    for name in crate::pg::TREES {
        let table = to.tree(name)?;
        let mut n = 0u64;
        for kv in from.records_of(name)? {
            let (k, v) = kv?;
            table.write(&k, Some(v));
            n += 1;
            if n % BATCH == 0 {
                to.flush().map_err(StoreError::Database)?;
            }
        }
        to.flush().map_err(StoreError::Database)?;
        trees.push((*name, n));
    }
    Ok(Migrated { trees, files, took: started.elapsed() })
}
