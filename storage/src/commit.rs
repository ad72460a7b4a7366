//! Group commit: one thread flushes the store for every writer that queued since the last flush
//! began: on sled a flush and a sync of its log, on PostgreSQL one transaction of every write made
//! since the last (see `pg.rs`).
//!
//! Why a thread and not a task: sled's flush blocks, and the committer must not depend on which
//! async runtime (actix's per-worker ones, tokio's) the writer happens to run on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use tokio::sync::oneshot;

use crate::blobs::Blobs;
use crate::health::Health;
use crate::StoreError;

type Waiter = oneshot::Sender<Result<(), String>>;

/// The least a flush waits for more writers once writers are seen arriving together.
const LINGER: std::time::Duration = std::time::Duration::from_micros(300);

/// The shortest time between the starts of two flushes while writers arrive together, unless
/// the operator sets another. A flush costs the node ~400 µs of CPU whatever it carries (sled's
/// I/O thread, the sync, waking every writer), and a busy node flushed as soon as the last flush
/// ended: 1,600 flushes a second at 2,000 sends a second. Paced at 1 ms, the node's CPU per
/// message fell by 15–25 % at 2,000 and 6,000 sends a second, for 0.1–0.6 ms more at p50 and
/// at most 1.6 ms more at p99 (docs/lab/2026-11-25-group-commit-pacing.md). A flush that itself
/// took longer than the pace is followed by no more than [`LINGER`]; a lone writer never waits.
pub const DEFAULT_MIN_FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(1);

/// The scheduler slice the committer asks for (the shortest Linux grants; the default is 0.7 ms
/// times 1 + log2 of the cores, 1.4 ms on two). Every 202 waits for the committer to be woken
/// (by a writer, its pace's timer, the disk) several times a flush, and a woken thread with
/// the default slice waits for the threads already queued; asking for a short one puts it ahead.
/// Its CPU share is unchanged. In alternating runs at 8,865 sends a second its time runnable but
/// not running fell from 915–955 to 185–247 ms in every 10 s (docs/lab/
/// 2026-11-30-committer-short-slice-every-aim.md).
const COMMIT_SLICE: std::time::Duration = std::time::Duration::from_micros(100);

/// A flush longer than this counts as slow: it alone uses up the send path's latency budget
/// (issue 6: accept p99 ≤ 5 ms), so slow flushes are what an operator reads a latency tail by.
pub const SLOW_FLUSH: std::time::Duration = std::time::Duration::from_millis(5);

/// A flush longer than this is logged: the disk stalled every writer for that long.
const STALLED_FLUSH: std::time::Duration = std::time::Duration::from_secs(1);

/// Flushes and syncs longer than this are counted apart (`*_over_50ms`): on this VM only a device
/// stall takes so long, and the two counts together say which part stalled.
const LONG: std::time::Duration = std::time::Duration::from_millis(50);
/// And flushes longer than this (`flushes_over_250ms`).
const VERY_LONG: std::time::Duration = std::time::Duration::from_millis(250);

/// How well writes are being batched, and how long the disk kept writers waiting.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CommitStats {
    /// Flushes performed by the committer.
    pub flushes: u64,
    /// Commit requests served by those flushes.
    pub commits: u64,
    /// Time spent in those flushes, microseconds.
    pub flush_micros: u64,
    /// Flushes that took longer than [`SLOW_FLUSH`].
    pub slow_flushes: u64,
    /// Flushes that took longer than 50 ms: a few long stalls and many slow flushes look alike
    /// in the totals above.
    pub flushes_over_50ms: u64,
    /// Flushes that took longer than 250 ms.
    pub flushes_over_250ms: u64,
    /// sled's blob files (records over ~128 KiB) synced after the flush that needed them.
    pub blobs_synced: u64,
    /// Of `flush_micros`, the time in the log's `fdatasync` (the device's cache flush); the rest
    /// is sled writing its buffers and waiting for the disk to complete them.
    pub sync_micros: u64,
    /// Log syncs that took longer than 50 ms: beside `flushes_over_50ms`, they say whether a
    /// stall was the cache flush or the disk completing no write (sled's `sync_file_range`).
    pub syncs_over_50ms: u64,
}

#[derive(Default)]
struct Counters {
    flushes: AtomicU64,
    commits: AtomicU64,
    flush_micros: AtomicU64,
    slow_flushes: AtomicU64,
    over_50ms: AtomicU64,
    over_250ms: AtomicU64,
    blobs_synced: AtomicU64,
    sync_micros: AtomicU64,
    syncs_over_50ms: AtomicU64,
}

pub(crate) struct Committer {
    tx: Option<mpsc::Sender<Waiter>>,
    thread: Option<std::thread::JoinHandle<()>>,
    counters: Arc<Counters>,
    /// The shortest time between two flushes' starts, microseconds (see
    /// [`DEFAULT_MIN_FLUSH_INTERVAL`]); set by the operator after the store opens.
    pace: Arc<AtomicU64>,
}

