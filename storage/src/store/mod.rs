//! The store: sled opened once, a group committer, and one type per family of trees. Every record
//! a tenant owns is keyed `tenant id (16 bytes) ++ record key`, so a tenant's data is one
//! contiguous range and no lookup can cross tenants by accident; every tenant-owned read takes the
//! tenant id. The global trees are the exception and hold no tenant data: credential and id
//! indexes (credential or id → owner, needed to find a tenant before we know it) and the work
//! lists a restart resumes from (`pending`, `schedule`, `due`; see `worklist.rs` and `mark.rs`
//! for why their young entries live only in memory).

mod campaigns;
mod codec;
mod copy;
mod events;
mod fleet;
mod keys;
mod mark;
mod media;
mod messages;
mod meta;
mod numbers;
mod pages;
mod phones;
mod records;
mod retention;
mod sessions;
mod spans;
mod tenants;
pub(crate) mod tree;
mod values;
mod webhooks;
mod worklist;

use std::path::Path;
use std::sync::Arc;

use ulid::Ulid;

use crate::clock::{Ids, SharedClock, SystemClock};
use crate::commit::{CommitStats, Committer, Flusher};
use crate::health::{Health, StoreHealth, Writable};
use crate::StoreError;
use codec::Codec;
pub(crate) use pages::{page, page_newest};
pub(crate) use values::*;

pub use campaigns::Campaigns;
pub use events::{EventPage, Events};
pub use keys::{KeyLocation, Keys};
pub use media::Media;
pub use messages::{HeldMessage, Messages, PendingWork};
pub use meta::Meta;
pub use numbers::Numbers;
pub use phones::{PhoneLocation, Phones};
pub use records::{Contacts, Indexed, Templates, Unique};
pub use retention::{id_bound, Cursor};
pub use sessions::Sessions;
pub use tenants::{HourCounts, Hourly, Tenants};
pub use webhooks::{DueDelivery, Webhooks};

/// Handle to the store; cheap to clone, shared by every actor.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    engine: tree::Engine,
    /// The sled store's directory (`None` on PostgreSQL).
    dir: Option<std::path::PathBuf>,
    /// What a backup in progress hears of writes (`backup.rs`).
    tap: Arc<crate::backup::Tap>,
    /// Record ids, on the clock the store was opened with (see `clock.rs`).
    ids: Ids,
    /// Writes made through the store's trees (see `tree.rs`).
    writes: Arc<std::sync::atomic::AtomicU64>,
    /// Whether writes succeed (see `health.rs`).
    health: Arc<Health>,
    meta: Meta,
    tenants: Tenants,
    keys: Keys,
    phones: Phones,
    messages: Messages,
    numbers: Numbers,
    webhooks: Webhooks,
    events: Events,
    templates: Templates,
    contacts: Contacts,
    campaigns: Campaigns,
    sessions: Sessions,
    media: Media,
    /// Where media bytes are kept (`crate::media`).
    files: crate::media::Files,
    /// The work lists and the recovery mark, shared with the ticker (a fleet's takeovers scan).
    lists: Arc<mark::Lists>,
    /// Declared before the committer: it stops first, so the final flush covers its writes.
    _ticker: mark::Ticker,
    committer: Committer,
}

/// For crash tests only: `PIGEON_TEST_COMMIT_DELAY_MS` holds every group commit back this long
/// before it flushes and turns sled's own periodic flush off, so nothing reaches the file but
/// through a commit and a `kill -9` lands between a write and its commit every time
/// (`tests/api/crash.rs`). Never for production: every 2xx would wait that long.
fn test_commit_delay() -> Option<std::time::Duration> {
    let ms: u64 = std::env::var("PIGEON_TEST_COMMIT_DELAY_MS").ok()?.parse().ok()?;
    tracing::warn!(ms, "PIGEON_TEST_COMMIT_DELAY_MS is set: every commit waits (crash tests only)");
    Some(std::time::Duration::from_millis(ms))
}

/// sled's page cache, in MiB, unless the operator sets another size. sled counts the cache in
/// on-disk bytes and the process pays about four times that (plus its page table), and its
/// background cleaner fills the cache of an idle node: at 64 MiB a node held 371 MiB after 1M
/// messages and ten idle minutes, at 16 MiB 196 MiB; 8 MiB keeps that under 200 MiB with room to
/// spare and accepted 1M messages as fast (8.5k/s against 7.9k/s at 16 MiB, within noise). Recent
/// records, the ones the send path reads, stay in it; older ones come from the OS's file cache.
pub const DEFAULT_CACHE_MB: u64 = 8;

