//! Media files' bytes. They are not records: up to tens of MiB each, written once and never
//! changed, so they stay out of the trees and out of the group commit every send waits on. A
//! sled node keeps each file as `<data dir>/media/<sha256>`; a PostgreSQL store keeps them in
//! the database, in chunks, so every node of a fleet serves them. Files are kept by content: the
//! same bytes uploaded twice are stored once.
//!
//! An upload goes to a spool file first while its hash is taken; only a whole, synced file takes
//! its name, and its record is written after that, so a crash mid-upload leaves at most a spool
//! file (swept at the next open) and no record ever points at a half file.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::pg::Pg;
use crate::StoreError;

/// Bytes read from a file, or from the database, per chunk served.
pub const CHUNK: usize = 256 * 1024;

/// Where a store keeps media bytes.
pub(crate) enum Files {
    /// `<dir>` is `<data dir>/media`; spools go to `<dir>/spool`. The lock keeps a keep of
    /// bytes already there and retention's delete of them apart.
    Dir(PathBuf, std::sync::Mutex<()>),
    /// In the database; spools go to the system's temporary directory.
    Db(Arc<Pg>),
}

/// An upload on its way in: bytes written so far, and their hash. Dropped, it removes its
/// file, whether it was refused, broken off, or already moved to its name.
pub struct Spool {
    out: Option<BufWriter<File>>,
    path: PathBuf,
    hasher: Sha256,
    size: u64,
}

/// A file kept: its hash (lowercase hex) and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// SHA-256, lowercase hex.
    pub sha256: String,
    /// Bytes.
    pub size: u64,
}

impl Spool {
    fn create(path: PathBuf) -> Result<Self, StoreError> {
        let file = File::create(&path).map_err(io("make a spool file"))?;
        Ok(Self { out: Some(BufWriter::with_capacity(CHUNK, file)), path, hasher: Sha256::new(), size: 0 })
    }

    /// Adds bytes to the upload.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        let out = self.out.as_mut().ok_or_else(|| StoreError::Flush("the spool is finished".into()))?;
        out.write_all(bytes).map_err(io("write a spool file"))?;
        self.hasher.update(bytes);
        self.size += bytes.len() as u64;
        Ok(())
    }

    /// Bytes written so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Syncs the spool file; returns its hash.
    fn finish(&mut self) -> Result<Kept, StoreError> {
        let out = self.out.take().ok_or_else(|| StoreError::Flush("the spool is finished".into()))?;
        let file = out.into_inner().map_err(|e| io("write a spool file")(e.into_error()))?;
        file.sync_all().map_err(io("sync a spool file"))?;
        let sha256 = hex::encode(std::mem::take(&mut self.hasher).finalize());
        Ok(Kept { sha256, size: self.size })
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A kept file's bytes, read a chunk at a time.
pub struct Content {
    /// Bytes in all.
    pub size: u64,
    source: Source,
}

enum Source {
    File(File),
    Db { pg: Arc<Pg>, sha256: String, next: i32 },
}

impl Content {
    /// The next chunk; `None` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, StoreError> {
        match &mut self.source {
            Source::File(f) => {
                let mut buf = vec![0; CHUNK];
                let n = read_full(f, &mut buf).map_err(io("read a media file"))?;
                buf.truncate(n);
                Ok((n > 0).then_some(buf))
            }
            Source::Db { pg, sha256, next } => {
                let chunk = pg.media_chunk(sha256, *next)?;
                *next += 1;
                Ok(chunk)
            }
        }
    }
}

