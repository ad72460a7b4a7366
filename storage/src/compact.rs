//! Offline compaction: giving disk back. sled reuses the space deletions free but never shrinks
//! its file, so after retention has deleted much (or a one-off cleanup), the only way to return
//! space to the operating system is to copy the live records into a fresh store. This runs on a
//! stopped node (sled's file lock refuses a store that a server holds).
//!
//! Steps, each safe to crash in: (1) copy every tree into `<dir>.compacting` (a leftover from an
//! earlier attempt is removed first); (2) flush and fsync the copy; (3) swap the two directories
//! in one atomic `renameat2(RENAME_EXCHANGE)`, so `<dir>` is always a whole store, old or new;
//! (4) delete the old one, now at `<dir>.compacting`. A copy that is not smaller (a store with
//! little dead space: a fresh sled file carries its own overhead) is deleted instead, and the
//! old store stays as it was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::StoreError;

/// What a compaction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compacted {
    /// Bytes on disk before.
    pub before: u64,
    /// Bytes of the copy. The store keeps this size only if it `swapped`.
    pub after: u64,
    /// Whether the copy replaced the store (only when it was smaller).
    pub swapped: bool,
    /// Records copied.
    pub records: u64,
    /// How long it took.
    pub took: Duration,
}

/// Records written per sled batch while copying (offline: batches are fine here).
const BATCH: usize = 10_000;

/// Compacts the store in `dir` (see the module docs). The store must not be open elsewhere.
pub fn compact(dir: &Path) -> Result<Compacted, StoreError> {
    let started = Instant::now();
    if !dir.join("db").exists() {
        return Err(StoreError::Compact(format!("{} holds no pigeon store", dir.display())));
    }
    let tmp = sibling(dir, "compacting");
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io("remove a leftover copy"))?;
    }
    crate::store::wait_for_lock(dir)?;
    let records = {
        let old = sled::Config::new().path(dir).open().map_err(|e| {
            StoreError::Compact(format!(
                "cannot open the store (is `pigeon serve` still running on it?): {e}"
            ))
        })?;
        let new = sled::Config::new().path(&tmp).create_new(true).open()?;
        let mut records = 0u64;
        for name in old.tree_names() {
            let (src, dst) = (old.open_tree(&name)?, new.open_tree(&name)?);
            let mut batch = sled::Batch::default();
            let mut n = 0;
            for kv in src.iter() {
                let (k, v) = kv?;
                batch.insert(k, v);
                n += 1;
                if n == BATCH {
                    dst.apply_batch(std::mem::take(&mut batch))?;
                    records += n as u64;
                    n = 0;
                }
            }
            dst.apply_batch(batch)?;
            records += n as u64;
        }
        new.flush()?;
        records
    };
    // Sizes are what `du` counts (blocks allocated) of each store closed after an open (sled's own
    // `size_on_disk` reads a file's length): a reopened sled file fills out its last segment, so
    // the copy is opened once, as the node will open it, before the two are compared.
    crate::store::wait_for_lock(&tmp)?;
    sled::Config::new().path(&tmp).open()?.flush()?;
    crate::store::wait_for_lock(&tmp)?;
    // Media files are not the store's records: they go over as they are and count on neither side.
    let media = allocated(&dir.join("media")).unwrap_or(0);
    let before = allocated(dir).map_err(io("measure the store"))?.saturating_sub(media);
    std::fs::File::open(tmp.join("db")).and_then(|f| f.sync_all()).map_err(io("sync the copy"))?;
    // Its blob files (long texts) and the names of its files, too.
    crate::blobs::Blobs::new(&tmp).sync().map_err(StoreError::Compact)?;
    std::fs::File::open(&tmp).and_then(|d| d.sync_all()).map_err(io("sync the copy's directory"))?;
    let after = allocated(&tmp).map_err(io("measure the copy"))?;
    let swapped = after < before;
    if swapped {
        // The media files go over as links, so the store swapped in holds every file its
        // records name, and no file is ever in only the copy about to be removed.
        crate::media::link_all(dir, &tmp)?;
        swap(dir, &tmp)?;
    }
    std::fs::remove_dir_all(&tmp).map_err(io("remove the store not kept"))?;
    Ok(Compacted { before, after, records, swapped, took: started.elapsed() })
}

/// Bytes allocated to the files under `path`.
fn allocated(path: &Path) -> std::io::Result<u64> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(path)?;
    if !meta.is_dir() {
        return Ok(meta.blocks() * 512);
    }
    std::fs::read_dir(path)?.try_fold(0, |sum, entry| Ok(sum + allocated(&entry?.path())?))
}

/// `<dir>.<ext>`, beside `dir`.
fn sibling(dir: &Path, ext: &str) -> PathBuf {
    let mut name = dir.file_name().map(|n| n.to_os_string()).unwrap_or_else(|| "pigeon-data".into());
    name.push(".");
    name.push(ext);
    dir.with_file_name(name)
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> StoreError {
    move |e| StoreError::Compact(format!("cannot {what}: {e}"))
}

/// Exchanges two directories in one step, so neither name is ever missing.
#[cfg(target_os = "linux")]
fn swap(a: &Path, b: &Path) -> Result<(), StoreError> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)
        .map_err(|e| StoreError::Compact(format!("cannot swap in the compacted store: {e}")))
}