/// What [`Store::cold_pages`] reports.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ColdPages {
    /// Left to the flusher so far: a count that rises says the OS drops the store's older pages,
    /// so retention and cleaning read them from disk.
    pub deferred: u64,
    /// Of those, the ones the flusher has not moved yet: a backlog that only grows would keep
    /// sled's segments from being freed, and the store from levelling off.
    pub waiting: u64,
}

/// What [`Store::segments`] reports: sled's log segments free, being written, written (over half
/// live) and draining (live pages being moved out so they can be freed), the live bytes of the
/// written ones, and the pages in use (each keeps an entry in memory however cold).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Segments {
    pub free: u64,
    pub active: u64,
    pub inactive: u64,
    pub draining: u64,
    pub live_bytes: u64,
    pub pages: u64,
}

impl Store {
    /// Opens (or creates) the store in `dir` with the default cache and the system clock, and
    /// starts its committer.
    pub fn open(dir: &Path) -> Result<Self, StoreError> {
        Self::open_with(dir, DEFAULT_CACHE_MB, SystemClock::shared())
    }

    /// Opens the store with a page cache of `cache_mb` MiB, making ids and judging ages on
    /// `clock` (the engine's). The cache is most of the server's memory: reads of recent records
    /// (a message's phone and webhook steps) hit it, older ones go to disk.
    pub fn open_with(dir: &Path, cache_mb: u64, clock: SharedClock) -> Result<Self, StoreError> {
        wait_for_lock(dir)?;
        // A backup's copy left by a stop in the middle of one is of no use.
        let copy = dir.join(crate::backup::COPY_DIR);
        if copy.exists() {
            let _ = std::fs::remove_dir_all(&copy);
        }
        let hold = test_commit_delay();
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(cache_mb.max(1) * 1024 * 1024)
            .flush_every_ms(if hold.is_some() { None } else { Some(500) })
            .open()?;
        sync_conf(dir);
        // sled's log; the committer syncs it after every flush (see `commit.rs`).
        let log = std::fs::File::open(dir.join("db"))
            .map_err(|e| StoreError::Flush(format!("cannot open the store's log for syncing: {e}")))?;
        let health = Arc::new(Health::new(dir.to_owned()));
        let flusher = Flusher::Sled { db: db.clone(), log, blobs: crate::blobs::Blobs::new(dir) };
        let files = crate::media::Files::dir(dir)?;
        Self::start(tree::Engine::Sled(db), Some(dir.to_owned()), files, flusher, health, hold, clock)
    }

    /// Opens the store in a PostgreSQL database (see `pg.rs`): connects with a pool of `pool`
    /// connections, brings its schema up to date, and starts the committer, which writes each
    /// group commit as one transaction. Each table's read cache holds a quarter of `cache_mb`.
    /// With `fleet`, the node joins the database's fleet (`pg/fleet.rs`: leases, fencing); without,
    /// it has the database to itself, as it would a sled directory.
    pub fn open_postgres(
        url: &str,
        pool: usize,
        cache_mb: u64,
        clock: SharedClock,
        fleet: Option<crate::pg::FleetConfig>,
    ) -> Result<Self, StoreError> {
        let cache_bytes = (cache_mb.max(1) * 1024 * 1024 / 4) as usize;
        type Lost = std::sync::OnceLock<(std::sync::Weak<crate::pg::Pg>, std::sync::Weak<Health>)>;
        let lost: Arc<Lost> = Arc::default();
        let on_lost = {
            let lost = lost.clone();
            move |e: &StoreError| {
                if let Some((pg, health)) = lost.get() {
                    if let (Some(pg), Some(health)) = (pg.upgrade(), health.upgrade()) {
                        pg.stop_writing();
                        health.fail(e);
                    }
                }
            }
        };
        let pg = crate::pg::Pg::connect(url, pool, cache_bytes, fleet, on_lost)?;
        // The probe must not keep the store open.
        let weak = Arc::downgrade(&pg);
        let health = Arc::new(Health::database(move || match weak.upgrade() {
            Some(pg) => pg.check().map_err(|e| e.to_string()),
            None => Err("the store is closed".into()),
        }));
        let _ = lost.set((Arc::downgrade(&pg), Arc::downgrade(&health)));
        let hold = test_commit_delay();
        let files = crate::media::Files::Db(pg.clone());
        Self::start(tree::Engine::Pg(pg.clone()), None, files, Flusher::Pg(pg), health, hold, clock)
    }