/// How long a flush waits before it starts, when writers arrived together for the last one: at
/// least [`LINGER`], and until `pace` has passed since the last flush began.
fn wait_before_flush(last_start: std::time::Instant, pace: std::time::Duration) -> std::time::Duration {
    (last_start + pace).saturating_duration_since(std::time::Instant::now()).max(LINGER)
}

/// Makes a finished `sled::Db::flush` durable. sled 0.34.7 flushes with `sync_file_range` on
/// Linux, which neither flushes the device's write cache nor records the file's growth, so a power
/// loss could take writes that were already answered 2xx (its fix, sled PR #1224, is in no
/// release). One `fdatasync` of the log file per flush closes that gap; it is shared by every
/// writer of the group, like the flush.
fn sync_log(log: &std::fs::File) -> Result<(), String> {
    log.sync_data().map_err(|e| format!("fdatasync of the store's log: {e}"))
}

/// What one flush did after sled's part.
#[derive(Default)]
struct Flushed {
    /// Blob files synced.
    blobs: u64,
    /// Time in the log's `fdatasync` (zero on PostgreSQL, whose commit is one step).
    sync: std::time::Duration,
}

/// What a flush makes durable.
pub(crate) enum Flusher {
    /// sled, whose log file is `log` (`<dir>/db`) and whose blob files are `blobs`.
    Sled { db: sled::Db, log: std::fs::File, blobs: Blobs },
    /// A PostgreSQL store's writes not yet committed.
    Pg(Arc<crate::pg::Pg>),
}

impl Flusher {
    /// One durable flush. On sled: sled's flush, then the log's sync, then the blob files it
    /// needed.
    fn flush(&mut self) -> Result<Flushed, String> {
        match self {
            Flusher::Sled { db, log, blobs } => {
                db.flush().map_err(|e| e.to_string())?;
                let started = std::time::Instant::now();
                sync_log(log)?;
                let sync = started.elapsed();
                Ok(Flushed { blobs: blobs.sync()?, sync })
            }
            Flusher::Pg(pg) => pg.flush().map(|()| Flushed::default()),
        }
    }

    /// How long the committer may sit idle before it flushes anyway, for writes no commit
    /// follows (counters, `last_used_at`): sled does that on its own.
    fn idle_flush(&self) -> Option<std::time::Duration> {
        match self {
            Flusher::Sled { .. } => None,
            Flusher::Pg(_) => Some(std::time::Duration::from_millis(500)),
        }
    }
}

impl Committer {
    /// Starts the committer over `flusher`; a failed flush tells `health`. `hold` delays
    /// every flush (crash tests only, see `store/mod.rs`).
    pub(crate) fn start(
        mut flusher: Flusher,
        health: Arc<Health>,
        hold: Option<std::time::Duration>,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel::<Waiter>();
        let counters = Arc::new(Counters::default());
        let c = counters.clone();
        let pace = Arc::new(AtomicU64::new(DEFAULT_MIN_FLUSH_INTERVAL.as_micros() as u64));
        let paced = pace.clone();
        let thread = std::thread::Builder::new().name("pigeon-commit".into()).spawn(move || {
            crate::sched::short_slice(COMMIT_SLICE);
            // Ends when every `Store` clone is gone and the channel closes.
            let mut last_batch = 0;
            // Read only once a flush has run (`last_batch > 1`).
            let mut last_start = std::time::Instant::now();
            let idle = flusher.idle_flush();
            loop {
                let first = match idle {
                    None => match rx.recv() {
                        Ok(w) => Some(w),
                        Err(_) => break,
                    },
                    Some(idle) => match rx.recv_timeout(idle) {
                        Ok(w) => Some(w),
                        Err(mpsc::RecvTimeoutError::Timeout) => None,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    },
                };
                let Some(first) = first else {
                    // Idle: what was written without a commit goes now.
                    if let Err(e) = flusher.flush() {
                        health.fail(&e);
                    }
                    continue;
                };
                let mut batch = vec![first];
                if last_batch > 1 {
                    // Writers are arriving together: let more join this flush. A lone writer
                    // never waits.
                    let pace = std::time::Duration::from_micros(paced.load(Ordering::Relaxed));
                    std::thread::sleep(wait_before_flush(last_start, pace));
                }
                if let Some(hold) = hold {
                    std::thread::sleep(hold);
                }
                batch.extend(rx.try_iter());
                last_batch = batch.len();
                let started = std::time::Instant::now();
                last_start = started;
                let res = flusher.flush().map(|f| {
                    c.blobs_synced.fetch_add(f.blobs, Ordering::Relaxed);
                    c.sync_micros.fetch_add(f.sync.as_micros() as u64, Ordering::Relaxed);
                    if f.sync > LONG {
                        c.syncs_over_50ms.fetch_add(1, Ordering::Relaxed);
                    }
                });
                let took = started.elapsed();
                if let Err(e) = &res {
                    health.fail(e);
                }
                c.flush_micros.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
                if took > SLOW_FLUSH {
                    c.slow_flushes.fetch_add(1, Ordering::Relaxed);
                    if took > LONG {
                        c.over_50ms.fetch_add(1, Ordering::Relaxed);
                    }
                    if took > VERY_LONG {
                        c.over_250ms.fetch_add(1, Ordering::Relaxed);
                    }
                }
                if took > STALLED_FLUSH {
                    tracing::warn!(
                        ms = took.as_millis() as u64,
                        writers = batch.len(),
                        "group commit flush stalled"
                    );
                }
                c.flushes.fetch_add(1, Ordering::Relaxed);
                c.commits.fetch_add(batch.len() as u64, Ordering::Relaxed);
                for w in batch {
                    let _ = w.send(res.clone());
                }
            }
            // Last one out: whatever was written without a commit reaches disk too.
            if let Err(e) = flusher.flush() {
                tracing::error!(error = %e, "final flush failed");
            }
        })?;
        Ok(Self { tx: Some(tx), thread: Some(thread), counters, pace })
    }