/// Elsewhere: two renames (a crash between them leaves the old store at `<dir>.old`).
#[cfg(not(target_os = "linux"))]
fn swap(a: &Path, b: &Path) -> Result<(), StoreError> {
    let old = sibling(a, "old");
    std::fs::rename(a, &old).map_err(io("move the old store aside"))?;
    std::fs::rename(b, a).map_err(io("move the compacted store in"))?;
    std::fs::rename(&old, b).map_err(io("move the old store away"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{new_id, DetectionRecord};
    use crate::Store;
    use chrono::{Duration, Utc};

    fn opted_out(phone: String) -> crate::model::OptOutRecord {
        let (via, keyword) = (crate::model::OptOutVia::Keyword, Some("STOP".into()));
        crate::model::OptOutRecord { phone, opted_out_at: Some(Utc::now()), via, keyword }
    }

    #[tokio::test]
    async fn compaction_keeps_every_record_and_gives_space_back() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        let t = new_id();
        let sha = "447236e678d419cc6953f61883b8ce84ce77c801f0da65774c2682c5d6350531";
        {
            let s = Store::open(&dir).unwrap();
            let seen = |i: u64, imessage| DetectionRecord {
                imessage,
                checked_at: Utc::now() - Duration::seconds(i as i64),
            };
            for i in 0..20_000u64 {
                s.numbers().put_detection(t, &format!("+1{i:010}"), &seen(i, true)).unwrap();
            }
            s.meta().set_admin_token_hash("abc").unwrap();
            let mut spool = s.media_spool().unwrap();
            spool.write(b"%PDF-1.7 kept by its hash").unwrap();
            assert_eq!(s.keep_media(spool).unwrap().sha256, sha);
            s.commit().await.unwrap();
            // Much more is written and deleted again (as retention does): sled reuses the space
            // but keeps its file. In no order (keys written in order fill their leaves and leave
            // little behind: vendor/sled/PIGEON.md, 11).
            let number = |i: u64| format!("+2{:010}", i * 7_919 % 200_000);
            for i in 0..200_000u64 {
                s.numbers().opt_out(t, &opted_out(number(i))).unwrap();
            }
            s.commit().await.unwrap();
            for i in 0..200_000u64 {
                s.numbers().opt_in(t, &number(i)).unwrap();
            }
            s.commit().await.unwrap();
        }
        let c = compact(&dir).unwrap();
        assert!(c.records >= 20_001, "{c:?}");
        // How much dead space sled keeps depends on how many turns its flusher had to clean
        // meanwhile: 35–37 MB here alone, 22 MB in CI beside other tests; the copy is 11 MB.
        assert!(c.after * 5 < c.before * 4 && c.swapped, "at least a fifth smaller: {c:?}");
        assert!(!sibling(&dir, "compacting").exists(), "the old copy is removed");
        let s = Store::open(&dir).unwrap();
        let imessage = |i: u64| s.numbers().detection(t, &format!("+1{i:010}")).unwrap().map(|d| d.imessage);
        assert_eq!(imessage(19_999), Some(true));
        assert_eq!(imessage(5), Some(true));
        assert_eq!(s.meta().admin_token_hash().unwrap().as_deref(), Some("abc"));
        // Media files are not records: they go over to the compacted store as they are.
        assert_eq!(std::fs::read(dir.join("media").join(sha)).unwrap(), b"%PDF-1.7 kept by its hash");
    }

    #[tokio::test]
    async fn a_copy_that_is_not_smaller_leaves_the_store_as_it_was() {
        use std::os::unix::fs::MetadataExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        let t = new_id();
        {
            let s = Store::open(&dir).unwrap();
            for i in 0..1_000u64 {
                s.numbers().opt_out(t, &opted_out(format!("+1{i:010}"))).unwrap();
            }
            s.commit().await.unwrap();
        }
        // Nothing was deleted, so there is nothing to give back: a copy, once opened, takes a
        // whole log segment (512 KiB), more than this store's file.
        let inode = std::fs::metadata(dir.join("db")).unwrap().ino();
        for _ in 0..2 {
            let c = compact(&dir).unwrap();
            assert!(!c.swapped && c.after >= c.before && c.records >= 1_000, "{c:?}");
            assert_eq!(std::fs::metadata(dir.join("db")).unwrap().ino(), inode, "the same file stays");
            assert!(!sibling(&dir, "compacting").exists(), "the copy is removed");
        }
        let s = Store::open(&dir).unwrap();
        assert!(s.numbers().is_opted_out(t, "+10000000999").unwrap());
        assert!(!s.numbers().is_opted_out(t, "+10000001000").unwrap());
    }

    #[tokio::test]
    async fn a_store_in_use_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        let _open = Store::open(&dir).unwrap();
        let e = compact(&dir).unwrap_err().to_string();
        let me = format!("another pigeon process (pid {}) is using {}", std::process::id(), dir.display());
        assert!(e.starts_with(&me), "{e}");
    }
}