    fn start(
        engine: tree::Engine,
        dir: Option<std::path::PathBuf>,
        files: crate::media::Files,
        flusher: Flusher,
        health: Arc<Health>,
        hold: Option<std::time::Duration>,
        clock: SharedClock,
    ) -> Result<Self, StoreError> {
        let committer = Committer::start(flusher, health.clone(), hold)
            .map_err(|e| StoreError::Flush(format!("cannot start committer: {e}")))?;
        let writes = Arc::default();
        let tap = Arc::default();
        let trees =
            tree::Opener { engine: &engine, writes: &writes, health: &health, clock: &clock, tap: &tap };
        let meta = Meta::open(&trees)?;
        let tenants = Tenants::open(&trees)?;
        let messages = Messages::open(&trees, meta.tree())?;
        let webhooks = Webhooks::open(&trees, meta.tree())?;
        let events = Events::open(&trees, meta.tree())?;
        let media = Media::open(&trees, meta.tree(), clock.now())?;
        let node = match &engine {
            tree::Engine::Pg(pg) => pg.leases().map(|l| l.node_id().to_owned()),
            tree::Engine::Sled(_) => None,
        };
        let lists = mark::Lists {
            meta: meta.tree().clone(),
            mark: mark::mark_key(node.as_deref()),
            pending: messages.pending_list().clone(),
            due: webhooks.due_list().clone(),
            messages: messages.tree().clone(),
            deliveries: webhooks.deliveries_tree().clone(),
            webhooks: webhooks.webhooks_tree().clone(),
            counters: tenants.counters().clone(),
            clock: clock.clone(),
        };
        // A node of a fleet is new each start: its mark is not there yet, so it lists nothing
        // here; it scans each tenant it takes from its previous owner's mark instead (`adopt`).
        let lists = Arc::new(lists);
        let listed = lists.recover()?;
        if listed > 0 {
            tracing::info!(listed, "listed again the work of records made just before the stop");
        }
        let ticker = mark::Ticker::start(lists.clone(), health.clone())
            .map_err(|e| StoreError::Flush(format!("cannot start the mark ticker: {e}")))?;
        Ok(Self {
            inner: Arc::new(Inner {
                meta,
                tenants,
                keys: Keys::open(&trees)?,
                phones: Phones::open(&trees)?,
                messages,
                numbers: Numbers::open(&trees)?,
                webhooks,
                events,
                templates: Templates::open(&trees, "templates", "template_names")?,
                contacts: Contacts::open(&trees, "contacts", "contact_phones")?,
                campaigns: Campaigns::open(&trees)?,
                sessions: Sessions::open(&trees)?,
                media,
                files,
                lists,
                _ticker: ticker,
                ids: Ids::new(clock),
                writes,
                health,
                engine,
                dir,
                tap,
                committer,
            }),
        })
    }

    /// A new record id: a ULID on the store's clock, increasing (see `clock.rs`).
    pub fn new_id(&self) -> Ulid {
        self.inner.ids.next()
    }

    /// The clock the store makes ids and judges ages with.
    pub fn clock(&self) -> &SharedClock {
        self.inner.ids.clock()
    }

