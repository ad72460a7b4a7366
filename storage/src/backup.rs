//! Backups of a sled store while it serves, and their restore.
//!
//! sled 0.34 has no snapshot, and reading its trees while writers go on is not one: a record and
//! its index could be read on either side of a write. So a backup copies the trees into a fresh
//! sled store beside the live one (`<dir>/backup.partial`) while every write made meanwhile is
//! also logged (the [`Tap`]), and the copier replays that log into the copy after each batch it
//! copies. Replaying a key's writes in the order they were made leaves it as the live store has
//! it, whichever side of the copier's read they fell on. At the end the copier takes the tap's gate
//! alone for a moment, replays what is left and lets writers go: the copy is then the live store as
//! it was at that instant (the *cut*), with every write acknowledged before the backup began and
//! none of a write in part. A store recovers from it as from a stop at the cut (`mark.rs`).
//!
//! Each tree is read up to the last key it held once writes were logged (later keys come through
//! the log), so a copy ends once the copier outruns the inserts into ranges it has still to read:
//! at a node's rates at once (a copier batches; a send pays for much more than its writes).
//!
//! Writers hold the gate shared while they write; while a backup copies they also take the log's
//! lock around the write and its log entry, so the log holds each key's writes in the order sled
//! applied them. Without a backup a write pays one uncontended read lock.
//!
//! The copy goes out as a tar archive: the store's files under `data/`, then `pigeon-backup.json`
//! (what was copied, and when) last, so an archive cut short is told apart from a whole one.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sled::IVec;

use crate::StoreError;

/// Where in the data directory a backup's copy is made (and removed once sent).
pub(crate) const COPY_DIR: &str = "backup.partial";

/// The archive's last entry.
pub const MANIFEST: &str = "pigeon-backup.json";

/// The archive layout this build writes and reads.
const FORMAT: u32 = 1;

/// Records copied per batch before the log is replayed.
const BATCH: usize = 10_000;

/// One write made while a backup copies: the tree, the key, and the value (`None`: removed).
pub(crate) struct Op {
    tree: IVec,
    key: Vec<u8>,
    value: Option<IVec>,
}

impl Op {
    pub(crate) fn new(tree: IVec, key: Vec<u8>, value: Option<IVec>) -> Self {
        Self { tree, key, value }
    }
}

/// What writers tell a backup in progress (see the module's doc).
#[derive(Default)]
pub(crate) struct Tap {
    /// Whether a backup is copying.
    on: RwLock<bool>,
    log: Mutex<Vec<Op>>,
    /// One backup at a time.
    busy: AtomicBool,
}

/// A writer's hold on the tap, for the length of one write.
pub(crate) struct Held<'a> {
    _on: RwLockReadGuard<'a, bool>,
    log: Option<MutexGuard<'a, Vec<Op>>>,
}

impl Tap {
    /// Taken before a write and dropped after it is logged.
    pub(crate) fn hold(&self) -> Held<'_> {
        let on = self.on.read().unwrap_or_else(|e| e.into_inner());
        let log = (*on).then(|| self.log.lock().unwrap_or_else(|e| e.into_inner()));
        Held { _on: on, log }
    }

    fn set(&self, on: bool) {
        *self.on.write().unwrap_or_else(|e| e.into_inner()) = on;
    }

    fn take(&self) -> Vec<Op> {
        std::mem::take(&mut *self.log.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Held<'_> {
    /// Whether this write must be logged.
    pub(crate) fn is_on(&self) -> bool {
        self.log.is_some()
    }

    /// Logs a write that succeeded.
    pub(crate) fn push(&mut self, tree: IVec, key: &[u8], value: Option<IVec>) {
        if let Some(log) = &mut self.log {
            log.push(Op { tree, key: key.to_vec(), value });
        }
    }

    /// Logs the writes of a batch that succeeded.
    pub(crate) fn push_all(&mut self, ops: Option<Vec<Op>>) {
        if let (Some(log), Some(ops)) = (&mut self.log, ops) {
            log.extend(ops);
        }
    }
}

/// What a backup copied: the archive's manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    /// The archive's layout.
    pub format: u32,
    /// The version of pigeon that took it.
    pub version: String,
    /// The cut: the copy is the store as it was then.
    pub taken_at: DateTime<Utc>,
    /// Records copied, all trees.
    pub records: u64,
    /// Records in each tree.
    pub trees: BTreeMap<String, u64>,
}

/// A finished copy, in the data directory until it is dropped.
pub struct Snapshot {
    dir: PathBuf,
    /// What it holds.
    pub manifest: Manifest,
    _busy: Busy,
}