    /// Queues a commit now (so it covers every write made before this call) and returns the wait.
    pub(crate) fn commit(
        &self,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send + 'static {
        let (tx, rx) = oneshot::channel();
        let queued = self.tx.as_ref().is_some_and(|q| q.send(tx).is_ok());
        async move {
            if !queued {
                return Err(StoreError::Closed);
            }
            match rx.await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(StoreError::Flush(e)),
                Err(_) => Err(StoreError::Closed),
            }
        }
    }

    /// Sets the shortest time between two flushes' starts while writers arrive together.
    pub(crate) fn set_min_interval(&self, d: std::time::Duration) {
        self.pace.store(d.as_micros().min(u128::from(u64::MAX)) as u64, Ordering::Relaxed);
    }

    pub(crate) fn stats(&self) -> CommitStats {
        CommitStats {
            flushes: self.counters.flushes.load(Ordering::Relaxed),
            commits: self.counters.commits.load(Ordering::Relaxed),
            flush_micros: self.counters.flush_micros.load(Ordering::Relaxed),
            slow_flushes: self.counters.slow_flushes.load(Ordering::Relaxed),
            flushes_over_50ms: self.counters.over_50ms.load(Ordering::Relaxed),
            flushes_over_250ms: self.counters.over_250ms.load(Ordering::Relaxed),
            blobs_synced: self.counters.blobs_synced.load(Ordering::Relaxed),
            sync_micros: self.counters.sync_micros.load(Ordering::Relaxed),
            syncs_over_50ms: self.counters.syncs_over_50ms.load(Ordering::Relaxed),
        }
    }
}

impl Drop for Committer {
    /// Closes the queue and waits for the final flush, so the database is closed (and its lock
    /// released) when the last `Store` handle is gone.
    fn drop(&mut self) {
        drop(self.tx.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::sched::testing::{custom_slices, slice_of};

    #[test]
    fn the_committer_asks_for_the_short_slice() {
        if !custom_slices() {
            eprintln!("skipped: this kernel keeps no custom slice (Linux < 6.12)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let store = crate::Store::open(dir.path()).unwrap();
        let committers = || -> Vec<String> {
            std::fs::read_dir("/proc/self/task")
                .unwrap()
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|t| {
                    std::fs::read_to_string(format!("/proc/self/task/{t}/comm"))
                        .is_ok_and(|c| c.trim() == "pigeon-commit")
                })
                .collect()
        };
        // The thread names itself once it runs, which may be after `open` returns.
        let started = std::time::Instant::now();
        let mut found = committers();
        while found.is_empty() && started.elapsed() < std::time::Duration::from_secs(2) {
            std::thread::sleep(std::time::Duration::from_millis(5));
            found = committers();
        }
        let committers = found;
        assert!(!committers.is_empty(), "no pigeon-commit thread found");
        let want = COMMIT_SLICE.as_nanos() as u64;
        // Other tests' committers come and go, and a new one asks as its first step: wait a little
        // for each, and pass over those that end meanwhile.
        for t in &committers {
            let asked = (0..200).any(|_| {
                let gone = !std::path::Path::new(&format!("/proc/self/task/{t}")).exists();
                gone || slice_of(t) == Some(want) || {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    false
                }
            });
            assert!(asked, "committer {t} kept the slice {:?}", slice_of(t));
        }
        drop(store);
    }
}