    /// Waits until every write made before this call is on disk, sharing the flush with every
    /// other writer waiting at the same time. Call it after the write, before answering 2xx.
    pub fn commit(&self) -> impl std::future::Future<Output = Result<(), StoreError>> + Send + 'static {
        self.inner.committer.commit()
    }

    /// Flushes on the caller's thread without sharing: one flush per call (sled's flush only; the
    /// committer also syncs the log). Only the benchmark uses it, to show what group commit saves.
    pub fn flush_unshared(&self) -> Result<(), StoreError> {
        match &self.inner.engine {
            tree::Engine::Sled(db) => {
                db.flush()?;
            }
            tree::Engine::Pg(pg) => pg.flush().map_err(StoreError::Flush)?,
        }
        Ok(())
    }

    /// Sets the shortest time between the starts of two group-commit flushes while writers
    /// arrive together ([`crate::DEFAULT_MIN_FLUSH_INTERVAL`] until set): longer trades a little
    /// latency for fewer flushes and less CPU; zero flushes again as soon as the last one ended.
    pub fn set_min_flush_interval(&self, d: std::time::Duration) {
        self.inner.committer.set_min_interval(d);
    }

    /// How many flushes served how many commits so far.
    pub fn commit_stats(&self) -> CommitStats {
        self.inner.committer.stats()
    }

    /// True while the database answers reads.
    pub fn is_healthy(&self) -> bool {
        match &self.inner.engine {
            tree::Engine::Sled(_) => self.inner.meta.admin_token_hash().is_ok(),
            // Its reads may all come from memory: ask the database itself.
            tree::Engine::Pg(pg) => pg.check().is_ok(),
        }
    }

    /// Whether writes succeed; after a failed write (a full disk), whether the disk has room
    /// again so that opening the store again would let it write.
    pub fn writable(&self) -> Writable {
        self.inner.health.writable()
    }

    /// The same answer, from a handle that does not keep the store open.
    pub fn health(&self) -> StoreHealth {
        StoreHealth(self.inner.health.clone())
    }

    /// Writes made through the store since it opened: sled inserts and removes, and the writes
    /// of batches and transactions. The send path's cost in writes, read by `/metrics`.
    pub fn writes(&self) -> u64 {
        self.inner.writes.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Pages of sled segments being cleaned that writers left to sled's flusher because their
    /// bytes were not in the OS's page cache (vendor/sled/PIGEON.md, 4); none on PostgreSQL.
    pub fn cold_pages(&self) -> ColdPages {
        match &self.inner.engine {
            tree::Engine::Sled(db) => ColdPages {
                deferred: db.cleaning_left_to_flusher(),
                waiting: db.cleaning_waiting_for_flusher() as u64,
            },
            tree::Engine::Pg(_) => ColdPages::default(),
        }
    }

    /// How sled's log segments stand; all zero on PostgreSQL.
    pub fn segments(&self) -> Segments {
        match &self.inner.engine {
            tree::Engine::Sled(db) => {
                let s = db.segment_summary();
                let [free, active, inactive, draining, pages] =
                    [s.free, s.active, s.inactive, s.draining, db.pages_in_use()].map(|n| n as u64);
                Segments { free, active, inactive, draining, live_bytes: s.live_bytes, pages }
            }
            tree::Engine::Pg(_) => Segments::default(),
        }
    }

    /// Bytes the store takes on disk.
    pub fn size_on_disk(&self) -> u64 {
        match &self.inner.engine {
            tree::Engine::Sled(db) => db.size_on_disk().unwrap_or(0),
            tree::Engine::Pg(pg) => pg.size_on_disk().unwrap_or(0),
        }
    }

    /// Which engine the store is on: `sled` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match &self.inner.engine {
            tree::Engine::Sled(_) => "sled",
            tree::Engine::Pg(_) => "postgres",
        }
    }

    /// The operator token and the demo marker.
    pub fn meta(&self) -> &Meta {
        &self.inner.meta
    }

    /// Tenants and their counters.
    pub fn tenants(&self) -> &Tenants {
        &self.inner.tenants
    }

    /// API keys and their credential index.
    pub fn keys(&self) -> &Keys {
        &self.inner.keys
    }

    /// Phones and their id and agent-token indexes.
    pub fn phones(&self) -> &Phones {
        &self.inner.phones
    }

    /// Messages, the work lists that follow them, recipients and idempotency keys.
    pub fn messages(&self) -> &Messages {
        &self.inner.messages
    }

    /// What is known of numbers: opt-outs and detection answers.
    pub fn numbers(&self) -> &Numbers {
        &self.inner.numbers
    }

    /// Webhooks, their deliveries and the `due` work list.
    pub fn webhooks(&self) -> &Webhooks {
        &self.inner.webhooks
    }

    /// The tenants' event logs.
    pub fn events(&self) -> &Events {
        &self.inner.events
    }

    /// Templates, unique by name.
    pub fn templates(&self) -> &Templates {
        &self.inner.templates
    }

    /// Contacts, unique by phone.
    pub fn contacts(&self) -> &Contacts {
        &self.inner.contacts
    }

    /// Campaigns, their recipient lists and the messages they made.
    pub fn campaigns(&self) -> &Campaigns {
        &self.inner.campaigns
    }

    /// Dashboard sessions.
    pub fn sessions(&self) -> &Sessions {
        &self.inner.sessions
    }

    /// Writes a newly accepted message with what it changes (the recipient's record, the
    /// counters in its tally, the idempotency key). Follow with [`Store::commit`] before
    /// answering 202.
    ///
    /// Hot path, so no sled transaction (each one makes sled write out a buffer of its own): the
    /// writes go in an order where the message record comes last and is the commit point. sled
    /// recovers a prefix of the log, so a crash can leave the side records without the message
    /// (a recipient record, an idempotency key pointing nowhere), never the message without its
    /// `pending` entry. The counters are written back later; the message's tally restores them.
    pub fn accept_message(
        &self,
        m: &crate::model::MessageRecord,
        recipient: Option<(&str, &crate::model::RecipientRecord)>,
        idempotency: Option<(&str, &crate::model::IdempotencyRecord)>,
    ) -> Result<(), StoreError> {
        let accept = || {
            self.inner.tenants.set_counters(m.tenant_id, &m.tally);
            self.inner.messages.accept(m, recipient, idempotency)
        };
        if m.media.is_empty() {
            return accept();
        }
        self.accept_with_media(m, accept)
    }

    /// The messages a campaign made, oldest first.
    pub fn campaign_messages(
        &self,
        tenant: Ulid,
        campaign: Ulid,
    ) -> Result<Vec<crate::model::MessageRecord>, StoreError> {
        let mut out = Vec::new();
        for id in self.inner.campaigns.message_ids(tenant, campaign)? {
            out.extend(self.inner.messages.get(tenant, id)?);
        }
        Ok(out)
    }

    /// Writes a new tenant and its first keys atomically. Follow with [`Store::commit`].
    pub fn create_tenant(
        &self,
        t: &crate::model::TenantRecord,
        keys: &[crate::model::ApiKeyRecord],
    ) -> Result<(), StoreError> {
        self.inner.tenants.create(t, &self.inner.keys, keys)
    }
}