/// Lets the next backup start when the last one's copy is gone.
struct Busy(std::sync::Arc<Tap>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.set(false);
        drop(self.0.take());
        self.0.busy.store(false, Ordering::SeqCst);
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.dir) {
            tracing::warn!(dir = %self.dir.display(), error = %e, "cannot remove a backup's copy");
        }
    }
}

/// Copies the live store `db` into `<dir>/backup.partial` (see the module's doc).
/// The cut's time is read on the store's `clock`.
pub(crate) fn snapshot(
    db: &sled::Db,
    tap: &std::sync::Arc<Tap>,
    dir: &Path,
    clock: &crate::clock::SharedClock,
) -> Result<Snapshot, StoreError> {
    if tap.busy.swap(true, Ordering::SeqCst) {
        return Err(StoreError::BackupBusy);
    }
    let busy = Busy(tap.clone());
    let to = dir.join(COPY_DIR);
    if to.exists() {
        std::fs::remove_dir_all(&to).map_err(io("remove an earlier backup's copy"))?;
    }
    // The directory is removed with the snapshot from here on, whatever fails.
    let mut snap = Snapshot { dir: to, manifest: empty_manifest(clock.now()), _busy: busy };
    let copy = sled::Config::new().path(&snap.dir).create_new(true).open()?;
    tap.set(true);
    for name in db.tree_names() {
        let (src, dst) = (db.open_tree(&name)?, copy.open_tree(&name)?);
        let mut batch = sled::Batch::default();
        let mut n = 0;
        // Up to the last key there was once writes were logged: whatever comes after it is in
        // the log, and a copier that followed the writers' appends might never end.
        let Some((last, _)) = src.last()? else { continue };
        // Read once: cold, so the copy does not push the writers' pages out (vendor/sled/PIGEON.md).
        for kv in src.range_cold::<&[u8], _>(..=last.as_ref()) {
            let (k, v) = kv?;
            batch.insert(k, v);
            n += 1;
            if n == BATCH {
                dst.apply_batch(std::mem::take(&mut batch))?;
                replay(&copy, tap.take())?;
                n = 0;
            }
        }
        dst.apply_batch(batch)?;
        replay(&copy, tap.take())?;
    }
    // The cut: no write is under way while the rest of the log is replayed.
    {
        let mut on = tap.on.write().unwrap_or_else(|e| e.into_inner());
        replay(&copy, tap.take())?;
        snap.manifest.taken_at = clock.now();
        *on = false;
    }
    crate::media::link_all(dir, &snap.dir)?;
    for name in copy.tree_names() {
        let n = copy.open_tree(&name)?.len() as u64;
        if n > 0 {
            snap.manifest.records += n;
            snap.manifest.trees.insert(String::from_utf8_lossy(&name).into_owned(), n);
        }
    }
    copy.flush()?;
    Ok(snap)
}

fn empty_manifest(now: DateTime<Utc>) -> Manifest {
    Manifest {
        format: FORMAT,
        version: env!("CARGO_PKG_VERSION").into(),
        taken_at: now,
        records: 0,
        trees: BTreeMap::new(),
    }
}

/// Applies logged writes to the copy, in their order.
fn replay(copy: &sled::Db, ops: Vec<Op>) -> Result<(), StoreError> {
    let mut open: Option<(IVec, sled::Tree)> = None;
    for op in ops {
        let tree = match &open {
            Some((name, t)) if *name == op.tree => t,
            _ => &open.insert((op.tree.clone(), copy.open_tree(&op.tree)?)).1,
        };
        match op.value {
            Some(v) => tree.insert(op.key, v)?,
            None => tree.remove(op.key)?,
        };
    }
    Ok(())
}

impl Snapshot {
    /// Writes the archive: the copy's files under `data/`, then the manifest.
    pub fn write_archive(&self, out: impl Write) -> std::io::Result<()> {
        let mut tar = tar::Builder::new(out);
        tar.mode(tar::HeaderMode::Deterministic);
        tar.follow_symlinks(false);
        tar.append_dir_all("data", &self.dir)?;
        let manifest = serde_json::to_vec_pretty(&self.manifest).map_err(std::io::Error::other)?;
        let mut header = tar::Header::new_ustar();
        header.set_size(manifest.len() as u64);
        header.set_mode(0o600);
        header.set_mtime(self.manifest.taken_at.timestamp().max(0) as u64);
        tar.append_data(&mut header, MANIFEST, manifest.as_slice())?;
        tar.into_inner()?.flush()
    }
}

