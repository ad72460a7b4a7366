//! Whether the store can write, and whether it could again.
//!
//! sled 0.34 keeps the first I/O error of its log writer and fails every later write with it, so
//! one `ENOSPC` ends writing for the life of the open database: freeing space does not help, only
//! opening the store again does. The store records that moment here, once (one warning, not one
//! per request), keeps answering reads from what it holds, and, while writes fail, probes the disk
//! every few seconds. Once there is room again it says so ([`Writable::SpaceBack`]); the server
//! then restarts itself, which reopens the store from what is on disk: what a `kill -9` and a
//! start would find, so nothing acknowledged is lost.
//!
//! The PostgreSQL store follows the same course when a group commit fails (the database went
//! away): from then on every write is refused, none of the writes its commit covered is ever
//! committed (none was acknowledged), and once the database answers again the node restarts and
//! reads everything afresh from it.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Free bytes the disk must have before the store is opened again: enough for sled to start its
/// next log segments and for the node to take traffic for a while, or a quarter of a small disk.
pub const FREE_TO_REOPEN: u64 = 64 * 1024 * 1024;

/// Bytes written and synced by one probe.
const PROBE_BYTES: usize = 1024 * 1024;

/// Where the store stands on writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writable {
    /// Writes succeed.
    Yes,
    /// A write failed (disk full or failing); every write fails until the store is opened again.
    No,
    /// Writes failed, and the disk has room again: open the store again to write.
    SpaceBack,
}

/// A handle on whether the store can write, that does not keep the store open (a watcher can
/// hold it for the life of the process and the store still closes at shutdown).
#[derive(Clone)]
pub struct StoreHealth(pub(crate) std::sync::Arc<Health>);

impl StoreHealth {
    /// See [`Writable`].
    pub fn writable(&self) -> Writable {
        self.0.writable()
    }
}

/// What a probe checks while writes fail.
enum Probe {
    /// sled: room on the disk that holds this directory.
    Disk(PathBuf),
    /// PostgreSQL: that the database answers.
    Database(Box<dyn Fn() -> Result<(), String> + Send + Sync>),
}

/// Shared by the store's trees, its committer and its ticker.
pub(crate) struct Health {
    probe: Probe,
    failed: AtomicBool,
    space_back: AtomicBool,
}

impl Health {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self { probe: Probe::Disk(dir), failed: AtomicBool::new(false), space_back: AtomicBool::new(false) }
    }

    /// The health of a PostgreSQL store; `answers` asks the database.
    pub(crate) fn database(answers: impl Fn() -> Result<(), String> + Send + Sync + 'static) -> Self {
        Self {
            probe: Probe::Database(Box::new(answers)),
            failed: AtomicBool::new(false),
            space_back: AtomicBool::new(false),
        }
    }

    pub(crate) fn writable(&self) -> Writable {
        if !self.failed.load(Ordering::Relaxed) {
            Writable::Yes
        } else if self.space_back.load(Ordering::Relaxed) {
            Writable::SpaceBack
        } else {
            Writable::No
        }
    }

    pub(crate) fn is_failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Records a failed write; the first one is logged, the others are not.
    pub(crate) fn fail(&self, error: &dyn std::fmt::Display) {
        if self.failed.swap(true, Ordering::Relaxed) {
            return;
        }
        match &self.probe {
            Probe::Disk(dir) => tracing::warn!(
                %error,
                dir = %dir.display(),
                "the store cannot write (disk full or failing): writes answer 503 STORAGE_UNAVAILABLE, \
                 reads go on; the node restarts itself once the disk has room again"
            ),
            Probe::Database(_) => tracing::warn!(
                %error,
                "the database cannot commit: writes answer 503 STORAGE_UNAVAILABLE; \
                 the node restarts itself once the database answers again"
            ),
        }
    }

    /// Records a sled error if it is an I/O error (the only kind a full disk makes).
    pub(crate) fn sled(&self, e: &sled::Error) {
        if matches!(e, sled::Error::Io(_)) {
            self.fail(e);
        }
    }

    /// While writes fail: checks whether the disk has room again (free space and a synced write
    /// of a probe file), and remembers the answer.
    pub(crate) fn probe(&self) {
        if !self.is_failed() || self.space_back.load(Ordering::Relaxed) {
            return;
        }
        let dir = match &self.probe {
            Probe::Disk(dir) => dir,
            Probe::Database(answers) => {
                match answers() {
                    Ok(()) => {
                        self.space_back.store(true, Ordering::Relaxed);
                        tracing::warn!("the database answers again: the store can be opened again");
                    }
                    Err(e) => tracing::debug!(error = %e, "the database does not answer yet"),
                }
                return;
            }
        };
        match Self::room(dir) {
            Ok(true) => {
                self.space_back.store(true, Ordering::Relaxed);
                tracing::warn!(dir = %dir.display(), "the disk has room again: the store can be opened again");
            }
            Ok(false) => {}
            Err(e) => tracing::debug!(error = %e, "the disk has no room yet"),
        }
    }

    fn room(dir: &std::path::Path) -> std::io::Result<bool> {
        let fs = rustix::fs::statvfs(dir)?;
        let free = fs.f_bavail.saturating_mul(fs.f_frsize);
        let size = fs.f_blocks.saturating_mul(fs.f_frsize);
        if free < FREE_TO_REOPEN.min(size / 4) {
            return Ok(false);
        }
        let path = dir.join("space-probe");
        let written = std::fs::File::create(&path).and_then(|mut f| {
            f.write_all(&[0u8; PROBE_BYTES])?;
            f.sync_data()
        });
        let _ = std::fs::remove_file(&path);
        written.map(|()| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_failure_is_kept_and_a_disk_with_room_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let h = Health::new(dir.path().to_owned());
        assert_eq!(h.writable(), Writable::Yes);
        h.probe();
        assert_eq!(h.writable(), Writable::Yes, "a healthy store is not probed");
        h.sled(&sled::Error::Unsupported("not an I/O error".into()));
        assert_eq!(h.writable(), Writable::Yes);
        h.sled(&sled::Error::Io(std::io::Error::from_raw_os_error(28)));
        assert_eq!(h.writable(), Writable::No);
        h.probe();
        assert_eq!(h.writable(), Writable::SpaceBack, "the test's disk has room");
        assert!(!dir.path().join("space-probe").exists());
    }
}