/// How long opening waits for the store's file lock to be free.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Waits a short while until nobody holds the lock sled takes on `<dir>/db`: sled's I/O threads
/// keep a just-closed store's file a moment after its last handle (sled's own tests wait for the
/// lock too), and sled refuses at once. Another process's store is still refused after the wait.
pub(crate) fn wait_for_lock(dir: &Path) -> Result<(), StoreError> {
    use rustix::fs::{flock, FlockOperation};
    let Ok(file) = std::fs::File::open(dir.join("db")) else { return Ok(()) };
    let started = std::time::Instant::now();
    while flock(&file, FlockOperation::NonBlockingLockExclusive).is_err() {
        if started.elapsed() >= LOCK_WAIT {
            return Err(StoreError::InUse { dir: dir.to_owned(), pid: lock_holder(&file) });
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // Closing the file lets go of the lock we took.
    Ok(())
}

/// The pid that holds a `flock` on `file`, from `/proc/locks` (`1: FLOCK ADVISORY WRITE <pid>
/// <major>:<minor>:<inode> 0 EOF`), matched by inode. None off Linux or when not listed.
fn lock_holder(file: &std::fs::File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let inode = file.metadata().ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, id) = (f.get(1)?, f.get(4)?, f.get(5)?);
        let held = id.rsplit(':').next()?.parse::<u64>().ok()?;
        (*kind == "FLOCK" && held == inode).then(|| pid.parse().ok()).flatten()
    })
}

/// sled writes its `conf` file (the settings it opens with) at every open and never syncs it, so
/// after a power cut it was empty (sled warned and wrote it again). Synced once here, with the
/// directory that names it; a failure is logged and changes nothing else.
fn sync_conf(dir: &Path) {
    for path in [dir.join("conf"), dir.to_owned()] {
        if let Err(e) = std::fs::File::open(&path).and_then(|f| f.sync_all()) {
            tracing::warn!(path = %path.display(), error = %e, "cannot sync the store's settings file");
        }
    }
}

/// `tenant ++ rest`: the key of a tenant-owned record.
pub(crate) fn tkey(tenant: Ulid, rest: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(16 + rest.len());
    k.extend_from_slice(&tenant.to_bytes());
    k.extend_from_slice(rest);
    k
}

/// A record's bytes on disk (see `codec.rs`).
pub(crate) fn encode<T: Codec>(v: &T) -> Vec<u8> {
    v.encode()
}

/// A record from its bytes on disk; `tree` names it in the error.
pub(crate) fn decode<T: Codec>(tree: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    T::decode(tree, bytes)
}

/// Every record of one tenant in a tree keyed `tenant ++ id`, in id order.
pub(crate) fn all_of<T: Codec>(
    tree: &tree::Tree,
    name: &'static str,
    tenant: Ulid,
) -> Result<Vec<T>, StoreError> {
    tree.scan_prefix(tenant.to_bytes()).map(|kv| decode(name, &kv?.1)).collect()
}

/// One record of a tenant in a tree keyed `tenant ++ id`.
pub(crate) fn get_of<T: Codec>(
    tree: &impl tree::Records,
    name: &'static str,
    tenant: Ulid,
    id: Ulid,
) -> Result<Option<T>, StoreError> {
    tree.record(&tkey(tenant, &id.to_bytes()))?.map(|v| decode(name, &v)).transpose()
}

#[cfg(test)]
mod tests;