/// Reads until `buf` is full or the file ends.
pub(crate) fn read_full(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

impl Files {
    /// The media directory of the sled store in `data`, made (and its name synced) if new, with
    /// the spools of an earlier run removed.
    pub(crate) fn dir(data: &Path) -> Result<Self, StoreError> {
        let dir = data.join("media");
        if !dir.exists() {
            std::fs::create_dir(&dir).map_err(io("make the media directory"))?;
            sync_dir(data)?;
        }
        let spool = dir.join("spool");
        let _ = std::fs::remove_dir_all(&spool);
        std::fs::create_dir(&spool).map_err(io("make the media spool directory"))?;
        Ok(Files::Dir(dir, std::sync::Mutex::new(())))
    }

    /// A new, empty upload.
    pub(crate) fn spool(&self) -> Result<Spool, StoreError> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("{}-{n}.part", std::process::id());
        match self {
            Files::Dir(dir, _) => Spool::create(dir.join("spool").join(name)),
            Files::Db(_) => Spool::create(std::env::temp_dir().join(format!("pigeon-media-{name}"))),
        }
    }

    /// Makes a finished upload durable under its hash; the same bytes kept before are kept once.
    /// Either way the file is marked kept at `now_ms` (the file's mtime, or its row's
    /// `touched_ms`): retention leaves a file kept within [`GRACE_MS`] alone, since its record
    /// is written only after this returns.
    pub(crate) fn keep(&self, mut spool: Spool, now_ms: i64) -> Result<Kept, StoreError> {
        let kept = spool.finish()?;
        match self {
            Files::Dir(dir, lock) => {
                let name = dir.join(&kept.sha256);
                {
                    // Retention must not delete bytes already here between this look and the touch.
                    let _kept = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    if name.exists() {
                        touch(&name, now_ms)?;
                        return Ok(kept);
                    }
                }
                // A new file's mtime is its writing, too recent for retention to take it.
                std::fs::rename(&spool.path, &name).map_err(io("name a media file"))?;
                sync_dir(dir)?;
                touch(&name, now_ms)?;
            }
            Files::Db(pg) => pg.put_media(&kept, &spool.path, now_ms)?,
        }
        Ok(kept)
    }

    /// Up to `max` files, by hash after `after`, last kept before `before_ms`: the ones retention
    /// may delete if no record holds them.
    pub(crate) fn stale(
        &self,
        before_ms: i64,
        after: Option<&str>,
        max: usize,
    ) -> Result<Vec<String>, StoreError> {
        match self {
            Files::Dir(dir, _) => {
                let mut out = Vec::new();
                for entry in std::fs::read_dir(dir).map_err(io("list the media directory"))? {
                    let entry = entry.map_err(io("list the media directory"))?;
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if !is_sha256(&name) || after.is_some_and(|a| name.as_str() <= a) {
                        continue;
                    }
                    let kept_ms = entry.metadata().and_then(|m| m.modified()).map_or(0, ms_of);
                    if kept_ms < before_ms {
                        out.push(name);
                    }
                }
                out.sort();
                out.truncate(max);
                Ok(out)
            }
            Files::Db(pg) => pg.stale_media(before_ms, after.unwrap_or(""), max),
        }
    }

    /// Deletes the file of `sha256` unless it was kept again at `before_ms` or later; whether it went.
    pub(crate) fn remove(&self, sha256: &str, before_ms: i64) -> Result<bool, StoreError> {
        if !is_sha256(sha256) {
            return Ok(false);
        }
        match self {
            Files::Dir(dir, lock) => {
                let _kept = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let name = dir.join(sha256);
                let kept_ms = std::fs::metadata(&name).and_then(|m| m.modified()).map_or(i64::MAX, ms_of);
                if kept_ms >= before_ms {
                    return Ok(false);
                }
                match std::fs::remove_file(&name) {
                    Ok(()) => sync_dir(dir).map(|()| true),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
                    Err(e) => Err(io("delete a media file")(e)),
                }
            }
            Files::Db(pg) => pg.remove_media(sha256, before_ms),
        }
    }

    /// The bytes kept under `sha256`, if they are.
    pub(crate) fn open(&self, sha256: &str, size: u64) -> Result<Option<Content>, StoreError> {
        if !is_sha256(sha256) {
            return Ok(None);
        }
        match self {
            Files::Dir(dir, _) => match File::open(dir.join(sha256)) {
                Ok(f) => Ok(Some(Content { size, source: Source::File(f) })),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(io("open a media file")(e)),
            },
            Files::Db(pg) => Ok(pg.has_media(sha256)?.then(|| Content {
                size,
                source: Source::Db { pg: pg.clone(), sha256: sha256.to_owned(), next: 0 },
            })),
        }
    }
}

/// Hard-links every kept file of the store in `data` into `<to>/media` (spools left out), and
/// syncs that directory: how a compaction's new store and a backup's copy take the files over
/// without copying them. A record's file was kept before the record was written, so a copy of
/// the trees taken before this call finds every file it names.
pub(crate) fn link_all(data: &Path, to: &Path) -> Result<u64, StoreError> {
    let (from, to) = (data.join("media"), to.join("media"));
    let Ok(entries) = std::fs::read_dir(&from) else { return Ok(0) };
    std::fs::create_dir_all(&to).map_err(io("make a media directory"))?;
    let mut n = 0;
    for entry in entries {
        let entry = entry.map_err(io("list the media directory"))?;
        if entry.file_type().map_err(io("list the media directory"))?.is_file() {
            std::fs::hard_link(entry.path(), to.join(entry.file_name())).map_err(io("link a media file"))?;
            n += 1;
        }
    }
    sync_dir(&to)?;
    Ok(n)
}

/// How long after it was last kept a file no record holds stays: an upload's record is written
/// after its file is kept, and in a fleet another node may be between the two.
pub const GRACE_MS: i64 = 10 * 60 * 1000;

/// Whether `name` is a SHA-256 in hex, as files are named.
fn is_sha256(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Marks the file at `path` kept at `now_ms`, in its mtime.
fn touch(path: &Path, now_ms: i64) -> Result<(), StoreError> {
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_millis(now_ms.max(0) as u64);
    File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(at))
        .map_err(io("mark a media file kept"))
}

/// Milliseconds since the Unix epoch of `t`.
pub(crate) fn ms_of(t: std::time::SystemTime) -> i64 {
    t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(io("sync the media directory"))
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> StoreError {
    move |e| StoreError::Flush(format!("cannot {what}: {e}"))
}