/// The manifest of a whole archive: its last entry (an archive without one was cut short).
pub fn manifest_of(archive: impl Read) -> Result<Manifest, StoreError> {
    let mut tar = tar::Archive::new(archive);
    let mut last = None;
    for entry in tar.entries().map_err(unreadable)? {
        let mut entry = entry.map_err(unreadable)?;
        last = if entry.path().map_err(unreadable)?.as_ref() == Path::new(MANIFEST) {
            let m = serde_json::from_reader(&mut entry)
                .map_err(|e| StoreError::Backup(format!("not a pigeon backup: its manifest: {e}")))?;
            Some(m)
        } else {
            None
        };
    }
    last.ok_or_else(|| StoreError::Backup("the archive ends before its manifest: it was cut short".into()))
}

/// What [`restore`] unpacked.
#[derive(Debug)]
pub struct Restored {
    /// The archive's manifest.
    pub manifest: Manifest,
    /// Files written.
    pub files: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// Unpacks a backup archive into `dir`, which must be empty or not yet exist. Every file and
/// directory is synced before it returns; on any failure what was unpacked is removed again.
pub fn restore(archive: impl Read, dir: &Path) -> Result<Restored, StoreError> {
    let made = match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(StoreError::Backup(format!(
                    "{} is not empty: restore into a new or empty directory",
                    dir.display()
                )));
            }
            false
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(io("create the data directory"))?;
            true
        }
        Err(e) => return Err(StoreError::Backup(format!("cannot read {}: {e}", dir.display()))),
    };
    let res = unpack(archive, dir);
    if res.is_err() {
        let _ = if made { std::fs::remove_dir_all(dir) } else { clear(dir) };
    }
    res
}

fn clear(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            std::fs::remove_dir_all(path)?;
        } else {
            std::fs::remove_file(path)?;
        }
    }
    Ok(())
}

fn unpack(archive: impl Read, dir: &Path) -> Result<Restored, StoreError> {
    let bad = |what: String| StoreError::Backup(format!("not a pigeon backup: {what}"));
    let mut tar = tar::Archive::new(archive);
    let (mut files, mut bytes, mut manifest) = (0u64, 0u64, None);
    let mut dirs = vec![dir.to_owned()];
    for entry in tar.entries().map_err(unreadable)? {
        let mut entry = entry.map_err(unreadable)?;
        let path = entry.path().map_err(unreadable)?.into_owned();
        if manifest.is_some() {
            return Err(bad(format!("{} follows the manifest", path.display())));
        }
        if path == Path::new(MANIFEST) {
            let mut text = Vec::new();
            entry.read_to_end(&mut text).map_err(io("read the manifest"))?;
            let m: Manifest = serde_json::from_slice(&text).map_err(|e| bad(format!("its manifest: {e}")))?;
            if m.format != FORMAT {
                return Err(StoreError::Backup(format!(
                    "the backup's format {} is not the {FORMAT} this pigeon reads",
                    m.format
                )));
            }
            manifest = Some(m);
            continue;
        }
        let Ok(rest) = path.strip_prefix("data") else { return Err(bad(format!("{}", path.display()))) };
        if rest.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(bad(format!("the path {}", path.display())));
        }
        let target = dir.join(rest);
        match entry.header().entry_type() {
            tar::EntryType::Directory => {
                std::fs::create_dir_all(&target).map_err(io("create a directory"))?;
                dirs.push(target);
            }
            tar::EntryType::Regular => {
                let mut file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&target)
                    .map_err(io("create a file"))?;
                bytes += std::io::copy(&mut entry, &mut file).map_err(unreadable)?;
                file.sync_all().map_err(io("sync a file"))?;
                files += 1;
            }
            other => return Err(bad(format!("{} is a {other:?}", path.display()))),
        }
    }
    let Some(manifest) = manifest else {
        return Err(bad("it ends before its manifest (cut short?)".into()));
    };
    if !dir.join("db").exists() {
        return Err(bad("it holds no store".into()));
    }
    for d in dirs.iter().rev() {
        std::fs::File::open(d).and_then(|f| f.sync_all()).map_err(io("sync a directory"))?;
    }
    Ok(Restored { manifest, files, bytes })
}

/// A failure to read the archive (tar's reader says "unexpected EOF" in several ways).
fn unreadable(e: std::io::Error) -> StoreError {
    StoreError::Backup(format!("the archive is cut short or damaged: {e}"))
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> StoreError {
    move |e| StoreError::Backup(format!("cannot {what}: {e}"))
}
